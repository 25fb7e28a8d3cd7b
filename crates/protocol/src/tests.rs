//! End-to-end sessions: lines in, lines out, through the real engine.

use super::command::Dialect;
use super::driver::{Flow, Session};
use super::output::Output;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A writer whose text the test can read while the session runs.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// Waits until a line starting with `prefix` appears (or fails after 20 s).
    fn wait_for(&self, prefix: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(line) = self.text().lines().find(|l| l.starts_with(prefix)) {
                return line.to_string();
            }
            assert!(
                Instant::now() < deadline,
                "no line starting with {prefix:?} in:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

fn session(dialect: Option<Dialect>) -> (Session, Capture) {
    let capture = Capture::default();
    let out: Output = Arc::new(Mutex::new(Box::new(capture.clone())));
    (Session::new(dialect, out), capture)
}

#[test]
fn uci_handshake_and_search() {
    let (mut s, out) = session(None);
    s.handle_line("uci");
    out.wait_for("uciok");
    assert!(out.text().contains("option name Hash"));
    s.handle_line("isready");
    out.wait_for("readyok");
    // The position is in the opening book: switch it off to see a search.
    s.handle_line("setoption name OwnBook value false");
    s.handle_line("position startpos moves h2e2 h9g7");
    s.handle_line("go depth 4");
    let best = out.wait_for("bestmove");
    assert!(out.text().contains("info depth 4"), "{}", out.text());
    let mv = best.split_whitespace().nth(1).unwrap();
    assert_eq!(mv.len(), 4, "{best}");
    assert_eq!(s.handle_line("quit"), Flow::Quit);
}

#[test]
fn ucci_handshake_search_and_bye() {
    let (mut s, out) = session(None);
    s.handle_line("ucci");
    out.wait_for("ucciok");
    s.handle_line("setoption usemillisec true");
    s.handle_line(
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    );
    s.handle_line("go time 2000 increment 0");
    out.wait_for("bestmove");
    s.handle_line("quit");
    out.wait_for("bye");
}

#[test]
fn no_legal_move_gives_nobestmove() {
    let (mut s, out) = session(Some(Dialect::Ucci));
    // Black is checkmated by two chariots.
    s.handle_line("position fen 1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1");
    s.handle_line("go depth 3");
    out.wait_for("nobestmove");
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("position fen 1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1");
    s.handle_line("go depth 3");
    assert_eq!(out.wait_for("bestmove"), "bestmove (none)");
}

#[test]
fn stop_ends_an_infinite_search() {
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("position startpos");
    s.handle_line("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    assert!(!out.text().contains("bestmove"));
    s.handle_line("isready");
    out.wait_for("readyok");
    s.handle_line("stop");
    out.wait_for("bestmove");
}

#[test]
fn ranks_one_to_ten_after_uci_variant() {
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("setoption name UCI_Variant value xiangqi");
    s.handle_line("setoption name OwnBook value false");
    s.handle_line("position startpos moves h3e3 h10g8");
    s.handle_line("go depth 2");
    let best = out.wait_for("bestmove");
    assert!(!out.text().contains("info string"), "{}", out.text());
    let mv = best.split_whitespace().nth(1).unwrap();
    // Red's reply: its ranks are printed 1-10, so no rank 0 appears.
    assert!(!mv.contains('0') || mv.contains("10"), "{best}");
}

#[test]
fn perft_and_probe() {
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("go perft 2");
    out.wait_for("Nodes searched: 1920");
    let (mut s, out) = session(Some(Dialect::Ucci));
    s.handle_line("probe startpos");
    out.wait_for("pophash");
}

/// `go perft 7` from the start counts for many minutes: long enough that everything below
/// happens while it runs.
#[test]
fn a_perft_runs_beside_the_session_and_stop_ends_it() {
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("go perft 7");
    s.handle_line("isready");
    out.wait_for("readyok");
    assert!(!out.text().contains("Nodes searched"), "{}", out.text());
    // `stop` returns once the perft has printed its last line.
    s.handle_line("stop");
    let text = out.text();
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("info string perft stopped: ")
            && last.ends_with(" of 44 root moves counted; no total"),
        "{text}"
    );
    assert!(!text.contains("Nodes searched"), "{text}");
    // Commands after a perft wait for it, as if sent after its last line: the position and
    // the search are of the move played, and come after the count.
    s.handle_line("go perft 3");
    s.handle_line("position startpos moves h2e2");
    s.handle_line("setoption name Hash value 2");
    s.handle_line("go perft 1");
    s.handle_line("go depth 1");
    let best = out.wait_for("bestmove");
    let text = out.text();
    let counted = text.find("Nodes searched: 79666").expect(&text);
    let black = text.find("Nodes searched: 45").expect(&text);
    let answered = text.find(&best).unwrap();
    assert!(counted < black && black < answered, "{text}");
    assert!(!text.contains("ignored"), "{text}");
    assert_eq!(s.handle_line("quit"), Flow::Quit);
}

#[test]
fn quit_ends_a_running_perft() {
    let (mut s, out) = session(None);
    s.handle_line("uci");
    s.handle_line("go perft 7");
    assert_eq!(s.handle_line("quit"), Flow::Quit);
    let text = out.text();
    assert!(text.contains("info string perft stopped: "), "{text}");
    assert!(!text.contains("Nodes searched"), "{text}");
}

#[test]
fn perft_deeper_than_the_limit_is_refused_with_the_limit() {
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("go perft 8");
    s.handle_line("go perft 4294967295");
    s.handle_line("isready");
    out.wait_for("readyok");
    let text = out.text();
    for depth in ["8", "4294967295"] {
        let refusal =
            format!("info string perft depth {depth} refused: the deepest perft is 7 (deeper");
        assert!(text.contains(&refusal), "{text}");
    }
    // Nothing runs: a search starts at once.
    s.handle_line("go depth 1");
    out.wait_for("bestmove");
}

/// Whatever part of a line is enormous, the message about it quotes a short excerpt.
#[test]
fn enormous_bad_words_get_short_messages() {
    let big = "\u{0}x".repeat(300_000);
    let (mut s, out) = session(Some(Dialect::Uci));
    for line in [
        big.clone(),
        format!("isready {big}"),
        format!("go depth {big}"),
        format!("go {big}"),
        format!("position {big}"),
        format!("position fen {big}"),
        format!("position startpos moves h2e2 {big}"),
        format!("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 {big}"),
        format!("setoption name {big} value 1"),
        format!("setoption name Hash value {big}"),
        format!("setoption name UCI_Variant value {big}"),
        format!("banmoves {big}"),
        format!("go depth 1 searchmoves {big}"),
    ] {
        s.handle_line(&line);
    }
    s.handle_line("isready");
    out.wait_for("readyok");
    let text = out.text();
    let complaints = text
        .lines()
        .filter(|l| l.starts_with("info string"))
        .count();
    assert!(complaints >= 13, "{complaints} complaints");
    for line in text.lines() {
        assert!(
            line.len() < 400,
            "{} bytes: {}",
            line.len(),
            xiangqi::excerpt(line)
        );
        assert!(!line.contains('\u{0}'), "{}", xiangqi::excerpt(line));
    }
}

#[test]
fn garbage_gets_info_string_and_the_engine_keeps_answering() {
    let (mut s, out) = session(None);
    for line in [
        "hello",
        "go depth",
        "position fen xyz",
        "position startpos moves h2e2 h2e2",
        "setoption name Hash value lots",
        "setoption name Nonsense value 1",
        "go wtime -5 btime x",
        "\u{0}\u{1}\u{2}",
        "banmoves zz",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
    ] {
        s.handle_line(line);
    }
    s.handle_line("isready");
    out.wait_for("readyok");
    let text = out.text();
    assert!(text.matches("info string").count() >= 9, "{text}");
    // After a bad move the position keeps the legal prefix (h2e2): the engine plays for Black.
    s.handle_line("position startpos moves h2e2 zz");
    s.handle_line("go depth 2");
    out.wait_for("bestmove");
}

#[test]
fn ponder_then_ponderhit_answers() {
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("position startpos moves h2e2");
    s.handle_line("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(300));
    // While pondering the clock does not run: no best move yet.
    assert!(!out.text().contains("bestmove"), "{}", out.text());
    s.handle_line("ponderhit");
    out.wait_for("bestmove");
}

#[test]
fn banmoves_and_searchmoves_restrict_the_root() {
    let (mut s, out) = session(Some(Dialect::Ucci));
    s.handle_line("position startpos");
    s.handle_line("go depth 1");
    let first = out.wait_for("bestmove");
    let mv = first.split_whitespace().nth(1).unwrap().to_string();
    s.handle_line(&format!("banmoves {mv}"));
    s.handle_line("go depth 1");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let lines: Vec<String> = out
            .text()
            .lines()
            .filter(|l| l.starts_with("bestmove"))
            .map(String::from)
            .collect();
        if lines.len() == 2 {
            assert_ne!(lines[1].split_whitespace().nth(1).unwrap(), mv);
            break;
        }
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(5));
    }
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("position startpos");
    s.handle_line("go depth 3 searchmoves a3a4");
    assert!(out.wait_for("bestmove").starts_with("bestmove a3a4"));
}

/// The `bestmove` of a session, as a move of `pos`.
fn best_move(line: &str, pos: &xiangqi::Position, notation: xiangqi::Notation) -> xiangqi::Move {
    let text = line.split_whitespace().nth(1).unwrap();
    xiangqi::parse_move_as(pos, text, notation).unwrap()
}

fn book_moves(pos: &xiangqi::Position) -> Vec<xiangqi::Move> {
    let book = xiangqi_engine::Book::builtin().unwrap();
    book.probe(pos).iter().map(|m| m.mv).collect()
}

#[test]
fn book_options_are_listed_in_both_dialects() {
    let (mut s, out) = session(None);
    s.handle_line("uci");
    out.wait_for("uciok");
    assert!(out
        .text()
        .contains("option name OwnBook type check default true\n"));
    assert!(out
        .text()
        .contains("option name BookFile type string default <empty>\n"));
    let (mut s, out) = session(None);
    s.handle_line("ucci");
    out.wait_for("ucciok");
    assert!(out
        .text()
        .contains("option usebook type check default true\n"));
    assert!(out
        .text()
        .contains("option bookfiles type string default <empty>\n"));
}

#[test]
fn the_book_answers_until_switched_off() {
    let start = xiangqi::Position::startpos();
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("position startpos");
    s.handle_line("go depth 6");
    let best = out.wait_for("bestmove");
    let played = best_move(&best, &start, xiangqi::Notation::Iccs);
    assert!(book_moves(&start).contains(&played), "{best}");
    assert!(out
        .text()
        .contains(&format!("info string book move {played}")));
    assert!(out
        .text()
        .contains("info depth 0 seldepth 0 multipv 1 score cp 0"));

    let (mut s, out) = session(Some(Dialect::Ucci));
    s.handle_line("setoption usebook false");
    s.handle_line("position startpos");
    s.handle_line("go depth 3");
    out.wait_for("bestmove");
    assert!(out.text().contains("info depth 3"), "{}", out.text());
    assert!(!out.text().contains("book"), "{}", out.text());
    s.handle_line("setoption usebook maybe");
    out.wait_for("info string option usebook: needs true or false");
}

#[test]
fn book_moves_follow_uci_variant_ranks() {
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("setoption name UCI_Variant value xiangqi");
    s.handle_line("position startpos moves h3e3");
    s.handle_line("go depth 2");
    let best = out.wait_for("bestmove");
    let mut pos = xiangqi::Position::startpos();
    pos.make_move(xiangqi::parse_move(&pos, "h2e2").unwrap());
    let played = best_move(&best, &pos, xiangqi::Notation::UciRanks1To10);
    assert!(book_moves(&pos).contains(&played), "{best}");
    let line = out.wait_for("info string book move");
    assert!(
        line.ends_with(best.split_whitespace().nth(1).unwrap()),
        "{line}"
    );
}

#[test]
fn a_book_file_can_be_loaded_and_a_bad_one_is_refused() {
    let dir = std::env::temp_dir().join(format!("xq-protocol-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("elephant.bin");
    let lines = xiangqi_engine::book::parse_lines("相三进五 卒７进１").unwrap();
    std::fs::write(&good, xiangqi_engine::Book::build(&lines, None).to_bytes()).unwrap();
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, b"XQBK and then nonsense").unwrap();

    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line(&format!("setoption name BookFile value {}", bad.display()));
    out.wait_for("info string not a book file");
    s.handle_line(&format!("setoption name BookFile value {}", good.display()));
    out.wait_for("info string book ");
    s.handle_line("position startpos");
    s.handle_line("go depth 2");
    let best = out.wait_for("bestmove");
    assert!(
        matches!(best.as_str(), "bestmove g0e2" | "bestmove c0e2"),
        "{best}"
    );
    // Back to the built-in book.
    s.handle_line("setoption name BookFile value <empty>");
    s.handle_line("ucinewgame");
    s.handle_line("isready");
    out.wait_for("readyok");

    let (mut s, out) = session(Some(Dialect::Ucci));
    s.handle_line(&format!(
        "setoption bookfiles {}",
        dir.join("missing.bin").display()
    ));
    out.wait_for("info string cannot read book file");
    std::fs::remove_dir_all(&dir).unwrap();
    #[cfg(unix)]
    {
        s.handle_line("setoption bookfiles /dev/zero");
        assert_eq!(
            out.wait_for("info string cannot read book file /dev/zero"),
            "info string cannot read book file /dev/zero: it is a character device, not a \
             regular file; the book is unchanged"
        );
    }
}

/// A network or book option naming a device or a directory is refused in one line saying what
/// it is (`/dev/null` was read as an empty file, a directory as an unreadable one), and the
/// session goes on. (A FIFO, which once stopped the session for good, is tried on the real
/// program in `tests/cli.rs`.)
#[test]
#[cfg(unix)]
fn network_and_book_files_must_be_regular_files() {
    let dir = std::env::temp_dir().join(format!("xq-protocol-kinds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("setoption name EvalFile value /dev/null");
    s.handle_line(&format!("setoption name BookFile value {}", dir.display()));
    s.handle_line("isready");
    out.wait_for("readyok");
    let lines: Vec<String> = out.text().lines().map(str::to_owned).collect();
    assert_eq!(
        lines,
        [
            "info string cannot read /dev/null: it is a character device, not a regular file; \
             the network is unchanged"
                .to_owned(),
            format!(
                "info string cannot read book file {}: it is a directory, not a regular file; \
                 the book is unchanged",
                dir.display()
            ),
            "readyok".to_owned(),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

mod garbled {
    use super::*;
    use proptest::prelude::*;

    /// Words and numbers GUIs send, to build plausible but garbled lines from.
    const WORDS: &[&str] = &[
        "uci",
        "ucci",
        "isready",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "time",
        "increment",
        "opptime",
        "infinite",
        "ponder",
        "ponderhit",
        "stop",
        "setoption",
        "name",
        "value",
        "Hash",
        "OwnBook",
        "usebook",
        "false",
        "Threads",
        "MultiPV",
        "banmoves",
        "probe",
        "perft",
        "searchmoves",
        "h2e2",
        "h9g7",
        "a10a9",
        "b0c2",
        "zz",
        "-1",
        "0",
        "1",
        "2",
        "99999999999999999999",
        "3.5",
        "d",
        "eval",
        "ucinewgame",
        "draw",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "w",
        "b",
        "-",
    ];

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::collection::vec(prop::sample::select(WORDS), 0..8).prop_map(|w| w.join(" ")),
            "\\PC{0,40}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Whatever arrives, the session neither panics nor stops answering `isready`.
        #[test]
        fn random_lines_never_break_the_session(lines in prop::collection::vec(line(), 1..40)) {
            let (mut s, out) = session(None);
            s.handle_line("setoption name Hash value 1");
            for l in &lines {
                // The `stop` after each line keeps searches and perfts short.
                if s.handle_line(l) == Flow::Quit {
                    return Ok(());
                }
                s.handle_line("stop");
            }
            s.handle_line("stop");
            s.handle_line("isready");
            out.wait_for("readyok");
            s.handle_line("quit");
        }
    }
}

#[test]
fn strength_options_are_listed_checked_and_applied() {
    let (mut s, out) = session(None);
    s.handle_line("uci");
    out.wait_for("uciok");
    for option in [
        "option name Level",
        "UCI_LimitStrength",
        "option name UCI_Elo",
    ] {
        assert!(out.text().contains(option), "{option} missing");
    }
    s.handle_line("setoption name Level value 0");
    s.handle_line("setoption name UCI_Elo value 100");
    s.handle_line("setoption name UCI_LimitStrength value maybe");
    s.handle_line("isready");
    out.wait_for("readyok");
    let text = out.text();
    assert!(text.contains("option Level: 0 is outside 1–10"), "{text}");
    assert!(text.contains("option UCI_Elo: 100 is outside"), "{text}");
    assert!(
        text.contains("option UCI_LimitStrength: needs true or false"),
        "{text}"
    );
    // Level 1 searches one ply; its report says so (the book would answer the start position).
    s.handle_line("setoption name OwnBook value false");
    s.handle_line("setoption name Level value 1");
    s.handle_line("position startpos");
    s.handle_line("go movetime 5000");
    out.wait_for("bestmove");
    assert!(out.text().contains("info depth 1 "), "{}", out.text());
    assert!(!out.text().contains("info depth 3 "), "{}", out.text());
}

#[test]
fn go_byoyomi_alone_is_a_clock_and_gets_an_answer() {
    // Without the byo-yomi period, `go` alone would search until `stop`.
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("setoption name OwnBook value false");
    s.handle_line("position startpos moves h2e2");
    s.handle_line("go btime 0 wtime 0 byoyomi 300");
    out.wait_for("bestmove");
}

#[test]
fn the_network_options_are_listed_and_load_only_good_files() {
    let (mut s, out) = session(None);
    s.handle_line("uci");
    out.wait_for("uciok");
    assert!(out
        .text()
        .contains("option name Use NNUE type check default true\n"));
    assert!(out
        .text()
        .contains("option name EvalFile type string default <embedded>\n"));
    let dir = std::env::temp_dir().join(format!("xq-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.nnue");
    s.handle_line(&format!(
        "setoption name EvalFile value {}",
        missing.display()
    ));
    out.wait_for("info string cannot read");
    assert!(out.text().contains("the network is unchanged"));
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, b"XQNNUE\r\n but nothing else of a network").unwrap();
    s.handle_line(&format!(
        "setoption name EvalFile value {}",
        garbage.display()
    ));
    out.wait_for("info string network file");
    assert!(out.text().contains("the network is unchanged"));
    // A network that counts chariots on the back rank's a-file point, as the side to move sees
    // the board: its own there is worth 1.0 × 400, the opponent's −400.
    let hidden = 16;
    let mut weights = vec![0i16; xiangqi_engine::nnue::features::INPUTS * hidden];
    weights[(4 * 90) * hidden] = 255; // an own chariot on the own a-file corner, unit 0
    weights[(11 * 90 + 81) * hidden + 1] = 255; // the opponent's on the far corner, unit 1
    let mut output = vec![0i16; 2 * hidden];
    output[0] = 64;
    output[1] = -64;
    let network =
        xiangqi_engine::nnue::Network::from_parts(weights, vec![0; hidden], output, 0).unwrap();
    let file = dir.join("chariot.nnue");
    std::fs::write(&file, network.to_bytes()).unwrap();
    s.handle_line(&format!("setoption name EvalFile value {}", file.display()));
    out.wait_for("info string network /");
    assert!(out.text().contains("loaded (16 units a side)"));
    s.handle_line("position fen 3k5/9/9/9/9/9/9/9/9/R3K4 w");
    s.handle_line("eval");
    let line = out.wait_for("info string eval");
    assert!(line.contains("; network 400 ("), "{line}");
    s.handle_line("position fen 3k5/9/9/9/9/9/9/9/9/R3K4 b");
    s.handle_line("eval");
    out.wait_for("info string eval");
    assert!(out.text().contains("; network -400 ("), "{}", out.text());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tablebases_are_loaded_probed_and_counted() {
    let (mut s, out) = session(None);
    s.handle_line("uci");
    out.wait_for("uciok");
    assert!(out
        .text()
        .contains("option name TablebaseDir type string default <empty>\n"));
    let dir = std::env::temp_dir().join(format!("xq-tbdir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut tables = xiangqi_tablebase::Tables::with_threads(1);
    tables.generate("KRK".parse().unwrap(), &mut |table| {
        let name = xiangqi_tablebase::file::file_name(table.material());
        std::fs::write(dir.join(name), table.to_bytes()).unwrap();
    });
    std::fs::write(dir.join("KHK.xqtb"), b"XQTB and then nothing").unwrap();

    s.handle_line(&format!(
        "setoption name TablebaseDir value {}",
        dir.display()
    ));
    out.wait_for("info string tablebases /");
    assert!(
        out.text().contains(": 2 tables of up to 3 men"),
        "{}",
        out.text()
    );
    // The damaged file is named and left out; the others are used.
    assert!(out.text().contains("KHK.xqtb: refused"), "{}", out.text());

    // Mate in two with the chariot: the root keeps the moves that mate fastest, and every
    // child is known, so a shallow search sees the mate.
    s.handle_line("position fen 4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    s.handle_line("go depth 2");
    let best = out.wait_for("bestmove");
    let text = out.text();
    let info = text.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(info.contains("score mate 2"), "{info}");
    assert!(info.contains(" tbhits "), "{info}");
    let mut pos = xiangqi::Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    let m = xiangqi::notation::parse_move(&pos, &best["bestmove ".len()..][..4]).unwrap();
    pos.make_move(m);
    let tb = xiangqi_tablebase::folder::read_folder(&dir).unwrap().tables;
    assert_eq!(
        tb.probe(&pos),
        Some(xiangqi_tablebase::Value::Loss(2)),
        "{best}"
    );

    // A folder that cannot be read leaves the tables as they were.
    s.handle_line(&format!(
        "setoption name TablebaseDir value {}",
        dir.join("missing").display()
    ));
    out.wait_for("info string cannot list");
    assert!(out.text().contains("the tablebases are unchanged"));
    std::fs::remove_dir_all(&dir).unwrap();
}

mod pipeline;
