//! An engine job of a game run as a sequence of searches: the orders it gives (what to search
//! and how) and what each answer changes in the game.
//!
//! The server runs the orders on its pool's engines and the static site on the engine in a
//! worker of its own; both hand the answers back here, so the computer's move, a hint, an
//! answer to a draw offer, an analysis and a review come out the same on both.

use crate::entry::GameEntry;
use crate::game::{Notice, Refusal};
use crate::job::JobKind;
use crate::judgement;
use crate::keep::{Keep, StoreError};
use crate::report::{capped, Analysis, SCORE_CAP};
use crate::review::{self, Check, Evaluated};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use xiangqi::{Move, Position};
use xiangqi_engine::instant::Instant;
use xiangqi_engine::strength::{self, Strength};
use xiangqi_engine::{Engine, Limits, SearchInfo, SearchRequest, SearchResult};

/// Longest the computer thinks at level 10, the full engine.
pub const FULL_STRENGTH_MS: u64 = 3000;
/// Longest a weakened level may think, whatever its node budget (a safety net for slow
/// machines; on a typical one the budget runs out well before).
pub const WEAKENED_CAP_MS: u64 = 2000;

/// Engines playing on a clock stop this much before their time is up, for what happens between
/// the search and the clock (handing the move over, saving it, a busy machine).
pub const CLOCK_OVERHEAD: Duration = Duration::from_millis(100);

/// The search limits of difficulty `level` (1–10): levels below 10 are bounded by their node
/// budget (see [`level_strength`]) and a time cap; level 10 thinks for a fixed time.
pub fn level_limits(level: u8) -> Limits {
    let ms = if level >= strength::MAX_LEVEL {
        FULL_STRENGTH_MS
    } else {
        WEAKENED_CAP_MS
    };
    Limits {
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    }
}

/// How the computer weakens itself at difficulty `level` (`None` at level 10): the engine's
/// calibrated levels, see `xiangqi_engine::strength`.
pub fn level_strength(level: u8) -> Option<Strength> {
    Some(Strength::level(level)).filter(|s| !s.is_full())
}

/// A search to `depth` plies or for `ms` milliseconds, whichever ends first.
pub fn limits(depth: u32, ms: u64) -> Limits {
    Limits {
        depth: Some(depth),
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    }
}

/// The job a game needs now, if none runs: the computer's move when it is to move (unless its
/// last move could not be kept: it moves again when the person retries), else an analysis
/// when the person asked for one.
pub fn next_job(entry: &GameEntry) -> Option<JobKind> {
    if entry.is_removed() || entry.job_kind().is_some() {
        return None;
    }
    if entry.game().computer_to_move() {
        entry.save_error().is_none().then_some(JobKind::Computer)
    } else {
        entry.wants_analysis().then_some(JobKind::Analysis)
    }
}

/// One search a job asks for.
#[derive(Clone, Debug)]
pub struct Order {
    /// The game's start, the moves to the position searched, and the limits.
    pub request: SearchRequest,
    /// The level the computer plays at (`None`: the full engine).
    pub level: Option<u8>,
    /// Lines (MultiPV) to report.
    pub lines: usize,
    /// Whether the opening book may answer: the computer's moves do, for variety; analysis,
    /// hints, draw offers and reviews judge positions and do not.
    pub book: bool,
    /// How much before a clock's end the search stops.
    pub overhead: Duration,
    /// Moves to search side by side, each a line of its own (a review's check of a move
    /// against the engine's suggestion); empty for a plain search.
    pub compare: Vec<Move>,
}

impl Order {
    /// Sets `engine` up for this order (its lines, book, overhead and strength).
    pub fn prepare(&self, engine: &mut Engine) {
        engine.set_own_book(self.book);
        engine.set_multipv(self.lines.max(self.compare.len()));
        engine.set_move_overhead(self.overhead);
        engine.set_strength(self.level.and_then(level_strength));
    }

    /// The request to search: a comparison searches only its moves.
    pub fn search_request(&self) -> SearchRequest {
        let mut request = self.request.clone();
        if !self.compare.is_empty() {
            request.search_moves = self.compare.clone();
        }
        request
    }

    /// What the search found, as the job takes it: `comparison` holds the reports of a
    /// comparison's search; `at` is when the search ended (the moment of the computer's move).
    pub fn outcome(&self, result: SearchResult, comparison: &Comparison, at: Instant) -> Outcome {
        if self.compare.is_empty() {
            Outcome::Found { result, at }
        } else {
            Outcome::Compared(comparison.scores(&self.compare))
        }
    }
}

/// What the search of an order found.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A plain search's result, and when it was found.
    Found {
        /// The result.
        result: SearchResult,
        /// When the search ended: for the clock, the moment the computer moved.
        at: Instant,
    },
    /// A comparison's scores, in the order's move order, at the last depth every line
    /// reached, with that depth; `None` if not one depth was completed.
    Compared(Option<(Vec<i32>, u32)>),
}

/// The reports of a comparison's search, to read each compared move's score from.
#[derive(Debug, Default)]
pub struct Comparison {
    /// Depth, first move and score of each line reported.
    lines: Vec<(u32, Move, i32)>,
}

impl Comparison {
    /// Notes one report.
    pub fn note(&mut self, info: &SearchInfo) {
        if let Some(&first) = info.pv.first() {
            self.lines.push((info.depth, first, info.score));
        }
    }

    /// Each of `moves`' score at the last depth reported, which all lines reach together, and
    /// that depth; `None` if a move has no line there.
    pub fn scores(&self, moves: &[Move]) -> Option<(Vec<i32>, u32)> {
        let depth = self.lines.last()?.0;
        let scores = moves
            .iter()
            .map(|&m| {
                self.lines
                    .iter()
                    .rev()
                    .find(|&&(d, first, _)| d == depth && first == m)
                    .map(|&(_, _, score)| score)
            })
            .collect::<Option<Vec<i32>>>()?;
        Some((scores, depth))
    }
}

/// What to do after an answer was applied.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Ask [`JobRun::next`] for the next order.
    Next,
    /// The job is over and changed nothing more: nothing else to start.
    Stop,
}

/// A job of a game in progress: what it works on (copied when it began) and how far it is.
#[derive(Debug)]
pub struct JobRun {
    kind: JobKind,
    cancel: Arc<AtomicBool>,
    paused: Arc<AtomicBool>,
    start: Position,
    moves: Vec<Move>,
    root: Position,
    version: u64,
    level: u8,
    clocked: bool,
    lines: usize,
    /// Whether the single search of a job that is not a review was ordered.
    ordered: bool,
    walk: Option<ReviewWalk>,
}

impl JobRun {
    /// Begins a job of `kind` for the game, replacing (cancelling) the one it had.
    pub fn begin(entry: &mut GameEntry, kind: JobKind) -> JobRun {
        let (cancel, paused) = entry.begin_job(kind);
        let game = entry.game();
        let start = game.rules().start().clone();
        let moves: Vec<Move> = game.rules().moves().collect();
        let walk = (kind == JobKind::Review)
            .then(|| {
                entry
                    .review()
                    .map(|r| ReviewWalk::new(&start, &moves, r.depth))
            })
            .flatten();
        JobRun {
            kind,
            cancel,
            paused,
            root: game.position().clone(),
            version: game.version(),
            level: game.level(),
            clocked: game.clock().is_some(),
            lines: entry.analysis_lines(),
            start,
            moves,
            ordered: false,
            walk,
        }
    }

    /// What the job does.
    pub fn kind(&self) -> JobKind {
        self.kind
    }

    /// The job's cancel flag: set when something changed the game and the job is unwanted.
    pub fn cancel_flag(&self) -> &Arc<AtomicBool> {
        &self.cancel
    }

    /// The job's pause flag: set while the game's clock is paused and its search is to wait.
    pub fn pause_flag(&self) -> &Arc<AtomicBool> {
        &self.paused
    }

    /// Whether the job is still the game's current one, wanted.
    pub fn is_current(&self, entry: &GameEntry) -> bool {
        entry.owns(&self.cancel)
    }

    /// The next search, to start `now`; `None` when the job is done (it is then ended).
    pub fn next(&mut self, entry: &mut GameEntry, now: Instant) -> Option<Order> {
        let order = match self.walk.as_mut() {
            Some(walk) => walk.next(entry),
            None if self.ordered => None,
            None => {
                self.ordered = true;
                Some(self.order(entry, now))
            }
        };
        if order.is_none() {
            entry.end_job(&self.cancel);
        }
        order
    }

    /// The order of a job that is a single search.
    fn order(&self, entry: &GameEntry, now: Instant) -> Order {
        let limits = match self.kind {
            // On the clock: the time left now, when the search really starts (a queue for an
            // engine must not eat into it unseen).
            JobKind::Computer if self.clocked => Limits {
                clock: entry.game().engine_clock(now),
                ..Limits::default()
            },
            JobKind::Computer => level_limits(self.level),
            JobKind::Analysis => limits(40, 60_000),
            JobKind::Hint => limits(12, 1500),
            JobKind::Draw => limits(8, 600),
            JobKind::Review => Limits::default(),
        };
        let mut request = SearchRequest::new(self.start.clone(), limits);
        request.moves = self.moves.clone();
        let computer = self.kind == JobKind::Computer;
        Order {
            request,
            // Only the computer's own moves are weakened; hints and analysis get the full engine.
            level: computer.then_some(self.level),
            // Only an analysis shows several lines.
            lines: if self.kind == JobKind::Analysis {
                self.lines
            } else {
                1
            },
            book: computer,
            overhead: if computer && self.clocked {
                CLOCK_OVERHEAD
            } else {
                Duration::ZERO
            },
            compare: Vec::new(),
        }
    }

    /// Shows a progress report of the search on the game's page (a review shows its own).
    pub fn report(&self, entry: &mut GameEntry, info: &SearchInfo) {
        if self.walk.is_some() || !self.is_current(entry) {
            return;
        }
        if info.multipv <= 1 {
            entry.set_report(Analysis::new(self.kind, &self.root, info));
        } else if let Some(report) = entry.report_mut() {
            report.add_line(&self.root, info);
        }
    }

    /// Applies an answer to the game (the job must still be current), keeping what it
    /// changes in `keep`.
    pub fn finish(&mut self, entry: &mut GameEntry, outcome: Outcome, keep: &impl Keep) -> Flow {
        if let Some(walk) = self.walk.as_mut() {
            walk.answer(entry, outcome);
            return Flow::Next;
        }
        let up_to_date = entry.job_is_up_to_date(&self.cancel);
        entry.end_job(&self.cancel);
        let Outcome::Found { result, at } = outcome else {
            return Flow::Stop;
        };
        if !up_to_date {
            return Flow::Stop;
        }
        match self.kind {
            JobKind::Computer => return self.computer_moves(entry, &result, at, keep),
            JobKind::Analysis => entry.analysed(self.version),
            JobKind::Hint => {
                if let Some(best) = result.best_move {
                    entry.set_hint(self.version, best, result.score);
                }
            }
            JobKind::Draw => {
                // The score is for the side to move; the computer's view is what counts.
                let score = if entry.game().computer_to_move() {
                    result.score
                } else {
                    -result.score
                };
                let accept = judgement::accepts_draw(score, entry.game().position());
                let answered = keep.update(entry, |entry| {
                    entry.change(|game| game.answer_draw_offer(accept, Instant::now()));
                    Ok::<_, StoreError>(((), accept))
                });
                if let Err(StoreError::Disk(e)) = answered {
                    entry.set_save_error(Some((&e).into()));
                }
            }
            JobKind::Review => {}
        }
        Flow::Next
    }

    /// Plays the computer's move (or resigns for it), offering a draw when the judgement says
    /// so.
    fn computer_moves(
        &self,
        entry: &mut GameEntry,
        result: &SearchResult,
        at: Instant,
        keep: &impl Keep,
    ) -> Flow {
        let Some(best) = result.best_move else {
            return Flow::Stop;
        };
        let mut scores = entry.game().computer_scores().to_vec();
        scores.push(result.score);
        let resigns = judgement::resigns(self.level, &scores);
        let played = keep.update(entry, |entry| {
            if resigns {
                entry.change(|game| game.computer_resigns(at));
            } else {
                entry.play_computer(best, at).map_err(Unplayed::Illegal)?;
                entry.change(|game| {
                    game.note_computer_score(result.score);
                    if judgement::offers_draw(game.computer_scores(), game.position()) {
                        game.offer_draw_to_person();
                    }
                });
            }
            Ok(((), true))
        });
        match played {
            Ok(()) => Flow::Next,
            Err(Unplayed::Illegal(refusal)) => {
                eprintln!(
                    "warning: the engine's move was refused: {}",
                    refusal.message
                );
                entry.change(|game| game.notify(Notice::EngineFailed));
                Flow::Stop
            }
            Err(Unplayed::Store(StoreError::Disk(e))) => {
                // It moves again when the person retries.
                entry.set_save_error(Some((&e).into()));
                Flow::Stop
            }
            Err(Unplayed::Store(StoreError::Gone)) => Flow::Stop,
        }
    }
}

/// Why the computer's move was not made.
enum Unplayed {
    /// The rules refused it (a broken invariant, reported to the page).
    Illegal(Refusal),
    /// The game could not be kept with it.
    Store(StoreError),
}

impl From<StoreError> for Unplayed {
    fn from(error: StoreError) -> Self {
        Unplayed::Store(error)
    }
}

/// A review in progress: every position of the game evaluated in turn, and each move that
/// seems to lose checked against the engine's suggestion ([`review::needs_check`]).
#[derive(Debug)]
struct ReviewWalk {
    start: Position,
    moves: Vec<Move>,
    positions: Vec<Position>,
    max_depth: u32,
    time: Duration,
    /// Each position's evaluation so far, with the depth it reached.
    found: Vec<(Evaluated, u32)>,
    /// The engine's line in each position, kept with a mark as the better line.
    lines: Vec<Vec<Move>>,
    /// The move into the last evaluated position is being checked against this suggestion.
    checking: Option<Move>,
}

impl ReviewWalk {
    fn new(start: &Position, moves: &[Move], depth: review::ReviewDepth) -> ReviewWalk {
        let (max_depth, time) = depth.limits();
        let mut pos = start.clone();
        let mut positions = vec![pos.clone()];
        for &m in moves {
            pos.make_move(m);
            positions.push(pos.clone());
        }
        ReviewWalk {
            start: start.clone(),
            moves: moves.to_vec(),
            positions,
            max_depth,
            time,
            found: Vec::new(),
            lines: Vec::new(),
            checking: None,
        }
    }

    fn order_at(&self, i: usize, limits: Limits, compare: Vec<Move>) -> Order {
        let mut request = SearchRequest::new(self.start.clone(), limits);
        request.moves = self.moves[..i].to_vec();
        Order {
            request,
            level: None,
            lines: 1,
            book: false,
            overhead: Duration::ZERO,
            compare,
        }
    }

    fn next(&mut self, entry: &mut GameEntry) -> Option<Order> {
        let ms = self.time.as_millis() as u64;
        loop {
            let i = self.found.len();
            if let Some(suggested) = self.checking {
                // The move into the last position evaluated, and the suggestion instead of
                // it, searched side by side to the depth the suggestion came from.
                let p = i - 2;
                let check = limits(self.found[p].1.max(1), 2 * ms);
                return Some(self.order_at(p, check, vec![self.moves[p], suggested]));
            }
            let root = self.positions.get(i)?;
            if !root.has_no_legal_move() {
                return Some(self.order_at(i, limits(self.max_depth, ms), Vec::new()));
            }
            let lost = Evaluated {
                score: -SCORE_CAP,
                best: None,
            };
            self.evaluated(entry, lost, 0, Vec::new());
        }
    }

    fn answer(&mut self, entry: &mut GameEntry, outcome: Outcome) {
        match outcome {
            Outcome::Found { result, .. } => {
                let now = Evaluated {
                    score: capped(result.score),
                    best: result.best_move,
                };
                self.evaluated(entry, now, result.depth, result.pv);
            }
            Outcome::Compared(compared) => {
                self.checking = None;
                let check = compared.map(|(scores, depth)| Check {
                    played: capped(scores[0]),
                    suggested: capped(scores[1]),
                    depth,
                });
                self.add(entry, check);
            }
        }
    }

    /// The next position evaluated: its move is checked if it seems to lose, else it goes
    /// into the review.
    fn evaluated(&mut self, entry: &mut GameEntry, now: Evaluated, depth: u32, line: Vec<Move>) {
        let i = self.found.len();
        self.found.push((now, depth));
        self.lines.push(line);
        let suggested = i
            .checked_sub(1)
            .and_then(|p| review::needs_check(self.found[p].0, self.moves[p], -now.score));
        match suggested {
            Some(suggested) => self.checking = Some(suggested),
            None => self.add(entry, None),
        }
    }

    /// Adds the last evaluated position to the game's review.
    fn add(&self, entry: &mut GameEntry, check: Option<Check>) {
        let i = self.found.len() - 1;
        let Some(review) = entry.review_mut() else {
            return;
        };
        let before = i.checked_sub(1).map(|p| {
            (
                &self.positions[p],
                self.found[p].0,
                &self.lines[p][..],
                self.moves[p],
            )
        });
        review.add(&self.positions[i], self.found[i].0, before, check);
    }
}
