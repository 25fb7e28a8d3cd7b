//! The evaluation term by term and side by side, for people (`xiangqi eval`): what each
//! feature is worth to Red and to Black. It counts with the same functions as the evaluation,
//! so the sides' differences add up to [`Terms`]' sums exactly (a test checks it); the search
//! never calls it.

use super::evaluator::{
    connected_soldiers, side_attacks, Counts, Evaluator, Mobility, Score, Terms, BLACK, RED,
};
use super::params::Pair;
use xiangqi::{Color, PieceKind, Position, Square};

/// One term for both sides, each as it counts for that side (positive: good for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideTerm {
    /// The term's name, as the weight's in [`super::params::Weights`] where there is one.
    pub name: &'static str,
    /// What it is worth to Red, middlegame and endgame.
    pub red: Pair,
    /// What it is worth to Black.
    pub black: Pair,
}

impl SideTerm {
    /// Red's value less Black's, middlegame and endgame.
    pub fn difference(&self) -> Pair {
        Pair {
            mg: self.red.mg - self.black.mg,
            eg: self.red.eg - self.black.eg,
        }
    }
}

/// Every term of the evaluation of a position for each side, and how they combine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// The terms, in a fixed order: material, piece-square, the mobilities, the general's
    /// safety, threats, soldiers.
    pub terms: Vec<SideTerm>,
    /// How they combine into the score (phase, scale, tempo), as the evaluation has it.
    pub combined: Terms,
}

impl Breakdown {
    /// A term's value blended by the phase, as it counts in the score before scaling:
    /// `(mg · phase + eg · (FULL − phase)) / FULL`, unrounded.
    pub fn blend(&self, value: Pair) -> f64 {
        let phase = f64::from(self.combined.phase);
        let full = f64::from(Terms::FULL_PHASE);
        (f64::from(value.mg) * phase + f64::from(value.eg) * (full - phase)) / full
    }
}

impl Evaluator {
    /// The evaluation of `pos` taken apart by term and by side (see [`Breakdown`]).
    pub fn breakdown(&self, pos: &Position) -> Breakdown {
        let w = &self.weights;
        let (red_map, red_mobility) = side_attacks::<RED>(pos);
        let (black_map, black_mobility) = side_attacks::<BLACK>(pos);
        let maps = [red_map, black_map];
        let mobility = [red_mobility, black_mobility];
        // The general's safety and the threats, each side's counted as its own (sign 1:
        // positive is good for that side).
        let mut safety = [Score::default(); 2];
        let mut threats = [Score::default(); 2];
        let mut counts = [Counts::default(); 2];
        for color in Color::ALL {
            let c = color.index();
            counts[c] = self.general_safety(pos, color, &maps, 1, &mut safety[c]);
            counts[c].connected_soldiers = connected_soldiers(pos, color);
            self.threats(pos, color, &maps, 1, &mut threats[c]);
        }
        let mut terms = Vec::new();
        let mut add = |name: &'static str, value: &dyn Fn(Color) -> Pair| {
            terms.push(SideTerm {
                name,
                red: value(Color::Red),
                black: value(Color::Black),
            });
        };
        let times = |weight: Pair, count: i32| Pair {
            mg: weight.mg * count,
            eg: weight.eg * count,
        };
        // The engine keeps a piece's value and its point's bonus in one table; apart, the
        // base value is the material and the rest the piece-square term.
        let pieces = |color: Color, value: &dyn Fn(PieceKind, Square) -> Pair| {
            let mut sum = Pair { mg: 0, eg: 0 };
            for kind in PieceKind::ALL {
                for &sq in pos.squares(color, kind) {
                    let v = value(kind, sq);
                    sum.mg += v.mg;
                    sum.eg += v.eg;
                }
            }
            sum
        };
        add("material", &|c| {
            pieces(c, &|kind, _| w.material[kind.index()])
        });
        add("piece_square", &|c| {
            pieces(c, &|kind, sq| {
                let with_base = self.piece_square.get(c, kind, sq);
                let base = w.material[kind.index()];
                Pair {
                    mg: with_base.mg - base.mg,
                    eg: with_base.eg - base.eg,
                }
            })
        });
        let moves = |c: Color, count: fn(&Mobility) -> i32| count(&mobility[c.index()]);
        add("chariot_mobility", &|c| {
            times(w.chariot_mobility, moves(c, |m| m.chariot))
        });
        add("horse_mobility", &|c| {
            times(w.horse_mobility, moves(c, |m| m.horse))
        });
        add("horse_trapped", &|c| {
            times(w.horse_trapped, moves(c, |m| m.trapped_horses))
        });
        add("cannon_mobility", &|c| {
            times(w.cannon_mobility, moves(c, |m| m.cannon))
        });
        // Dangers to a side's general are penalties to that side.
        let danger = |c: Color, weight: Pair, count: fn(&Counts) -> i32| {
            times(weight, -count(&counts[c.index()]))
        };
        add("missing_advisor", &|c| {
            danger(c, w.missing_advisor, |k| k.missing_advisor)
        });
        add("missing_elephant", &|c| {
            danger(c, w.missing_elephant, |k| k.missing_elephant)
        });
        add("hollow_cannon", &|c| {
            danger(c, w.hollow_cannon, |k| k.hollow_cannon)
        });
        add("central_cannon", &|c| {
            danger(c, w.central_cannon, |k| k.central_cannon)
        });
        add("chariot_on_general_line", &|c| {
            danger(c, w.chariot_on_general_line, |k| k.chariot_on_general_line)
        });
        add("palace_attack", &|c| {
            danger(c, w.palace_attack, |k| k.palace_attack)
        });
        let score = |s: &Score| Pair { mg: s.mg, eg: s.eg };
        add("king_danger", &|c| score(&safety[c.index()]));
        add("hanging", &|c| score(&threats[c.index()]));
        add("connected_soldiers", &|c| {
            times(w.connected_soldiers, counts[c.index()].connected_soldiers)
        });
        Breakdown {
            terms,
            combined: self.terms(pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::DEFAULT_EVALUATOR;
    use xiangqi::{Color, Position};

    #[test]
    fn the_sides_differences_add_up_to_the_evaluation() {
        let mut checked = 0;
        for (fen, moves) in crate::bench::POSITIONS {
            let mut pos = Position::from_fen(fen).unwrap();
            for text in moves.split_whitespace() {
                let m = xiangqi::parse_move(&pos, text).unwrap();
                pos.make_move(m);
            }
            // The position and every one a move away: all kinds of terms come up.
            let mut positions = vec![pos.clone()];
            for &m in pos.legal_moves().iter() {
                let mut after = pos.clone();
                after.make_move(m);
                positions.push(after);
            }
            for p in positions {
                let breakdown = DEFAULT_EVALUATOR.breakdown(&p);
                let mg: i32 = breakdown.terms.iter().map(|t| t.difference().mg).sum();
                let eg: i32 = breakdown.terms.iter().map(|t| t.difference().eg).sum();
                let terms = DEFAULT_EVALUATOR.terms(&p);
                assert_eq!((mg, eg), (terms.mg, terms.eg), "{}", p.to_fen());
                assert_eq!(breakdown.combined, terms);
                // And combined, they are what the search gets from the evaluation.
                let red = breakdown.combined.red_score();
                let for_side = match p.side_to_move() {
                    Color::Red => red,
                    Color::Black => -red,
                };
                assert_eq!(for_side, DEFAULT_EVALUATOR.evaluate(&p), "{}", p.to_fen());
                checked += 1;
            }
        }
        assert!(checked > 500);
    }

    #[test]
    fn a_term_belongs_to_the_side_it_counts_for() {
        // Black has no advisors, Red has both chariots: Black pays for the missing advisors.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K3R w").unwrap();
        let breakdown = DEFAULT_EVALUATOR.breakdown(&pos);
        let term = |name| *breakdown.terms.iter().find(|t| t.name == name).unwrap();
        let missing = term("missing_advisor");
        assert_eq!(missing.red.mg, 0);
        assert!(missing.black.mg < 0, "{missing:?}");
        let material = term("material");
        assert_eq!(material.red.mg, 2 * 949, "two chariots");
        assert_eq!(material.black.mg, 0);
    }
}
