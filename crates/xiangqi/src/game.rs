//! A game: a start position and the moves played, with the end-of-game rules.
//!
//! No legal move loses (checkmate or stalemate alike); at the third occurrence of a position
//! the moves since its first occurrence decide, by the Asian rules of [`crate::repetition`]
//! (perpetual check loses, then perpetual chase, otherwise a draw); 120 plies without a capture
//! draw unless the last move mates; neither side having a piece that can cross the river draws.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::piece::{Color, PieceKind};
use crate::position::{Position, Undo};
pub use crate::repetition::{judge_repetition, CyclePly};

/// Plies without a capture after which the game is drawn (60 moves each).
pub const NO_CAPTURE_LIMIT: u16 = 120;

/// How many times a position must occur for the repetition rules to decide the game.
pub const REPETITIONS_FOR_VERDICT: usize = 3;

/// What each ply of a game records for the repetition rules.
#[derive(Clone, Copy, Debug)]
struct Ply {
    mv: Move,
    undo: Undo,
    /// Key of the position *after* the move.
    key: u64,
    /// The move gave check.
    check: bool,
    /// The enemy pieces the move chased, where they stood after it.
    chased: Bitboard,
}

impl CyclePly for Ply {
    fn gave_check(&self) -> bool {
        self.check
    }

    fn chased(&self) -> Bitboard {
        self.chased
    }

    fn played(&self) -> Option<Move> {
        Some(self.mv)
    }
}

/// Why a move could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is not legal in the current position.
    #[error("illegal move {mv} in position {fen}")]
    Illegal {
        /// The move.
        mv: Move,
        /// The position it was tried in.
        fen: String,
    },
    /// The game is already over.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
}

/// A game in progress or finished: a start position, the moves played, and the verdict.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    plies: Vec<Ply>,
}

impl Game {
    /// A game from `start` with no moves yet.
    pub fn new(start: Position) -> Game {
        Game {
            position: start.clone(),
            start,
            plies: Vec::new(),
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.plies.iter().map(|p| p.mv)
    }

    /// Number of plies played.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// Plays `m` if it is legal and the game is not over.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        self.play_unchecked_outcome(m)
    }

    /// Plays `m` if it is legal, even after the rules have ended the game (for replaying records
    /// whose players went on).
    pub fn play_unchecked_outcome(&mut self, m: Move) -> Result<(), PlayError> {
        if !self.position.is_legal(m) {
            return Err(PlayError::Illegal {
                mv: m,
                fen: self.position.to_fen(),
            });
        }
        let chased = self.position.chased_by(m);
        let undo = self.position.make_move(m);
        self.plies.push(Ply {
            mv: m,
            undo,
            key: self.position.key(),
            check: self.position.in_check(),
            chased,
        });
        Ok(())
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let ply = self.plies.pop()?;
        self.position.unmake_move(ply.mv, ply.undo);
        Some(ply.mv)
    }

    /// The verdict of the rules on the current position, or `None` if the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        let mover = pos.side_to_move();
        if pos.has_no_legal_move() {
            let reason = if pos.in_check() {
                WinReason::Checkmate
            } else {
                WinReason::Stalemate
            };
            return Some(Outcome::Win {
                winner: mover.other(),
                reason,
            });
        }
        if let Some(outcome) = self.repetition_verdict(REPETITIONS_FOR_VERDICT) {
            return Some(outcome);
        }
        if pos.halfmove_clock() >= NO_CAPTURE_LIMIT {
            return Some(Outcome::Draw(DrawReason::NoCaptureLimit));
        }
        if is_insufficient_material(pos) {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        None
    }

    /// How often the current position has occurred (1 if never before), counting back only
    /// through reversible moves.
    pub fn occurrences(&self) -> usize {
        1 + self.earlier_occurrences().count()
    }

    /// Indices into `plies` of the earlier plies after which the current position stood.
    fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let key = self.position.key();
        let n = self.plies.len();
        let window = (self.position.halfmove_clock() as usize).min(n);
        // Same side to move: look 2, 4, 6… plies back, never past the last capture.
        (2..=window)
            .step_by(2)
            .map(move |back| n - back)
            .filter(move |&i| i > 0 || n > 0)
            .filter(move |&i| {
                let k = if i == 0 {
                    self.start.key()
                } else {
                    self.plies[i - 1].key
                };
                k == key
            })
    }

    /// The repetition verdict once the current position has occurred `needed` times, judging
    /// the moves since the first of those occurrences.
    pub fn repetition_verdict(&self, needed: usize) -> Option<Outcome> {
        let earlier: Vec<usize> = self.earlier_occurrences().collect();
        if earlier.len() + 1 < needed.max(2) {
            return None;
        }
        // The oldest occurrence among the last `needed`: judge every move since then.
        let first = earlier[needed.max(2) - 2];
        Some(judge_repetition(
            &self.plies[first..],
            self.position.side_to_move(),
        ))
    }
}

/// Whether neither side has a piece that can cross the river and attack (chariot, horse,
/// cannon or soldier): such a game can only be drawn.
pub fn is_insufficient_material(pos: &Position) -> bool {
    PieceKind::ALL
        .iter()
        .filter(|k| k.is_attacker())
        .all(|&k| pos.kind_bb(k).is_empty())
}

/// Whether `color` has a piece that can cross the river and attack (chariot, horse, cannon or
/// soldier): without one it can never mate.
pub fn can_ever_mate(pos: &Position, color: Color) -> bool {
    PieceKind::ALL
        .iter()
        .filter(|k| k.is_attacker())
        .any(|&k| !pos.pieces(color, k).is_empty())
}

/// The result when `flagged` runs out of time in `pos`: a loss, unless the other side could
/// never mate, which makes it a draw.
///
/// ```
/// use xiangqi::{game::flag_outcome, Color, DrawReason, Outcome, Position, WinReason};
/// let lone_general = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").unwrap();
/// assert_eq!(
///     flag_outcome(&lone_general, Color::Red),
///     Outcome::Draw(DrawReason::TimeoutAgainstBareMaterial)
/// );
/// assert_eq!(
///     flag_outcome(&lone_general, Color::Black),
///     Outcome::Win { winner: Color::Red, reason: WinReason::Timeout }
/// );
/// ```
pub fn flag_outcome(pos: &Position, flagged: Color) -> Outcome {
    let opponent = flagged.other();
    if can_ever_mate(pos, opponent) {
        Outcome::Win {
            winner: opponent,
            reason: WinReason::Timeout,
        }
    } else {
        Outcome::Draw(DrawReason::TimeoutAgainstBareMaterial)
    }
}

/// Cheap repetition test for a search: `keys` holds the keys of the positions before the
/// current one, oldest first, and `halfmove_clock` the plies since the last capture. Returns
/// how many plies back the current `key` last occurred with the same side to move, if it did.
pub fn find_repetition(keys: &[u64], key: u64, halfmove_clock: u16) -> Option<usize> {
    let window = (halfmove_clock as usize).min(keys.len());
    (2..=window)
        .step_by(2)
        .find(|&back| keys[keys.len() - back] == key)
}
