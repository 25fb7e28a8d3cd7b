use super::*;
use crate::value::{Conversion, Probe, Value};

fn built(names: &[&str]) -> Tables {
    let mut tables = Tables::new();
    for name in names {
        tables.generate(name.parse().unwrap(), &mut |_| {});
    }
    tables
}

fn probe(tables: &Tables, fen: &str) -> Value {
    tables
        .probe(&Position::from_fen(fen).unwrap())
        .expect("the table is built")
}

/// Every stored value is what its successors' values make it: the check the issue asks of
/// every table, run here on the small ones.
fn assert_consistent(tables: &Tables, material: Material) {
    let checked = crate::verify::verify(tables, material, 2).unwrap();
    assert!(checked > 0, "no position of {material}");
}

#[test]
fn a_damaged_value_is_found_by_the_check() {
    let mut tables = built(&["KRK"]);
    let krk: Material = "KRK".parse().unwrap();
    let mut table = tables.get(krk).unwrap().clone();
    // Make a win one ply slower than it is.
    let index = table.codes[0]
        .iter()
        .position(|&c| matches!(Value::from_code(c), Some(Value::Win(3))))
        .unwrap();
    table.codes[0][index] = Value::Win(5).code();
    tables.insert(table);
    let error = crate::verify::verify(&tables, krk, 1).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the table says win dtm 5, the moves say win dtm 3"),
        "{error}"
    );
}

#[test]
fn a_chariot_wins_against_the_bare_general_and_every_value_agrees_with_its_successors() {
    let tables = built(&["KRK"]);
    let krk: Material = "KRK".parse().unwrap();
    assert_consistent(&tables, krk);
    assert_consistent(&tables, "KK".parse().unwrap());
    // Red to move wins from far away; Black to move cannot save it either.
    assert!(matches!(
        probe(&tables, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"),
        Value::Win(n) if n % 2 == 1
    ));
    assert!(matches!(
        probe(&tables, "4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1"),
        Value::Loss(n) if n % 2 == 0
    ));
    // The chariot next to the general, unguarded: taken, and two generals draw.
    assert_eq!(
        probe(&tables, "3k5/3R5/9/9/9/9/9/9/9/4K4 b - - 0 1"),
        Value::Draw
    );
    // A table serves both colours: Black's chariot against Red's general.
    assert!(matches!(
        probe(&tables, "r2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"),
        Value::Win(_)
    ));
    let [wins, draws, losses] = tables.get(krk).unwrap().counts();
    assert!(
        wins > 0 && losses > 0 && draws > 0,
        "{wins} {draws} {losses}"
    );
}

#[test]
fn a_lone_cannon_cannot_mate() {
    let tables = built(&["KCK"]);
    let kck: Material = "KCK".parse().unwrap();
    assert_consistent(&tables, kck);
    let [wins, _, losses] = tables.get(kck).unwrap().counts();
    assert_eq!((wins, losses), (0, 0));
}

#[test]
fn a_cannon_with_an_advisor_for_a_screen_mates() {
    let tables = built(&["KCAK"]);
    let kcak: Material = "KCAK".parse().unwrap();
    assert_consistent(&tables, kcak);
    let [wins, _, _] = tables.get(kcak).unwrap().counts();
    assert!(wins > 10_000, "{wins}");
}

#[test]
fn a_chariot_beats_two_advisors_counted_as_a_pair() {
    let tables = built(&["KRKAA"]);
    let krkaa: Material = "KRKAA".parse().unwrap();
    assert_consistent(&tables, krkaa);
    // Two advisors stand on 10 pairs of their 5 points.
    assert_eq!(tables.get(krkaa).unwrap().size(), 6 * 9 * 90 * 10);
}

#[test]
fn a_soldier_on_the_last_rank_draws_and_one_before_the_palace_wins() {
    let tables = built(&["KPK"]);
    assert_consistent(&tables, "KPK".parse().unwrap());
    // 底兵: the soldier on Black's back rank can only step sideways.
    assert_eq!(
        probe(&tables, "P3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"),
        Value::Draw
    );
}

#[test]
fn the_tables_do_not_depend_on_the_number_of_threads() {
    let khka: Material = "KHKA".parse().unwrap();
    let mut one = Tables::with_threads(1);
    one.generate(khka, &mut |_| {});
    let mut three = Tables::with_threads(3);
    three.generate(khka, &mut |_| {});
    let (a, b) = (one.get(khka).unwrap(), three.get(khka).unwrap());
    assert_eq!(a.codes(), b.codes());
    // Captures both ways: the horse takes the advisor, the advisor the horse.
    assert_consistent(&one, khka);
    assert_eq!(a.longest(), b.longest());
    assert!(
        a.longest() > 20,
        "the horse needs long mates: {}",
        a.longest()
    );
}

/// Every win and loss by mate of `material` with its conversion.
fn mates_with_conversions(tables: &Tables, material: Material) -> Vec<(Value, Conversion)> {
    let table = tables.get(material).unwrap();
    let mut found = Vec::new();
    for side in Color::ALL {
        for index in 0..table.size() {
            let Some(pos) = position(&table.layout, side, index) else {
                continue;
            };
            let probe = table.lookup(&pos, false).unwrap();
            if let Some(conversion) = probe.conversion {
                found.push((probe.value, conversion));
            }
        }
    }
    found
}

#[test]
fn without_captures_a_conversion_is_the_mate_and_with_them_it_comes_sooner() {
    let tables = built(&["KRK", "KRKP"]);
    // The bare general cannot take the chariot and win: every conversion is the mate.
    let krk = mates_with_conversions(&tables, "KRK".parse().unwrap());
    assert!(krk.len() > 1_000);
    for (value, conversion) in &krk {
        let (Value::Win(n) | Value::Loss(n)) = *value else {
            panic!("{value:?}");
        };
        assert_eq!(*conversion, Conversion::In(n as u8), "{value:?}");
    }
    // Against a soldier the chariot often takes it first.
    let krkp = mates_with_conversions(&tables, "KRKP".parse().unwrap());
    let mut sooner = 0;
    for (value, conversion) in &krkp {
        let (Value::Win(n) | Value::Loss(n)) = *value else {
            panic!("{value:?}");
        };
        let Conversion::In(c) = *conversion else {
            panic!("{value:?} never converts");
        };
        assert!(u16::from(c) <= n, "{value:?} {conversion:?}");
        sooner += usize::from(u16::from(c) < n);
    }
    assert!(sooner > 1_000, "{sooner}");
    // From the start of the next test's position: mate in 9 plies, the soldier taken in 5.
    assert_eq!(
        tables.lookup(&Position::from_fen("9/9/3k5/9/9/9/3p5/9/9/R2K5 w - - 0 1").unwrap()),
        Some(Probe {
            value: Value::Win(9),
            conversion: Some(Conversion::In(5))
        })
    );
}

#[test]
fn a_damaged_conversion_is_found_by_the_check() {
    let mut tables = built(&["KRKP"]);
    let krkp: Material = "KRKP".parse().unwrap();
    let mut table = tables.get(krkp).unwrap().clone();
    let pos = Position::from_fen("9/9/3k5/9/9/9/3p5/9/9/R2K5 w - - 0 1").unwrap();
    let (index, side) = table.layout.encode(&pos, false).unwrap();
    // The mate's distance instead of the capture's.
    table.conversions[side.index()][index] = Conversion::In(9).byte();
    tables.insert(table);
    let error = crate::verify::verify(&tables, krkp, 1).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the table says win dtm 9 dtc 9, the moves say win dtm 9 dtc 5"),
        "{error}"
    );
}

#[test]
fn the_building_of_a_table_is_told_step_by_step() {
    let mut tables = Tables::new();
    let krkh: Material = "KRKH".parse().unwrap();
    let mut steps = Vec::new();
    tables.generate_with_steps(krkh, &mut |_| {}, &mut |material, step| {
        if material == krkh {
            steps.push(step);
        }
    });
    let moves = |side| Step::Moves {
        side,
        entries: tables.get(krkh).unwrap().size(),
    };
    assert_eq!(steps[..2], [moves(Color::Red), moves(Color::Black)]);
    // The mates, nearest first.
    let distances: Vec<u16> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Distance { plies, .. } => Some(*plies),
            _ => None,
        })
        .collect();
    assert!(distances.windows(2).all(|w| w[1] == w[0] + 1));
    assert_eq!(distances.last(), Some(&tables.get(krkh).unwrap().longest()));
    // Both games of the rule, the check's deciding its 1,606 positions.
    let decided_by_checks = steps.iter().rev().find_map(|s| match s {
        Step::Rule {
            chases: false,
            decided,
            ..
        } => Some(*decided),
        _ => None,
    });
    assert_eq!(decided_by_checks, Some(1_606));
    assert!(steps
        .iter()
        .any(|s| matches!(s, Step::Rule { chases: true, .. })));
    // Then every win and loss by mate gets its conversion.
    let Some(Step::Conversion { measured, .. }) = steps.last() else {
        panic!("{:?}", steps.last());
    };
    assert_eq!(*measured, mates_with_conversions(&tables, krkh).len());
}
