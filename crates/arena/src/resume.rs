//! `--resume`: the games a PGN file already holds, matched to the schedule so that they count
//! and are not played again.
//!
//! A game is known by its `Round` tag, its number in the schedule. That number only means the
//! same game when the schedule is the same (engines in the same order, the same openings in the
//! same order), so each game is checked against the scheduled one: the `Red` and `Black` names,
//! the start position and the book moves. Any difference is an error rather than a guess.

use super::game_runner::{GameEnd, Termination};
use super::openings::Opening;
use super::schedule::ScheduledGame;
use anyhow::{bail, Context, Result};
use std::path::Path;
use xiangqi::pgn::{read_pgn, GameRecord, IccsCodec};
use xiangqi::Color;

/// The largest PGN file read to resume: 1 GiB, several hundred thousand games.
const MAX_FILE_LEN: u64 = 1 << 30;

/// A game of the schedule that the file already holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoneGame {
    /// Its index in the schedule.
    pub index: usize,
    /// How it ended.
    pub end: GameEnd,
}

/// Reads the games of the PGN file at `path` (none if it does not exist yet) and matches each
/// to `schedule`, whose engines are `names` and openings `openings`.
pub fn load(
    path: &Path,
    schedule: &[ScheduledGame],
    openings: &[Opening],
    names: &[&str],
) -> Result<Vec<DoneGame>> {
    let bytes = match xiangqi_files::reading::read(path, MAX_FILE_LEN) {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let records =
        read_pgn(&bytes, &IccsCodec).with_context(|| format!("cannot read {}", path.display()))?;
    let mut seen = vec![false; schedule.len()];
    let mut done = Vec::new();
    for (i, record) in records.iter().enumerate() {
        let game = match_game(record, schedule, openings, names)
            .with_context(|| format!("{} game {}", path.display(), i + 1))?;
        if std::mem::replace(&mut seen[game.index], true) {
            bail!(
                "{} holds game {} of the schedule twice",
                path.display(),
                game.index + 1
            );
        }
        done.push(game);
    }
    Ok(done)
}

/// The scheduled game `record` is, with its result.
fn match_game(
    record: &GameRecord,
    schedule: &[ScheduledGame],
    openings: &[Opening],
    names: &[&str],
) -> Result<DoneGame> {
    let tag = |name: &str| record.tag(name).unwrap_or("");
    let round = tag("Round");
    let Some(scheduled) = round
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| schedule.get(i))
    else {
        bail!(
            "has Round {round:?}, not a game number of this schedule (1 to {}): was the file \
             written by another match, or with fewer --rounds or openings?",
            schedule.len()
        );
    };
    let players = [tag("Red"), tag("Black")];
    let expected = [names[scheduled.red], names[scheduled.black]];
    if players != expected {
        bail!(
            "is {} vs {}, but game {} of this match is {} vs {}: the file belongs to another \
             match (other engines or another engine order)",
            players[0],
            players[1],
            scheduled.number,
            expected[0],
            expected[1]
        );
    }
    let opening = &openings[scheduled.opening];
    let book = opening.moves.len();
    let same_start = record.start.to_fen() == opening.start.to_fen();
    let same_book = record.moves.len() >= book
        && record.moves[..book]
            .iter()
            .zip(&opening.moves)
            .all(|(played, &mv)| played.mv == mv);
    if !(same_start && same_book) {
        bail!(
            "(Round {round}) did not start from opening {} of this match: another openings \
             file, or another --seed?",
            scheduled.opening + 1
        );
    }
    Ok(DoneGame {
        index: scheduled.number - 1,
        end: game_end(record)?,
    })
}

/// The result and kind of ending our PGN writer put in the record.
fn game_end(record: &GameRecord) -> Result<GameEnd> {
    let winner = match record.result.as_deref() {
        Some("1-0") => Some(Color::Red),
        Some("0-1") => Some(Color::Black),
        Some("1/2-1/2") => None,
        _ => bail!("has no result"),
    };
    let name = record.tag("Termination").unwrap_or("");
    let Some(termination) = Termination::from_pgn_name(name) else {
        bail!("has Termination {name:?}, which xiangqi match does not write");
    };
    Ok(GameEnd {
        winner,
        termination,
        reason: "from the PGN file".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::schedule::schedule;
    use super::*;
    use xiangqi::parse_move;
    use xiangqi::Position;

    fn record(round: &str, red: &str, black: &str, moves: &[&str], result: &str) -> GameRecord {
        let mut record = GameRecord::new(Position::startpos());
        record.set_tag("Round", round);
        record.set_tag("Red", red);
        record.set_tag("Black", black);
        record.set_tag("Termination", "normal");
        let mut pos = Position::startpos();
        for text in moves {
            let mv = parse_move(&pos, text).unwrap();
            pos.make_move(mv);
            record.moves.push(xiangqi::pgn::RecordMove::new(mv));
        }
        record.result = Some(result.to_string());
        record
    }

    fn error(result: Result<DoneGame>) -> String {
        format!("{:#}", result.unwrap_err())
    }

    #[test]
    fn games_are_matched_and_checked() {
        let openings = vec![opening("h2e2"), opening("c3c4")];
        let (_, games) = schedule(2, openings.len(), 1);
        let names = ["A", "B"];
        let check = |r: &GameRecord| match_game(r, &games, &openings, &names);
        // Game 4: opening 2, B as Red.
        let done = check(&record("4", "B", "A", &["c3c4", "h9g7"], "0-1")).unwrap();
        assert_eq!(done.index, 3);
        assert_eq!(done.end.winner, Some(Color::Black));
        assert_eq!(done.end.termination, Termination::Normal);
        let draw = check(&record("1", "A", "B", &["h2e2"], "1/2-1/2")).unwrap();
        assert_eq!(draw.end.winner, None);
        let err = error(check(&record("4", "A", "B", &["c3c4"], "1-0")));
        assert!(
            err.contains("is A vs B, but game 4 of this match is B vs A"),
            "{err}"
        );
        let err = error(check(&record("1", "A", "B", &["c3c4"], "1-0")));
        assert!(err.contains("opening 1"), "{err}");
        let err = error(check(&record("1", "A", "B", &[], "1-0")));
        assert!(err.contains("opening 1"), "{err}");
        for round in ["0", "5", "", "x"] {
            let err = error(check(&record(round, "A", "B", &["h2e2"], "1-0")));
            assert!(err.contains("1 to 4"), "{err}");
        }
        let mut unfinished = record("1", "A", "B", &["h2e2"], "1-0");
        unfinished.result = None;
        assert!(error(check(&unfinished)).contains("no result"));
        let mut foreign = record("1", "A", "B", &["h2e2"], "1-0");
        foreign.set_tag("Termination", "unterminated");
        assert!(error(check(&foreign)).contains("Termination"));
    }

    fn opening(moves: &str) -> Opening {
        super::super::openings::parse_line(moves).unwrap()
    }
}
