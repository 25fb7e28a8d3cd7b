//! Commands sent without waiting for the answers, as GUIs send them: every `go` gets exactly one
//! best move, in order, legal in the position that `go` was asked about.

use super::{session, Capture};
use crate::command::Dialect;
use crate::driver::{Flow, Session};
use proptest::prelude::*;
use std::time::{Duration, Instant};
use xiangqi::{format_move, parse_move_as, Move, Notation, Position};

/// Waits until `count` lines start with `prefix` and returns those lines (fails after 20 s).
fn wait_for_lines(out: &Capture, prefix: &str, count: usize) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let lines: Vec<String> = out
            .text()
            .lines()
            .filter(|l| l.starts_with(prefix))
            .map(str::to_owned)
            .collect();
        if lines.len() >= count {
            return lines;
        }
        assert!(
            Instant::now() < deadline,
            "{count} lines starting with {prefix:?} expected in:\n{}",
            out.text()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The move of a `bestmove` line, read in `pos` (`None` for `bestmove (none)`/`nobestmove`).
fn best_move_of(line: &str, pos: &Position, notation: Notation) -> Option<Move> {
    let word = line.split_whitespace().nth(1).filter(|&w| w != "(none)")?;
    Some(parse_move_as(pos, word, notation).unwrap_or_else(|e| {
        panic!("`{line}` is not legal in {}: {e}", pos.to_fen());
    }))
}

/// A GUI moving during analysis: `stop`, then at once the next `position` and `go`. The second
/// search must be of the new position (it was answered with a move of the old one).
#[test]
fn position_and_go_right_after_stop_search_the_new_position() {
    for dialect in [Dialect::Uci, Dialect::Ucci] {
        let (mut s, out) = session(Some(dialect));
        s.handle_line("setoption name Hash value 1");
        s.handle_line("position startpos");
        s.handle_line("go infinite");
        std::thread::sleep(Duration::from_millis(50));
        s.handle_line("stop");
        s.handle_line("position startpos moves h2e2");
        s.handle_line("go depth 2");
        let lines = wait_for_lines(&out, "bestmove", 2);
        let mut after = Position::startpos();
        after.make_move(parse_move_as(&after, "h2e2", Notation::Iccs).unwrap());
        let answer = best_move_of(&lines[1], &after, Notation::Iccs);
        assert!(answer.is_some(), "{dialect:?}: {}", lines[1]);
        assert_eq!(lines.len(), 2, "{dialect:?}: {}", out.text());
        s.handle_line("quit");
    }
}

/// Two searches sent back to back: the second waits for the first, and each answers its own
/// position (the second `go` was refused).
#[test]
fn a_go_during_a_search_waits_for_it() {
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("setoption name Hash value 1");
    s.handle_line("setoption name OwnBook value false");
    s.handle_line("position startpos");
    s.handle_line("go depth 3");
    s.handle_line("position startpos moves b0c2");
    s.handle_line("go depth 3");
    let lines = wait_for_lines(&out, "bestmove", 2);
    let first = best_move_of(&lines[0], &Position::startpos(), Notation::Iccs);
    assert!(first.is_some());
    let mut after = Position::startpos();
    after.make_move(parse_move_as(&after, "b0c2", Notation::Iccs).unwrap());
    assert!(best_move_of(&lines[1], &after, Notation::Iccs).is_some());
    // Depth 3 was reached by the first search: it was not cut short by the second `go`.
    assert!(out.text().contains("info depth 3"), "{}", out.text());
}

/// A `go` while an infinite search runs ends that search first (nothing else would), and both
/// get their best move, in order.
#[test]
fn a_go_during_an_infinite_search_ends_it_first() {
    let (mut s, out) = session(Some(Dialect::Uci));
    s.handle_line("setoption name Hash value 1");
    s.handle_line("position startpos moves h2e2");
    s.handle_line("go infinite");
    std::thread::sleep(Duration::from_millis(30));
    s.handle_line("position startpos moves h2e2 h9g7");
    s.handle_line("go depth 1");
    let lines = wait_for_lines(&out, "bestmove", 2);
    let mut pos = Position::startpos();
    pos.make_move(parse_move_as(&pos, "h2e2", Notation::Iccs).unwrap());
    assert!(best_move_of(&lines[0], &pos, Notation::Iccs).is_some());
    pos.make_move(parse_move_as(&pos, "h9g7", Notation::Iccs).unwrap());
    assert!(best_move_of(&lines[1], &pos, Notation::Iccs).is_some());
}

/// Positions the random sessions choose from, as a FEN (or the start) and ICCS moves.
const POSITIONS: &[(Option<&str>, &[&str])] = &[
    (None, &[]),
    (None, &["h2e2"]),
    (None, &["h2e2", "h9g7"]),
    (None, &["b2e2", "b9c7", "b0c2"]),
    // Black is checkmated by two chariots: no move at all.
    (Some("1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1"), &[]),
    // After the chariot's move Black has no legal move.
    (Some("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"), &["a1a8"]),
    (Some("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"), &[]),
    (
        Some("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3"),
        &["a0a1"],
    ),
];

/// One step of a random session.
#[derive(Clone, Debug)]
enum Step {
    /// `position` with `POSITIONS[i]`.
    Position(usize),
    /// A `position` the session refuses (the position stays).
    BadPosition,
    /// `go` of kind `i` of the dialect's list (see `go_line`).
    Go(usize),
    Stop,
    PonderHit,
    IsReady,
    NewGame,
    /// `setoption` number `i` of `OPTION_LINES`.
    SetOption(usize),
    Perft,
    /// Lets the running search go on for a few milliseconds.
    Pause(u64),
}

/// Options to set at random; the last switches UCI to ranks 1–10 (there is no way back).
const OPTION_LINES: &[&str] = &[
    "setoption name Hash value 2",
    "setoption name Threads value 2",
    "setoption name Threads value 1",
    "setoption name MultiPV value 3",
    "setoption name MultiPV value 1",
    "setoption name OwnBook value false",
    "setoption name OwnBook value true",
    "setoption name Level value 4",
    "setoption name Level value 10",
    "setoption name UCI_ShowWDL value true",
    "setoption name Clear Hash",
    "setoption name UCI_Variant value xiangqi",
];

/// The `go` kinds of each dialect (UCCI's times in milliseconds, after `usemillisec`).
const UCI_GOS: &[&str] = &[
    "go depth 1",
    "go depth 3",
    "go nodes 2000",
    "go movetime 15",
    "go wtime 300 btime 300 winc 10 binc 10",
    "go infinite",
    "go ponder wtime 200 btime 200",
    "go mate 1",
    "go",
    "go depth 2 searchmoves",
];
const UCCI_GOS: &[&str] = &[
    "go depth 1",
    "go depth 3",
    "go nodes 2000",
    "go time 300 increment 10",
    "go depth infinite",
    "go ponder time 200",
    "go",
    "go draw depth 2",
];

fn step(gos: usize) -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0..POSITIONS.len()).prop_map(Step::Position),
        1 => Just(Step::BadPosition),
        5 => (0..gos).prop_map(Step::Go),
        3 => Just(Step::Stop),
        1 => Just(Step::PonderHit),
        1 => Just(Step::IsReady),
        1 => Just(Step::NewGame),
        2 => (0..OPTION_LINES.len()).prop_map(Step::SetOption),
        1 => Just(Step::Perft),
        2 => (0u64..25).prop_map(Step::Pause),
    ]
}

/// What the test expects of one `go`: its position, the notation of the answer, and the moves
/// it may answer with.
struct Asked {
    pos: Position,
    notation: Notation,
    allowed: Vec<Move>,
}

/// Plays `steps` on a session in `dialect` without waiting for any answer, then checks that
/// every `go` got one best move, in order, legal in its position and among its `searchmoves`.
fn run_session(dialect: Dialect, steps: &[Step]) {
    let (mut s, out) = session(Some(dialect));
    let gos = match dialect {
        Dialect::Uci => UCI_GOS,
        Dialect::Ucci => UCCI_GOS,
    };
    let send = |s: &mut Session, line: &str| assert_eq!(s.handle_line(line), Flow::Continue);
    send(&mut s, "setoption name Hash value 1");
    if dialect == Dialect::Ucci {
        send(&mut s, "setoption usemillisec true");
    }
    let mut pos = Position::startpos();
    let mut notation = Notation::Iccs;
    let mut asked = Vec::new();
    let mut readies = 0;
    for step in steps {
        match *step {
            Step::Position(i) => {
                let (fen, moves) = POSITIONS[i];
                let mut line = match fen {
                    None => "position startpos".to_owned(),
                    Some(fen) => format!("position fen {fen}"),
                };
                let mut after = match fen {
                    None => Position::startpos(),
                    Some(fen) => Position::from_fen(fen).unwrap(),
                };
                if !moves.is_empty() {
                    line += " moves";
                }
                for text in moves {
                    let m = parse_move_as(&after, text, Notation::Iccs).unwrap();
                    line += &format!(" {}", format_move(&after, m, notation));
                    after.make_move(m);
                }
                send(&mut s, &line);
                pos = after;
            }
            Step::BadPosition => send(&mut s, "position fen 9/9/9 w"),
            Step::Go(i) => {
                let mut line = gos[i].to_owned();
                let mut allowed: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if line.ends_with("searchmoves") {
                    let Some(&first) = allowed.first() else {
                        continue;
                    };
                    line += &format!(" {}", format_move(&pos, first, notation));
                    allowed = vec![first];
                }
                send(&mut s, &line);
                asked.push(Asked {
                    pos: pos.clone(),
                    notation,
                    allowed,
                });
            }
            Step::Stop => send(&mut s, "stop"),
            Step::PonderHit => send(&mut s, "ponderhit"),
            Step::IsReady => {
                send(&mut s, "isready");
                readies += 1;
            }
            Step::NewGame => {
                send(&mut s, "ucinewgame");
                pos = Position::startpos();
            }
            Step::SetOption(i) => {
                let line = OPTION_LINES[i];
                if line.contains("UCI_Variant") {
                    if dialect == Dialect::Ucci {
                        continue;
                    }
                    notation = Notation::UciRanks1To10;
                }
                send(&mut s, line);
            }
            Step::Perft => send(&mut s, "go perft 2"),
            Step::Pause(ms) => std::thread::sleep(Duration::from_millis(ms)),
        }
    }
    assert_eq!(s.handle_line("quit"), Flow::Quit);
    let text = out.text();
    let answers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("bestmove") || l.starts_with("nobestmove"))
        .collect();
    assert_eq!(answers.len(), asked.len(), "one answer a `go`:\n{text}");
    for (line, asked) in answers.iter().zip(&asked) {
        match best_move_of(line, &asked.pos, asked.notation) {
            None => assert!(asked.allowed.is_empty(), "`{line}` with moves to play"),
            Some(m) => assert!(asked.allowed.contains(&m), "`{line}` not asked for"),
        }
    }
    let ready = text.lines().filter(|&l| l == "readyok").count();
    assert_eq!(ready, readies, "one readyok an isready:\n{text}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn pipelined_uci_sessions_answer_each_go_in_its_position(
        steps in prop::collection::vec(step(UCI_GOS.len()), 1..30)
    ) {
        run_session(Dialect::Uci, &steps);
    }

    #[test]
    fn pipelined_ucci_sessions_answer_each_go_in_its_position(
        steps in prop::collection::vec(step(UCCI_GOS.len()), 1..30)
    ) {
        run_session(Dialect::Ucci, &steps);
    }
}
