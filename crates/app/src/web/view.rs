//! What the page sees of a game: the JSON answers of the API.

use super::games::{termination_name, GameEntry, Human, SaveFailure};
use super::search::{Analysis, JobKind, Review};
use serde::Serialize;
use xiangqi::{format_move, Color, Notation, Outcome};

/// One move of the game as the page lists it.
#[derive(Serialize)]
struct MoveView {
    iccs: String,
    chinese: String,
    wxf: String,
    /// The position after the move.
    fen: String,
    capture: bool,
    check: bool,
}

#[derive(Serialize)]
struct OutcomeView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: &'static str,
    winner: Option<&'static str>,
    /// `checkmate`, `stalemate`, `perpetual check`, `perpetual chase`, `repetition`,
    /// `60-move rule`, `insufficient material`, `resignation`, `agreement`.
    reason: &'static str,
}

#[derive(Serialize)]
struct HintView {
    iccs: String,
    chinese: String,
    score: i32,
}

/// Everything the page shows about a game.
#[derive(Serialize)]
pub struct GameView {
    id: String,
    version: u64,
    human: Human,
    level: u8,
    red: String,
    black: String,
    start_fen: String,
    fen: String,
    turn: &'static str,
    in_check: bool,
    moves: Vec<MoveView>,
    /// The person's legal moves now (empty on the computer's turn or after the end).
    legal: Vec<String>,
    outcome: Option<OutcomeView>,
    job: Option<JobKind>,
    analysis: Option<Analysis>,
    analysis_on: bool,
    hint: Option<HintView>,
    notice: Option<String>,
    redo: usize,
    review: Option<Review>,
    save_error: Option<SaveFailure>,
    created: u64,
    updated: u64,
}

fn outcome_view(outcome: Outcome) -> OutcomeView {
    OutcomeView {
        result: outcome.pgn_result(),
        winner: outcome.winner().map(Color::name),
        reason: termination_name(outcome),
    }
}

pub fn view(entry: &GameEntry) -> GameView {
    let mut pos = entry.game.start().clone();
    let mut moves = Vec::with_capacity(entry.game.len());
    for m in entry.game.moves() {
        let capture = pos.piece_at(m.to()).is_some();
        let iccs = m.to_string();
        let chinese = format_move(&pos, m, Notation::Chinese);
        let wxf = format_move(&pos, m, Notation::Wxf);
        pos.make_move(m);
        moves.push(MoveView {
            iccs,
            chinese,
            wxf,
            fen: pos.to_fen(),
            capture,
            check: pos.in_check(),
        });
    }
    let outcome = entry.outcome();
    let thinking = entry
        .job
        .as_ref()
        .is_some_and(|j| j.kind == JobKind::Computer);
    let legal = if outcome.is_none() && !thinking && entry.human.plays(pos.side_to_move()) {
        pos.legal_moves().iter().map(|m| m.to_string()).collect()
    } else {
        Vec::new()
    };
    let hint = entry
        .hint
        .filter(|(v, _, _)| *v == entry.version)
        .filter(|(_, m, _)| pos.is_legal(*m))
        .map(|(_, m, score)| HintView {
            iccs: m.to_string(),
            chinese: format_move(&pos, m, Notation::Chinese),
            score,
        });
    let record = entry.record();
    GameView {
        id: entry.id.clone(),
        version: entry.version,
        human: entry.human,
        level: entry.level,
        red: record.tag("Red").unwrap_or("?").to_owned(),
        black: record.tag("Black").unwrap_or("?").to_owned(),
        start_fen: entry.game.start().to_fen(),
        fen: pos.to_fen(),
        turn: pos.side_to_move().name(),
        in_check: pos.in_check(),
        moves,
        legal,
        outcome: outcome.map(outcome_view),
        job: entry.job.as_ref().map(|j| j.kind),
        analysis: entry.analysis.clone(),
        analysis_on: entry.analysis_on,
        hint,
        notice: entry
            .notice
            .as_ref()
            .filter(|(v, _)| *v == entry.version)
            .map(|(_, n)| n.clone()),
        redo: entry.redo.len(),
        review: entry.review.clone(),
        save_error: entry.save_error.clone(),
        created: entry.created,
        updated: entry.updated,
    }
}

/// One line of the games list.
#[derive(Clone, Serialize)]
pub struct Summary {
    pub id: String,
    red: String,
    black: String,
    human: Human,
    level: u8,
    plies: usize,
    result: Option<&'static str>,
    reason: Option<&'static str>,
    created: u64,
    pub updated: u64,
}

/// The games list's line for a game.
pub fn summary(entry: &GameEntry) -> Summary {
    let record = entry.record();
    let outcome = entry.outcome();
    Summary {
        id: entry.id.clone(),
        red: record.tag("Red").unwrap_or("?").to_owned(),
        black: record.tag("Black").unwrap_or("?").to_owned(),
        human: entry.human,
        level: entry.level,
        plies: entry.game.len(),
        result: outcome.map(|o| o.pgn_result()),
        reason: outcome.map(termination_name),
        created: entry.created,
        updated: entry.updated,
    }
}
