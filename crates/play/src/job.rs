//! The engine work a game can have running: what kinds there are, and the handle of the one
//! that runs.

use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    /// The computer chooses its move.
    Computer,
    /// The position is analysed for the person.
    Analysis,
    /// A move is suggested to the person.
    Hint,
    /// The computer considers a draw offer.
    Draw,
    /// Every move of the game is checked.
    Review,
}

impl JobKind {
    /// Whether the job may run for long (up to a minute, or a whole game's review) while
    /// nobody waits on it: such jobs take slots of their own.
    pub fn is_background(self) -> bool {
        matches!(self, JobKind::Analysis | JobKind::Review)
    }
}

/// The running engine job of a game.
#[derive(Debug)]
pub struct Job {
    /// What it does.
    pub kind: JobKind,
    /// Set to stop it; a stopped job changes nothing.
    pub cancel: Arc<AtomicBool>,
    /// Set while the game's clock is paused and the computer's search waits where it is (on
    /// the server, whose engines can wait; see [`crate::game_requests::StartJob`]).
    pub paused: Arc<AtomicBool>,
    /// The game's version the job works for: the one it began on, moved on by a pause and a
    /// resume that kept it (they change nothing the search depends on).
    pub version: u64,
}
