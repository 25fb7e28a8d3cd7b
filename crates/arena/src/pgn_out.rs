//! Match games as PGN, through the project's PGN writer: ICCS moves (`H2-E2`), each engine move
//! with a `{score/depth time}` comment as cutechess-cli writes them (`{+0.35/12 1.003s}`), and the
//! reason the game ended after the last move's comment (`{-M1/3 0.015s, checkmate}`).

use super::game_runner::{MoveNote, PlayedGame};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};
use xiangqi::pgn::{GameRecord, IccsCodec, RecordMove};
use xiangqi::write_pgn;
use xiangqi_files::disk::{self, DiskError};

/// The tags of one match game beyond what the game itself knows.
#[derive(Clone, Debug)]
pub struct GameTags<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Round`: the game's number in the match.
    pub round: usize,
    /// `Red` and `Black`: the engines' names.
    pub players: [&'a str; 2],
    /// `TimeControl`: the engines' time controls (one text when they agree).
    pub time_control: String,
    /// `Date` as `yyyy.mm.dd`.
    pub date: String,
}

/// The comment of one move: `+0.35/12 1.003s`, `+0.35 1.003s` without a depth, `1.003s`
/// without a score; book moves have none.
fn move_comment(note: &MoveNote) -> Option<String> {
    let time = note.time?;
    let time = format!("{:.3}s", time.as_secs_f64());
    Some(match (note.score, note.depth) {
        (Some(score), Some(depth)) => format!("{}/{depth} {time}", score.pgn_text()),
        (Some(score), None) => format!("{} {time}", score.pgn_text()),
        (None, _) => time,
    })
}

/// The game as a record.
pub fn to_record(game: &PlayedGame, tags: &GameTags<'_>) -> GameRecord {
    let mut record = GameRecord::new(game.start.clone());
    record.set_tag("Event", tags.event);
    record.set_tag("Site", "xiangqi match");
    record.set_tag("Date", &tags.date);
    record.set_tag("Round", &tags.round.to_string());
    record.set_tag("Red", tags.players[0]);
    record.set_tag("Black", tags.players[1]);
    record.set_tag("TimeControl", &tags.time_control);
    record.set_tag("PlyCount", &game.moves.len().to_string());
    record.set_tag("Termination", game.end.termination.pgn_name());
    record.result = Some(game.end.result().to_string());
    record.moves = game
        .moves
        .iter()
        .map(|note| RecordMove {
            comment: move_comment(note),
            ..RecordMove::new(note.mv)
        })
        .collect();
    // The reason goes after the last move's own comment, or before the moves if there are none.
    let reason = &game.end.reason;
    let slot = match record.moves.last_mut() {
        Some(last) => &mut last.comment,
        None => &mut record.initial_comment,
    };
    *slot = Some(match slot.take() {
        Some(comment) => format!("{comment}, {reason}"),
        None => reason.clone(),
    });
    record
}

/// Appends the game to the PGN file at `path` (a regular file, created if missing). One write
/// per game, a blank line after it, so games from one run never interleave; a write that fails
/// (a full disk) leaves the file as it was, whole games only (`disk::append`).
pub fn append(path: &Path, game: &PlayedGame, tags: &GameTags<'_>) -> Result<(), DiskError> {
    let text = write_pgn(&to_record(game, tags), &IccsCodec, "ICCS");
    disk::append(path, format!("{text}\n").as_bytes())
}

/// Today's date (UTC) as PGN writes it, `yyyy.mm.dd`.
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    xiangqi::pgn::date::pgn_date(secs)
}

#[cfg(test)]
mod tests {
    use super::super::game_runner::{GameEnd, Termination};
    use super::super::wire::Score;
    use super::*;
    use std::time::Duration;
    use xiangqi::pgn::read_pgn;
    use xiangqi::{parse_move, Color, Position};

    #[test]
    fn today_is_a_pgn_date() {
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn record_reads_back() {
        let pos = Position::startpos();
        let first = parse_move(&pos, "h2e2").unwrap();
        let mut after = pos.clone();
        after.make_move(first);
        let second = parse_move(&after, "h9g7").unwrap();
        let game = PlayedGame {
            start: pos,
            moves: vec![
                MoveNote {
                    mv: first,
                    score: None,
                    depth: None,
                    time: None,
                },
                MoveNote {
                    mv: second,
                    score: Some(Score::Cp(-35)),
                    depth: Some(7),
                    time: Some(Duration::from_millis(1003)),
                },
            ],
            end: GameEnd {
                winner: Some(Color::Black),
                termination: Termination::RulesInfraction,
                reason: "A played an illegal move e3e5".to_string(),
            },
        };
        let tags = GameTags {
            event: "test",
            round: 3,
            players: ["A", "B"],
            time_control: "depth:3".to_string(),
            date: "2024.01.01".to_string(),
        };
        let text = write_pgn(&to_record(&game, &tags), &IccsCodec, "ICCS");
        assert!(text.contains("[Round \"3\"]"), "{text}");
        assert!(
            text.contains("[Termination \"rules infraction\"]"),
            "{text}"
        );
        assert!(
            text.contains("1. H2-E2 H9-G7 {-0.35/7 1.003s, A played an illegal move e3e5} 0-1"),
            "{text}"
        );
        let back = read_pgn(text.as_bytes(), &IccsCodec).unwrap();
        assert_eq!(back[0].tag("Red"), Some("A"));
        assert_eq!(back[0].result.as_deref(), Some("0-1"));
        assert_eq!(back[0].main_line(), vec![first, second]);
    }
}
