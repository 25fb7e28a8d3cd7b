//! What the page sees of a game: the JSON answers of the API.

use super::clock::TimeLeft;
use super::ending::Ending;
use super::game::{Human, Notice, SaveFailure, WebGame};
use super::game_file::IMPORT_HASH_TAG;
use super::job::JobKind;
use super::report::Analysis;
use super::review::Review;
use serde::Serialize;
use std::time::Instant;
use xiangqi::{format_move, Color, Notation};

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

/// How a game ended, as the page shows it.
#[derive(Serialize)]
pub struct OutcomeView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: &'static str,
    winner: Option<&'static str>,
    /// Why the game ended: the rules library's outcome code (`checkmate`, `perpetual_chase`,
    /// `no_capture_limit`, `timeout`, …), which the page translates; `None` for a loaded
    /// record's result that came without a reason.
    reason: Option<&'static str>,
}

#[derive(Serialize)]
struct HintView {
    iccs: String,
    chinese: String,
    score: i32,
}

/// The clock as the page shows it: each side's time left now, whose time runs, and the
/// controls as written in the PGN (`300+3`, `1200b30`).
#[derive(Serialize)]
struct ClockView {
    red: TimeLeft,
    black: TimeLeft,
    /// `red` or `black` while a side's time runs.
    running: Option<&'static str>,
    paused: bool,
    red_control: String,
    black_control: String,
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
    /// A loaded record's event and date (`None` for the games of this program).
    event: Option<String>,
    date: Option<String>,
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
    notice: Option<Notice>,
    redo: usize,
    clock: Option<ClockView>,
    /// The computer offers a draw: the person accepts with the draw button.
    draw_offered: bool,
    review: Option<Review>,
    save_error: Option<SaveFailure>,
    created: u64,
    updated: u64,
}

/// The page's form of `ending`.
pub fn outcome_view(ending: impl Into<Ending>) -> OutcomeView {
    let ending = ending.into();
    OutcomeView {
        result: ending.pgn_result(),
        winner: ending.winner().map(Color::name),
        reason: ending.code(),
    }
}

/// What the page shows of `entry` at `now`.
pub fn view(entry: &WebGame, now: Instant) -> GameView {
    let game = entry.game();
    let mut pos = game.start().clone();
    let mut moves = Vec::with_capacity(game.len());
    for m in game.moves() {
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
    let outcome = entry.ending();
    let thinking = entry.job_kind() == Some(JobKind::Computer);
    let paused = entry.clock().is_some_and(|c| c.is_paused());
    let legal =
        if outcome.is_none() && !thinking && !paused && entry.human().plays(pos.side_to_move()) {
            pos.legal_moves().iter().map(|m| m.to_string()).collect()
        } else {
            Vec::new()
        };
    let hint = entry.hint().map(|(m, score)| HintView {
        iccs: m.to_string(),
        chinese: format_move(&pos, m, Notation::Chinese),
        score,
    });
    let names = record_names(entry);
    GameView {
        id: entry.id().to_owned(),
        version: entry.version(),
        human: entry.human(),
        level: entry.level(),
        red: names.0,
        black: names.1,
        event: record_tag(entry, "Event"),
        date: record_tag(entry, "Date"),
        start_fen: game.start().to_fen(),
        fen: pos.to_fen(),
        turn: pos.side_to_move().name(),
        in_check: pos.in_check(),
        moves,
        legal,
        outcome: outcome.map(outcome_view),
        job: entry.job_kind(),
        analysis: entry.analysis().cloned(),
        analysis_on: entry.analysis_on(),
        hint,
        notice: entry.notice(),
        redo: entry.redo_len(),
        clock: clock_view(entry, now),
        draw_offered: entry.draw_offer_open(),
        review: entry.review().cloned(),
        save_error: entry.save_error().cloned(),
        created: entry.record().created,
        updated: entry.record().updated,
    }
}

fn clock_view(entry: &WebGame, now: Instant) -> Option<ClockView> {
    let clock = entry.clock()?;
    let [red, black] = entry.time_left(now)?;
    Some(ClockView {
        red,
        black,
        running: clock
            .is_running()
            .then(|| entry.position().side_to_move().name()),
        paused: clock.is_paused(),
        red_control: clock.control(Color::Red).to_tag(),
        black_control: clock.control(Color::Black).to_tag(),
    })
}

/// A tag the game's record brought with it (a loaded game's own `Event`, `Date`, …).
fn record_tag(entry: &WebGame, name: &str) -> Option<String> {
    entry
        .record()
        .tags
        .iter()
        .find(|(n, v)| n == name && !v.contains('?') && !v.is_empty())
        .map(|(_, v)| v.clone())
}

/// The players' names as the game's record gives them.
fn record_names(entry: &WebGame) -> (String, String) {
    let record = super::game_file::to_record(entry, Instant::now());
    (
        record.tag("Red").unwrap_or("?").to_owned(),
        record.tag("Black").unwrap_or("?").to_owned(),
    )
}

/// One line of the games list.
#[derive(Clone, Serialize)]
pub struct Summary {
    pub id: String,
    red: String,
    black: String,
    event: Option<String>,
    human: Human,
    level: u8,
    plies: usize,
    result: Option<&'static str>,
    reason: Option<&'static str>,
    created: u64,
    pub updated: u64,
    /// The fingerprint of the file the game was loaded from (not sent: it finds the game when
    /// the same file is loaded again).
    #[serde(skip)]
    pub import_hash: Option<String>,
}

/// The fingerprint of the file `entry` was loaded from, if it was (its `ImportHash` tag).
pub fn import_hash(entry: &WebGame) -> Option<String> {
    entry
        .record()
        .tags
        .iter()
        .find(|(name, _)| name == IMPORT_HASH_TAG)
        .map(|(_, value)| value.clone())
}

/// The games list's line for a game.
pub fn summary(entry: &WebGame) -> Summary {
    let (red, black) = record_names(entry);
    let outcome = entry.ending();
    Summary {
        id: entry.id().to_owned(),
        red,
        black,
        event: record_tag(entry, "Event"),
        human: entry.human(),
        level: entry.level(),
        plies: entry.game().len(),
        result: outcome.map(|o| o.pgn_result()),
        reason: outcome.and_then(Ending::code),
        created: entry.record().created,
        updated: entry.record().updated,
        import_hash: import_hash(entry),
    }
}
