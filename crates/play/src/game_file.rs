//! A web game as a PGN file, and back.
//!
//! A game file is ordinary Xiangqi PGN (Chinese notation) with a few tags of this program:
//! `Human` (`red`, `black` or `both`), `Level` (1–10), `Termination` (why the game ended),
//! `Undone` (how many of the main line's last moves were taken back: redo replays them) and
//! `Created` (Unix seconds). Files of earlier versions listed the moves taken back in a `Redo`
//! tag (ICCS), which is still read. Comments, glyphs and variations are the game's own. A game on
//! the clock adds `TimeControl` (or `RedTimeControl` and `BlackTimeControl` for time odds, in the
//! form `300+3`, `1200b30`: seconds, increment, byo-yomi), a `{[%clk 0:09:57]}` comment after
//! each move with the mover's time left, as other PGN tools write it, and `ClockLeft` (both
//! sides' game time left when saved and the part of the period the side to move had used, in
//! milliseconds) with `ClockPaused`. A game loaded from a file has `ImportHash`, the file's
//! [`fingerprint`], by which the same file loaded again finds it. A game without an ECCO code of
//! its own is written with the code, opening and variation of its main line (`ECCO`, `Opening`,
//! `Variation`), which are recomputed, not kept, when the file is read back.

use crate::clock::{clk, parse_clk, Clock, TimeControl};
use crate::ending::Ending;
use crate::game::{unix_now, Human, Record, WebGame, DEFAULT_LEVEL, MAX_PLIES};
use serde::Serialize;
use std::time::Duration;
use xiangqi::pgn::date::pgn_date;
use xiangqi::pgn::{normalize_comment, write_pgn, GameRecord, NotationCodec, RecordMove};
use xiangqi::{Color, DrawReason, Game, Move, Notation, Outcome, WinReason};
use xiangqi_engine::instant::Instant;

/// Where a record comes from: this program's own file, or a game the person loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A game file of the data folder: everything in it is the game's.
    Saved,
    /// A loaded game: the person plays it on from its end, without its old clock.
    Imported,
}

/// The ending a record states when the rules do not end its game: a resignation, an agreed
/// draw, time, or an illegal move, read from the `Termination` tag (this program's outcome codes,
/// or the words it wrote before it had them); else its bare result, given no reason it does not
/// state.
fn recorded_ending(record: &GameRecord) -> Option<Ending> {
    let result = record.result.as_deref()?;
    let termination = match record.tag("Termination").unwrap_or("") {
        "illegal move" => "illegal_move",
        "timeout against insufficient material" => "timeout_against_bare_material",
        other => other,
    };
    let winner = match result {
        "1-0" => Some(Color::Red),
        "0-1" => Some(Color::Black),
        _ => None,
    };
    let stated = Outcome::from_code(termination, winner).filter(|outcome| {
        // Only endings the rules cannot see again from the moves.
        matches!(
            outcome,
            Outcome::Win {
                reason: WinReason::Resignation | WinReason::Timeout | WinReason::IllegalMove,
                ..
            } | Outcome::Draw(DrawReason::Agreement | DrawReason::TimeoutAgainstBareMaterial)
        )
    });
    Some(stated.map_or(Ending::Result(winner), Ending::Outcome))
}

/// The tag with the fingerprint of the file a game was loaded from.
pub const IMPORT_HASH_TAG: &str = "ImportHash";

/// A file's fingerprint: its 64-bit FNV-1a hash in hex. The same bytes give the same
/// fingerprint in every version of the program (it is saved in the games' files).
pub fn fingerprint(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// A move written `h2e2`, legal or not.
pub fn iccs_move(text: &str) -> Option<Move> {
    let from = text.get(..2)?.parse().ok()?;
    let to = text.get(2..)?.parse().ok()?;
    Some(Move::new(from, to))
}

/// Keeps only the moves of an old file's `Redo` tag that replay legally from the end of `game`.
fn parse_redo(game: &Game, text: &str) -> Vec<Move> {
    let mut pos = game.position().clone();
    let mut moves = Vec::new();
    // The tag lists the stack bottom first: the next move to replay is the last one.
    let listed: Vec<Move> = text.split_whitespace().filter_map(iccs_move).collect();
    // Redone, the game may not grow past the cap: keep the moves next in line.
    let room = MAX_PLIES.saturating_sub(game.len());
    let listed = &listed[listed.len().saturating_sub(room)..];
    // Check them in replay order (last first).
    for &m in listed.iter().rev() {
        if !pos.is_legal(m) {
            break;
        }
        pos.make_move(m);
        moves.push(m);
    }
    moves.reverse();
    moves
}

/// The PGN record of `game` at `now`, with this program's tags.
pub fn to_record(game: &WebGame, now: Instant) -> GameRecord {
    let rec = game.record();
    let mut record = GameRecord::new(rec.game.start().clone());
    for (name, value) in &rec.tags {
        record.set_tag(name, value);
    }
    let computer = format!("xiangqi (level {})", rec.level);
    let (red, black) = match rec.human {
        Human::Red => ("Player".to_owned(), computer),
        Human::Black => (computer, "Player".to_owned()),
        Human::Both => ("Player".to_owned(), "Player".to_owned()),
    };
    if record.tag("Red").is_none_or(|v| v == "?") {
        record.set_tag("Red", &red);
    }
    if record.tag("Black").is_none_or(|v| v == "?") {
        record.set_tag("Black", &black);
    }
    if record.tag("Event").is_none_or(|v| v == "?") {
        record.set_tag("Event", "Game against the computer");
    }
    if record.tag("Date").is_none_or(|v| v.contains('?')) {
        record.set_tag("Date", &pgn_date(rec.created));
    }
    record.set_tag("Human", rec.human.name());
    record.set_tag("Level", &rec.level.to_string());
    record.set_tag("Created", &rec.created.to_string());
    let undone = game.redo_len();
    if undone > 0 {
        record.set_tag("Undone", &undone.to_string());
    }
    let ending = game.ending();
    match ending {
        // A bare result keeps the record's own Termination (among its tags), or none.
        Some(Ending::Result(_)) => {}
        _ => record.set_tag("Termination", ending.and_then(Ending::code).unwrap_or("")),
    }
    record.result = ending.map(|e| e.pgn_result().to_owned());
    record.initial_comment = rec.initial_comment.clone();
    record.moves = rec.line.clone();
    if let Some(clock) = &rec.clock {
        write_clock(&mut record, clock, game, now);
    }
    xiangqi::ecco::tag_record(&mut record);
    record
}

/// A game's opening as the page shows it: the ECCO code with its names.
#[derive(Clone, Debug, Serialize)]
pub struct GameOpening {
    /// `C48`.
    pub code: String,
    /// The opening's Chinese name.
    pub opening: String,
    /// The variation's Chinese name (may be empty).
    pub variation: String,
    /// Both in English.
    pub english: String,
    /// Whether the code is the one the loaded file gave (else this program classified the game).
    pub from_file: bool,
}

/// The opening of `game`: the code its loaded file gave, else the classification of its main
/// line; `None` for a game from another position or without moves.
pub fn opening(game: &WebGame) -> Option<GameOpening> {
    if let Some(code) = record_tag(game, "ECCO").filter(|c| c.len() == 3 && c.is_ascii()) {
        let known = xiangqi::ecco::opening(&code);
        let tag = |name: &str, from_table: Option<&'static str>| {
            record_tag(game, name)
                .or_else(|| from_table.map(str::to_owned))
                .unwrap_or_default()
        };
        let opening = tag("Opening", known.map(|o| o.opening));
        let variation = tag("Variation", known.map(|o| o.variation));
        let english = xiangqi::ecco::english_name(&opening, &variation);
        return Some(GameOpening {
            code,
            opening,
            variation,
            english,
            from_file: true,
        });
    }
    let rules = game.rules();
    let moves: Vec<Move> = rules.moves().collect();
    let found = xiangqi::ecco::classify(rules.start(), &moves)?;
    Some(GameOpening {
        code: found.code.to_owned(),
        opening: found.opening.to_owned(),
        variation: found.variation.to_owned(),
        english: found.english(),
        from_file: false,
    })
}

/// Whether a record's ECCO tags are word for word the classification of its own main line
/// (written by this program, or the same as it would write): those are recomputed from the
/// moves, not kept as the file's. Tags that differ in anything are the file's and stay.
fn ecco_tags_are_computed(record: &GameRecord) -> bool {
    let Some(ours) = xiangqi::ecco::classify_record(record) else {
        return false;
    };
    record.tag("ECCO") == Some(ours.code)
        && record.tag("Opening") == Some(ours.opening)
        && record.tag("Variation").unwrap_or("") == ours.variation
}

fn write_clock(record: &mut GameRecord, clock: &Clock, game: &WebGame, now: Instant) {
    let (red, black) = (clock.control(Color::Red), clock.control(Color::Black));
    if red == black {
        record.set_tag("TimeControl", &red.to_tag());
    } else {
        record.set_tag("RedTimeControl", &red.to_tag());
        record.set_tag("BlackTimeControl", &black.to_tag());
    }
    for (m, left) in record.moves.iter_mut().zip(clock.history()) {
        let time = format!("[%clk {}]", clk(*left));
        m.comment = Some(match m.comment.take() {
            Some(words) => format!("{time} {words}"),
            None => time,
        });
    }
    let to_move = game.position().side_to_move();
    let red_left = clock.time_left(Color::Red, to_move, now);
    let black_left = clock.time_left(Color::Black, to_move, now);
    let mover_left = if to_move == Color::Red {
        red_left
    } else {
        black_left
    };
    let period = clock.control(to_move).byoyomi.as_millis() as u64;
    let period_used = mover_left
        .byoyomi_ms
        .map_or(0, |left| period - left.min(period));
    record.set_tag(
        "ClockLeft",
        &format!("{} {} {period_used}", red_left.main_ms, black_left.main_ms),
    );
    if clock.is_paused() {
        record.set_tag("ClockPaused", "yes");
    }
}

/// The clock a saved record describes, if it is a game on the clock.
fn read_clock(record: &GameRecord, plies: usize) -> Option<Clock> {
    let controls = match record.tag("TimeControl") {
        Some(both) => {
            let control = TimeControl::from_tag(both)?;
            [control, control]
        }
        None => [
            TimeControl::from_tag(record.tag("RedTimeControl")?)?,
            TimeControl::from_tag(record.tag("BlackTimeControl")?)?,
        ],
    };
    let history: Vec<Duration> = record
        .moves
        .iter()
        .take(plies)
        .map_while(|m| m.comment.as_deref().and_then(clk_comment))
        .collect();
    let mut left = [controls[0].main, controls[1].main];
    let mut period_used = Duration::ZERO;
    let stated: Vec<u64> = record
        .tag("ClockLeft")
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect();
    if let [red, black, used] = stated[..] {
        left = [
            Duration::from_millis(red).min(crate::clock::MAX_CONTROL),
            Duration::from_millis(black).min(crate::clock::MAX_CONTROL),
        ];
        period_used = Duration::from_millis(used);
    }
    let paused = record.tag("ClockPaused") == Some("yes");
    Some(Clock::restore(controls, history, left, period_used, paused))
}

/// Where the `[%clk h:mm:ss]` command of a comment is, brackets included.
fn clk_span(comment: &str) -> Option<std::ops::Range<usize>> {
    let start = comment.find("[%clk")?;
    let end = comment[start..].find(']')? + start + 1;
    Some(start..end)
}

/// The time in a `[%clk h:mm:ss]` comment.
fn clk_comment(comment: &str) -> Option<Duration> {
    let span = clk_span(comment)?;
    parse_clk(&comment[span.start + "[%clk".len()..span.end - 1])
}

/// A comment without the clock's time this program wrote into it: the person's words.
fn without_clk(comment: &str) -> Option<String> {
    match clk_span(comment) {
        Some(span) => normalize_comment(&format!(
            "{}{}",
            &comment[..span.start],
            &comment[span.end..]
        )),
        None => Some(comment.to_owned()),
    }
}

/// A game from a PGN record: a saved game, or one the person loaded (which keeps its names and
/// event but starts afresh: no clock, both sides the person's unless a side is given). Moves the
/// rules refuse end the game there; program tags that are missing get defaults.
pub fn from_record(
    id: String,
    record: &GameRecord,
    origin: Origin,
    human: Option<Human>,
    now: Instant,
) -> WebGame {
    let mut game = Game::new(record.start.clone());
    for m in record.moves.iter().take(MAX_PLIES) {
        if game.play_unchecked_outcome(m.mv).is_err() {
            break;
        }
    }
    let mut line = record.moves[..game.len()].to_vec();
    let undone: usize = record
        .tag("Undone")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    for _ in 0..undone.min(game.len()) {
        game.undo();
    }
    // An old file's Redo tag is a stack (the next move last); the line holds them in order.
    let redo = parse_redo(&game, record.tag("Redo").unwrap_or(""));
    line.extend(redo.into_iter().rev().map(RecordMove::new));
    let side = game.position().side_to_move();
    let human = match origin {
        Origin::Saved => human
            .or_else(|| record.tag("Human").and_then(Human::from_name))
            .unwrap_or(if side == Color::Red {
                Human::Red
            } else {
                Human::Black
            }),
        // A loaded game is a record to study, its players' names shown, until the person
        // continues it against the computer from a position of their choice.
        Origin::Imported => human.unwrap_or(Human::Both),
    };
    let level = record
        .tag("Level")
        .and_then(|l| l.parse::<u8>().ok())
        .unwrap_or(DEFAULT_LEVEL);
    let created = record
        .tag("Created")
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(unix_now);
    let ended = if game.outcome().is_none() {
        recorded_ending(record)
    } else {
        None
    };
    let mut clock = match origin {
        Origin::Saved => read_clock(record, game.len()),
        Origin::Imported => None,
    };
    if clock.is_some() {
        // The clock's times are the clock's: the comments keep the person's words.
        for m in line.iter_mut().take(game.len()) {
            m.comment = m.comment.as_deref().and_then(without_clk);
        }
    }
    if let Some(clock) = clock.as_mut() {
        if ended.is_none() && game.outcome().is_none() {
            // The time the server was down does not count.
            clock.start(now);
        }
    }
    const OWN: [&str; 12] = [
        "Human",
        "Level",
        "Created",
        "Redo",
        "Undone",
        "Termination",
        "Result",
        "TimeControl",
        "RedTimeControl",
        "BlackTimeControl",
        "ClockLeft",
        "ClockPaused",
    ];
    // A record that ends with a bare result keeps its own words for why, if it has any.
    let own_termination = |k: &str| k == "Termination" && matches!(ended, Some(Ending::Result(_)));
    let computed_ecco = ecco_tags_are_computed(record);
    let tags = record
        .tags
        .iter()
        .filter(|(k, v)| {
            (!OWN.contains(&k.as_str()) || (own_termination(k) && !v.is_empty())) && k != "Game"
        })
        .filter(|(k, _)| !(computed_ecco && ["ECCO", "Opening", "Variation"].contains(&k.as_str())))
        .cloned()
        .collect();
    WebGame::with_record(
        id,
        Record {
            game,
            line,
            initial_comment: record.initial_comment.clone(),
            human,
            level: level.clamp(
                xiangqi_engine::strength::MIN_LEVEL,
                xiangqi_engine::strength::MAX_LEVEL,
            ),
            ended,
            tags,
            created,
            updated: created,
            clock,
        },
    )
}

/// The game as PGN text with moves in `notation`.
pub fn pgn(game: &WebGame, notation: Notation, now: Instant) -> String {
    let format = match notation {
        Notation::Wxf => "WXF",
        Notation::Iccs | Notation::IccsPgn | Notation::UciRanks1To10 => "ICCS",
        Notation::Chinese => "Chinese",
    };
    let notation = match notation {
        Notation::Iccs | Notation::UciRanks1To10 => Notation::IccsPgn,
        other => other,
    };
    write_pgn(&to_record(game, now), &NotationCodec(notation), format)
}

/// A tag the game's record brought with it (a loaded game's own `Event`, `Date`, …).
pub fn record_tag(game: &WebGame, name: &str) -> Option<String> {
    game.record()
        .tags
        .iter()
        .find(|(n, v)| n == name && !v.contains('?') && !v.is_empty())
        .map(|(_, v)| v.clone())
}

/// The players' names as the game's record gives them.
pub fn record_names(game: &WebGame) -> (String, String) {
    let record = to_record(game, Instant::now());
    (
        record.tag("Red").unwrap_or("?").to_owned(),
        record.tag("Black").unwrap_or("?").to_owned(),
    )
}

/// The fingerprint of the file `game` was loaded from, if it was (its `ImportHash` tag).
pub fn import_hash(game: &WebGame) -> Option<String> {
    game.record()
        .tags
        .iter()
        .find(|(name, _)| name == IMPORT_HASH_TAG)
        .map(|(_, value)| value.clone())
}

#[cfg(test)]
mod tests {
    use super::{fingerprint, from_record, to_record, Origin};
    use xiangqi::pgn::{read_pgn, NotationCodec};
    use xiangqi::Notation;
    use xiangqi_engine::instant::Instant;

    #[test]
    fn moves_taken_back_load_from_old_and_new_files() {
        let read = |text: &str| {
            let record = &read_pgn(text.as_bytes(), &NotationCodec(Notation::IccsPgn)).unwrap()[0];
            from_record("t".into(), record, Origin::Saved, None, Instant::now())
        };
        // Files of earlier versions listed them in a Redo tag, the next one to replay last.
        let old = read("[Human \"both\"]\n[Redo \"h0g2 h9g7\"]\n\n1. h2e2 *\n");
        assert_eq!((old.rules().len(), old.redo_len()), (1, 2));
        assert_eq!(old.record().line[1].mv.to_string(), "h9g7");
        // Now they stay in the main line, counted by Undone, with what was written on them.
        let new = read("[Human \"both\"]\n[Undone \"2\"]\n\n1. h2e2 h9g7 {kept} 2. h0g2 *\n");
        assert_eq!((new.rules().len(), new.redo_len()), (1, 2));
        assert_eq!(new.record().line[1].comment.as_deref(), Some("kept"));
        let saved = to_record(&new, Instant::now());
        assert_eq!(saved.tag("Undone"), Some("2"));
        assert_eq!(saved.moves.len(), 3);
        // Redo replays them from the line.
        let mut again = new;
        again.redo(Instant::now()).unwrap();
        assert_eq!(
            again.rules().len(),
            2,
            "one ply on a board where the person plays both"
        );
    }

    #[test]
    fn fingerprints_are_fnv1a() {
        // The published test vectors of 64-bit FNV-1a.
        assert_eq!(fingerprint(b""), "cbf29ce484222325");
        assert_eq!(fingerprint(b"a"), "af63dc4c8601ec8c");
        assert_eq!(fingerprint(b"foobar"), "85944171f73967e8");
    }
}
