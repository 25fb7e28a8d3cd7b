//! What the page sees of a game: the JSON answers of the API.

use crate::clock::TimeLeft;
use crate::ending::Ending;
use crate::entry::{GameEntry, SaveFailure};
use crate::game::{Human, Notice, WebGame};
use crate::game_file::{opening, record_names, record_tag, GameOpening};
use crate::job::JobKind;
use crate::move_names::MoveNames;
use crate::report::Analysis;
use crate::review::Review;
use serde::Serialize;
use xiangqi::pgn::RecordMove;
use xiangqi::{Color, Position};
use xiangqi_engine::instant::Instant;

/// One move of the game as the page lists it.
#[derive(Serialize)]
struct MoveView {
    #[serde(flatten)]
    names: MoveNames,
    /// The position after the move.
    fen: String,
    capture: bool,
    check: bool,
    /// How long the move took on its side's clock, in milliseconds, when that is known (a
    /// game on the clock, the move made before byo-yomi).
    took_ms: Option<u64>,
    /// The comment after the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    comment: Option<String>,
    /// The comment before it (a variation's first move).
    #[serde(skip_serializing_if = "Option::is_none")]
    before: Option<String>,
    /// Its annotation glyphs (PGN's numbers: 1 `!`, 2 `?`, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    nags: Vec<u8>,
    /// The lines that could have been played instead, each from the position before it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    variations: Vec<Vec<MoveView>>,
}

impl MoveView {
    /// Move `m` of a game's tree, played from `pos` (which it leaves after the move), with its
    /// annotations and variations.
    fn new(pos: &mut Position, m: &RecordMove, took_ms: Option<u64>) -> MoveView {
        let variations = m
            .variations
            .iter()
            .map(|line| line_view(pos.clone(), line))
            .collect();
        let capture = pos.piece_at(m.mv.to()).is_some();
        let names = MoveNames::of(pos, m.mv);
        pos.make_move(m.mv);
        MoveView {
            names,
            fen: pos.to_fen(),
            capture,
            check: pos.in_check(),
            took_ms,
            comment: m.comment.clone(),
            before: m.comment_before.clone(),
            nags: m.nags.clone(),
            variations,
        }
    }
}

/// A variation played from `pos`.
fn line_view(mut pos: Position, line: &[RecordMove]) -> Vec<MoveView> {
    line.iter()
        .map(|m| MoveView::new(&mut pos, m, None))
        .collect()
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

/// The computer's suggestion: the move in each notation, and its score for the side to move.
#[derive(Serialize)]
struct HintView {
    #[serde(flatten)]
    names: MoveNames,
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
    /// The ECCO opening: the loaded file's, else the main line's.
    opening: Option<GameOpening>,
    start_fen: String,
    fen: String,
    turn: &'static str,
    in_check: bool,
    /// The moves with their comments and variations; left out (with the first comment) when
    /// the page said it has them ([`GameView::leave_out_moves`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveView>>,
    /// The comment before the first move.
    #[serde(skip_serializing_if = "Option::is_none")]
    initial_comment: Option<String>,
    /// Names the state of the comments and variations (see [`WebGame::revision`]).
    revision: u64,
    /// Whether edits may change the main line (see [`WebGame::is_study_board`]).
    study_board: bool,
    /// The person's legal moves now (empty on the computer's turn or after the end).
    legal: Vec<String>,
    outcome: Option<OutcomeView>,
    job: Option<JobKind>,
    analysis: Option<Analysis>,
    analysis_on: bool,
    /// How many lines an analysis shows.
    analysis_lines: usize,
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

impl GameView {
    /// Leaves out the moves and the first comment, which the page has for this version and
    /// revision.
    pub fn leave_out_moves(&mut self) {
        self.moves = None;
        self.initial_comment = None;
    }
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
pub fn view(entry: &GameEntry, now: Instant) -> GameView {
    let game = entry.game();
    let rules = game.rules();
    let mut pos = rules.start().clone();
    let mut moves = Vec::with_capacity(rules.len());
    let taken = game
        .clock()
        .map(|clock| clock.times_taken(rules.start().side_to_move()))
        .unwrap_or_default();
    for (i, m) in game.record().line.iter().take(rules.len()).enumerate() {
        let took_ms = taken
            .get(i)
            .copied()
            .flatten()
            .map(|d| d.as_millis() as u64);
        moves.push(MoveView::new(&mut pos, m, took_ms));
    }
    let outcome = game.ending();
    let thinking = entry.job_kind() == Some(JobKind::Computer);
    let paused = game.clock().is_some_and(|c| c.is_paused());
    let legal =
        if outcome.is_none() && !thinking && !paused && game.human().plays(pos.side_to_move()) {
            pos.legal_moves().iter().map(|m| m.to_string()).collect()
        } else {
            Vec::new()
        };
    let hint = entry.hint().map(|(m, score)| HintView {
        names: MoveNames::of(&pos, m),
        score,
    });
    let names = record_names(game);
    GameView {
        id: game.id().to_owned(),
        version: game.version(),
        human: game.human(),
        level: game.level(),
        red: names.0,
        black: names.1,
        event: record_tag(game, "Event"),
        date: record_tag(game, "Date"),
        opening: opening(game),
        start_fen: rules.start().to_fen(),
        fen: pos.to_fen(),
        turn: pos.side_to_move().name(),
        in_check: pos.in_check(),
        moves: Some(moves),
        initial_comment: game.record().initial_comment.clone(),
        revision: game.revision(),
        study_board: game.is_study_board(),
        legal,
        outcome: outcome.map(outcome_view),
        job: entry.job_kind(),
        analysis: entry.analysis().cloned(),
        analysis_on: entry.analysis_on(),
        analysis_lines: entry.analysis_lines(),
        hint,
        notice: game.notice(),
        redo: game.redo_len(),
        clock: clock_view(game, now),
        draw_offered: game.draw_offer_open(),
        review: entry.review().cloned(),
        save_error: entry.save_error().cloned(),
        created: game.record().created,
        updated: game.record().updated,
    }
}

fn clock_view(game: &WebGame, now: Instant) -> Option<ClockView> {
    let clock = game.clock()?;
    let [red, black] = game.time_left(now)?;
    Some(ClockView {
        red,
        black,
        running: clock
            .is_running()
            .then(|| game.position().side_to_move().name()),
        paused: clock.is_paused(),
        red_control: clock.control(Color::Red).to_tag(),
        black_control: clock.control(Color::Black).to_tag(),
    })
}
