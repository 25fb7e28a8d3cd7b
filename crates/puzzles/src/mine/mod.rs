//! The generator: mines puzzles from games. For each game it
//!
//! 1. evaluates every position with a short search and picks those right after a mistake: the
//!    side to move is now winning (or mating) and was not before;
//! 2. keeps a position only if exactly one move wins there, and builds the line that shows it,
//!    re-checking the solver's every move and playing the best defence ([`solve`]);
//! 3. proves it with a much deeper search from both sides ([`verify`]);
//! 4. drops duplicates and near-duplicates ([`seen`]), tags the themes ([`crate::tag`]) and
//!    estimates the difficulty ([`rate`]).
//!
//! Every search has a fixed node budget and a fresh table, so a run is reproducible: the same
//! games give the same puzzles.

pub mod analyst;
pub mod rate;
pub mod seen;
pub mod selfplay;
pub mod solve;
pub mod verify;

use crate::puzzle::Puzzle;
use crate::tag;
use analyst::{Analysis, Analyst};
use seen::{Fingerprint, Seen};
use xiangqi::{Game, Move, Position};

/// A position's winning chance the short scan must see after a mistake.
const SCAN_WINNING: f64 = 0.7;
/// The winning chance the side to move must not have had before the mistake.
const SCAN_NOT_YET: f64 = 0.6;
/// Plies at the start of a game that are not looked at (the opening book's moves).
const OPENING_PLIES: usize = 6;

/// The generator's budgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Nodes of the scan over every position of a game.
    pub scan_nodes: u64,
    /// Nodes of each search that builds a solution.
    pub line_nodes: u64,
    /// Nodes of each proving search (the defender's turns get half).
    pub verify_nodes: u64,
    /// The longest mate kept, in the solver's moves.
    pub longest_mate: u32,
    /// The most moves the solver makes in a puzzle that wins material.
    pub most_solver_moves: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scan_nodes: 4_000,
            line_nodes: 150_000,
            verify_nodes: 1_500_000,
            longest_mate: 7,
            most_solver_moves: 8,
        }
    }
}

/// Why a candidate is not a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    /// The side to move has no move (or none outside the banned ones).
    NoMove,
    /// The side to move has only one legal move: no choice to make.
    OnlyLegalMove,
    /// The best move does not win.
    NotWinning,
    /// The mate is longer than kept, or the line does not mate in time.
    MateTooLong,
    /// Another move wins too.
    NotOnlyMove,
    /// Along the line the mate was no longer seen.
    MateLost,
    /// A material puzzle whose win is a single capture.
    OneMove,
    /// The line does not win enough material.
    NoMaterial,
    /// The deep search prefers another first move, or does not see the win.
    DeepDisagrees,
    /// The deep search finds a second winning move.
    DeepNotOnlyMove,
    /// The deep search finds a defence that holds.
    DefenceHolds,
    /// The deep search finds a defence that lasts longer than the line's.
    LongerDefence,
    /// The same puzzle (or its mirror, or the same tactic) was found before.
    Duplicate,
}

/// What a run has looked at and kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games mined.
    pub games: u64,
    /// Positions scanned.
    pub positions: u64,
    /// Positions right after a mistake.
    pub candidates: u64,
    /// Puzzles kept.
    pub kept: u64,
    /// Candidates dropped, by reason.
    pub rejected: Vec<(Reject, u64)>,
}

impl Stats {
    fn reject(&mut self, reason: Reject) {
        match self.rejected.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => self.rejected.push((reason, 1)),
        }
    }
}

/// Mines games for puzzles.
pub struct Generator {
    settings: Settings,
    scan: Analyst,
    line: Analyst,
    seen: Seen,
    /// What the run has done so far.
    pub stats: Stats,
}

impl Generator {
    /// A generator with these budgets.
    pub fn new(settings: Settings) -> Generator {
        Generator {
            settings,
            scan: Analyst::new(1),
            line: Analyst::new(32),
            seen: Seen::default(),
            stats: Stats::default(),
        }
    }

    /// Remembers a puzzle found before, so that it is not found again.
    pub fn remember(&mut self, puzzle: &Puzzle) {
        self.seen.remember(puzzle);
    }

    /// The puzzles in the game from `start` with `moves`; `source` names the game (the ply is
    /// added).
    pub fn mine_game(&mut self, start: &Position, moves: &[Move], source: &str) -> Vec<Puzzle> {
        self.mine_game_reporting(start, moves, source, |_, _, _| {})
    }

    /// [`Generator::mine_game`], telling `report` about every candidate: its ply, its position
    /// and the puzzle made or why none was.
    pub fn mine_game_reporting(
        &mut self,
        start: &Position,
        moves: &[Move],
        source: &str,
        mut report: impl FnMut(usize, &Position, Result<&Puzzle, Reject>),
    ) -> Vec<Puzzle> {
        self.stats.games += 1;
        let mut found = Vec::new();
        for ply in self.candidates(start, moves) {
            let mut pos = start.clone();
            moves[..ply].iter().for_each(|&m| {
                pos.make_move(m);
            });
            // The puzzle starts afresh: no history, so the halfmove clock is not the game's.
            let Ok(pos) = Position::from_fen(&reset_clock(&pos.to_fen())) else {
                continue;
            };
            match self.puzzle_at(&pos, &format!("{source} ply {ply}")) {
                Ok(puzzle) => {
                    self.stats.kept += 1;
                    report(ply, &pos, Ok(&puzzle));
                    found.push(puzzle);
                }
                Err(reason) => {
                    self.stats.reject(reason);
                    report(ply, &pos, Err(reason));
                }
            }
        }
        found
    }

    /// Plies of the game whose position comes right after a mistake.
    fn candidates(&mut self, start: &Position, moves: &[Move]) -> Vec<usize> {
        let mut game = Game::new(start.clone());
        let mut scans: Vec<Option<Analysis>> = Vec::with_capacity(moves.len() + 1);
        for ply in 0..=moves.len() {
            if ply > 0 && game.play(moves[ply - 1]).is_err() {
                break;
            }
            let over = game.outcome().is_some();
            let scan = (ply >= OPENING_PLIES && !over)
                .then(|| {
                    self.stats.positions += 1;
                    self.scan
                        .analyse(start, &moves[..ply], self.settings.scan_nodes, &[])
                })
                .flatten();
            scans.push(scan);
        }
        let mut chosen = Vec::new();
        for ply in 1..scans.len() {
            let (Some(now), Some(before)) = (&scans[ply], &scans[ply - 1]) else {
                continue;
            };
            let mating = now.mates_in().is_some() && !before.is_mated();
            let winning = now.chance() >= SCAN_WINNING && 1.0 - before.chance() <= SCAN_NOT_YET;
            if mating || winning {
                self.stats.candidates += 1;
                chosen.push(ply);
            }
        }
        chosen
    }

    fn puzzle_at(&mut self, start: &Position, source: &str) -> Result<Puzzle, Reject> {
        let found = solve::solve(&mut self.line, start, &self.settings)?;
        let print = Fingerprint::of(start, &found.moves);
        if self.seen.check_and_insert(print) {
            return Err(Reject::Duplicate);
        }
        let settled_at = verify::verify(&mut self.line, start, &found, &self.settings)?;
        let tempting = rate::tempting_moves(start, found.moves[0]);
        Ok(Puzzle {
            id: print.id(),
            position: start.clone(),
            themes: tag::themes(start, &found.moves),
            rating: rate::estimate(settled_at, found.moves.len().div_ceil(2), tempting),
            solution: found.moves,
            source: source.to_string(),
        })
    }
}

/// The FEN with its halfmove clock at 0 and move number 1.
fn reset_clock(fen: &str) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    match fields.as_slice() {
        [board, side, ..] => format!("{board} {side} - - 0 1"),
        _ => fen.to_string(),
    }
}
