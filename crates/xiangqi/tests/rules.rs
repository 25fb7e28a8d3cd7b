//! End-of-game rules, written from the rule text in the project's reference. Every case is
//! also played with colours mirrored, where the verdict must mirror too.

use xiangqi::{Color, DrawReason, Game, Move, Outcome, Position, Square, WinReason};

fn mv(text: &str) -> Move {
    let from: Square = text[..2].parse().unwrap();
    let to: Square = text[2..].parse().unwrap();
    Move::new(from, to)
}

fn mirror_move(m: Move) -> Move {
    Move::new(m.from().flip_rank(), m.to().flip_rank())
}

/// Plays `moves` (repeated `times`) from `fen` and returns the outcome after the last move;
/// also checks that no outcome was reached earlier and that the mirrored game agrees.
fn play(fen: &str, moves: &[&str], times: usize) -> Option<Outcome> {
    let start = Position::from_fen(fen).unwrap();
    let all: Vec<Move> = (0..times)
        .flat_map(|_| moves.iter().map(|t| mv(t)))
        .collect();
    let run = |start: Position, all: &[Move]| {
        let mut game = Game::new(start);
        for (i, &m) in all.iter().enumerate() {
            assert_eq!(
                game.outcome(),
                None,
                "game ended early, before ply {i} ({m})"
            );
            game.play(m).unwrap_or_else(|e| panic!("ply {i}: {e}"));
        }
        game.outcome()
    };
    let outcome = run(start.clone(), &all);
    let mirrored: Vec<Move> = all.iter().map(|&m| mirror_move(m)).collect();
    let mirrored_outcome = run(start.mirror_colors(), &mirrored);
    let swap = |o: Outcome| match o {
        Outcome::Win { winner, reason } => Outcome::Win {
            winner: winner.other(),
            reason,
        },
        draw => draw,
    };
    assert_eq!(
        mirrored_outcome,
        outcome.map(swap),
        "mirrored game disagrees"
    );
    outcome
}

fn win(winner: Color, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

#[test]
fn perpetual_check_loses() {
    // The red chariot checks along ranks 9 and 8 while the black general steps between them.
    let outcome = play(
        "4k4/9/9/9/9/9/9/9/9/R2K5 w",
        &[
            "a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9",
        ],
        1,
    );
    assert_eq!(outcome, win(Color::Black, WinReason::PerpetualCheck));
    assert_eq!(outcome.unwrap().to_string(), "black wins: perpetual check");
}

#[test]
fn perpetual_chase_loses() {
    // The red chariot follows the unprotected black cannon from rank to rank.
    let outcome = play(
        "4k4/9/c7R/9/9/9/9/9/9/3K5 b",
        &["a7a6", "i7i6", "a6a7", "i6i7"],
        2,
    );
    assert_eq!(outcome, win(Color::Black, WinReason::PerpetualChase));
}

#[test]
fn mutual_chase_draws() {
    // Each chariot attacks an unprotected enemy piece with every move.
    let outcome = play(
        "4k4/9/c7R/n8/9/9/8N/r7C/9/3K5 w",
        &["i7i6", "a2a3", "i6i7", "a3a2"],
        2,
    );
    assert_eq!(outcome, Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn soldier_may_chase() {
    // The red soldier keeps attacking the unprotected black cannon; soldiers may chase.
    let outcome = play(
        "4k4/9/9/4P1c2/9/9/9/9/9/3K5 w",
        &["e6f6", "e9e8", "f6e6", "e8e9"],
        2,
    );
    assert_eq!(outcome, Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn general_may_chase() {
    // The red general keeps attacking the unprotected black horse on d2.
    let outcome = play(
        "4k4/9/9/9/9/9/9/3n5/9/3K5 w",
        &["d0d1", "e9f9", "d1d0", "f9e9"],
        2,
    );
    assert_eq!(outcome, Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn idle_repetition_draws() {
    let outcome = play(
        "4k4/9/9/9/9/9/9/9/9/R2K5 w",
        &["a0a1", "e9e8", "a1a0", "e8e9"],
        2,
    );
    assert_eq!(outcome, Some(Outcome::Draw(DrawReason::Repetition)));
    assert_eq!(outcome.unwrap().to_string(), "draw: repetition");
}

#[test]
fn one_check_one_chase_draws() {
    // The red chariot checks on rank 9, then chases the unprotected black cannon on i6, again
    // and again, while the black general steps between e9 and e8. The checks do not attack the
    // cannon, so no piece is chased by every move, and not every move checks: the rule book's
    // "one check one chase" (AXF rule 12, diagram 13), a draw.
    let outcome = play(
        "4k4/9/9/8c/9/9/9/9/9/R2K5 w",
        &[
            "a0a9", "e9e8", "a9a6", "e8e9", "a6a9", "e9e8", "a9a6", "e8e9", "a6a9",
        ],
        1,
    );
    assert_eq!(outcome, Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn a_check_that_also_chases_keeps_the_chase_going() {
    // The black chariot attacks the unprotected red cannon with both its moves, and the first
    // of them also uncovers a check by the black cannon on a1: the cannon on d3 or d1 is chased
    // by every move, so Black chases perpetually (Fairy-Stockfish's test of this position).
    let outcome = play(
        "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w",
        &["d1d3", "b1b3", "d3d1", "b3b1"],
        2,
    );
    assert_eq!(outcome, win(Color::Red, WinReason::PerpetualChase));
}

#[test]
fn checkmate_and_stalemate_lose() {
    // Two chariots mate on ranks 8 and 9.
    let outcome = play("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", &["b0b9"], 1);
    assert_eq!(outcome, win(Color::Red, WinReason::Checkmate));
    assert_eq!(outcome.unwrap().to_string(), "red wins: checkmate");
    // The black general on d9 is not in check but both its points, d8 and e9, are attacked by
    // the red soldier on e8.
    let stalemate = Position::from_fen("3k5/4P4/9/9/9/9/9/9/9/4K4 b").unwrap();
    let game = Game::new(stalemate);
    assert_eq!(game.outcome(), win(Color::Red, WinReason::Stalemate));
}

#[test]
fn no_capture_limit_draws() {
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 119 80").unwrap();
    let mut game = Game::new(pos);
    assert_eq!(game.outcome(), None);
    game.play(mv("a0a1")).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::NoCaptureLimit))
    );
    // ...unless the move that reaches 120 plies gives mate.
    let pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 119 80").unwrap();
    let mut game = Game::new(pos);
    game.play(mv("b0b9")).unwrap();
    assert_eq!(game.outcome(), win(Color::Red, WinReason::Checkmate));
}

#[test]
fn insufficient_material_draws() {
    let pos = Position::from_fen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w").unwrap();
    assert_eq!(
        Game::new(pos).outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
    let pos = Position::from_fen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AKR3 w").unwrap();
    assert_eq!(Game::new(pos).outcome(), None);
}

#[test]
fn illegal_moves_are_refused() {
    let mut game = Game::new(Position::startpos());
    assert!(
        game.play(mv("h2h8")).is_err(),
        "a cannon cannot jump to an empty point"
    );
    assert!(game.play(mv("b0b2")).is_err());
    assert!(game.play(mv("h2e2")).is_ok());
    assert_eq!(game.undo(), Some(mv("h2e2")));
    assert_eq!(game.position(), &Position::startpos());
}

#[test]
fn find_repetition_looks_back_within_the_no_capture_window() {
    use xiangqi::game::find_repetition;
    // Keys of the positions before the current one, oldest first.
    let keys = [1, 2, 3, 4, 5, 6];
    assert_eq!(find_repetition(&keys, 3, 10), Some(4));
    assert_eq!(find_repetition(&keys, 5, 10), Some(2));
    assert_eq!(
        find_repetition(&keys, 2, 10),
        None,
        "5 plies back: the other side to move"
    );
    assert_eq!(
        find_repetition(&keys, 3, 3),
        None,
        "a capture came after it"
    );
    assert_eq!(find_repetition(&keys, 7, 10), None);
}
