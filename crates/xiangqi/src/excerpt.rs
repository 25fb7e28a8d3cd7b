//! The one rule for quoting input in error messages: a short excerpt, so that a garbled or
//! enormous input (a file of NUL bytes, a megabyte-long "move") gives a short message.

/// How many characters of offending text an error message quotes: enough to recognise any
/// token of a game record or protocol line (a move, a tag name, a number, the start of a FEN),
/// while a whole file read as one token still makes a one-line message.
pub const EXCERPT_CHARS: usize = 40;

/// `text` as error messages quote it: whole when it has at most [`EXCERPT_CHARS`] characters,
/// else its first [`EXCERPT_CHARS`] characters followed by `…`. The cut falls between
/// characters, never inside one. Every reader of this library (FEN, moves in each notation,
/// PGN, square and notation names) stores offending text through it; control characters are
/// left for the message to escape (the errors quote with `{:?}`).
///
/// ```
/// use xiangqi::{excerpt, EXCERPT_CHARS};
/// assert_eq!(excerpt("h2e2"), "h2e2");
/// let long = "炮".repeat(1000);
/// assert_eq!(excerpt(&long), format!("{}…", "炮".repeat(EXCERPT_CHARS)));
/// ```
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_whole_and_long_text_is_cut_on_a_character() {
        let exact = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        assert_eq!(excerpt(""), "");
        let long = format!("{exact}y");
        assert_eq!(excerpt(&long), format!("{exact}…"));
        // Three-byte characters: the cut lands after the 40th character, not inside one.
        let wide = "马".repeat(EXCERPT_CHARS + 5);
        let cut = excerpt(&wide);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 1);
        assert!(cut.ends_with("马…"));
        let nul = "\0".repeat(1 << 20);
        assert_eq!(excerpt(&nul).len(), EXCERPT_CHARS + '…'.len_utf8());
    }
}
