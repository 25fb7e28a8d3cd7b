//! Game records: tags, start position, main line with comments and variations.

use crate::moves::Move;
use crate::position::Position;

/// The tags after `Game` that every written game carries, in the order they are written (the
/// seven-tag roster of PGN, with `Red` and `Black` for the players).
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "Red", "Black", "Result"];

/// One move of a game record with its comment and the alternatives to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move, legal in the position where it stands.
    pub mv: Move,
    /// The comment before the move, where no move comes before it in its line: at the start of a
    /// variation (`( {…} 1... 炮８平５ …)`). The main line's is
    /// [`GameRecord::initial_comment`]; between two moves a comment belongs to the first.
    pub comment_before: Option<String>,
    /// The comment after the move.
    pub comment: Option<String>,
    /// Its numeric annotation glyphs, in the order written: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`,
    /// 6 `?!`, and the rest of PGN's table (14 "Red is slightly better", …). Suffixes such as
    /// `h9g7!?` are read as their glyph and written as `$5`.
    pub nags: Vec<u8>,
    /// Lines that could have been played instead of this move: each starts from the position
    /// before [`RecordMove::mv`].
    pub variations: Vec<Vec<RecordMove>>,
}

impl RecordMove {
    /// A move without comment or variations.
    pub fn new(mv: Move) -> RecordMove {
        RecordMove {
            mv,
            comment_before: None,
            comment: None,
            nags: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A game as stored in PGN or XQF: tags, start position, main line with comments and variations.
///
/// Records that come from [`read_pgn`](super::read_pgn) or
/// [`record_from_xqf`](crate::xqf::record_from_xqf) are in *export form*, the form
/// [`write_pgn`](super::write_pgn) writes, so that reading what was written gives the same record:
/// - `tags` holds `Game` first, then the [`ROSTER`] (`?` or `????.??.??` where the file had
///   none; `Result` agreeing with [`GameRecord::result`]), then the other tags in file order, a
///   repeated tag keeping its first place and last value. `FEN` and `Format` are not tags here:
///   the first is [`GameRecord::start`], the second belongs to the file, not the game.
/// - comments lose white space at their end and ASCII white space at their start (the
///   full-width spaces that indent Chinese paragraphs stay); empty comments are `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tag pairs (`Event`, `Red`, …) in order.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The comment before the first move.
    pub initial_comment: Option<String>,
    /// The main line.
    pub moves: Vec<RecordMove>,
    /// `"1-0"`, `"0-1"` or `"1/2-1/2"`; `None` when unknown (`*`) or absent.
    pub result: Option<String>,
}

impl GameRecord {
    /// An empty game from `start`, with the `Game` tag and the roster filled with placeholders.
    ///
    /// ```
    /// use xiangqi::pgn::GameRecord;
    /// use xiangqi::Position;
    /// let mut game = GameRecord::new(Position::startpos());
    /// assert_eq!(game.tag("Game"), Some("Chinese Chess"));
    /// game.set_tag("Red", "许银川");
    /// assert_eq!(game.tag("Red"), Some("许银川"));
    /// ```
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            tags: export_tags(&[], None),
            start,
            initial_comment: None,
            moves: Vec::new(),
            result: None,
        }
    }

    /// The value of tag `name` (case-sensitive), the last one if it is repeated.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`, in place if it exists (every copy), else at the end.
    ///
    /// The writer takes `Result` from [`GameRecord::result`] and the FEN from
    /// [`GameRecord::start`], whatever the tags say.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        let mut found = false;
        for (_, v) in self.tags.iter_mut().filter(|(k, _)| k == name) {
            *v = value.to_owned();
            found = true;
        }
        if !found {
            self.tags.push((name.to_owned(), value.to_owned()));
        }
    }

    /// Position after the main line.
    ///
    /// In a hand-built record a move that is not legal where it stands ends the line there.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for m in &self.moves {
            if !pos.is_legal(m.mv) {
                break;
            }
            pos.make_move(m.mv);
        }
        pos
    }

    /// Main line moves.
    pub fn main_line(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }
}

/// Default values of the roster tags.
fn roster_default(name: &str) -> &'static str {
    match name {
        "Date" => "????.??.??",
        "Result" => "*",
        _ => "?",
    }
}

/// Whether `name` can be written as a tag name and read back: a letter or `_`, then letters,
/// digits or `_` (letters of any script).
pub(crate) fn is_tag_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// Puts tags into export form (see [`GameRecord`]): `Game`, the roster with `Result` from
/// `result`, the rest in order without repeats (first place, last value); `FEN`, `Format` and
/// names that cannot be written dropped; line breaks in values made spaces.
pub(crate) fn export_tags(
    tags: &[(String, String)],
    result: Option<&str>,
) -> Vec<(String, String)> {
    let value = |name: &str| {
        tags.iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.replace(['\r', '\n'], " "))
    };
    let mut out = Vec::with_capacity(tags.len() + ROSTER.len() + 1);
    out.push((
        "Game".to_owned(),
        value("Game").unwrap_or_else(|| "Chinese Chess".to_owned()),
    ));
    for name in ROSTER {
        let v = if name == "Result" {
            result.unwrap_or("*").to_owned()
        } else {
            value(name).unwrap_or_else(|| roster_default(name).to_owned())
        };
        out.push((name.to_owned(), v));
    }
    for (name, _) in tags {
        let special = matches!(name.as_str(), "FEN" | "Format");
        if special || !is_tag_name(name) || out.iter().any(|(k, _)| k == name) {
            continue;
        }
        if let Some(v) = value(name) {
            out.push((name.clone(), v));
        }
    }
    out
}

/// A result as kept in [`GameRecord::result`]: the three decided results, `None` for anything
/// else (`*`, empty, unknown text).
pub(crate) fn known_result(text: &str) -> Option<&'static str> {
    match text.trim() {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" => Some("1/2-1/2"),
        _ => None,
    }
}

/// A comment in export form: lone CRs made line breaks, white space trimmed at the end and ASCII
/// white space at the start; `None` if nothing is left.
pub fn normalize_comment(text: &str) -> Option<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let trimmed = text
        .trim_end()
        .trim_start_matches(|c: char| c.is_ascii_whitespace());
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

/// Appends `more` to a comment under construction, a line break between.
pub(crate) fn append_comment(comment: &mut Option<String>, more: &str) {
    match comment {
        Some(c) => {
            c.push('\n');
            c.push_str(more);
        }
        None => *comment = Some(more.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(tags: &[(String, String)]) -> Vec<(&str, &str)> {
        tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
    }

    #[test]
    fn export_order_and_defaults() {
        let tags: Vec<(String, String)> = [
            ("Opening", "中炮"),
            ("Red", "A"),
            ("FEN", "x"),
            ("Format", "ICCS"),
            ("Result", "1-0"),
            ("Opening", "顺炮"),
            ("bad name", "x"),
            ("Note", "two\r\nlines"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let out = export_tags(&tags, Some("0-1"));
        assert_eq!(
            pairs(&out),
            [
                ("Game", "Chinese Chess"),
                ("Event", "?"),
                ("Site", "?"),
                ("Date", "????.??.??"),
                ("Round", "?"),
                ("Red", "A"),
                ("Black", "?"),
                ("Result", "0-1"),
                ("Opening", "顺炮"),
                ("Note", "two  lines"),
            ]
        );
        assert_eq!(export_tags(&out, Some("0-1")), out, "idempotent");
    }

    #[test]
    fn tags_get_and_set() {
        let mut game = GameRecord::new(Position::startpos());
        assert_eq!(game.tag("Result"), Some("*"));
        assert_eq!(game.tag("Opening"), None);
        game.set_tag("Opening", "中炮");
        game.set_tag("Event", "test");
        assert_eq!(game.tag("Opening"), Some("中炮"));
        assert_eq!(game.tag("Event"), Some("test"));
        assert_eq!(game.tags.len(), 9);
        assert_eq!(game.tags[1], ("Event".to_owned(), "test".to_owned()));
    }

    #[test]
    fn comments() {
        assert_eq!(normalize_comment("  \n\t"), None);
        assert_eq!(
            normalize_comment("\n\u{3000}\u{3000}开局 \r\n第二行\r末 \u{3000}\n").as_deref(),
            Some("\u{3000}\u{3000}开局 \n第二行\n末")
        );
        let mut c = None;
        append_comment(&mut c, "a");
        append_comment(&mut c, "b");
        assert_eq!(c.as_deref(), Some("a\nb"));
    }

    #[test]
    fn final_position_and_main_line() {
        let mut game = GameRecord::new(Position::startpos());
        let pos = Position::startpos();
        let h2e2 = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == "h2e2")
            .unwrap();
        game.moves.push(RecordMove::new(h2e2));
        // An illegal move (Red again) ends the line in a hand-built record.
        game.moves.push(RecordMove::new(h2e2));
        assert_eq!(game.main_line(), vec![h2e2, h2e2]);
        let mut expected = pos.clone();
        expected.make_move(h2e2);
        assert_eq!(game.final_position(), expected);
    }
}
