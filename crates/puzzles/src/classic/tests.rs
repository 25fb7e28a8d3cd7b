use super::*;
use crate::Theme;
use std::collections::HashSet;

const SEVEN_STARS: &str = "t-seven\t七星聚会\tSeven stars gather\t红先和\t\
    4rk3/3P5/4bP3/9/9/8P/9/1p2p2C1/3p1p3/4K1RR1 w - - 0 1\th2f2 e2f2 f7f8 f9f8\tbook\tcopy\t";

#[test]
fn the_shipped_classics_read_with_thirty_names_and_more() {
    let all = classics();
    assert!(all.len() >= 30, "{} classics", all.len());
    let names: HashSet<&str> = all.iter().map(|c| c.name.as_str()).collect();
    assert!(names.len() >= 30, "{} names", names.len());
    let mut ids = HashSet::new();
    let mut diagrams = HashSet::new();
    for c in all {
        assert!(ids.insert(c.puzzle.id.as_str()), "{} twice", c.puzzle.id);
        assert!(
            diagrams.insert(c.diagram.key()),
            "{} repeats a diagram",
            c.name
        );
        assert!(!c.book.is_empty() && !c.copy.is_empty(), "{}", c.name);
        assert_eq!(
            c.puzzle.themes,
            crate::tag::retag(&c.puzzle),
            "{}: themes",
            c.name
        );
        assert_eq!(
            c.puzzle.themes.contains(&Theme::Draw),
            c.verdict == Verdict::Draw
        );
        assert!(c.puzzle.solution.len() % 2 == 1);
        assert!(
            c.line.starts_with(&c.puzzle.solution) || c.line[1..].starts_with(&c.puzzle.solution)
        );
    }
    let draws = all.iter().filter(|c| c.verdict == Verdict::Draw).count();
    assert!(draws >= 30, "{draws} draws");
}

#[test]
fn the_four_famous_ones_are_draws_with_red_to_hold_them() {
    for name in ["七星聚会", "蚯蚓降龙", "野马操田", "千里独行"] {
        let c = classics().iter().find(|c| c.name == name).unwrap();
        assert_eq!(c.verdict, Verdict::Draw, "{name}");
        assert_eq!(c.puzzle.solver(), Color::Red, "{name}");
        assert_eq!(
            crate::judge::Goal::of(&c.puzzle).moves(),
            c.puzzle.solver_moves()
        );
    }
}

#[test]
fn a_win_for_the_side_that_moves_second_starts_after_the_book_s_first_move() {
    let c = find("huoshao-lianying").unwrap();
    assert_eq!(c.verdict, Verdict::Win(Color::Black));
    assert_eq!(c.puzzle.solver(), Color::Black);
    let mut after = c.diagram.clone();
    after.make_move(c.line[0]);
    assert_eq!(c.puzzle.position, after);
    let n = c.puzzle.solution.len();
    assert_eq!(c.puzzle.solution[..], c.line[1..1 + n]);
    assert!(n + 2 >= c.line.len(), "only the last reply may be left off");
}

#[test]
fn a_line_reads_and_an_even_line_loses_its_last_reply() {
    let c = Classic::from_line(SEVEN_STARS).unwrap();
    assert_eq!(c.name, "七星聚会");
    assert_eq!(c.verdict, Verdict::Draw);
    assert_eq!(c.line.len(), 4);
    assert_eq!(c.puzzle.solution_text(), "h2f2 e2f2 f7f8");
    assert_eq!(c.puzzle.rating, rating_for(2));
    assert_eq!(
        c.puzzle.themes,
        vec![Theme::Short, Theme::Classic, Theme::Draw]
    );
    let read = Puzzle::from_line(&c.puzzle.line()).unwrap();
    assert_eq!(read, c.puzzle, "a classic exports as a plain puzzle line");
}

#[test]
fn verdicts_read_as_the_books_write_them() {
    assert_eq!(read_verdict("红先和"), Ok((Color::Red, Verdict::Draw)));
    assert_eq!(
        read_verdict("红先胜"),
        Ok((Color::Red, Verdict::Win(Color::Red)))
    );
    assert_eq!(
        read_verdict("红先黑胜"),
        Ok((Color::Red, Verdict::Win(Color::Black)))
    );
    assert_eq!(read_verdict("黑先和"), Ok((Color::Black, Verdict::Draw)));
    for bad in ["", "红", "红和", "红先", "红先白胜", "白先和", "红先和了"] {
        assert!(
            matches!(read_verdict(bad), Err(ClassicError::Verdict(_))),
            "{bad}"
        );
    }
}

#[test]
fn broken_lines_say_what_is_wrong() {
    let with = |i: usize, value: &str| {
        let mut f: Vec<&str> = SEVEN_STARS.split('\t').collect();
        f[i] = value;
        Classic::from_line(&f.join("\t")).unwrap_err()
    };
    assert_eq!(Classic::from_line("a\tb"), Err(ClassicError::Fields(2)));
    assert!(matches!(
        with(0, "Seven Stars"),
        ClassicError::Puzzle(LineError::Id(_))
    ));
    assert!(matches!(with(3, "和"), ClassicError::Verdict(_)));
    // The verdict's first side must be the diagram's side to move.
    assert!(matches!(with(3, "黑先和"), ClassicError::Verdict(_)));
    assert!(matches!(
        with(4, "4rk3 w"),
        ClassicError::Puzzle(LineError::Fen(_))
    ));
    assert!(matches!(
        with(5, "h2f2 e2f2 f7f9"),
        ClassicError::Puzzle(LineError::Move { index: 3, .. })
    ));
    let one_move = SEVEN_STARS
        .replace("红先和", "红先黑胜")
        .replace("h2f2 e2f2 f7f8 f9f8", "h2f2");
    assert_eq!(
        Classic::from_line(&one_move),
        Err(ClassicError::NoSolverMove)
    );
    let error = read_classics(&format!("# head\n{SEVEN_STARS}\nbroken\n")).unwrap_err();
    assert_eq!(error.line, 3);
}
