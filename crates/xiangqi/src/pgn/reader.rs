//! Reading PGN: tag sections and movetext into [`GameRecord`]s.

use super::codec::MoveCodec;
use super::decode::decode;
use super::error::PgnError;
use super::lexer::{glyph, Lexer, Token, TokenKind};
use super::record::{
    append_comment, export_tags, is_tag_name, known_result, normalize_comment, GameRecord,
    RecordMove,
};
use crate::excerpt::excerpt;
use crate::fen::Validation;
use crate::moves::Move;
use crate::position::Position;

/// How deeply variations may nest. Real games stay far below; the limit keeps hostile input
/// from exhausting the stack, in the reader and when the nested vectors are dropped.
pub const MAX_VARIATION_DEPTH: usize = 100;

/// Reads every game in a PGN file (bytes in UTF-8 or GBK, any line ends).
///
/// Tags (with `\"` escapes), comments (`{…}` and `;…`, several in a row joined by line breaks),
/// variations (nested; each replaces the move before it and is played from the position before
/// that move), move numbers (`1.`, `1...`, `1…`, their values not checked), NAGs (`$1`) and
/// annotation suffixes (`!?`) are understood; each move token goes to `codec`, and the move it
/// returns must be legal. A game without a result token takes its result from the `Result`
/// tag. Text after a game's result up to the next line starting with `[` is ignored (Chinese
/// sites append a signature there); empty variations are dropped; empty input gives no games.
/// Records come out in export form (see [`GameRecord`]).
///
/// # Errors
/// The first problem found, with its line and token: broken syntax, a move the codec cannot
/// read or that is illegal, a bad FEN tag, variations nested deeper than
/// [`MAX_VARIATION_DEPTH`]. Never panics, whatever the bytes.
///
/// ```
/// use xiangqi::pgn::{read_pgn, IccsCodec};
/// let games = read_pgn(b"[Format \"ICCS\"]\n1. H2-E2 {central cannon} H9-G7 (1... H7-E7) 1-0", &IccsCodec).unwrap();
/// let game = &games[0];
/// assert_eq!(game.moves[0].comment.as_deref(), Some("central cannon"));
/// assert_eq!(game.moves[1].variations[0][0].mv.to_string(), "h7e7");
/// assert_eq!(game.result.as_deref(), Some("1-0"));
/// ```
pub fn read_pgn(bytes: &[u8], codec: &dyn MoveCodec) -> Result<Vec<GameRecord>, PgnError> {
    read_pgn_str(&decode(bytes), codec)
}

/// Like [`read_pgn`] for text already decoded.
///
/// # Errors
/// As [`read_pgn`].
pub fn read_pgn_str(text: &str, codec: &dyn MoveCodec) -> Result<Vec<GameRecord>, PgnError> {
    let mut reader = Reader {
        lexer: Lexer::new(text),
        codec,
    };
    let mut games = Vec::new();
    while let Some(game) = reader.game()? {
        games.push(game);
    }
    Ok(games)
}

/// How a line of moves ended.
enum End {
    /// A result token (only the main line may end so).
    Result(Option<&'static str>),
    /// A `)` closing a variation.
    Close,
    /// The next game's tags (not consumed).
    NextGame,
    /// The end of the input.
    Eof,
}

/// A line of moves as read, with a comment that came before its first move.
struct Line {
    leading_comment: Option<String>,
    moves: Vec<RecordMove>,
    end: End,
}

struct Reader<'a, 'c> {
    lexer: Lexer<'a>,
    codec: &'c dyn MoveCodec,
}

impl<'a> Reader<'a, '_> {
    /// The next game, or `None` at the end of the input.
    fn game(&mut self) -> Result<Option<GameRecord>, PgnError> {
        let mut tags = Vec::new();
        let mut fen = None;
        while let Some(open) = self.next_if(|k| matches!(k, TokenKind::TagOpen))? {
            let (name, value) = self.tag_pair(&open)?;
            if name == "FEN" {
                fen = Some((value, open.line));
            } else {
                tags.push((name, value));
            }
        }
        if tags.is_empty() && fen.is_none() && self.lexer.peek()?.is_none() {
            return Ok(None);
        }
        let start = match fen {
            Some((fen, _)) if fen.trim().is_empty() => Position::startpos(),
            Some((fen, line)) => {
                Position::from_fen_with(&fen, Validation::Lenient).map_err(|error| {
                    PgnError::Fen {
                        line,
                        token: excerpt(&fen),
                        error,
                    }
                })?
            }
            None => Position::startpos(),
        };
        let line = self.line(start.clone(), 0)?;
        let result = match line.end {
            End::Result(Some(r)) => Some(r),
            _ => tags
                .iter()
                .rev()
                .find(|(k, _)| k == "Result")
                .and_then(|(_, v)| known_result(v)),
        };
        if matches!(line.end, End::Result(_)) {
            self.lexer.skip_to_tag_section();
        }
        Ok(Some(GameRecord {
            tags: export_tags(&tags, result),
            start,
            initial_comment: line.leading_comment,
            moves: line.moves,
            result: result.map(str::to_owned),
        }))
    }

    /// The next token if `wanted` accepts its kind.
    fn next_if(
        &mut self,
        wanted: impl Fn(&TokenKind<'_>) -> bool,
    ) -> Result<Option<Token<'a>>, PgnError> {
        match self.lexer.peek()? {
            Some(t) if wanted(&t.kind) => self.lexer.next_token(),
            _ => Ok(None),
        }
    }

    /// The rest of a tag pair after its `[`.
    fn tag_pair(&mut self, open: &Token<'a>) -> Result<(String, String), PgnError> {
        let name = match self.lexer.next_token()? {
            Some(Token {
                kind: TokenKind::Word(w),
                text,
                ..
            }) if is_tag_name(w) && w == text => w.to_owned(),
            other => return Err(self.unexpected(other, "expected a tag name after '['")),
        };
        let value = match self.lexer.next_token()? {
            Some(Token {
                kind: TokenKind::Str(v),
                ..
            }) => v,
            other => {
                return Err(self.unexpected(
                    other,
                    format!("expected the value of tag {} in quotes", excerpt(&name)),
                ))
            }
        };
        match self.lexer.next_token()? {
            Some(Token {
                kind: TokenKind::TagClose,
                ..
            }) => Ok((name, value)),
            other => Err(self.unexpected(
                other,
                format!(
                    "expected ']' to close tag {} opened on line {}",
                    excerpt(&name),
                    open.line
                ),
            )),
        }
    }

    /// A syntax error at `token` (or at the end of the input).
    fn unexpected(&self, token: Option<Token<'_>>, reason: impl Into<String>) -> PgnError {
        match token {
            Some(t) => PgnError::syntax(t.line, t.text, reason),
            None => PgnError::syntax(self.lexer.line(), "", reason),
        }
    }

    /// Reads moves from `pos` until a result, a `)`, the next game or the end of the input.
    /// `depth` is 0 for the main line, else the nesting of the variation.
    fn line(&mut self, mut pos: Position, depth: usize) -> Result<Line, PgnError> {
        let mut moves: Vec<RecordMove> = Vec::new();
        let mut leading = None;
        // The position before the last move read: where its variations start.
        let mut before_last: Option<Position> = None;
        let end = loop {
            match self.lexer.peek()? {
                None => break End::Eof,
                Some(t) if matches!(t.kind, TokenKind::TagOpen) => break End::NextGame,
                Some(_) => {}
            }
            let Some(token) = self.lexer.next_token()? else {
                break End::Eof;
            };
            match token.kind {
                TokenKind::MoveNumber | TokenKind::Annotation => {}
                // A glyph belongs to the move before it; one before any move has none to mark.
                TokenKind::Nag(nag) => {
                    if let Some(last) = moves.last_mut() {
                        last.nags.push(nag);
                    }
                }
                TokenKind::Comment(text) => match moves.last_mut() {
                    Some(last) => append_comment(&mut last.comment, text),
                    None => append_comment(&mut leading, text),
                },
                TokenKind::Word(text) => {
                    let m = self.parse_move(&pos, text, &token)?;
                    before_last = Some(pos.clone());
                    pos.make_move(m);
                    let mut record = RecordMove::new(m);
                    // A suffix such as `!?` after the move is its glyph.
                    record
                        .nags
                        .extend(token.text.get(text.len()..).and_then(glyph));
                    moves.push(record);
                }
                TokenKind::VariationOpen => {
                    let (Some(base), Some(last)) = (&before_last, moves.last_mut()) else {
                        return Err(PgnError::syntax(
                            token.line,
                            token.text,
                            "a variation must follow the move it replaces",
                        ));
                    };
                    let variation = self.variation(base, &token, depth)?;
                    if !variation.is_empty() {
                        last.variations.push(variation);
                    }
                }
                TokenKind::VariationClose if depth > 0 => break End::Close,
                TokenKind::VariationClose => {
                    return Err(PgnError::syntax(
                        token.line,
                        token.text,
                        "')' without a '(' before it",
                    ))
                }
                TokenKind::Result(_) if depth > 0 => {
                    return Err(PgnError::syntax(
                        token.line,
                        token.text,
                        "a game result inside a variation (is a ')' missing?)",
                    ))
                }
                TokenKind::Result(r) => break End::Result(r),
                TokenKind::TagOpen | TokenKind::TagClose | TokenKind::Str(_) => {
                    return Err(PgnError::syntax(
                        token.line,
                        token.text,
                        "tags belong before the moves of a game",
                    ))
                }
            }
        };
        for m in &mut moves {
            m.comment = m.comment.take().and_then(|c| normalize_comment(&c));
        }
        Ok(Line {
            leading_comment: leading.and_then(|c| normalize_comment(&c)),
            moves,
            end,
        })
    }

    /// The moves of a variation whose `(` (at `depth`) was just read, up to its `)`, to be
    /// played from `base`. A comment before its first move is kept with that move.
    fn variation(
        &mut self,
        base: &Position,
        open: &Token<'a>,
        depth: usize,
    ) -> Result<Vec<RecordMove>, PgnError> {
        if depth >= MAX_VARIATION_DEPTH {
            return Err(PgnError::syntax(
                open.line,
                open.text,
                format!("variations nest more than {MAX_VARIATION_DEPTH} deep"),
            ));
        }
        let line = self.line(base.clone(), depth + 1)?;
        if !matches!(line.end, End::Close) {
            return Err(PgnError::syntax(
                self.lexer.line(),
                "",
                format!(
                    "the variation opened on line {} is not closed by ')'",
                    open.line
                ),
            ));
        }
        let mut moves = line.moves;
        if let Some(first) = moves.first_mut() {
            first.comment_before = line.leading_comment;
        }
        Ok(moves)
    }

    /// The move `text` names in `pos`, as the codec reads it, checked for legality.
    fn parse_move(&self, pos: &Position, text: &str, token: &Token<'_>) -> Result<Move, PgnError> {
        let error = |reason| PgnError::Move {
            line: token.line,
            token: excerpt(token.text),
            number: pos.fullmove_number(),
            side: pos.side_to_move(),
            reason,
        };
        match self.codec.parse(pos, text) {
            Ok(m) if pos.is_legal(m) => Ok(m),
            Ok(m) => Err(error(format!(
                "the move reader gave {m}, which is not legal here"
            ))),
            Err(reason) => Err(error(reason)),
        }
    }
}
