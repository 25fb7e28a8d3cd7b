//! Puzzles as the server's routes and a page with no server both answer them: the next puzzle
//! for the player, a move judged, a hint, and the result kept in the player's puzzle record
//! (a Glicko-2 rating and the attempts).
//!
//! The requests carry the moves played so far, so nothing about an attempt in progress is
//! kept between them; the record is the caller's to store.

use crate::error::ApiError;
use crate::game_file::iccs_move;
use crate::move_names::{line_names, MoveNames};
use serde::{Deserialize, Serialize};
use xiangqi::{Color, Move};
use xiangqi_puzzles::glicko::{self, Rating};
use xiangqi_puzzles::judge::{Attempt, Goal, Verdict};
use xiangqi_puzzles::mine::analyst::Analyst;
use xiangqi_puzzles::{classic, shipped, Puzzle, Theme};

/// Attempts a record keeps (the oldest go first); the rating keeps what they taught.
pub const MAX_ATTEMPTS: usize = 5_000;
/// Attempts the record's view lists, the latest first.
const RECENT: usize = 10;
/// How many of the puzzles nearest the player's rating the next one is chosen from.
const NEAREST: usize = 8;
/// Hash table of the engine that judges a move, in MiB: a judgement is a few short searches.
const JUDGE_HASH_MB: usize = 4;

/// One finished attempt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttemptEntry {
    /// The puzzle.
    pub id: String,
    /// Solved without a wrong move or a hint.
    pub solved: bool,
    /// Whether it changed the rating (only a puzzle's first attempt does).
    pub rated: bool,
    /// The player's rating after it.
    pub rating: f64,
    /// When, in Unix seconds.
    pub at: u64,
}

/// The player's puzzle record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRecord {
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// The attempts, oldest first.
    pub attempts: Vec<AttemptEntry>,
}

impl Default for PuzzleRecord {
    fn default() -> PuzzleRecord {
        let new = Rating::default();
        PuzzleRecord {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            attempts: Vec::new(),
        }
    }
}

impl PuzzleRecord {
    /// Reads a stored record; the error says why it cannot be.
    pub fn from_json(text: &str) -> Result<PuzzleRecord, String> {
        let record: PuzzleRecord = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let sane =
            |x: f64, range: std::ops::RangeInclusive<f64>| x.is_finite() && range.contains(&x);
        if !sane(record.rating, 0.0..=5000.0)
            || !sane(record.deviation, 0.0..=glicko::MAX_DEVIATION)
            || !sane(record.volatility, 0.0..=1.0)
        {
            return Err("the rating is out of range".into());
        }
        Ok(record)
    }

    /// The record as stored.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("plain data")
    }

    fn glicko(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// Records an attempt at `puzzle` at `at` (Unix seconds). Only a puzzle's first attempt
    /// moves the rating: a second try knows the answer.
    pub fn add(&mut self, puzzle: &Puzzle, solved: bool, at: u64) {
        let rated = !self.attempts.iter().any(|a| a.id == puzzle.id);
        if rated {
            let game = glicko::Game {
                rating: f64::from(puzzle.rating),
                deviation: PUZZLE_DEVIATION,
                score: if solved { 1.0 } else { 0.0 },
            };
            let after = self.glicko().after(&[game]);
            self.rating = after.rating;
            self.deviation = after.deviation;
            self.volatility = after.volatility;
        }
        self.attempts.push(AttemptEntry {
            id: puzzle.id.clone(),
            solved,
            rated,
            rating: self.rating,
            at,
        });
        let extra = self.attempts.len().saturating_sub(MAX_ATTEMPTS);
        self.attempts.drain(..extra);
    }
}

/// The deviation a puzzle's rating is taken to have: an estimate, not yet corrected by
/// players' results.
const PUZZLE_DEVIATION: f64 = 150.0;

/// The record as the page shows it (`GET /api/puzzles`, and after each result).
#[derive(Serialize, Debug)]
pub struct RecordView {
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub deviation: i32,
    /// Attempts made.
    pub attempted: usize,
    /// Attempts solved.
    pub solved: usize,
    /// The latest attempts, the last first.
    pub recent: Vec<AttemptEntry>,
    /// Puzzles shipped, by theme (`[name, count]`), for the page's choice.
    pub themes: Vec<(String, usize)>,
    /// Puzzles shipped.
    pub total: usize,
}

/// The record's view.
pub fn record_view(record: &PuzzleRecord) -> RecordView {
    let mut themes: Vec<(String, usize)> = Vec::new();
    for p in shipped::puzzles() {
        for t in &p.themes {
            match themes.iter_mut().find(|(name, _)| *name == t.name()) {
                Some((_, n)) => *n += 1,
                None => themes.push((t.name(), 1)),
            }
        }
    }
    themes.sort();
    RecordView {
        rating: record.rating.round() as i32,
        deviation: record.deviation.round() as i32,
        attempted: record.attempts.len(),
        solved: record.attempts.iter().filter(|a| a.solved).count(),
        recent: record.attempts.iter().rev().take(RECENT).cloned().collect(),
        themes,
        total: shipped::puzzles().len(),
    }
}

/// What the next puzzle should be: `?theme=` (a theme's name) or `?id=` (that one).
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    /// Only puzzles with this theme.
    pub theme: Option<String>,
    /// This puzzle.
    pub id: Option<String>,
}

/// What a puzzle wants, as the page says it.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct GoalView {
    /// `mate`, `material`, `draw` (hold it) or `win` (keep it).
    pub kind: &'static str,
    /// In how many of the solver's moves.
    pub moves: usize,
}

/// A puzzle as the page shows it before it is solved.
#[derive(Serialize, Debug)]
pub struct PuzzleView {
    /// Its id.
    pub id: String,
    /// The position.
    pub fen: String,
    /// `red` or `black`: who solves.
    pub solver: &'static str,
    /// What to do.
    pub goal: GoalView,
    /// Its rating.
    pub rating: u16,
    /// Its themes (the page shows them once the puzzle is over).
    pub themes: Vec<String>,
    /// Where it comes from.
    pub source: String,
    /// Whether the player has tried it before.
    pub seen: bool,
    /// The solver's legal moves (ICCS), for the page to show where a piece may go.
    pub legal: Vec<String>,
    /// For a classic composition: its name, gloss, book and verdict.
    pub classic: Option<ClassicView>,
}

/// A classic composition as the page names it.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct ClassicView {
    /// The traditional name (七星聚会).
    pub name: String,
    /// What the name says, in English.
    pub english: String,
    /// The book.
    pub book: String,
    /// The book's verdict as it writes it (`红先和`).
    pub verdict: String,
    /// Where other copies differ.
    pub note: String,
}

fn view(puzzle: &Puzzle, record: &PuzzleRecord) -> PuzzleView {
    let (kind, moves) = match Goal::of(puzzle) {
        Goal::Mate(n) => ("mate", n),
        Goal::Material(n) => ("material", n),
        Goal::Draw(n) => ("draw", n),
        Goal::Win(n) => ("win", n),
    };
    let classic = classic::find(&puzzle.id).map(|c| ClassicView {
        name: c.name.clone(),
        english: c.english.clone(),
        book: c.book.clone(),
        verdict: c.verdict_text.clone(),
        note: c.note.clone(),
    });
    PuzzleView {
        id: puzzle.id.clone(),
        fen: puzzle.position.to_fen(),
        solver: match puzzle.solver() {
            Color::Red => "red",
            Color::Black => "black",
        },
        goal: GoalView { kind, moves },
        rating: puzzle.rating,
        themes: puzzle.themes.iter().map(|t| t.name()).collect(),
        source: puzzle.source.clone(),
        seen: record.attempts.iter().any(|a| a.id == puzzle.id),
        legal: legal_moves(&puzzle.position),
        classic,
    }
}

fn puzzle(id: &str) -> Result<&'static Puzzle, ApiError> {
    shipped::find(id).ok_or_else(|| ApiError::NotFound(format!("no puzzle {id:?}")))
}

/// The next puzzle: the one asked for, else one not tried yet (with the theme asked for)
/// whose rating is near the player's. The classics come only when asked for (theme
/// `classic`): they are long studies, not the quick tactics of the round.
pub fn next(record: &PuzzleRecord, query: &NextQuery) -> Result<PuzzleView, ApiError> {
    if let Some(id) = &query.id {
        return Ok(view(puzzle(id)?, record));
    }
    let theme = match &query.theme {
        Some(name) => Some(
            name.parse::<Theme>()
                .map_err(|e| ApiError::BadRequest(e.to_string()))?,
        ),
        None => None,
    };
    let with_theme: Vec<&Puzzle> = shipped::puzzles()
        .iter()
        .filter(|p| match theme {
            Some(t) => p.themes.contains(&t),
            None => !p.themes.contains(&Theme::Classic),
        })
        .collect();
    let fresh: Vec<&Puzzle> = with_theme
        .iter()
        .copied()
        .filter(|p| !record.attempts.iter().any(|a| a.id == p.id))
        .collect();
    // Every puzzle tried: they come round again.
    let mut pool = if fresh.is_empty() { with_theme } else { fresh };
    if pool.is_empty() {
        return Err(ApiError::NotFound("no puzzle has that theme".into()));
    }
    pool.sort_by_key(|p| {
        (
            (f64::from(p.rating) - record.rating).abs() as u64,
            p.id.clone(),
        )
    });
    let nearest = &pool[..pool.len().min(NEAREST)];
    // Varied but reproducible: the choice turns with the number of attempts.
    let chosen = nearest[record.attempts.len() % nearest.len()];
    Ok(view(chosen, record))
}

/// An attempt in progress: `{id, played}` (both sides' moves so far, ICCS).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AttemptBody {
    /// The puzzle.
    pub id: String,
    /// The moves played so far, ICCS.
    #[serde(default)]
    pub played: Vec<String>,
}

/// A solver's move: `{id, played, move}`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// The puzzle.
    pub id: String,
    /// The moves played before it, ICCS.
    #[serde(default)]
    pub played: Vec<String>,
    /// The move, ICCS.
    #[serde(rename = "move")]
    pub mv: String,
}

/// The judgement of a move.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct MoveView {
    /// `right`, `solved` or `wrong`.
    pub verdict: &'static str,
    /// The defender's answer to a right move (ICCS).
    pub reply: Option<String>,
    /// After a wrong move, how the defender escapes (ICCS).
    pub refutation: Vec<String>,
    /// The same line in each notation, for the page to show.
    pub refutation_names: Vec<MoveNames>,
    /// The whole solution, once the puzzle is over (solved or failed).
    pub solution: Vec<String>,
    /// The same line in each notation, from the puzzle's position.
    pub solution_names: Vec<MoveNames>,
    /// After a right move and its reply, the solver's legal moves (ICCS).
    pub legal: Vec<String>,
}

fn legal_moves(pos: &xiangqi::Position) -> Vec<String> {
    moves_text(pos.legal_moves().as_slice())
}

fn moves_text(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// Reads the ICCS moves `played` in `puzzle` and resumes the attempt there.
fn resume(puzzle: &Puzzle, played: &[String]) -> Result<Attempt, ApiError> {
    if played.len() > 2 * puzzle.solution.len() + 2 {
        return Err(ApiError::BadRequest(
            "more moves than the puzzle has".into(),
        ));
    }
    let moves = played
        .iter()
        .map(|text| iccs_move(text.trim()))
        .collect::<Option<Vec<Move>>>()
        .ok_or_else(|| ApiError::BadRequest("the moves played are not all ICCS moves".into()))?;
    Attempt::resume(puzzle.clone(), moves).ok_or_else(|| {
        ApiError::rejected(
            "not_in_puzzle",
            "the moves played do not lead to the solver's turn in this puzzle",
        )
    })
}

/// Judges the solver's move.
pub fn play(body: &MoveBody) -> Result<MoveView, ApiError> {
    let puzzle = puzzle(&body.id)?;
    let mut attempt = resume(puzzle, &body.played)?;
    let text = body.mv.trim();
    let m = iccs_move(text)
        .ok_or_else(|| ApiError::rejected("unreadable", format!("{text:?} is not an ICCS move")))?;
    if let Some(reason) = attempt.position().why_illegal(m) {
        return Err(ApiError::rejected(reason.code(), reason.to_string()));
    }
    let mut analyst = Analyst::new(JUDGE_HASH_MB);
    let solution = moves_text(&puzzle.solution);
    let solution_names = line_names(&puzzle.position, &puzzle.solution);
    Ok(match attempt.play(m, &mut analyst) {
        Verdict::Solved => MoveView {
            verdict: "solved",
            reply: None,
            refutation: Vec::new(),
            refutation_names: Vec::new(),
            solution,
            solution_names,
            legal: Vec::new(),
        },
        Verdict::Right { reply } => MoveView {
            verdict: "right",
            reply: Some(reply.to_string()),
            refutation: Vec::new(),
            refutation_names: Vec::new(),
            solution: Vec::new(),
            solution_names: Vec::new(),
            legal: legal_moves(&attempt.position()),
        },
        Verdict::Wrong { refutation } => {
            // A wrong move is not kept in the attempt: the escape starts after it.
            let mut after_wrong = attempt.position();
            after_wrong.make_move(m);
            MoveView {
                verdict: "wrong",
                reply: None,
                refutation: moves_text(&refutation),
                refutation_names: line_names(&after_wrong, &refutation),
                solution,
                solution_names,
                legal: Vec::new(),
            }
        }
    })
}

/// A hint: the move the solver should make now (the page shows its piece first).
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct HintView {
    /// The square of the piece to move.
    pub from: String,
    /// The move, ICCS.
    #[serde(rename = "move")]
    pub mv: String,
}

/// The hint for an attempt.
pub fn hint(body: &AttemptBody) -> Result<HintView, ApiError> {
    let attempt = resume(puzzle(&body.id)?, &body.played)?;
    let m = attempt
        .reference_move(&mut Analyst::new(JUDGE_HASH_MB))
        .ok_or_else(|| ApiError::rejected("no_move", "there is no move to make here"))?;
    Ok(HintView {
        from: m.from().to_string(),
        mv: m.to_string(),
    })
}

/// A puzzle's whole solution (for the page's "show the solution").
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct SolutionView {
    /// Both sides' moves, ICCS, the solver's first.
    pub solution: Vec<String>,
    /// The same line in each notation, for the page to show.
    pub solution_names: Vec<MoveNames>,
}

/// The solution of the puzzle `{id}` names.
pub fn solution(body: &AttemptBody) -> Result<SolutionView, ApiError> {
    let puzzle = puzzle(&body.id)?;
    Ok(SolutionView {
        solution: moves_text(&puzzle.solution),
        solution_names: line_names(&puzzle.position, &puzzle.solution),
    })
}

/// The end of an attempt: `{id, solved}`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ResultBody {
    /// The puzzle.
    pub id: String,
    /// Solved without a wrong move or a hint.
    pub solved: bool,
}

/// Records the end of an attempt at `now` (Unix seconds) and returns the record's view.
pub fn result(
    record: &mut PuzzleRecord,
    body: &ResultBody,
    now: u64,
) -> Result<RecordView, ApiError> {
    record.add(puzzle(&body.id)?, body.solved, now);
    Ok(record_view(record))
}

#[cfg(test)]
mod tests;
