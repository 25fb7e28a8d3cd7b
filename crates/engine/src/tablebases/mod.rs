//! Endgame tables in the search (docs/TABLEBASES.md): the exact score of every position they
//! hold, and at the root the moves that keep the table's value at its best — the fastest win,
//! the longest defence, or any move that keeps a draw.
//!
//! The tables' values assume the rules they were built with: mate, and the perpetual-check
//! rule (checking forever loses); a draw the perpetual-chase rule could change is flagged, and
//! read as a draw. A win by mate is one only while its next capture or mate (its conversion)
//! comes before the game's no-capture count reaches the 120-ply limit: a win or loss is
//! trusted only then, and otherwise the search judges the position. At the root, a move into
//! a win or loss whose conversion comes too late counts as a draw: the loser can reach the
//! limit.

mod check;

pub use check::{check_against_search, checking_engine, random_positions, SearchCheck};

use crate::score::{mate_in, DRAW, MATE_BOUND, MAX_PLY};
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use xiangqi::{Move, Position};
use xiangqi_tablebase::folder::{read_folder, FolderError};
use xiangqi_tablebase::{Probe, Rank, Tables, Value};

/// Tables of at most this many men are read into memory as soon as a folder is named (all 49
/// sets of up to four men together take about 28 MB); bigger ones when a search first reaches
/// them.
pub const READ_AT_ONCE_MEN: usize = 4;

/// Tables the engine probes: shared by every search thread, read only.
#[derive(Clone)]
pub struct Tablebases {
    tables: Arc<Tables>,
}

impl Tablebases {
    /// The engine's use of `tables`.
    pub fn new(tables: Tables) -> Tablebases {
        Tablebases {
            tables: Arc::new(tables),
        }
    }

    /// The tables of a folder, and the files refused there (a damaged or foreign file is
    /// never used; the rest are). An error when the folder cannot be listed.
    pub fn read(dir: &Path) -> Result<(Tablebases, Vec<FolderError>), FolderError> {
        let folder = read_folder(dir)?;
        let tables = folder.tables;
        // The small tables (about 28 MB for them all) are read now, so that the first search
        // of an ending already has them; the others when a search first reaches them.
        let small: Vec<_> = tables
            .materials()
            .filter(|m| m.men() <= READ_AT_ONCE_MEN)
            .collect();
        for material in small {
            tables.get(material);
        }
        Ok((Tablebases::new(tables), folder.refused))
    }

    /// The tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The value of `pos` for its side to move, when a table holds it, reading the table from
    /// its file first if need be. Counting the men first keeps the cost away from every
    /// position with more of them than any table.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if pos.occupied().count() as usize > self.tables.most_men() {
            return None;
        }
        self.tables.probe(pos)
    }

    /// What a table in memory holds for `pos`, without waiting: a table still on disk is
    /// read on a thread of its own meanwhile, and used once it is in (a search never stalls
    /// on a file).
    #[inline]
    pub fn probe_now(&self, pos: &Position) -> Option<Probe> {
        if pos.occupied().count() as usize > self.tables.most_men() {
            return None;
        }
        match self.tables.lookup_in_memory(pos) {
            Ok(value) => value,
            Err(material) => {
                self.tables.load_in_background(material);
                None
            }
        }
    }

    /// The value of `pos` when a table in memory holds it ([`Tablebases::probe_now`]) and the
    /// game's no-capture count cannot change it: a win or loss by mate whose conversion comes
    /// too late is left out ([`Probe::in_time`]). A win by the perpetual-check rule is kept:
    /// the checks repeat the position long before the limit, and the tables assume the mate
    /// after the loser stops checking comes within it.
    #[inline]
    pub fn probe_within_rules(&self, pos: &Position) -> Option<Value> {
        let probe = self.probe_now(pos)?;
        probe.in_time(pos.halfmove_clock()).then_some(probe.value)
    }

    /// The search score of `pos`, `ply` plies below the root, when a table holds it within the
    /// rules ([`Tablebases::probe_within_rules`]): a mate score for a win or a loss, counted
    /// to the mate, and a draw's score for a draw.
    #[inline]
    pub(crate) fn score(&self, pos: &Position, ply: usize) -> Option<i32> {
        Some(match self.probe_within_rules(pos)? {
            Value::Win(plies) => win_score(ply + usize::from(plies)),
            Value::Loss(plies) => -win_score(ply + usize::from(plies)),
            Value::Draw => DRAW,
            Value::RuleWin(rank) => rule_win_score(rank),
            Value::RuleLoss(rank) => -rule_win_score(rank),
        })
    }

    /// Of `moves` (legal in `pos`), those that keep the table's value of `pos` at its best:
    /// the wins with the shortest distance to mate whose conversion comes in time, the losses
    /// with the longest (a move into a loss whose conversion comes too late saves the game),
    /// or every move that keeps a draw. `None` when `pos` or a position a move leads to is in
    /// no table, or the no-capture count could change `pos`'s value, so that the search
    /// chooses alone.
    pub fn best_moves(&self, pos: &Position, moves: &[Move]) -> Option<Vec<Move>> {
        self.probe_within_rules(pos)?;
        let mut rated = Vec::with_capacity(moves.len());
        let mut after = pos.clone();
        for &m in moves {
            let undo = after.make_move(m);
            let probe = self.probe_now(&after);
            let no_capture = after.halfmove_clock();
            after.unmake_move(m, undo);
            let probe = probe?;
            // A win whose conversion comes too late is a draw: the loser reaches the limit.
            let value = if probe.in_time(no_capture) {
                probe.value
            } else {
                Value::Draw
            };
            // The value for the mover: the opposite of the value for the side then to move.
            rated.push((m, rank(value)));
        }
        let best = rated.iter().map(|&(_, r)| r).max()?;
        Some(
            rated
                .into_iter()
                .filter(|&(_, r)| r == best)
                .map(|(m, _)| m)
                .collect(),
        )
    }
}

/// The score of a mate `plies` from the root. A mate too far for the search's mate scores
/// still scores above every evaluation and below every mate it can count, the nearer the
/// higher.
fn win_score(plies: usize) -> i32 {
    if plies < MAX_PLY {
        mate_in(plies)
    } else {
        MATE_BOUND - 1 - (plies - MAX_PLY).min(1_000) as i32
    }
}

/// The score of a win by the perpetual-check rule: below every mate, above every
/// evaluation, the lower the rank the higher.
fn rule_win_score(rank: Rank) -> i32 {
    MATE_BOUND - 1_100 - i32::from(rank.get().min(4_000))
}

/// How good a move is for the side that plays it, from the value of the position it leads
/// to (for the side then to move): the value for the mover, by [`Value::preference`].
fn rank(after: Value) -> i32 {
    after.flipped().preference()
}

impl PartialEq for Tablebases {
    /// The same tables: one set loaded once is shared, so sharing is sameness.
    fn eq(&self, other: &Tablebases) -> bool {
        Arc::ptr_eq(&self.tables, &other.tables)
    }
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tablebases({} tables, up to {} men)",
            self.tables.len(),
            self.tables.most_men()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::mated_in;
    use xiangqi_tablebase::Conversion;

    fn tables(names: &[&str]) -> Tablebases {
        let mut tables = Tables::with_threads(1);
        for name in names {
            tables.generate(name.parse().unwrap(), &mut |_| {});
        }
        Tablebases::new(tables)
    }

    #[test]
    fn the_root_keeps_the_fastest_win_and_the_longest_defence() {
        let tb = tables(&["KRK"]);
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
        assert_eq!(tb.probe(&pos), Some(Value::Win(3)));
        let best = tb.best_moves(&pos, pos.legal_moves().as_slice()).unwrap();
        // Mate in two: the chariot to the eighth rank, then to e8 or along it.
        assert!(best.iter().all(|m| {
            let mut after = pos.clone();
            after.make_move(*m);
            tb.probe(&after) == Some(Value::Loss(2))
        }));
        assert!(best.iter().any(|m| m.to_string() == "a0a8"), "{best:?}");
        assert_eq!(tb.score(&pos, 4), Some(mate_in(7)));

        // The defender keeps as far from the mate as it can.
        let black = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1").unwrap();
        assert_eq!(tb.probe(&black), Some(Value::Loss(4)));
        let best = tb
            .best_moves(&black, black.legal_moves().as_slice())
            .unwrap();
        for m in &best {
            let mut after = black.clone();
            after.make_move(*m);
            assert_eq!(tb.probe(&after), Some(Value::Win(3)), "{m}");
        }
        assert_eq!(tb.score(&black, 1), Some(mated_in(5)));
    }

    #[test]
    fn a_win_by_the_perpetual_check_rule_is_played_out_by_its_ranks() {
        let tb = tables(&["KRKH"]);
        // Black's horse can stop the mate only by checking forever.
        let start = Position::from_fen("4k4/9/9/9/9/9/9/3K5/1n7/8R w - - 0 1").unwrap();
        let Some(Value::RuleWin(rank)) = tb.probe(&start) else {
            panic!("{:?}", tb.probe(&start));
        };
        let score = tb.score(&start, 0).unwrap();
        assert!(
            score < win_score(MAX_PLY + 1_000) && score > 20_000,
            "{score}"
        );
        let best = tb
            .best_moves(&start, start.legal_moves().as_slice())
            .unwrap();
        for m in &best {
            let mut after = start.clone();
            after.make_move(*m);
            assert!(
                matches!(tb.probe(&after), Some(Value::RuleLoss(r)) if r < rank),
                "{m}"
            );
        }
        // Both sides play the tables' best moves; the rules of the game decide: Black checks
        // until the repetition loses it the game, or stops and is mated.
        for fen in [
            "4k4/9/9/9/9/9/9/3K5/1n7/8R w - - 0 1",
            "9/9/4k4/9/1n3R3/9/9/9/3K5/9 b - - 0 1",
            "3R5/9/4k4/9/9/4n4/9/9/3K5/9 b - - 0 1",
        ] {
            let mut game = xiangqi::game::Game::new(Position::from_fen(fen).unwrap());
            while game.outcome().is_none() && game.len() < 200 {
                let pos = game.position().clone();
                let best = tb.best_moves(&pos, pos.legal_moves().as_slice()).unwrap();
                game.play(best[0]).unwrap();
            }
            let outcome = game.outcome();
            assert!(
                matches!(
                    outcome,
                    Some(xiangqi::Outcome::Win {
                        winner: xiangqi::Color::Red,
                        reason: xiangqi::WinReason::PerpetualCheck | xiangqi::WinReason::Checkmate,
                    })
                ),
                "{fen}: {outcome:?} after {} plies",
                game.len()
            );
        }
    }

    #[test]
    fn positions_beyond_the_tables_are_left_to_the_search() {
        let tb = tables(&["KRK"]);
        // Too many men, and a material set without a table.
        assert_eq!(tb.probe(&Position::startpos()), None);
        let two_chariots = Position::from_fen("4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1").unwrap();
        assert_eq!(tb.probe(&two_chariots), None);
        assert_eq!(
            tb.best_moves(&two_chariots, two_chariots.legal_moves().as_slice()),
            None
        );
        // A draw keeps every drawing move: a lone cannon has no win.
        let tb = tables(&["KCK"]);
        let cannon = Position::from_fen("4k4/9/9/9/9/9/9/9/9/C2K5 w - - 0 1").unwrap();
        assert_eq!(tb.score(&cannon, 3), Some(DRAW));
        let moves = cannon.legal_moves();
        assert_eq!(
            tb.best_moves(&cannon, moves.as_slice()).unwrap().len(),
            moves.len()
        );
    }

    #[test]
    fn a_mate_the_no_capture_limit_could_cut_is_left_to_the_search() {
        let tb = tables(&["KRK"]);
        // Mate in three plies, with 118 plies already played without a capture: the game
        // is drawn first. With 117 the mate comes on the 120th ply, in time.
        let late = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 80").unwrap();
        assert_eq!(tb.probe(&late), Some(Value::Win(3)));
        assert_eq!(tb.probe_within_rules(&late), None);
        assert_eq!(tb.score(&late, 0), None);
        assert_eq!(tb.best_moves(&late, late.legal_moves().as_slice()), None);
        let in_time = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 117 80").unwrap();
        assert_eq!(tb.score(&in_time, 0), Some(mate_in(3)));
    }

    #[test]
    fn late_in_the_count_the_root_takes_the_soldier_rather_than_the_fastest_mate() {
        let tb = tables(&["KRKP"]);
        let fen = |count| format!("9/9/3k5/9/9/9/3p5/9/9/R2K5 w - - {count} 100");
        // Mate in 9 plies; the soldier can be taken in 5, which starts the count again.
        let late = Position::from_fen(&fen(115)).unwrap();
        let probe = tb.probe_now(&late).unwrap();
        assert_eq!(probe.value, Value::Win(9));
        assert_eq!(probe.conversion, Some(Conversion::In(5)));
        // The mate would come after the limit, the capture on it: still a win.
        assert_eq!(tb.probe_within_rules(&late), Some(Value::Win(9)));
        let best = tb.best_moves(&late, late.legal_moves().as_slice()).unwrap();
        assert!(!best.is_empty());
        for m in &best {
            let mut after = late.clone();
            after.make_move(*m);
            let probe = tb.probe_now(&after).unwrap();
            assert!(matches!(probe.value, Value::Loss(_)), "{m}");
            assert!(probe.in_time(after.halfmove_clock()), "{m}: {probe:?}");
        }
        // The fastest mate starts with the general's step, which then comes too late.
        assert!(best.iter().all(|m| m.to_string() != "d0d1"), "{best:?}");
        let early = Position::from_fen(&fen(0)).unwrap();
        let best = tb
            .best_moves(&early, early.legal_moves().as_slice())
            .unwrap();
        assert!(best.iter().any(|m| m.to_string() == "d0d1"), "{best:?}");
        // One ply later in the count the capture comes too late as well: the search judges.
        let too_late = Position::from_fen(&fen(116)).unwrap();
        assert_eq!(tb.probe_within_rules(&too_late), None);
        assert_eq!(tb.score(&too_late, 0), None);
    }

    #[test]
    fn a_mate_too_far_to_count_still_outranks_every_evaluation() {
        assert_eq!(win_score(MAX_PLY - 1), mate_in(MAX_PLY - 1));
        assert_eq!(win_score(MAX_PLY), MATE_BOUND - 1);
        assert!(win_score(MAX_PLY + 10) < win_score(MAX_PLY + 9));
        assert!(win_score(MAX_PLY + 100_000) > 10_000);
    }
}
