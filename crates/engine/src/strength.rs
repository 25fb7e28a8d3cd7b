//! Weakened play for people: difficulty levels 1–10 and the `UCI_Elo` scale.
//!
//! A level weakens the engine the way a weaker player is weaker, not by throwing in random
//! moves: it thinks less (a node budget, or a depth limit at the bottom), and it picks among the
//! few best moves of its search with a softmax whose temperature falls as the level rises. A
//! move that loses more than the level's `max_loss` against the best one is never chosen, so
//! the upper levels do not blunder absurdly; the lower ones still miss what their short search
//! does not see, which is what a beginner can exploit. Level 10 is the full engine.
//!
//! Levels in between are interpolated (node budgets geometrically, temperatures linearly), so
//! `UCI_Elo` can ask for any strength on the calibrated scale, not only ten steps.

use crate::random::Rng;
use crate::score::MATE_BOUND;
use xiangqi::Move;

/// The weakest and strongest level.
pub const MIN_LEVEL: u8 = 1;
/// The full engine.
pub const MAX_LEVEL: u8 = 10;

/// How one weakened level searches and chooses. Level 10 is not described by one: it is the
/// engine without a [`Strength`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Node budget per move (`None`: limited by `depth` only).
    pub nodes: Option<u64>,
    /// Depth limit per move (`None`: limited by `nodes` only).
    pub depth: Option<u32>,
    /// How many of the best moves are candidates (searched as MultiPV lines).
    pub candidates: usize,
    /// Softmax temperature in centi-soldiers: a move `t` worse than the best is chosen `e`
    /// times less often.
    pub temperature: f64,
    /// Candidates more than this below the best are never chosen.
    pub max_loss: i32,
}

/// The profiles of levels 1–9, weakest first. Level 10 is the unrestricted engine.
///
/// Level 1 sees one ply and captures (it takes hanging pieces but walks into forks and
/// cannon attacks); each step up roughly doubles the search and narrows the choice. Level 4's
/// 2,048 nodes are what its calibrated 1,500 searched while node limits were looked at every
/// 1,024 nodes; the other budgets were searched at most 2.4 % past.
pub const PROFILES: [Profile; 9] = [
    profile(None, Some(1), 10, 250.0, 1500),
    profile(None, Some(1), 6, 110.0, 600),
    profile(None, Some(2), 6, 120.0, 600),
    profile(Some(2_048), None, 5, 60.0, 350),
    profile(Some(3_000), None, 5, 45.0, 250),
    profile(Some(6_000), None, 4, 35.0, 180),
    profile(Some(15_000), None, 4, 25.0, 120),
    profile(Some(40_000), None, 3, 15.0, 70),
    profile(Some(120_000), None, 3, 8.0, 35),
];

const fn profile(
    nodes: Option<u64>,
    depth: Option<u32>,
    candidates: usize,
    temperature: f64,
    max_loss: i32,
) -> Profile {
    Profile {
        nodes,
        depth,
        candidates,
        temperature,
        max_loss,
    }
}

/// Calibrated Elo of levels 1–10, from docs/STRENGTH.md: matches between neighbouring levels
/// and against Fairy-Stockfish limited by its own `UCI_Elo` (800, 1900, 2200 and 2500), fitted
/// together by weighted least squares, then raised by what each level gained when the
/// evaluation and move order improved (the same level of the new build against the old one).
/// The scale is therefore Fairy-Stockfish's `UCI_Elo` scale; level 10 was measured at 400,000
/// nodes per move (more time makes it stronger still).
pub const LEVEL_ELO: [i32; 10] = [980, 1260, 1530, 1750, 1880, 2150, 2470, 2810, 3030, 3500];

/// Estimated Elo of level 10, the full engine, with the built-in network: the table's 3500 was
/// measured with the hand-made evaluation, and generation 2's network beat that engine by +301.3 ±
/// 60.4 at 100 ms a move (docs/NNUE.md); generation 3 beat generation 2 by +61.8 ± 47.4 head to
/// head but not the hand-made evaluation by more (+269.4 ± 85.9 in 100 games), generation 4 beat
/// generation 3 by +53.1 ± 41.4 head to head and the hand-made evaluation by +363.2 ± 111.8 (100
/// games), and generation 5, built in now, beat generation 4 by +103.5 ± 68.3 head to head and
/// the hand-made evaluation by +346.1 ± 125.6 (100 games), within the error bar of 3800, so 3800
/// stays. [`LEVEL_ELO`] keeps 3500, as the interpolation between level 9 and the full engine
/// (with the hand-made evaluation, as every weakened level) was calibrated with it.
pub const FULL_ENGINE_ELO: i32 = 3800;

/// The lowest `UCI_Elo` accepted.
pub const MIN_ELO: i32 = LEVEL_ELO[0];
/// The highest `UCI_Elo` accepted (the full engine).
pub const MAX_ELO: i32 = LEVEL_ELO[9];

/// A weakened engine: a point on the level scale, possibly between two levels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Level from 1.0 to 10.0; fractions interpolate between neighbouring levels.
    level: f64,
}

impl Strength {
    /// Level `level` (clamped to 1–10).
    pub fn level(level: u8) -> Strength {
        Strength {
            level: f64::from(level.clamp(MIN_LEVEL, MAX_LEVEL)),
        }
    }

    /// The strength that the calibration table puts at `elo` (clamped to the table's range).
    pub fn elo(elo: i32) -> Strength {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let mut level = f64::from(MAX_LEVEL);
        for (i, pair) in LEVEL_ELO.windows(2).enumerate() {
            if elo <= pair[1] {
                let span = f64::from((pair[1] - pair[0]).max(1));
                level = 1.0 + i as f64 + f64::from(elo - pair[0]) / span;
                break;
            }
        }
        Strength { level }
    }

    /// The level on the 1–10 scale (fractional between levels).
    pub fn level_value(&self) -> f64 {
        self.level
    }

    /// Whether this is the full engine (no weakening at all).
    pub fn is_full(&self) -> bool {
        self.level >= f64::from(MAX_LEVEL)
    }

    /// How this strength searches and chooses, or `None` for the full engine.
    pub fn profile(&self) -> Option<Profile> {
        if self.is_full() {
            return None;
        }
        let below = (self.level.floor() as usize).clamp(1, 9);
        let fraction = self.level - below as f64;
        let low = PROFILES[below - 1];
        if fraction <= 0.0 {
            return Some(low);
        }
        // Between level 9 and the full engine, keep level 9's shape with a growing budget.
        let high = PROFILES.get(below).copied().unwrap_or(Profile {
            nodes: low.nodes.map(|n| n * 4),
            depth: None,
            candidates: 1,
            temperature: 0.0,
            max_loss: 0,
        });
        // Depth-limited levels cannot be blended: take the nearer one whole.
        let (Some(low_nodes), Some(high_nodes)) = (low.nodes, high.nodes) else {
            return Some(if fraction < 0.5 { low } else { high });
        };
        let lerp = |a: f64, b: f64| a + (b - a) * fraction;
        let nodes = (low_nodes as f64).powf(1.0 - fraction) * (high_nodes as f64).powf(fraction);
        Some(Profile {
            nodes: Some(nodes.round() as u64),
            depth: None,
            candidates: if fraction >= 0.5 {
                high.candidates.max(1)
            } else {
                low.candidates
            },
            temperature: lerp(low.temperature, high.temperature),
            max_loss: lerp(f64::from(low.max_loss), f64::from(high.max_loss)).round() as i32,
        })
    }
}

/// One candidate move and its search score (for the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Its score.
    pub score: i32,
}

/// Picks a move among `candidates` (best first or in any order) as `profile` prescribes.
/// A forced mate found by the search is always played. Returns `None` only when there are no
/// candidates.
pub fn choose(candidates: &[Candidate], profile: &Profile, rng: &mut Rng) -> Option<Move> {
    let best = candidates.iter().max_by_key(|c| c.score)?;
    if best.score >= MATE_BOUND || profile.temperature <= 0.0 {
        return Some(best.mv);
    }
    // Mate scores are huge; clamp them so that the softmax stays finite and meaningful.
    let clamp = |s: i32| s.clamp(-2000, 2000);
    let top = clamp(best.score);
    let weights: Vec<f64> = candidates
        .iter()
        .map(|c| {
            let loss = top - clamp(c.score);
            if loss > profile.max_loss {
                0.0
            } else {
                (-f64::from(loss) / profile.temperature).exp()
            }
        })
        .collect();
    let index = rng.weighted_index(&weights)?;
    Some(candidates[index].mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Square;

    fn mv(n: u8) -> Move {
        Move::new(Square::new(n, 0).unwrap(), Square::new(n, 1).unwrap())
    }

    #[test]
    fn whole_levels_use_their_profiles_and_ten_is_full() {
        for level in 1..=9u8 {
            assert_eq!(
                Strength::level(level).profile(),
                Some(PROFILES[usize::from(level) - 1])
            );
        }
        assert_eq!(Strength::level(10).profile(), None);
        assert_eq!(Strength::level(0), Strength::level(1));
        assert_eq!(Strength::level(200), Strength::level(10));
    }

    #[test]
    fn profiles_grow_stronger_with_the_level() {
        let mut last_budget = 0.0;
        let mut last_temperature = f64::INFINITY;
        let mut level = 1.0;
        while level < 10.0 {
            let p = Strength { level }.profile().unwrap();
            // A depth-limited level counts as a tiny budget: depth 1 ≈ 300 nodes, 2 ≈ 900.
            let budget = p.nodes.map_or_else(
                || 300.0 * 3f64.powi(p.depth.unwrap() as i32 - 1),
                |n| n as f64,
            );
            // Each step searches more, or chooses more carefully with the same search.
            assert!(budget >= last_budget, "level {level}: {p:?}");
            assert!(
                budget > last_budget || p.temperature <= last_temperature,
                "level {level}: {p:?}"
            );
            assert!(p.candidates >= 1);
            last_budget = budget;
            last_temperature = p.temperature;
            level += 0.125;
        }
    }

    #[test]
    fn elo_maps_onto_levels() {
        for (i, &elo) in LEVEL_ELO.iter().enumerate() {
            let s = Strength::elo(elo);
            assert!(
                (s.level_value() - (i + 1) as f64).abs() < 1e-9,
                "{elo}: {s:?}"
            );
        }
        assert_eq!(Strength::elo(0), Strength::level(1));
        assert!(Strength::elo(99_999).is_full());
        let between = Strength::elo((LEVEL_ELO[3] + LEVEL_ELO[4]) / 2).level_value();
        assert!(between > 4.0 && between < 5.0);
    }

    #[test]
    fn choice_follows_the_temperature_and_respects_max_loss() {
        let profile = PROFILES[4];
        let candidates = [
            Candidate {
                mv: mv(1),
                score: 50,
            },
            Candidate {
                mv: mv(2),
                score: 50 - profile.temperature as i32,
            },
            Candidate {
                mv: mv(3),
                score: 50 - profile.max_loss - 1,
            },
        ];
        let mut rng = Rng::new(11);
        let mut counts = [0u32; 3];
        for _ in 0..20_000 {
            let m = choose(&candidates, &profile, &mut rng).unwrap();
            counts[candidates.iter().position(|c| c.mv == m).unwrap()] += 1;
        }
        assert_eq!(counts[2], 0, "a move beyond max_loss was chosen");
        // The second move is e times less likely: about 26.9 % of the choices.
        let share = f64::from(counts[1]) / 20_000.0;
        assert!((0.25..0.29).contains(&share), "{counts:?}");
    }

    #[test]
    fn mates_are_always_played_and_empty_lists_give_nothing() {
        let profile = PROFILES[0];
        let candidates = [
            Candidate {
                mv: mv(1),
                score: 0,
            },
            Candidate {
                mv: mv(2),
                score: MATE_BOUND + 10,
            },
        ];
        let mut rng = Rng::new(5);
        for _ in 0..100 {
            assert_eq!(choose(&candidates, &profile, &mut rng), Some(mv(2)));
        }
        assert_eq!(choose(&[], &profile, &mut rng), None);
    }
}
