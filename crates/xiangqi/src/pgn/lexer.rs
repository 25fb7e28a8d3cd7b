//! Splits decoded PGN text into tokens, each with the line it starts on.
//!
//! Tokens are separated by white space (any Unicode white space, so the full-width space U+3000
//! of Chinese files counts) and by the PGN punctuation `[ ] { } ( ) ; " $`. Lines starting with
//! `%` are skipped (the PGN escape). Everything else is a word, which is classified as a result
//! (`1-0 0-1 1/2-1/2 *`), a move number (`1.`, `1...`, `1…`, `...`, also glued to the move that
//! follows: `1.h2e2`), an annotation (`!`, `?!` standing alone; a `$` NAG) or a move (with
//! annotation suffixes `!`/`?` cut off).

use super::error::PgnError;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind<'a> {
    /// `[`, opening a tag pair.
    TagOpen,
    /// `]`, closing a tag pair.
    TagClose,
    /// A quoted string (a tag value), escapes `\"` and `\\` undone.
    Str(String),
    /// The text of a `{…}` or `;…` comment.
    Comment(&'a str),
    /// `(`, opening a variation.
    VariationOpen,
    /// `)`, closing a variation.
    VariationClose,
    /// A move number such as `12.` or `12...`, or a bare `...`.
    MoveNumber,
    /// A numeric annotation glyph: `$3`, or the symbols it stands for (`!`, `?`, `!!`, `??`,
    /// `!?`, `?!`: 1 to 6), standing alone or after a move.
    Nag(u8),
    /// Annotation symbols that name no glyph (`!!!`), read and passed over.
    Annotation,
    /// A game result: `Some("1-0")`, `Some("0-1")`, `Some("1/2-1/2")`, or `None` for `*`.
    Result(Option<&'static str>),
    /// Any other word: a move (annotation suffixes removed) or a tag name.
    Word(&'a str),
}

/// A token with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    /// What it is.
    pub kind: TokenKind<'a>,
    /// The text as written (for error messages).
    pub text: &'a str,
    /// Line (from 1) where it starts.
    pub line: usize,
    /// Byte offset where it starts.
    start: usize,
}

/// Whether `c` separates tokens like white space. The byte-order mark counts, for files made by
/// gluing files together.
fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{FEFF}'
}

/// Whether `c` ends a word.
fn ends_word(c: char) -> bool {
    is_space(c) || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';' | '"' | '$')
}

/// A pull lexer with one token of look-ahead.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    /// Byte offset of the next unread character.
    pos: usize,
    /// Line of `pos`.
    line: usize,
    peeked: Option<Token<'a>>,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src` (already decoded, line ends `\n`).
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            line: 1,
            peeked: None,
        }
    }

    /// The line the lexer has reached (where the end of the input is, once it is reached).
    pub fn line(&self) -> usize {
        self.peeked.as_ref().map_or(self.line, |t| t.line)
    }

    /// The next token without consuming it.
    pub fn peek(&mut self) -> Result<Option<&Token<'a>>, PgnError> {
        if self.peeked.is_none() {
            self.peeked = self.lex()?;
        }
        Ok(self.peeked.as_ref())
    }

    /// The next token.
    pub fn next_token(&mut self) -> Result<Option<Token<'a>>, PgnError> {
        match self.peeked.take() {
            Some(t) => Ok(Some(t)),
            None => self.lex(),
        }
    }

    /// Skips to the next line whose first non-blank character is `[` (or to a `[` that is the
    /// first thing after the current position on this line), i.e. to the next tag section.
    ///
    /// Used after a game's result: files from Chinese sites put a signature there.
    pub fn skip_to_tag_section(&mut self) {
        if let Some(t) = self.peeked.take() {
            self.pos = t.start;
            self.line = t.line;
        }
        let mut at_line_start = true;
        for (i, c) in self.src[self.pos..].char_indices() {
            match c {
                '[' if at_line_start => {
                    self.pos += i;
                    return;
                }
                '\n' => {
                    self.line += 1;
                    at_line_start = true;
                }
                c if is_space(c) => {}
                _ => at_line_start = false,
            }
        }
        self.pos = self.src.len();
    }

    /// The character at the current position.
    fn current(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    /// Moves past white space and `%` lines.
    fn skip_space(&mut self) {
        while let Some(c) = self.current() {
            if c == '\n' {
                self.line += 1;
            } else if c == '%' && (self.pos == 0 || self.src[..self.pos].ends_with('\n')) {
                self.pos += self.src[self.pos..]
                    .find('\n')
                    .unwrap_or(self.src.len() - self.pos);
                continue;
            } else if !is_space(c) {
                return;
            }
            self.pos += c.len_utf8();
        }
    }

    fn lex(&mut self) -> Result<Option<Token<'a>>, PgnError> {
        self.skip_space();
        let start = self.pos;
        let line = self.line;
        let Some(c) = self.current() else {
            return Ok(None);
        };
        let rest = &self.src[start..];
        let (kind, len) = match c {
            '[' => (TokenKind::TagOpen, 1),
            ']' => (TokenKind::TagClose, 1),
            '(' => (TokenKind::VariationOpen, 1),
            ')' => (TokenKind::VariationClose, 1),
            '{' => {
                let Some(end) = rest.find('}') else {
                    return Err(PgnError::syntax(
                        line,
                        "{",
                        "this comment is never closed by '}'",
                    ));
                };
                let body = &rest[1..end];
                self.line += body.matches('\n').count();
                (TokenKind::Comment(body), end + 1)
            }
            '}' => return Err(PgnError::syntax(line, "}", "'}' without a '{' before it")),
            ';' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                (TokenKind::Comment(&rest[1..end]), end)
            }
            '"' => {
                let (value, len) = lex_string(rest, line)?;
                (TokenKind::Str(value), len)
            }
            '$' => {
                let digits = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
                if digits == 0 {
                    let end = rest[1..].find(ends_word).map_or(rest.len(), |i| i + 1);
                    return Err(PgnError::syntax(
                        line,
                        &rest[..end],
                        "a NAG is '$' followed by a number",
                    ));
                }
                match rest[1..1 + digits].parse::<u8>() {
                    Ok(nag) => (TokenKind::Nag(nag), 1 + digits),
                    Err(_) => {
                        return Err(PgnError::syntax(
                            line,
                            &rest[..1 + digits],
                            "a NAG is a number from 0 to 255",
                        ))
                    }
                }
            }
            _ => {
                let end = rest.find(ends_word).unwrap_or(rest.len());
                classify_word(&rest[..end])
            }
        };
        self.pos += len;
        Ok(Some(Token {
            kind,
            text: &rest[..len],
            line,
            start,
        }))
    }
}

/// Classifies a word; returns the token and how many bytes of the word it takes (a move number
/// glued to a move takes only its own part).
fn classify_word(word: &str) -> (TokenKind<'_>, usize) {
    match word {
        "1-0" => return (TokenKind::Result(Some("1-0")), word.len()),
        "0-1" => return (TokenKind::Result(Some("0-1")), word.len()),
        "1/2-1/2" => return (TokenKind::Result(Some("1/2-1/2")), word.len()),
        "*" => return (TokenKind::Result(None), word.len()),
        _ => {}
    }
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots: usize = word[digits..]
        .chars()
        .take_while(|&c| c == '.' || c == '…')
        .map(char::len_utf8)
        .sum();
    if dots > 0 {
        return (TokenKind::MoveNumber, digits + dots);
    }
    let is_annotation = |c: char| c == '!' || c == '?';
    let mv = word.trim_end_matches(is_annotation);
    if !mv.is_empty() {
        // The token's text keeps the suffix (`h9g7!?`): the reader takes its glyph from there.
        return (TokenKind::Word(mv), word.len());
    }
    match glyph(word) {
        Some(nag) => (TokenKind::Nag(nag), word.len()),
        None => (TokenKind::Annotation, word.len()),
    }
}

/// The numeric glyph of annotation symbols: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6.
pub(crate) fn glyph(symbols: &str) -> Option<u8> {
    match symbols {
        "!" => Some(1),
        "?" => Some(2),
        "!!" => Some(3),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        _ => None,
    }
}

/// Reads a quoted string at the start of `rest`; returns its value and length in bytes.
///
/// `\"` and `\\` are escapes; another backslash stands for itself. A `"` closes the string only
/// when what follows on the line (after blanks) is `]` or nothing, so that the unescaped quotes
/// found in real files (`[Event "the "Five Goats" cup"]`) stay part of the value.
fn lex_string(rest: &str, line: usize) -> Result<(String, usize), PgnError> {
    let mut value = String::new();
    let mut chars = rest.char_indices().skip(1).peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\n' => break,
            '\\' => match chars.peek() {
                Some(&(_, e @ ('"' | '\\'))) => {
                    value.push(e);
                    chars.next();
                }
                _ => value.push('\\'),
            },
            '"' => {
                let after = rest[i + 1..].trim_start_matches([' ', '\t']);
                if after.is_empty() || after.starts_with([']', '\n']) {
                    return Ok((value, i + 1));
                }
                value.push('"');
            }
            c => value.push(c),
        }
    }
    let end = rest.find('\n').unwrap_or(rest.len());
    Err(PgnError::syntax(
        line,
        &rest[..end],
        "this tag value is not closed by '\"' on its line",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    fn kinds(src: &str) -> Vec<(TokenKind<'_>, usize)> {
        let mut lexer = Lexer::new(src);
        let mut out = Vec::new();
        while let Some(t) = lexer.next_token().unwrap() {
            out.push((t.kind, t.line));
        }
        out
    }

    #[test]
    fn tags_and_strings() {
        assert_eq!(
            kinds("[Event \"a \\\"b\\\" c\\\\d\\e\"]\n[Red \"the \"Goat\" \" ]"),
            [
                (TagOpen, 1),
                (Word("Event"), 1),
                (Str("a \"b\" c\\d\\e".into()), 1),
                (TagClose, 1),
                (TagOpen, 2),
                (Word("Red"), 2),
                (Str("the \"Goat\" ".into()), 2),
                (TagClose, 2),
            ]
        );
        let mut lexer = Lexer::new("\n[Event \"open\nx\"]");
        assert_eq!(lexer.next_token().unwrap().unwrap().kind, TagOpen);
        assert_eq!(lexer.next_token().unwrap().unwrap().kind, Word("Event"));
        let err = lexer.next_token().unwrap_err();
        assert_eq!((err.line(), err.token()), (2, "\"open"));
        assert!(Lexer::new("\"x").next_token().is_err());
    }

    #[test]
    fn movetext() {
        assert_eq!(
            kinds("1. h2e2 h9g7!? 2.b0c2 $14 {注\n释}\n2... ;rest of line \n( 3… x ) !! 1-0 0-1 1/2-1/2 *"),
            [
                (MoveNumber, 1),
                (Word("h2e2"), 1),
                (Word("h9g7"), 1),
                (MoveNumber, 1),
                (Word("b0c2"), 1),
                (Nag(14), 1),
                (Comment("注\n释"), 1),
                (MoveNumber, 3),
                (Comment("rest of line "), 3),
                (VariationOpen, 4),
                (MoveNumber, 4),
                (Word("x"), 4),
                (VariationClose, 4),
                (Nag(3), 4),
                (Result(Some("1-0")), 4),
                (Result(Some("0-1")), 4),
                (Result(Some("1/2-1/2")), 4),
                (Result(None), 4),
            ]
        );
    }

    #[test]
    fn chinese_and_full_width_space() {
        assert_eq!(
            kinds("\u{FEFF}  1.\u{3000}炮二平五\u{3000}马８进７\n 3.          马８进７"),
            [
                (MoveNumber, 1),
                (Word("炮二平五"), 1),
                (Word("马８进７"), 1),
                (MoveNumber, 2),
                (Word("马８进７"), 2),
            ]
        );
    }

    #[test]
    fn wxf_moves_are_not_move_numbers() {
        assert_eq!(
            kinds("C2.5 H8+7 3+.4 7-.6 R+.3"),
            [
                (Word("C2.5"), 1),
                (Word("H8+7"), 1),
                (Word("3+.4"), 1),
                (Word("7-.6"), 1),
                (Word("R+.3"), 1),
            ]
        );
    }

    #[test]
    fn percent_lines_are_skipped() {
        assert_eq!(
            kinds("%comment h2e2\nh9g7 %x"),
            [(Word("h9g7"), 2), (Word("%x"), 2)]
        );
    }

    #[test]
    fn errors() {
        let err = |src| Lexer::new(src).next_token().unwrap_err();
        assert_eq!(err("\n\n{ open").line(), 3);
        assert_eq!(err("}").token(), "}");
        assert_eq!(err("$x").token(), "$x");
        assert_eq!(err("$256").token(), "$256");
        assert_eq!(
            kinds("$255 !!! ?!"),
            [(Nag(255), 1), (Annotation, 1), (Nag(6), 1)]
        );
    }

    #[test]
    fn skipping_to_the_next_tag_section() {
        let src = "1-0\n=====\n欢迎 [not a tag]\n  [Event \"x\"]";
        let mut lexer = Lexer::new(src);
        assert_eq!(
            lexer.next_token().unwrap().unwrap().kind,
            Result(Some("1-0"))
        );
        lexer.peek().unwrap();
        lexer.skip_to_tag_section();
        let t = lexer.next_token().unwrap().unwrap();
        assert_eq!((t.kind, t.line), (TagOpen, 4));
        let mut lexer = Lexer::new("* trailer");
        lexer.next_token().unwrap();
        lexer.skip_to_tag_section();
        assert_eq!(lexer.next_token().unwrap(), None);
        assert_eq!(lexer.line(), 1);
    }
}
