use super::*;
use xiangqi::{format_move, Notation};

fn first_with(theme: Theme) -> &'static Puzzle {
    shipped::puzzles()
        .iter()
        .find(|p| p.themes.contains(&theme))
        .expect("the shipped puzzles have one")
}

fn body(puzzle: &Puzzle, played: &[Move], mv: &str) -> MoveBody {
    MoveBody {
        id: puzzle.id.clone(),
        played: moves_text(played),
        mv: mv.to_string(),
    }
}

#[test]
fn a_solution_played_move_by_move_is_right_then_solved() {
    let puzzle = first_with(Theme::MateIn(2));
    let s = &puzzle.solution;
    let first = play(&body(puzzle, &[], &s[0].to_string())).unwrap();
    assert_eq!(first.verdict, "right");
    assert_eq!(first.reply, Some(s[1].to_string()));
    assert!(
        first.solution.is_empty(),
        "the solution stays hidden while it is solved"
    );
    let last = play(&body(puzzle, &s[..2], &s[2].to_string())).unwrap();
    assert_eq!(last.verdict, "solved");
    assert_eq!(last.solution, moves_text(s));
    // The page shows the line in the reader's notation: each move named from its position.
    let iccs: Vec<&str> = last
        .solution_names
        .iter()
        .map(|n| n.iccs.as_str())
        .collect();
    assert_eq!(iccs, last.solution);
    let mut pos = puzzle.position.clone();
    for (&m, names) in s.iter().zip(&last.solution_names) {
        assert_eq!(names.chinese, format_move(&pos, m, Notation::Chinese));
        pos.make_move(m);
    }
    let shown = solution(&AttemptBody {
        id: puzzle.id.clone(),
        played: Vec::new(),
    })
    .unwrap();
    assert_eq!(shown.solution_names, last.solution_names);
}

#[test]
fn a_wrong_move_shows_the_escape_and_the_solution() {
    let puzzle = first_with(Theme::MateIn(1));
    let legal = puzzle.position.legal_moves();
    let wrong = legal
        .as_slice()
        .iter()
        .find(|&&m| {
            let mut after = puzzle.position.clone();
            after.make_move(m);
            !after.has_no_legal_move()
        })
        .expect("a move that does not mate");
    let view = play(&body(puzzle, &[], &wrong.to_string())).unwrap();
    assert_eq!(view.verdict, "wrong");
    assert!(!view.refutation.is_empty());
    assert_eq!(view.solution, moves_text(&puzzle.solution));
    // The escape is named from the position after the wrong move, where the defender moves.
    let mut after = puzzle.position.clone();
    after.make_move(*wrong);
    let first = view.refutation_names.first().expect("the escape named");
    assert_eq!(first.iccs, view.refutation[0]);
    let escape = crate::game_file::iccs_move(&view.refutation[0]).unwrap();
    assert_eq!(
        first.chinese,
        format_move(&after, escape, Notation::Chinese)
    );
    assert_eq!(view.refutation_names.len(), view.refutation.len());
}

#[test]
fn bad_moves_and_bad_histories_are_refused_with_reasons() {
    let puzzle = first_with(Theme::MateIn(2));
    let refused = |b: MoveBody| play(&b).unwrap_err();
    // A move the rules forbid says why, as a game's does.
    let general = puzzle.position.general(puzzle.solver());
    let jump = format!(
        "{general}{}",
        general.offset(0, 3).or(general.offset(0, -3)).unwrap()
    );
    assert!(matches!(
        refused(body(puzzle, &[], &jump)),
        ApiError::Rejected { .. }
    ));
    assert!(matches!(
        refused(body(puzzle, &[], "xyz")),
        ApiError::Rejected {
            code: "unreadable",
            ..
        }
    ));
    // Moves played that are not ICCS, or that leave the defender to move.
    let mut garbled = body(puzzle, &[], &puzzle.solution[0].to_string());
    garbled.played = vec!["h2".into()];
    assert!(matches!(refused(garbled), ApiError::BadRequest(_)));
    let odd = body(
        puzzle,
        &puzzle.solution[..1],
        &puzzle.solution[1].to_string(),
    );
    assert!(matches!(
        refused(odd),
        ApiError::Rejected {
            code: "not_in_puzzle",
            ..
        }
    ));
    let unknown = MoveBody {
        id: "no-such-puzzle".into(),
        played: Vec::new(),
        mv: "h2e2".into(),
    };
    assert!(matches!(refused(unknown), ApiError::NotFound(_)));
}

#[test]
fn the_hint_names_the_solution_s_move() {
    let puzzle = first_with(Theme::MateIn(2));
    let attempt = AttemptBody {
        id: puzzle.id.clone(),
        played: Vec::new(),
    };
    let hint = hint(&attempt).unwrap();
    assert_eq!(hint.mv, puzzle.solution[0].to_string());
    assert_eq!(hint.from, puzzle.solution[0].from().to_string());
}

#[test]
fn the_next_puzzle_is_new_near_the_rating_and_of_the_theme_asked() {
    let mut record = PuzzleRecord::default();
    let first = next(&record, &NextQuery::default()).unwrap();
    assert!(!first.seen);
    let chosen = puzzle(&first.id).unwrap();
    record.add(chosen, true, 1);
    let second = next(&record, &NextQuery::default()).unwrap();
    assert_ne!(
        second.id, first.id,
        "a puzzle tried is not offered while others are new"
    );
    let mates = next(
        &record,
        &NextQuery {
            theme: Some("mateIn3".into()),
            id: None,
        },
    )
    .unwrap();
    assert!(mates.themes.contains(&"mateIn3".to_string()));
    assert_eq!(
        mates.goal,
        GoalView {
            kind: "mate",
            moves: 3
        }
    );
    let again = next(
        &record,
        &NextQuery {
            theme: None,
            id: Some(first.id.clone()),
        },
    )
    .unwrap();
    assert!(again.seen);
    let bad = NextQuery {
        theme: Some("knight".into()),
        id: None,
    };
    assert!(matches!(next(&record, &bad), Err(ApiError::BadRequest(_))));
}

#[test]
fn only_a_first_attempt_moves_the_rating() {
    let mut record = PuzzleRecord::default();
    let puzzle = first_with(Theme::MateIn(1));
    let view = result(
        &mut record,
        &ResultBody {
            id: puzzle.id.clone(),
            solved: false,
        },
        10,
    )
    .unwrap();
    assert!(view.rating < 1500, "{view:?}");
    let after_first = record.rating;
    result(
        &mut record,
        &ResultBody {
            id: puzzle.id.clone(),
            solved: true,
        },
        20,
    )
    .unwrap();
    assert_eq!(record.rating, after_first);
    assert_eq!(record.attempts.len(), 2);
    assert!(record.attempts[0].rated && !record.attempts[1].rated);
    let view = record_view(&record);
    assert_eq!((view.attempted, view.solved), (2, 1));
    assert_eq!(view.recent[0].at, 20, "the latest first");
    assert_eq!(view.total, shipped::puzzles().len());
}

#[test]
fn a_stored_record_reads_back_and_a_broken_one_is_refused() {
    let mut record = PuzzleRecord::default();
    record.add(first_with(Theme::MateIn(1)), true, 5);
    assert_eq!(PuzzleRecord::from_json(&record.to_json()), Ok(record));
    for broken in [
        "",
        "{",
        "[]",
        r#"{"rating":1500}"#,
        r#"{"rating":-3,"deviation":350,"volatility":0.06,"attempts":[]}"#,
        r#"{"rating":1500,"deviation":1e9,"volatility":0.06,"attempts":[]}"#,
    ] {
        assert!(PuzzleRecord::from_json(broken).is_err(), "{broken}");
    }
}

#[test]
fn the_classics_come_when_asked_for_with_their_names_and_goals() {
    let record = PuzzleRecord::default();
    let asked = NextQuery {
        theme: Some("classic".into()),
        id: None,
    };
    let view = next(&record, &asked).unwrap();
    let classic = view.classic.as_ref().expect("a classic is named");
    assert!(!classic.name.is_empty() && !classic.book.is_empty());
    assert!(
        ["draw", "win", "mate"].contains(&view.goal.kind),
        "{view:?}"
    );
    let seven = next(
        &record,
        &NextQuery {
            theme: None,
            id: Some("qixing-juhui".into()),
        },
    )
    .unwrap();
    assert_eq!(seven.goal.kind, "draw");
    assert_eq!(seven.classic.unwrap().name, "七星聚会");
    // The round of tactics leaves them out, whatever the record.
    let mut record = PuzzleRecord::default();
    for at in 0..40 {
        let view = next(&record, &NextQuery::default()).unwrap();
        assert!(view.classic.is_none(), "{}", view.id);
        record.add(shipped::find(&view.id).unwrap(), at % 3 == 0, at);
    }
}
