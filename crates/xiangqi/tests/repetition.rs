//! Repetition rulings from `tests/data/repetition.txt`: each case is replayed with [`Game`] and
//! the verdict after its last move must read exactly as `xiangqi status` prints it, while the
//! position before that move must still be `ongoing` (so a case cannot pass by ending early).
//! Each case is also replayed mirrored left to right (same verdict) and with the colours
//! exchanged (the winner exchanged), which the rules must not notice.
//!
//! Every failing case is listed, with what was expected and what came out, in one panic message.

use xiangqi::{parse_move_as, Game, Move, Notation, Position, Validation};

/// One ruling of the case file.
struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    expect: String,
}

/// Reads the case file: `# id:` starts a case, `fen:`, `moves:` and `expect:` complete it; other
/// comment lines and blank lines are ignored.
fn cases() -> Vec<Case> {
    let text = include_str!("data/repetition.txt");
    let mut out: Vec<Case> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let number = number + 1;
        if let Some(id) = line.strip_prefix("# id:") {
            out.push(Case {
                id: id.trim().to_string(),
                fen: String::new(),
                moves: Vec::new(),
                expect: String::new(),
            });
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let case = out
            .last_mut()
            .unwrap_or_else(|| panic!("line {number}: a field before the first `# id:`"));
        let (key, value) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("line {number}: expected `key: value`"));
        let value = value.trim().to_string();
        match key {
            "fen" => case.fen = value,
            "moves" => case.moves = value.split_whitespace().map(str::to_string).collect(),
            "expect" => case.expect = value,
            other => panic!("line {number}: unknown field `{other}`"),
        }
    }
    for case in &out {
        assert!(
            !case.fen.is_empty() && !case.moves.is_empty() && !case.expect.is_empty(),
            "case {} lacks a fen, moves or expect line",
            case.id
        );
    }
    out
}

/// `ongoing` or the outcome, as `xiangqi status` prints it.
fn verdict(game: &Game) -> String {
    game.outcome()
        .map_or_else(|| "ongoing".to_string(), |outcome| outcome.to_string())
}

/// A symmetry of the board that the rules must respect.
#[derive(Clone, Copy)]
enum Symmetry {
    /// The case as written.
    Identity,
    /// Files mirrored (a ↔ i).
    Files,
    /// Ranks mirrored and Red and Black exchanged.
    Colours,
}

impl Symmetry {
    const ALL: [Symmetry; 3] = [Symmetry::Identity, Symmetry::Files, Symmetry::Colours];

    fn label(self) -> &'static str {
        match self {
            Symmetry::Identity => "",
            Symmetry::Files => " (files mirrored)",
            Symmetry::Colours => " (colours exchanged)",
        }
    }

    fn position(self, pos: Position) -> Position {
        match self {
            Symmetry::Identity => pos,
            Symmetry::Files => pos.mirror_files(),
            Symmetry::Colours => pos.mirror_colors(),
        }
    }

    fn mv(self, m: Move) -> Move {
        match self {
            Symmetry::Identity => m,
            Symmetry::Files => Move::new(m.from().flip_file(), m.to().flip_file()),
            Symmetry::Colours => Move::new(m.from().flip_rank(), m.to().flip_rank()),
        }
    }

    /// The verdict `text` as it reads after this symmetry.
    fn verdict(self, text: &str) -> String {
        match self {
            Symmetry::Colours => match text.split_once(" wins:") {
                Some(("red", why)) => format!("black wins:{why}"),
                Some(("black", why)) => format!("red wins:{why}"),
                _ => text.to_string(),
            },
            _ => text.to_string(),
        }
    }
}

/// Plays a case under `symmetry`; returns the verdict before the last move and after it, or
/// why it could not be played.
fn replay(case: &Case, symmetry: Symmetry) -> Result<(String, String), String> {
    let start = Position::from_fen_with(&case.fen, Validation::Lenient)
        .map_err(|e| format!("bad fen: {e}"))?;
    let mut game = Game::new(symmetry.position(start.clone()));
    // The moves are read in the case's own position, then mirrored onto the game's.
    let mut written = start;
    let mut before_last = String::new();
    for (i, text) in case.moves.iter().enumerate() {
        if i + 1 == case.moves.len() {
            before_last = verdict(&game);
        }
        let m = parse_move_as(&written, text, Notation::Iccs)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        written.make_move(m);
        game.play(symmetry.mv(m))
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
    }
    Ok((before_last, verdict(&game)))
}

#[test]
fn repetition_rulings() {
    let cases = cases();
    assert!(cases.len() >= 150, "only {} cases read", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        for symmetry in Symmetry::ALL {
            let id = format!("{}{}", case.id, symmetry.label());
            let expect = symmetry.verdict(&case.expect);
            match replay(case, symmetry) {
                Err(why) => failures.push(format!("{id}: {why}")),
                Ok((before_last, _)) if before_last != "ongoing" => failures.push(format!(
                    "{id}: already `{before_last}` before the last move"
                )),
                Ok((_, actual)) if actual != expect => {
                    failures.push(format!("{id}: expected `{expect}`, got `{actual}`"))
                }
                Ok(_) => {}
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures in {} repetition cases:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
