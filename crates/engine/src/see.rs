//! Static exchange evaluation: the material result of the capture sequence on one point when
//! both sides always recapture with their cheapest piece and may stop when it stops paying.

use xiangqi::{Move, PieceKind, Position};

/// Exchange values of the kinds (the general is worth more than anything it could win).
pub const SEE_VALUE: [i32; 7] = [5000, 200, 200, 400, 900, 450, 100];

fn value_on(pos: &Position, sq: xiangqi::Square) -> i32 {
    pos.piece_at(sq).map_or(0, |p| SEE_VALUE[p.kind.index()])
}

/// The expected material gain of `m` for the side to move.
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
    while let Some((sq, kind)) = pos.cheapest_attacker(to, side, occ) {
        if kind == PieceKind::General
            && pos
                .attackers_with(to, side.other(), occ.after_move(sq, to))
                .any()
        {
            // The general may not capture into a defended point.
            break;
        }
        depth += 1;
        if depth >= gains.len() {
            break;
        }
        gains[depth] = on_square - gains[depth - 1];
        if gains[depth].max(-gains[depth - 1]) < 0 {
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

#[cfg(test)]
mod tests {
    use super::*;

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
