//! Static exchange evaluation: the material result of the capture sequence on one point when
//! both sides always recapture with their cheapest piece and may stop when it stops paying.

use xiangqi::attacks::Occupancy;
use xiangqi::{Color, Move, PieceKind, Position, Square};

/// Exchange values of the kinds (the general is worth more than anything it could win).
pub const SEE_VALUE: [i32; 7] = [5000, 200, 200, 400, 900, 450, 100];

fn value_on(pos: &Position, sq: xiangqi::Square) -> i32 {
    pos.piece_at(sq).map_or(0, |p| SEE_VALUE[p.kind.index()])
}

/// The piece `side` recaptures on `to` with: its cheapest attacker among the pieces left in
/// `occ`, unless that is the general and the point is still defended (it may not capture
/// into check), which ends the exchange.
#[inline]
fn next_capturer(
    pos: &Position,
    to: Square,
    side: Color,
    occ: Occupancy,
) -> Option<(Square, PieceKind)> {
    let (sq, kind) = pos.cheapest_attacker(to, side, occ)?;
    let into_check = kind == PieceKind::General
        && pos
            .attackers_with(to, side.other(), occ.after_move(sq, to))
            .any();
    (!into_check).then_some((sq, kind))
}

/// The expected material gain of `m` for the side to move: the whole exchange (the tests
/// hold the search's threshold test against it; the puzzle tagger counts material with it).
pub fn see(pos: &Position, m: Move) -> i32 {
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else {
        return 0;
    };
    let mut gains = [0i32; 40];
    gains[0] = value_on(pos, to);
    let mut on_square = SEE_VALUE[mover.kind.index()];
    // Each capture moves its piece onto `to`: pieces used up drop out of the occupancy, and
    // attackers are only looked for among occupied points.
    let mut occ = pos.occupancy().after_move(from, to);
    let mut side = mover.color.other();
    let mut depth = 0;
    while let Some((sq, kind)) = next_capturer(pos, to, side, occ) {
        depth += 1;
        if depth >= gains.len() {
            break;
        }
        gains[depth] = on_square - gains[depth - 1];
        if gains[depth].max(-gains[depth - 1]) < 0 {
            // `side` ends behind whether it captures or not: the sign of the result is
            // settled, so the exchange is cut short here (as if nothing recaptured).
            break;
        }
        on_square = SEE_VALUE[kind.index()];
        occ = occ.after_move(sq, to);
        side = side.other();
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// Whether `see(pos, m) >= threshold`, worked out with as few captures as that needs: the
/// exchange stops as soon as the side to move cannot fall below (or the other side cannot
/// bring it below) the threshold, which is what the search asks.
pub fn see_at_least(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else {
        return 0 >= threshold;
    };
    // `balance` is what the side that just captured stands to keep beyond the threshold if
    // the exchange stopped now; `at_risk` what it stands to lose if it does not.
    let balance = value_on(pos, to) - threshold;
    if balance < 0 {
        return false;
    }
    let mut at_risk = SEE_VALUE[mover.kind.index()] - balance;
    if at_risk <= 0 {
        return true;
    }
    let mut occ = pos.occupancy().after_move(from, to);
    let mut side = mover.color.other();
    // Whether the exchange so far ends at or above the threshold, should nobody capture on.
    let mut reached = true;
    // The last two entries of `see`'s gain list, to cut the exchange short where it does.
    let mut gain = value_on(pos, to);
    let mut on_square = SEE_VALUE[mover.kind.index()];
    while let Some((sq, kind)) = next_capturer(pos, to, side, occ) {
        // `side` captures: the roles swap.
        reached = !reached;
        at_risk = SEE_VALUE[kind.index()] - at_risk;
        if at_risk < reached as i32 {
            // Even losing the capturing piece leaves `side` where it wants to be.
            break;
        }
        let next_gain = on_square - gain;
        if next_gain.max(-gain) < 0 {
            // Where `see` cuts the exchange short, this capture is the last.
            break;
        }
        (gain, on_square) = (next_gain, SEE_VALUE[kind.index()]);
        occ = occ.after_move(sq, to);
        side = side.other();
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    /// `see_at_least` answers exactly as `see` compared with the threshold, for every move of
    /// positions reached by random play from varied starts.
    #[test]
    fn threshold_test_agrees_with_the_full_exchange() {
        let fens = [
            xiangqi::START_FEN,
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "2bak4/4a4/4b4/4C4/2p1c4/9/9/4B4/3RA4/4K4 w - - 0 1",
        ];
        let thresholds = [
            -1000, -600, -240, -120, -1, 0, 1, 50, 100, 200, 400, 900, 5000,
        ];
        let mut rng = Rng::new(7);
        let mut checked = 0;
        for fen in fens {
            for _game in 0..20 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ply in 0..60 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in moves.iter() {
                        let full = see(&pos, m);
                        for t in thresholds {
                            assert_eq!(
                                see_at_least(&pos, m, t),
                                full >= t,
                                "{} {m} threshold {t}: see {full}",
                                pos.to_fen()
                            );
                            checked += 1;
                        }
                    }
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    pos.make_move(m);
                }
            }
        }
        assert!(checked > 1_000_000, "{checked}");
    }

    fn see_of(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = Move::new(mv[..2].parse().unwrap(), mv[2..].parse().unwrap());
        assert!(pos.is_legal(m));
        see(&pos, m)
    }

    #[test]
    fn simple_exchanges() {
        // Chariot takes an undefended horse.
        assert_eq!(see_of("4k4/9/9/9/4n4/9/9/9/9/R3K4 w", "a0a5"), 0);
        assert_eq!(see_of("3k5/9/9/9/n8/9/9/9/9/R3K4 w", "a0a5"), 400);
        // Chariot takes a horse defended by a soldier: 400 - 900.
        assert_eq!(see_of("3k5/9/9/p8/n8/9/9/9/9/R3K4 w", "a0a5"), -500);
        // Cannon takes with a screen; the recapture by the chariot behind is counted.
        assert_eq!(see_of("r2k5/9/9/9/n8/9/P8/9/9/C3K4 w", "a0a5"), -50);
    }
}
