use super::*;

/// Black's general alone in the corner of its palace; Red's chariot on a8 holds the eighth
/// rank, and the one on h4 mates two ways: on the ninth rank (h4h9) or on the d-file (h4d4).
const TWO_MATES: &str = "3k5/R8/9/9/9/7R1/9/9/9/4K4 w";

fn mv(text: &str) -> Move {
    let from = text[..2].parse().unwrap();
    let to = text[2..].parse().unwrap();
    Move::new(from, to)
}

fn puzzle(fen: &str, solution: &str) -> Puzzle {
    Puzzle {
        id: "test".to_string(),
        position: Position::from_fen(fen).unwrap(),
        solution: solution.split(' ').map(mv).collect(),
        themes: Vec::new(),
        rating: 1500,
        source: String::new(),
    }
}

#[test]
fn the_solution_s_move_solves() {
    let mut analyst = Analyst::new(1);
    let mut attempt = Attempt::new(puzzle(TWO_MATES, "h4h9"));
    assert_eq!(attempt.goal(), Goal::Mate(1));
    assert_eq!(attempt.play(mv("h4h9"), &mut analyst), Verdict::Solved);
}

#[test]
fn another_mate_as_fast_is_right_too() {
    let mut analyst = Analyst::new(1);
    let mut attempt = Attempt::new(puzzle(TWO_MATES, "h4h9"));
    assert_eq!(attempt.play(mv("h4d4"), &mut analyst), Verdict::Solved);
}

#[test]
fn a_check_that_lets_the_general_out_is_wrong_and_shows_the_escape() {
    let mut analyst = Analyst::new(1);
    let mut attempt = Attempt::new(puzzle(TWO_MATES, "h4h9"));
    match attempt.play(mv("a8a9"), &mut analyst) {
        Verdict::Wrong { refutation } => {
            assert_eq!(refutation.first(), Some(&mv("d9d8")), "{refutation:?}")
        }
        other => panic!("{other:?}"),
    }
    assert!(attempt.played().is_empty(), "a wrong move is not played");
    assert_eq!(attempt.moves_left(), 1);
}

#[test]
fn a_faster_mate_than_the_solution_s_is_right() {
    // The solution takes two moves (a check on the ninth rank that the general escapes, then
    // the mate); mating at once wins faster.
    let mut analyst = Analyst::new(1);
    let mut attempt = Attempt::new(puzzle(TWO_MATES, "a8a9 d9d8 h4d4"));
    assert_eq!(attempt.goal(), Goal::Mate(2));
    assert_eq!(attempt.play(mv("h4d4"), &mut analyst), Verdict::Solved);
}

#[test]
fn following_the_solution_gets_its_replies() {
    let mut analyst = Analyst::new(1);
    let mut attempt = Attempt::new(puzzle(TWO_MATES, "a8a9 d9d8 h4d4"));
    assert_eq!(
        attempt.play(mv("a8a9"), &mut analyst),
        Verdict::Right { reply: mv("d9d8") }
    );
    assert_eq!(attempt.moves_left(), 1);
    assert_eq!(attempt.reference_move(&mut analyst), Some(mv("h4d4")));
    assert_eq!(attempt.play(mv("h4d4"), &mut analyst), Verdict::Solved);
}

#[test]
fn a_classic_draw_is_held_by_following_the_book_to_its_end() {
    let classic = crate::classic::find("shuanglong-xizhu").unwrap();
    let mut analyst = Analyst::new(1);
    let mut attempt = Attempt::new(classic.puzzle.clone());
    let n = classic.puzzle.solver_moves();
    assert_eq!(attempt.goal(), Goal::Draw(n));
    let solution = classic.puzzle.solution.clone();
    for (i, pair) in solution.chunks(2).enumerate() {
        let verdict = attempt.play(pair[0], &mut analyst);
        if i + 1 == n {
            assert_eq!(verdict, Verdict::Solved);
        } else {
            assert_eq!(verdict, Verdict::Right { reply: pair[1] }, "move {}", i + 1);
        }
    }
}

#[test]
fn a_move_that_lets_the_defender_mate_does_not_hold_the_draw() {
    // 双龙戏珠: Red must check at once; moving a soldier lets the cannon mate (f0f1).
    let classic = crate::classic::find("shuanglong-xizhu").unwrap();
    let mut analyst = Analyst::new(1);
    let mut attempt = Attempt::new(classic.puzzle.clone());
    match attempt.play(mv("b9a9"), &mut analyst) {
        Verdict::Wrong { refutation } => {
            assert_eq!(refutation.first(), Some(&mv("f0f1")), "{refutation:?}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_classic_won_without_mate_asks_to_keep_the_win() {
    let classic = crate::classic::find("huoshao-lianying").unwrap();
    assert_eq!(
        Goal::of(&classic.puzzle),
        Goal::Win(classic.puzzle.solver_moves())
    );
    let seven = crate::classic::find("hongmen-suidou").unwrap();
    assert_eq!(Goal::of(&seven.puzzle), Goal::Mate(4));
}
