//! Root moves that threaten mate: a quiet move after which passing would let the mover mate at
//! once. A reduced search of such a move is too shallow to see the threat carried out (the
//! opponent's next node stands pat over it, reverse futility), so at the root it can hide a
//! short mate for many iterations (docs/STRENGTH.md, "A root move that threatens mate").

use xiangqi::{Move, Position};

/// More root moves than this threatening mate, and none is news: the opponent's general is
/// caught in a net that most moves keep (two cannons against a general and its four guards:
/// 12 of their 22 moves threaten a mate of the two cannons in line), so the root treats none
/// of them apart.
const MAX_ROOT_THREATS: usize = 3;

/// For each of the root moves `moves` of `pos`, whether the root should treat it as a threat of
/// mate ([`threatens_mate_in_one`]; none when more than [`MAX_ROOT_THREATS`] are).
pub(super) fn root_threats(pos: &mut Position, moves: &[Move]) -> Vec<bool> {
    let mut threats: Vec<bool> = moves
        .iter()
        .map(|&m| threatens_mate_in_one(pos, m))
        .collect();
    if threats.iter().filter(|&&t| t).count() > MAX_ROOT_THREATS {
        threats.fill(false);
    }
    threats
}

/// Whether `m`, a legal move of the side to move in `pos`, threatens mate in one: it gives no
/// check, and were the opponent to pass, some move of ours would leave it without a legal
/// move. Only checking replies are tried: a stalemate without check is rare enough to leave.
pub(super) fn threatens_mate_in_one(pos: &mut Position, m: Move) -> bool {
    let undo = pos.make_move(m);
    let threat = !pos.in_check_after(m) && {
        let pass = pos.make_null();
        let mates = mates_in_one(pos);
        pos.unmake_null(pass);
        mates
    };
    pos.unmake_move(m, undo);
    threat
}

/// Whether the side to move has a checking move that leaves the opponent no legal move.
fn mates_in_one(pos: &mut Position) -> bool {
    pos.legal_moves().iter().any(|&reply| {
        let undo = pos.make_move(reply);
        let mate = pos.in_check_after(reply) && pos.has_no_legal_move();
        pos.unmake_move(reply, undo);
        mate
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threat(fen: &str, mv: &str) -> bool {
        let mut pos = Position::from_fen(fen).unwrap();
        let m = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == mv)
            .unwrap();
        threatens_mate_in_one(&mut pos, m)
    }

    /// The game mate `B6-fd5ab1d0b1` of the mate suite: the black chariot's quiet move to h8
    /// threatens Rh0 mate (the chariot on f1 holds e1); its other moves threaten nothing.
    #[test]
    fn a_quiet_move_that_threatens_mate_in_one() {
        let fen = "2RakabC1/3r5/5c3/4p3p/p1P2n3/4R3P/P3P4/2N1B4/5r3/2BAK4 b - - 0 1";
        assert!(threat(fen, "d8h8"));
        assert!(!threat(fen, "d8d7"));
        assert!(!threat(fen, "a5a4"));
    }

    /// Two cannons against a general and its guards: most of their moves threaten mate, so the
    /// root takes none of them for a threat; in the game mate, with few threats, it does.
    #[test]
    fn a_net_that_most_moves_keep_is_no_news() {
        let fen = "2bakab2/9/9/9/9/9/9/9/1C2C4/2BAKAB2 w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let each = moves
            .iter()
            .filter(|&&m| threatens_mate_in_one(&mut pos, m))
            .count();
        assert!(each > MAX_ROOT_THREATS, "{each} moves threaten mate");
        assert!(root_threats(&mut pos, &moves).iter().all(|&t| !t));

        let fen = "2RakabC1/3r5/5c3/4p3p/p1P2n3/4R3P/P3P4/2N1B4/5r3/2BAK4 b - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let threats = root_threats(&mut pos, &moves);
        let marked: Vec<String> = moves
            .iter()
            .zip(&threats)
            .filter(|(_, &t)| t)
            .map(|(m, _)| m.to_string())
            .collect();
        assert!(marked.contains(&"d8h8".to_string()), "{marked:?}");
        assert!(marked.len() <= MAX_ROOT_THREATS, "{marked:?}");
    }

    /// A check is no threat: it is searched unreduced as a check already.
    #[test]
    fn a_check_is_not_a_threat() {
        let fen = "2RakabC1/3r5/5c3/4p3p/p1P2n3/4R3P/P3P4/2N1B4/5r3/2BAK4 b - - 0 1";
        assert!(!threat(fen, "f1f0"));
    }
}
