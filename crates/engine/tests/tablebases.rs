//! The endgame tables against the engine's own search: on random positions of each table, a
//! mate the search proves without the tables is one the table knows, no slower; a position
//! the table calls a draw has no mate the search can prove; and with the tables the engine
//! plays a table's fastest mate to its end.

use xiangqi::Position;
use xiangqi_engine::random::Rng;
use xiangqi_engine::tablebases::{
    check_against_search, checking_engine, random_positions, SearchCheck,
};
use xiangqi_engine::{Engine, EngineOptions, Limits, SearchRequest, Tablebases};
use xiangqi_tablebase::{Material, Tables, Value};

fn engine(tablebases: Option<Tablebases>) -> Engine {
    Engine::new(EngineOptions {
        tablebases,
        ..rules_engine_options()
    })
}

/// A small engine of the game's rules, with no tables.
fn rules_engine_options() -> EngineOptions {
    EngineOptions {
        hash_mb: 8,
        own_book: false,
        seed: Some(1),
        ..EngineOptions::default()
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn every_mate_the_search_proves_is_in_the_tables() {
    let mut tables = Tables::with_threads(1);
    let sets = ["KRK", "KHK", "KPK", "KRKA", "KHKA", "KCAK", "KPKB"];
    for name in sets {
        tables.generate(name.parse().unwrap(), &mut |_| {});
    }
    let mut rng = Rng::new(39);
    let mut engine = checking_engine();
    let mut mates = 0;
    for name in sets {
        for pos in random_positions(name.parse().unwrap(), 12, &mut rng) {
            let value = tables.probe(&pos).expect("a table holds it");
            match check_against_search(&mut engine, &pos, value, 9) {
                SearchCheck::Mate => mates += 1,
                SearchCheck::NoMate => {}
                SearchCheck::Disagrees(why) => panic!("{why}"),
            }
        }
    }
    assert!(mates >= 20, "only {mates} positions with a proven mate");
}

/// A checking engine that evaluates by hand. The checks below are about the checker, and which
/// mate a shallow search finds moves with each network (at depth 5 generation 3's found the
/// mate in 3 plies below, generation 4's one in 5).
fn hand_checking_engine() -> Engine {
    let mut engine = checking_engine();
    engine.set_network(None);
    engine
}

#[test]
fn a_wrong_value_is_caught_by_the_search() {
    // Each check on a fresh engine: what an earlier search left in the table could let a
    // later one settle for a slower mate.
    // Mate in two (three plies); at depth 5 the search proves a mate in three plies or five.
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    assert_eq!(
        check_against_search(&mut hand_checking_engine(), &pos, Value::Win(3), 5),
        SearchCheck::Mate
    );
    // A slower mate, a draw or a loss each contradict the mate the search proves (a faster
    // one would not: a search need not find the fastest).
    for wrong in [Value::Draw, Value::Win(7), Value::Loss(4)] {
        let said = check_against_search(&mut hand_checking_engine(), &pos, wrong, 5);
        assert!(
            matches!(&said, SearchCheck::Disagrees(why) if why.contains("the search mates in")),
            "{wrong}: {said:?}"
        );
    }
    // Too shallow to see it, the search cannot say a draw is wrong, but a mate in one it must.
    assert_eq!(
        check_against_search(&mut hand_checking_engine(), &pos, Value::Draw, 1),
        SearchCheck::NoMate
    );
}

/// Positions of `KRHKR` and `KRRKR` whose values involve the perpetual-check rule, found by
/// `tb crosscheck` when it searched with the rules: the rules' engine reports "mates" there
/// (a repetition inside the search loses at once for the side that checked all through it),
/// the checking engine does not.
#[test]
fn wins_by_the_rule_are_not_taken_for_mates() {
    let rule_win = Value::RuleWin(xiangqi_tablebase::Rank::new(0).unwrap());
    let cases = [
        // The table: a win by the rule; the rules' search: a mate in 13 plies.
        ("1r7/3k5/9/9/3N5/9/2R6/9/9/3K5 w - - 0 1", rule_win),
        // The table: a mate in 23 plies; the rules' search: a mate in 15.
        ("9/1N2k4/9/9/9/1R7/7r1/9/3K5/9 w - - 0 1", Value::Win(23)),
    ];
    for (fen, value) in cases {
        let pos = Position::from_fen(fen).unwrap();
        // The rules' engine evaluates by hand: the question is how it scores repetitions, and
        // a new built-in network would move the depth at which its "mates" show (at depth 10
        // generation 3's showed none in the first position, generation 2's did).
        let mut with_rules = Engine::new(EngineOptions {
            network: None,
            ..rules_engine_options()
        });
        let said = check_against_search(&mut with_rules, &pos, value, 10);
        assert!(matches!(said, SearchCheck::Disagrees(_)), "{fen}: {said:?}");
        let said = check_against_search(&mut checking_engine(), &pos, value, 12);
        assert!(
            !matches!(said, SearchCheck::Disagrees(_)),
            "{fen}: {said:?}"
        );
    }
}

#[test]
fn with_the_tables_the_engine_plays_the_fastest_mate_to_its_end() {
    let mut tables = Tables::with_threads(1);
    tables.generate("KHK".parse().unwrap(), &mut |_| {});
    // A horse mates alone; a position at least nine plies from its mate.
    let mut rng = Rng::new(7);
    let (mut pos, dtm) = loop {
        let pos = random_positions("KHK".parse().unwrap(), 1, &mut rng).remove(0);
        if let Some(Value::Win(n)) = tables.probe(&pos) {
            if n >= 9 {
                break (pos, n);
            }
        }
    };
    let tb = Tablebases::new(tables);
    let mut engine = engine(Some(tb.clone()));
    let mut played: u16 = 0;
    while !pos.has_no_legal_move() {
        let before = tb.probe(&pos).unwrap();
        let result = engine.search(SearchRequest::new(pos.clone(), depth(3)), |_| {});
        let m = result.best_move.unwrap();
        pos.make_move(m);
        played += 1;
        let after = tb.probe(&pos).unwrap();
        // Each move keeps the value and brings the mate one ply nearer, whichever side moves.
        match before {
            Value::Win(n) => assert_eq!(after, Value::Loss(n - 1), "{m}"),
            Value::Loss(n) => assert_eq!(after, Value::Win(n - 1), "{m}"),
            other => panic!("{other} in a line won by mate"),
        }
        assert!(
            played <= dtm,
            "the mate takes longer than the table's {dtm} plies"
        );
    }
    assert_eq!(played, dtm);
    // Mated or stalemated: either loses in Xiangqi.
    assert_eq!(tb.probe(&pos), Some(Value::Loss(0)));
}

#[test]
fn a_search_never_waits_for_a_table_file() {
    let dir = std::env::temp_dir().join(format!("xq-engine-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut tables = Tables::with_threads(1);
    tables.generate("KRKAA".parse().unwrap(), &mut |table| {
        let name = xiangqi_tablebase::file::file_name(table.material());
        std::fs::write(dir.join(name), table.to_bytes()).unwrap();
    });
    let (tb, refused) = Tablebases::read(&dir).unwrap();
    assert!(refused.is_empty());
    // The small tables are in memory at once.
    assert!(tb.tables().is_loaded("KRK".parse().unwrap()));
    let krkaa: Material = "KRKAA".parse().unwrap();
    let pos = Position::from_fen("3aka3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
    // On disk still: the search's look says nothing and has the table read meanwhile.
    assert!(!tb.tables().is_loaded(krkaa));
    assert_eq!(tb.probe_now(&pos), None);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !tb.tables().is_loaded(krkaa) {
        assert!(
            std::time::Instant::now() < deadline,
            "the table is never read"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let value = tb.probe_now(&pos).map(|p| p.value);
    assert!(matches!(value, Some(Value::Win(_))), "{value:?}");
    // A look that may wait (the GUI's, `tb probe`'s) reads the file itself.
    let (fresh, _) = Tablebases::read(&dir).unwrap();
    assert_eq!(fresh.probe(&pos), value);
    let _ = std::fs::remove_dir_all(&dir);
}
