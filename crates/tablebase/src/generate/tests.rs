use super::*;
use xiangqi::game::is_insufficient_material;

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
    let table = tables.get(material).unwrap();
    let mut checked = 0;
    for side in Color::ALL {
        for index in 0..table.size() {
            let Some(mut pos) = position(&table.layout, side, index) else {
                assert_eq!(table.codes[side.index()][index], ILLEGAL);
                continue;
            };
            let stored = Value::from_code(table.codes[side.index()][index]).unwrap();
            let moves = pos.legal_moves();
            let expected = if moves.is_empty() {
                Value::Loss(0)
            } else if is_insufficient_material(&pos) {
                Value::Draw
            } else {
                let children: Vec<Value> = moves
                    .as_slice()
                    .iter()
                    .map(|&m| {
                        let undo = pos.make_move(m);
                        let v = tables.probe(&pos).expect("every child has a table");
                        pos.unmake_move(m, undo);
                        v
                    })
                    .collect();
                let fastest_loss = children
                    .iter()
                    .filter_map(|v| match v {
                        Value::Loss(n) => Some(*n),
                        _ => None,
                    })
                    .min();
                let all_wins: Option<Vec<u16>> = children
                    .iter()
                    .map(|v| match v {
                        Value::Win(n) => Some(*n),
                        _ => None,
                    })
                    .collect();
                match (fastest_loss, all_wins) {
                    (Some(n), _) => Value::Win(n + 1),
                    (None, Some(wins)) => Value::Loss(wins.iter().max().unwrap() + 1),
                    (None, None) => Value::Draw,
                }
            };
            assert_eq!(stored, expected, "{} {}", material, pos.to_fen());
            checked += 1;
        }
    }
    assert!(checked > 0, "no position of {material}");
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
