//! The protocol session: reads GUI lines, keeps the session state (dialect, options, the
//! position) and drives the engine. Search output arrives on the search thread and is written
//! under the same lock as everything else, so lines never interleave.

use super::command::go::GoParams;
use super::command::{parse_line, shown, Command, Dialect, PositionSpec};
use super::format::{format_info, format_move, wdl};
use super::options::{self, Opt, Value, IGNORED, OPTIONS};
use super::output::{say, Output};
use super::perft::PerftJob;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xiangqi::{parse_move_as, perft_depth_refusal, Move, Notation, Position, Validation};
use xiangqi_engine::nnue::{self, Network};
use xiangqi_engine::score::MATE_BOUND;
use xiangqi_engine::strength::{self, Strength};
use xiangqi_engine::{
    Book, Clock, Engine, EngineOptions, Limits, SearchRequest, SearchResult, Tablebases,
};
use xiangqi_files::lines::{read_line, Read, MAX_LINE_BYTES};

/// Engine name reported to GUIs.
pub const NAME: &str = concat!("Xiangqi ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the xiangqi project authors";

/// Whether the session goes on after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received.
    Quit,
}

/// Settings a session keeps between commands.
struct Settings {
    ucci_millis: bool,
    /// Fairy-Stockfish convention after `UCI_Variant xiangqi`: ranks 1–10 in moves.
    ranks_1_to_10: bool,
    show_wdl: bool,
}

/// One GUI session.
pub struct Session {
    dialect: Option<Dialect>,
    out: Output,
    engine: Engine,
    settings: Arc<Mutex<Settings>>,
    start: Position,
    moves: Vec<Move>,
    banned: Vec<Move>,
    /// The strength options: `Level` (10 is full strength), and `UCI_Elo`, which takes over
    /// while `UCI_LimitStrength` is on.
    level: u8,
    limit_strength: bool,
    elo: i32,
    /// The network `EvalFile` chose; the engine evaluates with it while `Use NNUE` is on.
    network: ChosenNetwork,
    /// The folder `TablebaseDir` named, whose tables the engine probes (empty: none).
    tablebase_dir: String,
    /// The last `go perft`, which may still be counting on its own thread.
    perft: Option<PerftJob>,
}

/// A network and the name `EvalFile` chose it by (`<embedded>` for the built-in one).
struct ChosenNetwork {
    network: Arc<Network>,
    name: String,
}

impl ChosenNetwork {
    /// The built-in network.
    fn embedded() -> ChosenNetwork {
        ChosenNetwork {
            network: nnue::embedded(),
            name: nnue::EMBEDDED_NAME.to_owned(),
        }
    }

    /// The network file at `path`; empty, `<empty>` or `<embedded>` name the built-in one.
    fn load(path: &str) -> Result<ChosenNetwork, nnue::NetworkError> {
        if path.is_empty() || path == "<empty>" || path == nnue::EMBEDDED_NAME {
            return Ok(ChosenNetwork::embedded());
        }
        Ok(ChosenNetwork {
            network: Arc::new(Network::load(Path::new(path))?),
            name: path.to_owned(),
        })
    }
}

impl Session {
    /// A session writing to `out`, speaking `dialect` if already known (else decided by the
    /// first `uci` or `ucci`).
    pub fn new(dialect: Option<Dialect>, out: Output) -> Session {
        Session::with_options(dialect, out, EngineOptions::default())
    }

    /// [`Session::new`] with an engine made from `options` (a small hash table for tests and
    /// fuzzing, where a session lives for a few lines).
    pub fn with_options(dialect: Option<Dialect>, out: Output, options: EngineOptions) -> Session {
        Session {
            dialect,
            out,
            engine: Engine::new(options),
            settings: Arc::new(Mutex::new(Settings {
                ucci_millis: false,
                ranks_1_to_10: false,
                show_wdl: false,
            })),
            start: Position::startpos(),
            moves: Vec::new(),
            banned: Vec::new(),
            level: strength::MAX_LEVEL,
            limit_strength: false,
            elo: strength::MAX_ELO,
            network: ChosenNetwork::embedded(),
            tablebase_dir: String::new(),
            perft: None,
        }
    }

    /// Makes the engine idle before a command that would change what a search or perft works
    /// on, so commands take effect in the order they came, as if each had waited for the one
    /// before: a search or perft that ends by itself is waited for; one that may never end by
    /// itself (`go infinite`, pondering, a mate search without other limits) is stopped, and
    /// its best move printed, as `stop` would.
    fn settle(&mut self) {
        if let Some(perft) = self.perft.take() {
            perft.wait();
        }
        if self.engine.is_unbounded() {
            self.engine.stop();
        }
        self.engine.wait();
    }

    /// Ends a running perft (at once, printing its last line) and search, and waits until the
    /// search's `bestmove` is printed: whatever comes after `stop` applies to an idle engine.
    /// Also what `quit` and the end of the input do.
    fn stop(&mut self) {
        self.perft = None;
        self.engine.stop_and_wait();
    }

    /// Hands the strength options to the engine.
    fn apply_strength(&mut self) {
        let chosen = if self.limit_strength {
            Some(Strength::elo(self.elo))
        } else {
            Some(Strength::level(self.level))
        };
        self.engine.set_strength(chosen);
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn complain(&self, message: &str) {
        self.say(&format!("info string {message}"));
    }

    fn notation(&self) -> Notation {
        if self.settings.lock().is_ok_and(|s| s.ranks_1_to_10) {
            Notation::UciRanks1To10
        } else {
            Notation::Iccs
        }
    }

    /// The position the next `go` searches.
    fn root(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.make_move(m);
        }
        pos
    }

    /// Handles one input line. Never panics on bad input: problems become `info string`.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let dialect = self.dialect.unwrap_or(Dialect::Uci);
        let millis = self.settings.lock().is_ok_and(|s| s.ucci_millis);
        match parse_line(line, dialect, millis) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.execute(command),
            Err(e) => {
                self.complain(&e.to_string());
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => {
                self.dialect = Some(Dialect::Uci);
                self.identify_uci();
            }
            Command::Ucci => {
                self.dialect = Some(Dialect::Ucci);
                self.identify_ucci();
            }
            Command::IsReady => self.say("readyok"),
            Command::Debug(_) | Command::Register => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                self.settle();
                self.engine.new_game();
                self.start = Position::startpos();
                self.moves.clear();
                self.banned.clear();
            }
            // The position is the next `go`'s: a running search has its own copy.
            Command::Position(spec) => {
                if let Some((start, moves)) = self.read_position(&spec) {
                    self.start = start;
                    self.moves = moves;
                    self.banned.clear();
                }
            }
            Command::BanMoves(tokens) => self.ban_moves(&tokens),
            Command::Go(params) => self.go(params),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => self.stop(),
            Command::PonderHit { .. } => self.engine.ponderhit(),
            Command::Probe(spec) => self.probe(&spec),
            Command::Display => {
                let text = self.root().to_string();
                for line in text.lines() {
                    self.say(line);
                }
            }
            Command::Eval => {
                let root = self.root();
                let score = xiangqi_engine::tuning::DEFAULT_EVALUATOR.evaluate(&root);
                let network = self.network.network.evaluate(&root);
                self.say(&format!(
                    "info string eval {score} (side to move); network {network} ({})",
                    self.network.name
                ));
            }
            Command::Quit => {
                self.stop();
                if self.dialect == Some(Dialect::Ucci) {
                    self.say("bye");
                }
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn identify_uci(&self) {
        self.say(&format!("id name {NAME}"));
        self.say(&format!("id author {AUTHOR}"));
        self.announce_options(Dialect::Uci);
        self.say("uciok");
    }

    fn identify_ucci(&self) {
        self.say(&format!("id name {NAME}"));
        self.say("id copyright open source (MIT OR Apache-2.0)");
        self.say(&format!("id author {AUTHOR}"));
        self.say("id user unknown");
        self.announce_options(Dialect::Ucci);
        self.say("ucciok");
    }

    /// The `option` lines of `dialect`, each with the option's current value as its default.
    fn announce_options(&self, dialect: Dialect) {
        for spec in &OPTIONS {
            if let Some(line) = spec.line(dialect, &self.current(spec.opt)) {
                self.say(&line);
            }
        }
    }

    /// An option's current value, as its `option` line shows it.
    fn current(&self, opt: Opt) -> String {
        let o = self.engine.options();
        let (millis, show_wdl) = self
            .settings
            .lock()
            .map_or((false, false), |s| (s.ucci_millis, s.show_wdl));
        match opt {
            Opt::Hash => o.hash_mb.to_string(),
            Opt::Threads => o.threads.to_string(),
            Opt::MultiPv => o.multipv.to_string(),
            Opt::Ponder => "false".to_owned(),
            Opt::MoveOverhead => o.move_overhead.as_millis().to_string(),
            Opt::OwnBook => o.own_book.to_string(),
            Opt::BookFile | Opt::ClearHash => String::new(),
            Opt::ShowWdl => show_wdl.to_string(),
            Opt::Variant => "xiangqi".to_owned(),
            Opt::Level => self.level.to_string(),
            Opt::LimitStrength => self.limit_strength.to_string(),
            Opt::Elo => self.elo.to_string(),
            Opt::UseMillisec => millis.to_string(),
            Opt::UseNnue => o.network.is_some().to_string(),
            Opt::EvalFile => self.network.name.clone(),
            Opt::TablebaseDir => self.tablebase_dir.clone(),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        // From here on the name is only quoted, and quoted short.
        let shown_name = &shown(name);
        let Some(spec) = options::find(name.trim()) else {
            if !IGNORED.iter().any(|n| n.eq_ignore_ascii_case(name.trim())) {
                self.complain(&format!("unknown option {shown_name}"));
            }
            return;
        };
        // Showing WDL changes only how the running search reports; every other option is
        // for the searches to come.
        if spec.opt != Opt::ShowWdl {
            self.settle();
        }
        match spec.read(value) {
            Ok(value) => self.apply_option(spec.opt, value),
            Err(why) => self.complain(&format!("option {shown_name}: {why}")),
        }
    }

    /// Puts a read option value into effect.
    fn apply_option(&mut self, opt: Opt, value: Value) {
        match (opt, value) {
            (Opt::Hash, Value::Number(mb)) => {
                let wanted = mb as usize;
                let got = self.engine.set_hash_mb(wanted);
                if got < wanted {
                    self.complain(&format!("hash set to {got} MiB (asked for {wanted} MiB)"));
                }
            }
            (Opt::Threads, Value::Number(n)) => self.engine.set_threads(n as usize),
            (Opt::MultiPv, Value::Number(n)) => self.engine.set_multipv(n as usize),
            (Opt::MoveOverhead, Value::Number(ms)) => self
                .engine
                .set_move_overhead(Duration::from_millis(ms as u64)),
            (Opt::ClearHash, _) => self.engine.new_game(),
            (Opt::UseMillisec, Value::Flag(on)) => self.with_settings(|s| s.ucci_millis = on),
            (Opt::ShowWdl, Value::Flag(on)) => self.with_settings(|s| s.show_wdl = on),
            (Opt::Variant, _) => self.with_settings(|s| s.ranks_1_to_10 = true),
            (Opt::Level, Value::Number(level)) => {
                self.level = level as u8;
                self.apply_strength();
            }
            (Opt::LimitStrength, Value::Flag(on)) => {
                self.limit_strength = on;
                self.apply_strength();
            }
            (Opt::Elo, Value::Number(elo)) => {
                self.elo = elo as i32;
                self.apply_strength();
            }
            (Opt::OwnBook, Value::Flag(on)) => self.engine.set_own_book(on),
            (Opt::BookFile, Value::Text(path)) => self.set_book_file(&path),
            (Opt::UseNnue, Value::Flag(on)) => {
                let network = on.then(|| Arc::clone(&self.network.network));
                self.engine.set_network(network);
            }
            (Opt::EvalFile, Value::Text(path)) => self.set_eval_file(&path),
            (Opt::TablebaseDir, Value::Text(path)) => self.set_tablebase_dir(&path),
            // Pondering is asked for by `go ponder`; and `Spec::read` gives each option only
            // values of its own kind.
            _ => {}
        }
    }

    /// Loads the book file named by `value`; empty or `<empty>` means the built-in book. A bad
    /// file leaves the current book in place.
    fn set_book_file(&mut self, path: &str) {
        if path.is_empty() || path == "<empty>" {
            self.engine.set_book(None);
            return;
        }
        match Book::load(Path::new(path)) {
            Ok(book) => {
                let moves = book.entries().len();
                self.engine.set_book(Some(Arc::new(book)));
                self.say(&format!("info string book {path} loaded ({moves} moves)"));
            }
            Err(e) => self.complain(&format!("{e}; the book is unchanged")),
        }
    }

    /// Loads the network file named by `path`; empty or `<embedded>` means the built-in
    /// network. A bad file leaves the current network in place.
    fn set_eval_file(&mut self, path: &str) {
        match ChosenNetwork::load(path) {
            Ok(chosen) => {
                let units = chosen.network.hidden();
                let mut buckets = match chosen.network.output_buckets() {
                    1 => String::new(),
                    b => format!(", {b} output buckets"),
                };
                if chosen.network.has_king_buckets() {
                    buckets += ", king buckets";
                }
                self.network = chosen;
                if self.engine.options().network.is_some() {
                    self.engine
                        .set_network(Some(Arc::clone(&self.network.network)));
                }
                self.say(&format!(
                    "info string network {} loaded ({units} units a side{buckets})",
                    self.network.name
                ));
            }
            Err(e) => self.complain(&format!("{e}; the network is unchanged")),
        }
    }

    /// Loads the endgame tables of the folder `path`; empty or `<empty>` means none. Each
    /// refused file is named and left out; a folder that cannot be read leaves the tables
    /// as they were.
    fn set_tablebase_dir(&mut self, path: &str) {
        if path.is_empty() || path == "<empty>" {
            self.engine.set_tablebases(None);
            self.tablebase_dir.clear();
            return;
        }
        match Tablebases::read(Path::new(path)) {
            Ok((tablebases, refused)) => {
                for problem in &refused {
                    self.complain(&format!("{problem}; that table is not used"));
                }
                let tables = tablebases.tables();
                self.say(&format!(
                    "info string tablebases {path}: {} tables of up to {} men",
                    tables.len(),
                    tables.most_men()
                ));
                self.engine.set_tablebases(Some(tablebases));
                self.tablebase_dir = path.to_owned();
            }
            Err(e) => self.complain(&format!("{e}; the tablebases are unchanged")),
        }
    }

    fn with_settings(&self, f: impl FnOnce(&mut Settings)) {
        if let Ok(mut s) = self.settings.lock() {
            f(&mut s);
        }
    }

    /// Builds the position of a `position`/`probe` command. On an illegal move, keeps the
    /// position up to it and says so.
    fn read_position(&self, spec: &PositionSpec) -> Option<(Position, Vec<Move>)> {
        let start = match &spec.fen {
            None => Position::startpos(),
            Some(fen) => match Position::from_fen_with(fen, Validation::Lenient) {
                Ok(p) => p,
                Err(e) => {
                    self.complain(&format!("bad FEN ({e}); position unchanged"));
                    return None;
                }
            },
        };
        let notation = self.notation();
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(spec.moves.len());
        for (i, text) in spec.moves.iter().enumerate() {
            match parse_move_as(&pos, text, notation) {
                Ok(m) => {
                    pos.make_move(m);
                    moves.push(m);
                }
                Err(e) => {
                    self.complain(&format!(
                        "move {} rejected: {e}; position set up to the move before it",
                        i + 1
                    ));
                    break;
                }
            }
        }
        Some((start, moves))
    }

    fn ban_moves(&mut self, tokens: &[String]) {
        let root = self.root();
        let notation = self.notation();
        self.banned.clear();
        for text in tokens {
            match parse_move_as(&root, text, notation) {
                Ok(m) => self.banned.push(m),
                Err(e) => self.complain(&format!("banmoves: move ignored: {e}")),
            }
        }
    }

    fn go(&mut self, params: GoParams) {
        // The move's time runs from now, not from when the search thread gets going.
        let received = Instant::now();
        self.settle();
        let root = self.root();
        let notation = self.notation();
        let mut search_moves = Vec::new();
        for text in &params.searchmoves {
            match parse_move_as(&root, text, notation) {
                Ok(m) => search_moves.push(m),
                Err(e) => self.complain(&format!("searchmoves: move ignored: {e}")),
            }
        }
        let byoyomi = params.byoyomi.unwrap_or(Duration::ZERO);
        let clock = match params.clock_for(root.side_to_move()) {
            Some(c) => Some(Clock {
                time: c.time,
                increment: c.inc,
                moves_to_go: c.movestogo,
                byoyomi,
            }),
            // `go byoyomi T` alone: the main time is spent.
            None if !byoyomi.is_zero() => Some(Clock {
                byoyomi,
                ..Clock::new(Duration::ZERO, Duration::ZERO)
            }),
            None => None,
        };
        // A bare `go` names no limit: it searches until `stop`, like `go infinite`.
        let unlimited = params.depth.is_none()
            && params.nodes.is_none()
            && params.movetime.is_none()
            && params.mate.is_none()
            && clock.is_none();
        let limits = Limits {
            depth: params.depth,
            nodes: params.nodes,
            movetime: params.movetime,
            clock,
            infinite: params.infinite || unlimited,
            mate: params.mate,
            started: Some(received),
        };
        let request = SearchRequest {
            start: self.start.clone(),
            moves: self.moves.clone(),
            limits,
            search_moves,
            banned: self.banned.clone(),
            ponder: params.ponder,
        };
        let dialect = self.dialect.unwrap_or(Dialect::Uci);
        // Moves are written in the notation of the `go`'s time (options wait for the search).
        let ranks = notation == Notation::UciRanks1To10;
        let info_out = Arc::clone(&self.out);
        let done_out = Arc::clone(&self.out);
        let info_settings = Arc::clone(&self.settings);
        let info_root = root.clone();
        let draw_offered = params.draw_offered;
        self.engine.start(
            request,
            move |info| {
                let show_wdl = info_settings.lock().is_ok_and(|s| s.show_wdl);
                let line = format_info(
                    info,
                    dialect,
                    &info_root,
                    ranks,
                    show_wdl.then(|| wdl(info.score)),
                );
                say(&info_out, &line);
            },
            move |result| {
                if let Some(best) = result.best_move.filter(|_| result.from_book) {
                    let text = format_move(&root, best, ranks);
                    say(&done_out, &format!("info string book move {text}"));
                }
                say(
                    &done_out,
                    &bestmove_line(&result, dialect, &root, ranks, draw_offered),
                );
            },
        );
    }

    /// Starts `go perft depth` on its own thread (after whatever runs), unless the depth is
    /// too deep.
    fn perft(&mut self, depth: u32) {
        self.settle();
        if let Some(refusal) = perft_depth_refusal(depth) {
            self.complain(&refusal);
        } else {
            let job = PerftJob::start(self.root(), depth, self.notation(), Arc::clone(&self.out));
            self.perft = Some(job);
        }
    }

    fn probe(&self, spec: &PositionSpec) {
        let Some((start, moves)) = self.read_position(spec) else {
            return;
        };
        let mut pos = start;
        for m in moves {
            pos.make_move(m);
        }
        let notation = self.notation();
        match self.engine.probe(&pos) {
            None => self.say("pophash"),
            Some(hit) => {
                let mut line = String::from("pophash");
                if let Some(m) = hit.mv.filter(|&m| pos.is_legal(m)) {
                    line += &format!(" bestmove {}", xiangqi::format_move(&pos, m, notation));
                }
                let kind = match hit.bound {
                    xiangqi_engine::Bound::Lower => "lowerbound",
                    xiangqi_engine::Bound::Upper => "upperbound",
                    xiangqi_engine::Bound::Exact => "exact",
                };
                line += &format!(" {kind} {} depth {}", hit.score, hit.depth.max(0));
                self.say(&line);
            }
        }
    }
}

/// The `bestmove` line (or UCCI `nobestmove`), with UCCI's `draw`/`resign` where deserved.
fn bestmove_line(
    result: &SearchResult,
    dialect: Dialect,
    root: &Position,
    ranks: bool,
    draw_offered: bool,
) -> String {
    let Some(best) = result.best_move else {
        return match dialect {
            Dialect::Ucci => "nobestmove".to_string(),
            Dialect::Uci => "bestmove (none)".to_string(),
        };
    };
    let mut line = format!("bestmove {}", format_move(root, best, ranks));
    if let Some(reply) = result.ponder_move {
        let mut after = root.clone();
        after.make_move(best);
        if after.is_legal(reply) {
            line += &format!(" ponder {}", format_move(&after, reply, ranks));
        }
    }
    if dialect == Dialect::Ucci {
        if result.score <= -MATE_BOUND || (result.score < -1500 && result.depth >= 8) {
            line += " resign";
        } else if draw_offered && result.score <= 20 {
            line += " draw";
        }
    }
    line
}

/// Runs a session on standard input and output until `quit` or end of input.
pub fn run_stdio(dialect: Option<Dialect>) -> anyhow::Result<()> {
    let out: Output = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    let mut session = Session::new(dialect, out);
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    let mut buf = Vec::new();
    loop {
        // Read bytes, not strings: a line that is not UTF-8 must not end the session.
        let line = match read_line(&mut reader, &mut buf, MAX_LINE_BYTES)? {
            Read::End => break,
            Read::TooLong => {
                session.complain(&too_long(&buf));
                continue;
            }
            Read::Line => String::from_utf8_lossy(&buf),
        };
        if session.handle_line(&line) == Flow::Quit {
            return Ok(());
        }
    }
    session.stop();
    Ok(())
}

/// The complaint about a line longer than [`MAX_LINE_BYTES`] that starts with `start`.
fn too_long(start: &[u8]) -> String {
    format!(
        "line ignored: longer than {MAX_LINE_BYTES} bytes (it starts `{}`)",
        shown(&String::from_utf8_lossy(start))
    )
}
