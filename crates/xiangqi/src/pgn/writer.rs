//! Writing PGN in the Xiangqi convention (XQWizard / xqbase).

use super::codec::MoveCodec;
use super::record::{export_tags, known_result, normalize_comment, GameRecord, RecordMove};
use crate::piece::Color;
use crate::position::Position;
use std::fmt::Write as _;

/// Lines of movetext are broken before a token that would pass this many columns (CJK
/// characters counting two).
const LINE_WIDTH: usize = 80;

/// Writes a game in the Xiangqi PGN convention: `[Game "Chinese Chess"]` first, then the
/// seven-tag roster (`Event Site Date Round Red Black Result`), the other tags, `[FEN]` when the
/// game does not start from the standard position, and `[Format "…"]` with `format_name` (the
/// notation of `codec`: `ICCS`, `WXF` or `Chinese`; left out if empty). Then a blank line and
/// the movetext: moves numbered `1. X Y` (`1... Y` where Black's move opens a line or follows a
/// comment or variation), a comment that opens a variation before its first move, numeric
/// annotation glyphs `$n` after their move (a suffix such as `!?` was read as its glyph),
/// comments `{…}` after them, variations `(…)` after the move they replace, the result (`*`
/// when unknown) at the end; lines broken at about 80 columns.
///
/// Tags are written in export form (see [`GameRecord`]); `Result` comes from
/// [`GameRecord::result`]. A comment containing `}` is written as `;` comments, one per line,
/// which read back the same. Comments are never re-wrapped, so reading the text back with
/// [`read_pgn`](super::read_pgn) and the same codec gives the record back (in export form).
///
/// A move that is not legal where it stands (only possible in a hand-built record) ends its
/// line: it and the rest of that line are left out.
///
/// ```
/// use xiangqi::pgn::{read_pgn, write_pgn, IccsCodec};
/// let games = read_pgn(b"1. h2e2 h9g7 2. h0g2 {ok} *", &IccsCodec).unwrap();
/// let text = write_pgn(&games[0], &IccsCodec, "ICCS");
/// assert!(text.starts_with("[Game \"Chinese Chess\"]\n[Event \"?\"]\n"));
/// assert!(text.contains("[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 {ok} *\n"));
/// assert_eq!(read_pgn(text.as_bytes(), &IccsCodec).unwrap(), games);
/// ```
pub fn write_pgn(game: &GameRecord, codec: &dyn MoveCodec, format_name: &str) -> String {
    let result = game.result.as_deref().and_then(known_result);
    let mut out = String::new();
    for (name, value) in export_tags(&game.tags, result) {
        write_tag(&mut out, &name, &value);
    }
    if game.start != Position::startpos() {
        write_tag(&mut out, "FEN", &game.start.to_fen());
    }
    if !format_name.is_empty() {
        write_tag(&mut out, "Format", format_name);
    }
    out.push('\n');

    let mut text = MoveText::default();
    if let Some(comment) = &game.initial_comment {
        text.comment(comment);
    }
    text.line(&game.start, &game.moves, codec);
    text.word(result.unwrap_or("*"));
    out.push_str(&text.out);
    out.push('\n');
    out
}

/// Writes `[name "value"]` with `\` and `"` escaped and line breaks made spaces.
fn write_tag(out: &mut String, name: &str, value: &str) {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\r' | '\n' => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// Whether `c` takes two columns in a terminal or a fixed-width font (CJK, full-width forms).
fn is_wide(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x20000..=0x3FFFD)
}

/// Columns `s` takes.
fn width(s: &str) -> usize {
    s.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

/// Movetext under construction, broken into lines.
#[derive(Default)]
struct MoveText {
    out: String,
    /// Columns used on the current line.
    col: usize,
    /// `(` to put before the next word.
    open: usize,
}

impl MoveText {
    /// Appends a token, after a space or a line break.
    fn word(&mut self, word: &str) {
        let word = format!("{}{word}", "(".repeat(self.open));
        self.open = 0;
        let first_line = word.split('\n').next().unwrap_or_default();
        if self.col > 0 {
            if self.col + 1 + width(first_line) > LINE_WIDTH {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        self.out.push_str(&word);
        self.col = match word.rfind('\n') {
            Some(i) => width(&word[i + 1..]),
            None => self.col + width(&word),
        };
    }

    /// Appends a comment; returns whether anything was written.
    fn comment(&mut self, comment: &str) -> bool {
        let Some(comment) = normalize_comment(comment) else {
            return false;
        };
        if comment.contains('}') {
            // Braces cannot hold it: one `;` comment per line, which the reader joins again.
            for line in comment.split('\n') {
                self.word(&format!(";{line}"));
                self.out.push('\n');
                self.col = 0;
            }
        } else {
            self.word(&format!("{{{comment}}}"));
        }
        true
    }

    /// Closes a variation.
    fn close(&mut self) {
        if self.col == 0 || self.col >= LINE_WIDTH {
            self.word(")");
        } else {
            self.out.push(')');
            self.col += 1;
        }
    }

    /// Appends the moves of a line played from `start`, with their comments and variations.
    fn line(&mut self, start: &Position, moves: &[RecordMove], codec: &dyn MoveCodec) {
        let mut pos = start.clone();
        let mut need_number = true;
        for m in moves {
            if !pos.is_legal(m.mv) {
                break;
            }
            if let Some(comment) = &m.comment_before {
                need_number |= self.comment(comment);
            }
            // A move number stays on the line of its move.
            let number = pos.fullmove_number();
            let text = codec.format(&pos, m.mv);
            match pos.side_to_move() {
                Color::Red => self.word(&format!("{number}. {text}")),
                Color::Black if need_number => self.word(&format!("{number}... {text}")),
                Color::Black => self.word(&text),
            }
            need_number = false;
            for nag in &m.nags {
                self.word(&format!("${nag}"));
            }
            if let Some(comment) = &m.comment {
                need_number |= self.comment(comment);
            }
            for variation in &m.variations {
                if !variation
                    .first()
                    .is_some_and(|first| pos.is_legal(first.mv))
                {
                    continue;
                }
                self.open += 1;
                self.line(&pos, variation, codec);
                self.close();
                need_number = true;
            }
            pos.make_move(m.mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths() {
        assert_eq!(width("H2-E2"), 5);
        assert_eq!(width("炮二平五"), 8);
        assert_eq!(width("马８进７"), 8);
        assert_eq!(width("\u{3000}"), 2);
    }

    #[test]
    fn tags_are_escaped() {
        let mut out = String::new();
        write_tag(&mut out, "Event", "a \"b\" c\\d\ne");
        assert_eq!(out, "[Event \"a \\\"b\\\" c\\\\d e\"]\n");
    }

    #[test]
    fn lines_are_broken_before_80_columns() {
        let mut text = MoveText::default();
        for _ in 0..40 {
            text.word("H2-E2");
        }
        let lines: Vec<&str> = text.out.lines().collect();
        assert!(lines.iter().all(|l| width(l) <= 80));
        assert_eq!(lines[0].len(), 77);
    }
}
