//! Property tests for the move generator against a slow, obviously-correct reference, and for
//! make/unmake, Zobrist keys and FEN on positions reached by random play.

use proptest::prelude::*;
use std::collections::BTreeSet;
use xiangqi::{Color, Move, Piece, PieceKind, Position, Square, Validation};

const STARTS: [&str; 5] = [
    xiangqi::START_FEN,
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
];

fn sq(file: i8, rank: i8) -> Option<Square> {
    if (0..9).contains(&file) && (0..10).contains(&rank) {
        Square::new(file as u8, rank as u8)
    } else {
        None
    }
}

fn in_palace(color: Color, s: Square) -> bool {
    let r = s.rank();
    (3..=5).contains(&s.file())
        && match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        }
}

fn crossed(color: Color, s: Square) -> bool {
    match color {
        Color::Red => s.rank() >= 5,
        Color::Black => s.rank() <= 4,
    }
}

/// Target squares of the piece on `from` by walking the board point by point (captures of
/// either colour included; the caller drops own-piece targets).
fn slow_targets(pos: &Position, from: Square) -> Vec<Square> {
    let piece = pos.piece_at(from).unwrap();
    let (f, r) = (from.file() as i8, from.rank() as i8);
    let empty = |s: Square| pos.piece_at(s).is_none();
    let mut out = Vec::new();
    match piece.kind {
        PieceKind::Chariot | PieceKind::Cannon => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mut screens = 0;
                let mut k = 1;
                while let Some(s) = sq(f + df * k, r + dr * k) {
                    if piece.kind == PieceKind::Chariot {
                        out.push(s);
                        if !empty(s) {
                            break;
                        }
                    } else if empty(s) {
                        if screens == 0 {
                            out.push(s);
                        }
                    } else {
                        screens += 1;
                        if screens == 2 {
                            out.push(s);
                            break;
                        }
                    }
                    k += 1;
                }
            }
        }
        PieceKind::Horse => {
            for (df, dr) in [
                (1i8, 2i8),
                (-1, 2),
                (1, -2),
                (-1, -2),
                (2, 1),
                (2, -1),
                (-2, 1),
                (-2, -1),
            ] {
                let leg = if df.abs() == 2 {
                    sq(f + df / 2, r)
                } else {
                    sq(f, r + dr / 2)
                };
                if let (Some(leg), Some(to)) = (leg, sq(f + df, r + dr)) {
                    if empty(leg) {
                        out.push(to);
                    }
                }
            }
        }
        PieceKind::Elephant => {
            for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                if let (Some(eye), Some(to)) = (sq(f + df / 2, r + dr / 2), sq(f + df, r + dr)) {
                    if empty(eye) && !crossed(piece.color, to) {
                        out.push(to);
                    }
                }
            }
        }
        PieceKind::Advisor => {
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if let Some(to) = sq(f + df, r + dr) {
                    if in_palace(piece.color, to) {
                        out.push(to);
                    }
                }
            }
        }
        PieceKind::General => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if let Some(to) = sq(f + df, r + dr) {
                    if in_palace(piece.color, to) {
                        out.push(to);
                    }
                }
            }
        }
        PieceKind::Soldier => {
            let forward = if piece.color == Color::Red { 1 } else { -1 };
            out.extend(sq(f, r + forward));
            if crossed(piece.color, from) {
                out.extend(sq(f + 1, r));
                out.extend(sq(f - 1, r));
            }
        }
    }
    out
}

/// Whether `color`'s general is attacked (or faces the other general), by trying every enemy
/// piece's targets.
fn slow_in_check(pos: &Position, color: Color) -> bool {
    let general = Square::all()
        .find(|&s| pos.piece_at(s) == Some(Piece::new(color, PieceKind::General)))
        .unwrap();
    let enemy_general = Square::all()
        .find(|&s| pos.piece_at(s) == Some(Piece::new(color.other(), PieceKind::General)))
        .unwrap();
    if general.file() == enemy_general.file() {
        let (lo, hi) = (
            general.rank().min(enemy_general.rank()),
            general.rank().max(enemy_general.rank()),
        );
        if (lo + 1..hi).all(|r| {
            pos.piece_at(Square::new(general.file(), r).unwrap())
                .is_none()
        }) {
            return true;
        }
    }
    Square::all().any(|s| {
        matches!(pos.piece_at(s), Some(p) if p.color != color)
            && slow_targets(pos, s).contains(&general)
    })
}

/// Legal moves by the slow method: every piece's targets, minus own-piece captures, minus
/// moves after which the mover is in check.
fn slow_legal(pos: &Position) -> BTreeSet<String> {
    let us = pos.side_to_move();
    let mut out = BTreeSet::new();
    for from in Square::all() {
        if !matches!(pos.piece_at(from), Some(p) if p.color == us) {
            continue;
        }
        for to in slow_targets(pos, from) {
            if matches!(pos.piece_at(to), Some(p) if p.color == us) {
                continue;
            }
            let m = Move::new(from, to);
            let mut after = pos.clone();
            after.make_move(m);
            if !slow_in_check(&after, us) {
                out.insert(m.to_string());
            }
        }
    }
    out
}

/// Plays up to `plies` moves chosen by `choices` from start position `start`, checking every
/// position on the way with `check`.
fn walk(start: usize, choices: &[u16], mut check: impl FnMut(&Position)) {
    let mut pos =
        Position::from_fen_with(STARTS[start % STARTS.len()], Validation::Lenient).unwrap();
    for &choice in choices {
        check(&pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[choice as usize % moves.len()];
        pos.make_move(m);
    }
    check(&pos);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn generator_matches_reference(start in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        walk(start, &choices, |pos| {
            let fast: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            assert_eq!(fast, slow_legal(pos), "{}", pos.to_fen());
            let captures: BTreeSet<String> = pos.legal_captures().iter().map(|m| m.to_string()).collect();
            let expected: BTreeSet<String> = pos.legal_moves().iter().filter(|m| pos.piece_at(m.to()).is_some()).map(|m| m.to_string()).collect();
            assert_eq!(captures, expected, "{}", pos.to_fen());
            let quiets: BTreeSet<String> = pos.legal_quiets().iter().map(|m| m.to_string()).collect();
            let expected: BTreeSet<String> = pos.legal_moves().iter().filter(|m| pos.piece_at(m.to()).is_none()).map(|m| m.to_string()).collect();
            assert_eq!(quiets, expected, "{}", pos.to_fen());
            assert_eq!(pos.count_legal_moves(), fast.len());
            assert_eq!(pos.in_check(), slow_in_check(pos, pos.side_to_move()));
        });
    }

    #[test]
    fn is_legal_agrees_with_generation(start in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..80)) {
        walk(start, &choices, |pos| {
            let legal = pos.legal_moves();
            for from in Square::all() {
                for to in Square::all() {
                    let m = Move::new(from, to);
                    assert_eq!(pos.is_legal(m), legal.contains(m), "{m} in {}", pos.to_fen());
                }
            }
        });
    }

    #[test]
    fn make_unmake_restores_and_keys_stay_exact(start in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..150)) {
        walk(start, &choices, |pos| {
            assert_eq!(pos.key(), pos.compute_key());
            let mut p = pos.clone();
            for &m in pos.legal_moves().iter() {
                let predicted = p.key_after(m);
                let undo = p.make_move(m);
                assert_eq!(p.key(), p.compute_key(), "after {m}");
                assert_eq!(p.key(), predicted, "key_after({m})");
                for color in [Color::Red, Color::Black] {
                    for kind in PieceKind::ALL {
                        assert_eq!(p.count(color, kind), p.pieces(color, kind).count(), "after {m}");
                        let walked: Vec<Square> = p.pieces(color, kind).into_iter().collect();
                        assert_eq!(p.squares(color, kind), &walked[..], "after {m}");
                    }
                }
                // The fast check test assumes the mover was not giving check already.
                if !pos.is_in_check(pos.side_to_move().other()) {
                    assert_eq!(p.in_check_after(m), p.in_check(), "after {m} in {}", pos.to_fen());
                }
                p.unmake_move(m, undo);
                assert_eq!(&p, pos);
                assert_eq!(p.key(), pos.key());
                for color in [Color::Red, Color::Black] {
                    for kind in PieceKind::ALL {
                        assert_eq!(p.squares(color, kind), pos.squares(color, kind), "after {m}");
                    }
                }
            }
            let undo = p.make_null();
            p.unmake_null(undo);
            assert_eq!(&p, pos);
        });
    }

    #[test]
    fn fen_round_trips(start in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..150)) {
        walk(start, &choices, |pos| {
            let fen = pos.to_fen();
            let back = Position::from_fen_with(&fen, Validation::Lenient).unwrap();
            assert_eq!(&back, pos);
            assert_eq!(back.key(), pos.key());
            assert_eq!(back.to_fen(), fen);
        });
    }

    #[test]
    fn attackers_match_reference(start in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..100)) {
        walk(start, &choices, |pos| {
            // Attacks matter on occupied points (captures, recaptures, protection).
            for sq in Square::all().filter(|&s| pos.piece_at(s).is_some()) {
                for by in [Color::Red, Color::Black] {
                    let fast: BTreeSet<String> = pos.attackers(sq, by).map(|s| s.to_string()).collect();
                    let slow: BTreeSet<String> = Square::all()
                        .filter(|&from| matches!(pos.piece_at(from), Some(p) if p.color == by))
                        .filter(|&from| {
                            let general_faces = from != sq && pos.piece_at(from).map(|p| p.kind) == Some(PieceKind::General)
                                && pos.piece_at(sq).map(|p| p.kind) == Some(PieceKind::General)
                                && from.file() == sq.file()
                                && {
                                    let (lo, hi) = (from.rank().min(sq.rank()), from.rank().max(sq.rank()));
                                    (lo + 1..hi).all(|r| pos.piece_at(Square::new(sq.file(), r).unwrap()).is_none())
                                };
                            general_faces || slow_targets(pos, from).contains(&sq)
                        })
                        .map(|s| s.to_string())
                        .collect();
                    assert_eq!(fast, slow, "attackers of {sq} by {by} in {}", pos.to_fen());
                }
            }
        });
    }

    #[test]
    fn cheapest_attacker_is_the_cheapest_of_the_attackers(
        start in 0usize..5,
        choices in prop::collection::vec(any::<u16>(), 0..100),
        used_up in prop::collection::vec(any::<u8>(), 0..4),
    ) {
        // Cheapest first, as an exchange recaptures.
        const BY_VALUE: [PieceKind; 7] = [
            PieceKind::Soldier,
            PieceKind::Advisor,
            PieceKind::Elephant,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Chariot,
            PieceKind::General,
        ];
        walk(start, &choices, |pos| {
            let pieces: Vec<Square> = pos.occupied().collect();
            for sq in Square::all().filter(|&s| pos.piece_at(s).is_some()) {
                // Move a few pieces onto `sq` as an exchange does with those it used up.
                let occ = used_up
                    .iter()
                    .map(|&i| pieces[i as usize % pieces.len()])
                    .filter(|&from| from != sq)
                    .fold(pos.occupancy(), |occ, from| occ.after_move(from, sq));
                for by in [Color::Red, Color::Black] {
                    let all = pos.attackers_with(sq, by, occ);
                    let expected = BY_VALUE
                        .iter()
                        .find_map(|&kind| (all & pos.kind_bb(kind)).first().map(|s| (s, kind)));
                    assert_eq!(pos.cheapest_attacker(sq, by, occ), expected,
                        "cheapest attacker of {sq} by {by} in {}", pos.to_fen());
                }
            }
        });
    }

    #[test]
    fn fen_parser_never_panics(text in "[rnbakcpRNBAKCPEHeh0-9/ wbr-]{0,100}") {
        let _ = Position::from_fen(&text);
        let _ = Position::from_fen_with(&text, Validation::Lenient);
    }
}
