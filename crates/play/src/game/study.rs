//! Studying a game: variations played from any position, promoted, moved and deleted, and
//! comments and glyphs on any move.
//!
//! The main line is the game: in a game against the computer or on the clock it is what was
//! played, so only a study board (the person plays both sides, no clock) lets an edit change
//! it. Everything else is a change of the annotations ([`WebGame::revision`]), which leaves the
//! play and the computer's search alone.

use super::tree::{self, TreeError};
use super::{refuse, Refusal, WebGame, MAX_PLIES};
use crate::review::KeptMark;
use xiangqi::pgn::normalize_comment;
use xiangqi::{Game, Move};
use xiangqi_engine::instant::Instant;

/// The longest comment, in characters: a page of text.
const MAX_COMMENT_CHARS: usize = 10_000;

/// The most glyphs one move may carry.
const MAX_GLYPHS: usize = 8;

/// An edit of the game's tree. Paths name moves as [`tree`] explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StudyEdit {
    /// Plays `moves` from the position after `at`: along the moves already there, else as a new
    /// variation (or the line's continuation where `at` ends it).
    Play {
        /// The node the moves start after.
        at: Vec<usize>,
        /// The moves, in order.
        moves: Vec<Move>,
    },
    /// Makes the variation holding `at` its parent line's continuation.
    Promote(Vec<usize>),
    /// Moves the variation holding `at` one place up.
    MoveUp(Vec<usize>),
    /// Deletes the move at `at` and what follows it in its line.
    Delete(Vec<usize>),
    /// Sets the comment after the move at `at` (before it, with `before`: where no move comes
    /// before it in its line; the empty path is the game's first comment). Empty text removes it.
    Comment {
        /// The move the comment belongs to.
        at: Vec<usize>,
        /// The comment (empty: none).
        text: String,
        /// Whether it comes before the move rather than after.
        before: bool,
    },
    /// Sets the glyphs of the move at `at`.
    Glyphs {
        /// The move the glyphs belong to.
        at: Vec<usize>,
        /// Their numbers (NAGs).
        nags: Vec<u8>,
    },
}

/// Where a line played into the tree went: its first and last moves, and whether it added any.
struct AddedLine {
    first: Option<Vec<usize>>,
    last: Vec<usize>,
    changed: bool,
}

impl From<TreeError> for Refusal {
    fn from(error: TreeError) -> Refusal {
        Refusal {
            code: error.code(),
            message: error.message(),
        }
    }
}

impl WebGame {
    /// Whether the main line may be edited: the person plays both sides and no clock runs.
    pub fn is_study_board(&self) -> bool {
        self.rec.human == super::Human::Both && self.rec.clock.is_none()
    }

    /// Makes `edit`; returns the path of the move to show after it (the empty path: the start).
    pub fn study(&mut self, edit: StudyEdit, now: Instant) -> Result<Vec<usize>, Refusal> {
        match edit {
            StudyEdit::Play { at, moves } => self.play_line(&at, &moves, now),
            StudyEdit::Promote(at) => {
                let main_line = at.len() == 3;
                if main_line {
                    self.refuse_unless_study_board()?;
                }
                let shown = tree::promote(&mut self.rec.line, &at)?;
                if main_line {
                    self.replay(self.rec.line.len());
                } else {
                    self.revise();
                }
                Ok(shown)
            }
            StudyEdit::MoveUp(at) => {
                let shown = tree::move_up(&mut self.rec.line, &at)?;
                self.revise();
                Ok(shown)
            }
            StudyEdit::Delete(at) => {
                let main_line = at.len() == 1;
                if main_line {
                    self.refuse_unless_study_board()?;
                }
                let shown = tree::delete_from(&mut self.rec.line, &at)?;
                if main_line {
                    self.replay(self.rec.game.len().min(at[0]));
                } else {
                    self.revise();
                }
                Ok(shown)
            }
            StudyEdit::Comment { at, text, before } => {
                if text.chars().count() > MAX_COMMENT_CHARS {
                    return refuse(
                        "comment_too_long",
                        format!("a comment may have at most {MAX_COMMENT_CHARS} characters"),
                    );
                }
                let text = normalize_comment(&text);
                if at.is_empty() {
                    self.rec.initial_comment = text;
                } else {
                    let first_of_variation = at.len() >= 3 && at.last() == Some(&0);
                    if before && !first_of_variation {
                        return refuse(
                            "no_comment_before",
                            "only a variation's first move has a comment before it",
                        );
                    }
                    let node =
                        tree::node_mut(&mut self.rec.line, &at).ok_or(TreeError::NoSuchMove)?;
                    if before {
                        node.comment_before = text;
                    } else {
                        node.comment = text;
                    }
                }
                self.revise();
                Ok(at)
            }
            StudyEdit::Glyphs { at, nags } => {
                // PGN numbers its glyphs 1 to 255 (0 is "no annotation", never written).
                if nags.contains(&0) || nags.len() > MAX_GLYPHS {
                    return refuse(
                        "bad_glyph",
                        format!("a move has at most {MAX_GLYPHS} glyphs, numbered 1 to 255"),
                    );
                }
                let node = tree::node_mut(&mut self.rec.line, &at).ok_or(TreeError::NoSuchMove)?;
                node.nags = nags;
                self.revise();
                Ok(at)
            }
        }
    }

    /// Keeps a review's marks in the game: each marked move gets its glyph (in place of any
    /// other move-quality glyph), and the better line becomes a variation, the check's scores
    /// in a comment before it. Keeping them again changes nothing more. Returns how many marks
    /// were kept.
    pub fn keep_review(&mut self, marks: &[KeptMark]) -> usize {
        let mut kept = 0;
        for mark in marks {
            let at = [mark.ply];
            if tree::node(&self.rec.line, &at).is_none() {
                continue;
            }
            let Ok(added) = self.add_line(&tree::previous(&at), &mark.line) else {
                continue;
            };
            if let Some(first) = added.first.filter(|p| p.len() >= 3) {
                if let Some(node) = tree::node_mut(&mut self.rec.line, &first) {
                    node.comment_before = Some(mark.comment.clone());
                }
            }
            if let Some(node) = tree::node_mut(&mut self.rec.line, &at) {
                node.nags.retain(|n| !(1..=6).contains(n));
                node.nags.insert(0, mark.glyph);
            }
            kept += 1;
        }
        if kept > 0 {
            self.revise();
        }
        kept
    }

    /// Plays `moves` after node `at`. At the game's end (the main line's last move played)
    /// they are moves of the game, on a study board only.
    fn play_line(
        &mut self,
        at: &[usize],
        moves: &[Move],
        now: Instant,
    ) -> Result<Vec<usize>, Refusal> {
        if tree::count(&self.rec.line) + moves.len() > tree::MAX_TREE_MOVES {
            return Err(TreeError::TooBig.into());
        }
        let at_the_end = match at {
            [] => self.rec.game.is_empty(),
            [i] => i + 1 == self.rec.game.len(),
            _ => false,
        };
        if at_the_end {
            return self.play_on(moves, now);
        }
        let added = self.add_line(at, moves)?;
        if added.changed {
            self.revise();
        }
        Ok(added.last)
    }

    /// Plays `moves` after node `at` in the tree (along the moves there, else as a variation),
    /// all or none: an illegal move leaves the tree as it was.
    fn add_line(&mut self, at: &[usize], moves: &[Move]) -> Result<AddedLine, Refusal> {
        let Some(mut pos) = tree::position_after(self.rec.game.start(), &self.rec.line, at) else {
            return Err(TreeError::NoSuchMove.into());
        };
        let before = self.rec.line.clone();
        let mut added = AddedLine {
            first: None,
            last: at.to_vec(),
            changed: false,
        };
        for &m in moves {
            let played = match pos.why_illegal(m) {
                Some(reason) => Err(Refusal {
                    code: reason.code(),
                    message: reason.to_string(),
                }),
                None => tree::play_after(&mut self.rec.line, &added.last, m).map_err(Refusal::from),
            };
            let (next, new) = match played {
                Ok(found) => found,
                Err(refusal) => {
                    self.rec.line = before;
                    return Err(refusal);
                }
            };
            added.first.get_or_insert_with(|| next.clone());
            added.last = next;
            added.changed |= new;
            pos.make_move(m);
        }
        Ok(added)
    }

    /// Plays `moves` on from the game's end, on a study board.
    fn play_on(&mut self, moves: &[Move], now: Instant) -> Result<Vec<usize>, Refusal> {
        self.refuse_unless_study_board()?;
        let snapshot = self.snapshot();
        for &m in moves {
            if let Err(refusal) = self.play(m, None, now) {
                self.restore(snapshot);
                return Err(refusal);
            }
        }
        Ok(match self.rec.game.len() {
            0 => Vec::new(),
            plies => vec![plies - 1],
        })
    }

    /// Refuses an edit of the main line where it is the game as played.
    fn refuse_unless_study_board(&self) -> Result<(), Refusal> {
        if self.is_study_board() {
            return Ok(());
        }
        refuse(
            "main_line_is_the_game",
            "the main line is the game as it was played: start a study board from here \
             (continue from this position) to change it",
        )
    }

    /// The game again from its start along the main line's first `plies` moves, after an edit
    /// of the main line: a new version.
    fn replay(&mut self, plies: usize) {
        let mut game = Game::new(self.rec.game.start().clone());
        for m in self.rec.line.iter().take(plies.min(MAX_PLIES)) {
            if game.play_unchecked_outcome(m.mv).is_err() {
                break;
            }
        }
        self.rec.game = game;
        self.computer_scores.clear();
        self.touch();
    }

    /// Records a change of the annotations: a new revision and time stamp.
    fn revise(&mut self) {
        self.revision = super::next_version();
        self.rec.updated = super::unix_now();
    }
}
