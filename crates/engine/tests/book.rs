//! The opening book as the engine uses it: the checked-in file is up to date, and the engine
//! answers from it when asked to and only then.

use std::sync::{Arc, Mutex};
use xiangqi::{format_move, parse_move, Move, Notation, Position};
use xiangqi_engine::book::{parse_lines, Book, BUILTIN_BYTES, BUILTIN_LINES};
use xiangqi_engine::{Engine, EngineOptions, Limits, SearchRequest};

const REBUILD: &str = "cargo run --release -p xiangqi-app -- book build";

#[test]
fn the_checked_in_book_is_built_from_the_checked_in_lines() {
    let lines = parse_lines(BUILTIN_LINES).expect("crates/engine/book/lines.txt parses");
    let built = Book::build(&lines, None).to_bytes();
    assert!(
        built == BUILTIN_BYTES,
        "crates/engine/book/book.bin is out of date with lines.txt (or the book format or the \
         position keys changed): rebuild it from the workspace root with `{REBUILD}` and \
         commit the result"
    );
    // Building twice gives the same bytes.
    assert_eq!(Book::build(&lines, None).to_bytes(), built);
}

#[test]
fn the_lines_are_written_in_standard_chinese_notation() {
    for (i, text) in BUILTIN_LINES.lines().enumerate() {
        let content = text.split('#').next().unwrap_or("");
        let mut pos = Position::startpos();
        for token in content.split_whitespace() {
            if token.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            let m = parse_move(&pos, token).unwrap();
            let standard = format_move(&pos, m, Notation::Chinese);
            assert_eq!(token, standard, "line {}", i + 1);
            pos.make_move(m);
        }
    }
}

fn engine(own_book: bool, seed: u64) -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 8,
        own_book,
        seed: Some(seed),
        ..EngineOptions::default()
    })
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn book_moves(pos: &Position) -> Vec<Move> {
    let book = Book::builtin().unwrap();
    book.probe(pos).iter().map(|m| m.mv).collect()
}

#[test]
fn with_the_book_on_the_engine_answers_from_it_at_once() {
    let start = Position::startpos();
    let infos = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&infos);
    let result = engine(true, 1).search(SearchRequest::new(start.clone(), depth(20)), move |i| {
        sink.lock().unwrap().push(i.clone())
    });
    assert!(result.from_book);
    let best = result.best_move.unwrap();
    assert!(book_moves(&start).contains(&best), "{best}");
    assert_eq!((result.depth, result.nodes), (0, 0));
    assert_eq!(result.pv, [best]);
    // One report, so a GUI sees the move and where it came from.
    let infos = infos.lock().unwrap();
    assert_eq!(infos.len(), 1);
    assert_eq!((infos[0].depth, infos[0].pv.clone()), (0, vec![best]));
}

#[test]
fn the_book_gives_variety_and_a_seed_repeats_it() {
    let start = Position::startpos();
    let play = |seed| {
        let mut e = engine(true, seed);
        (0..12)
            .map(|_| {
                e.search(SearchRequest::new(start.clone(), depth(1)), |_| {})
                    .best_move
            })
            .collect::<Vec<_>>()
    };
    let first = play(7);
    assert_eq!(first, play(7));
    let distinct: std::collections::BTreeSet<_> = first.iter().collect();
    assert!(distinct.len() >= 2, "{first:?}");
}

#[test]
fn with_the_book_off_the_engine_searches() {
    let result =
        engine(false, 1).search(SearchRequest::new(Position::startpos(), depth(3)), |_| {});
    assert!(!result.from_book);
    assert_eq!(result.depth, 3);
    assert!(result.nodes > 0);
    // Switching it on later works too.
    let mut e = engine(false, 1);
    e.set_own_book(true);
    let result = e.search(SearchRequest::new(Position::startpos(), depth(3)), |_| {});
    assert!(result.from_book);
}

#[test]
fn several_lines_asked_for_are_searched_not_taken_from_the_book() {
    // A GUI that asks for three lines wants three of the engine's own: a book move is one.
    let mut e = engine(true, 1);
    e.set_multipv(3);
    let infos = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&infos);
    let result = e.search(
        SearchRequest::new(Position::startpos(), depth(4)),
        move |i| sink.lock().unwrap().push(i.clone()),
    );
    assert!(!result.from_book);
    assert_eq!(result.depth, 4);
    let lines: std::collections::BTreeSet<usize> = infos
        .lock()
        .unwrap()
        .iter()
        .filter(|i| i.depth == 4)
        .map(|i| i.multipv)
        .collect();
    assert_eq!(lines, [1, 2, 3].into_iter().collect());
    // Back to one line, the book answers again.
    e.set_multipv(1);
    let result = e.search(SearchRequest::new(Position::startpos(), depth(4)), |_| {});
    assert!(result.from_book);
}

#[test]
fn analysis_and_restricted_searches_do_not_use_the_book_blindly() {
    let start = Position::startpos();
    let moves = book_moves(&start);
    // Mate, infinite and ponder searches are analysis (or wait for the opponent): the engine
    // searches. The last two run until stopped.
    let mut e = engine(true, 3);
    let mate = Limits {
        mate: Some(1),
        depth: Some(2),
        ..Limits::default()
    };
    assert!(
        !e.search(SearchRequest::new(start.clone(), mate), |_| {})
            .from_book
    );
    for ponder in [false, true] {
        let mut request = SearchRequest::new(
            start.clone(),
            Limits {
                infinite: !ponder,
                ..Limits::default()
            },
        );
        request.ponder = ponder;
        let (tx, rx) = std::sync::mpsc::channel();
        e.start(
            request,
            |_| {},
            move |r| {
                let _ = tx.send(r);
            },
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
        e.stop_and_wait();
        assert!(!rx.recv().unwrap().from_book, "ponder {ponder}");
    }
    // searchmoves outside the book: a search among them.
    let mut request = SearchRequest::new(start.clone(), depth(2));
    let a3a4 = parse_move(&start, "a3a4").unwrap();
    request.search_moves = vec![a3a4];
    let r = e.search(request, |_| {});
    assert_eq!((r.best_move, r.from_book), (Some(a3a4), false));
    // searchmoves inside the book: the book chooses among them.
    let mut request = SearchRequest::new(start.clone(), depth(2));
    request.search_moves = vec![moves[0], a3a4];
    let r = e.search(request, |_| {});
    assert_eq!((r.best_move, r.from_book), (Some(moves[0]), true));
    // Banning every book move leaves a search.
    let mut request = SearchRequest::new(start.clone(), depth(2));
    request.banned = moves.clone();
    let r = e.search(request, |_| {});
    assert!(!r.from_book);
    assert!(!moves.contains(&r.best_move.unwrap()));
}

#[test]
fn book_moves_follow_the_game_and_its_history() {
    let mut e = engine(true, 5);
    let start = Position::startpos();
    let mut request = SearchRequest::new(start.clone(), depth(2));
    let mut pos = start.clone();
    for text in ["炮二平五", "马８进７"] {
        let m = parse_move(&pos, text).unwrap();
        pos.make_move(m);
        request.moves.push(m);
    }
    let r = e.search(request.clone(), |_| {});
    assert!(r.from_book);
    assert!(book_moves(&pos).contains(&r.best_move.unwrap()));
    // The same position set up from a FEN with a late move number is no longer the opening.
    let fen = pos.to_fen();
    let (placement, _move_number) = fen.rsplit_once(' ').unwrap();
    let late = Position::from_fen(&format!("{placement} 40")).unwrap();
    assert_eq!(late.key(), pos.key());
    let r = e.search(SearchRequest::new(late, depth(2)), |_| {});
    assert!(!r.from_book);
}

#[test]
fn a_custom_book_replaces_the_builtin_one() {
    let lines = parse_lines("相三进五 卒７进１\n").unwrap();
    let book = Book::build(&lines, None);
    let mut e = engine(true, 9);
    e.set_book(Some(Arc::new(book)));
    let start = Position::startpos();
    let r = e.search(SearchRequest::new(start.clone(), depth(2)), |_| {});
    let played: Vec<String> = r.best_move.iter().map(Move::to_string).collect();
    assert!(played == ["g0e2"] || played == ["c0e2"], "{played:?}");
    // Back to the built-in book.
    e.set_book(None);
    let r = e.search(SearchRequest::new(start.clone(), depth(2)), |_| {});
    assert!(book_moves(&start).contains(&r.best_move.unwrap()));
}
