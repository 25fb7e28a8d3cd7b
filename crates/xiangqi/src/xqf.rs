//! Decoder for XQF, the binary game format of XQStudio (象棋演播室).
//!
//! Layout, as used here:
//!
//! * A 1024-byte header: magic `"XQ"`, a version byte, key bytes, the squares
//!   of the 32 pieces, side to move, result, and length-prefixed (Pascal)
//!   GBK strings for the title, event, date, site, players and so on.
//! * From offset 1024, the game tree in pre-order. Each node is a 4-byte
//!   record `from, to, flags, reserved`, optionally followed by a 4-byte
//!   little-endian comment length and that many bytes of GBK text. A node's
//!   "next move" subtree comes first, then the subtree of its "sibling", the
//!   alternative move from the same position. The first node is a dummy
//!   that only carries the comment on the start position.
//!
//! Versions 10 and below are stored in the clear. From version 11 on, the
//! piece squares, move squares, comment lengths and the whole move area are
//! obfuscated with per-file keys taken from the header (see `Keys` in the source).
//!
//! The decoder never panics: every read is bounds-checked and reports an
//! [`XqfError`] naming the offset at which the data stopped making sense.

use encoding_rs::GBK;

/// Size of the fixed header; the move tree starts right after it.
const HEADER_LEN: usize = 1024;
/// Newest format version XQStudio itself reads.
const MAX_VERSION: u8 = 18;
/// First version whose move area and squares are obfuscated.
const FIRST_ENCRYPTED_VERSION: u8 = 11;
/// First version whose piece-square table is additionally rotated.
const FIRST_ROTATED_VERSION: u8 = 12;
/// How deeply variations may nest inside variations. Real games stay far
/// below this; the limit keeps hostile input from exhausting the stack
/// (both while reading and when the nested vectors are dropped).
const MAX_VARIATION_DEPTH: usize = 200;

/// Header offsets (see the module documentation).
const OFF_VERSION: usize = 0x02;
const OFF_KEY_MASK: usize = 0x03;
const OFF_KEY_OR: usize = 0x08;
const OFF_KEY_SUM: usize = 0x0C;
const OFF_KEY_XY: usize = 0x0D;
const OFF_KEY_XY_FROM: usize = 0x0E;
const OFF_KEY_XY_TO: usize = 0x0F;
const OFF_PIECES: usize = 0x10;
const OFF_SIDE_TO_MOVE: usize = 0x32;
const OFF_RESULT: usize = 0x33;

/// The Pascal-string fields of the header that become tags:
/// (tag name, offset of the length byte, field size including that byte).
/// Tags are emitted in the order of these tables, "Result" between them.
const TAGS_BEFORE_RESULT: [(&str, usize, usize); 5] = [
    ("Event", 0xD0, 64),
    ("Site", 0x120, 16),
    ("Date", 0x110, 16),
    ("Red", 0x130, 16),
    ("Black", 0x140, 16),
];
/// See [`TAGS_BEFORE_RESULT`]. "TimeRule" is XQStudio's free-text time
/// control; "Annotator" is its "commentator" field.
const TAGS_AFTER_RESULT: [(&str, usize, usize); 6] = [
    ("Title", 0x50, 64),
    ("TimeRule", 0x150, 64),
    ("RedTime", 0x190, 16),
    ("BlackTime", 0x1A0, 16),
    ("Annotator", 0x1D0, 16),
    ("Author", 0x1E0, 16),
];

/// FEN letters of the 32 entries of the piece-square table, in file order:
/// each side's rooks, knights, elephants, advisors and king (left-right
/// symmetric), then two cannons and five pawns; Red first.
const PIECE_LETTERS: &[u8; 32] = b"RNBAKABNRCCPPPPPrnbakabnrccppppp";

/// Seed text of the key stream that obfuscates the move area (version 11+).
const KEY_STREAM_SEED: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Move-record flag bits, versions 11 and later.
const FLAG_HAS_NEXT: u8 = 0x80;
const FLAG_HAS_SIBLING: u8 = 0x40;
const FLAG_HAS_COMMENT: u8 = 0x20;
/// Move-record flag bits, version 10 and earlier (any bit in the nibble).
const OLD_FLAG_HAS_NEXT: u8 = 0xF0;
const OLD_FLAG_HAS_SIBLING: u8 = 0x0F;

/// Squares are stored as `file * 10 + rank` plus these constants (and, from
/// version 11, plus a per-file key).
const FROM_SQUARE_BIAS: u8 = 0x18;
const TO_SQUARE_BIAS: u8 = 0x20;
/// Number of squares on the board: 9 files by 10 ranks.
const BOARD_SQUARES: u8 = 90;

/// One move in an XQF record, with the alternatives that branch from the same position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XqfMove {
    /// ICCS coordinates, lower case, e.g. "h2e2" (file a–i from Red's left, rank 0–9 from Red's side).
    pub iccs: String,
    /// Comment attached after this move, decoded from GBK, if any (None if empty).
    /// Line breaks are normalized to `\n` and trailing white space is removed.
    pub comment: Option<String>,
    /// Alternative lines that replace this move (each a sequence starting at the same position as this move).
    pub variations: Vec<Vec<XqfMove>>,
}

/// A decoded XQF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XqfRecord {
    /// Tags in PGN terms, only non-empty ones, in this order: "Event", "Site",
    /// "Date", "Red", "Black", "Result" ("1-0", "0-1", "1/2-1/2" or "*"; always
    /// present), "Title", "TimeRule", "RedTime", "BlackTime", "Annotator"
    /// (the commentator), "Author" (of the file).
    pub tags: Vec<(String, String)>,
    /// The start position as a FEN string in the standard form, e.g.
    /// "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    /// (letters K A B N R C P, upper case Red; side to move w or b as recorded).
    pub fen: String,
    /// Comment before the first move, if any (normalized like [`XqfMove::comment`]).
    pub initial_comment: Option<String>,
    /// The main line; variations hang off its moves.
    pub moves: Vec<XqfMove>,
}

/// Why an XQF file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum XqfError {
    /// The file does not start with the magic bytes "XQ".
    #[error("not an XQF file: it does not start with the magic bytes \"XQ\"")]
    NotXqf,
    /// The data ended in the middle of something.
    #[error("XQF data truncated: {what} at offset {offset:#x} runs past the end of the file")]
    Truncated {
        /// Offset at which the incomplete item starts.
        offset: usize,
        /// What was being read.
        what: &'static str,
    },
    /// The version byte is newer than any known XQF version.
    #[error("unsupported XQF version {0} (versions up to {MAX_VERSION} are known)")]
    UnsupportedVersion(u8),
    /// The four key bytes of an encrypted file do not sum to zero (mod 256).
    #[error("XQF key checksum at offset 0xc is {sum:#04x}, expected 0 (corrupt header)")]
    BadKeyChecksum {
        /// The sum of the key bytes, modulo 256.
        sum: u8,
    },
    /// A header string claims to be longer than its field.
    #[error(
        "XQF header string at offset {offset:#x} claims {len} bytes but its field holds at most {capacity}"
    )]
    BadStringLength {
        /// Offset of the length byte.
        offset: usize,
        /// The claimed length.
        len: u8,
        /// The most the field can hold.
        capacity: usize,
    },
    /// The side-to-move byte is neither 0 (Red) nor 1 (Black).
    #[error(
        "XQF side-to-move byte at offset {offset:#x} is {value}, expected 0 (Red) or 1 (Black)"
    )]
    BadSideToMove {
        /// Offset of the byte.
        offset: usize,
        /// Its value.
        value: u8,
    },
    /// Two pieces of the start position are on the same square.
    #[error(
        "XQF start position puts two pieces on square {square} (piece entry at offset {offset:#x})"
    )]
    PiecesOverlap {
        /// Offset of the later piece's (stored) entry.
        offset: usize,
        /// The square, in ICCS notation.
        square: String,
    },
    /// A move's square is not on the 9×10 board.
    #[error(
        "XQF move square at offset {offset:#x} decodes to {value}, which is not on the board (0..=89)"
    )]
    BadSquare {
        /// Offset of the square byte.
        offset: usize,
        /// The decoded value (`file * 10 + rank` when valid).
        value: u8,
    },
    /// A comment length decodes to a negative number.
    #[error("XQF comment length at offset {offset:#x} decodes to {value}, which is negative")]
    BadCommentLength {
        /// Offset of the length field.
        offset: usize,
        /// The decoded length.
        value: i64,
    },
    /// Variations nest deeper than this decoder accepts.
    #[error("XQF variations nest more than {MAX_VARIATION_DEPTH} deep (at offset {offset:#x})")]
    TooDeep {
        /// Offset of the record that would go too deep.
        offset: usize,
    },
}

/// Decodes an XQF file.
pub fn parse_xqf(bytes: &[u8]) -> Result<XqfRecord, XqfError> {
    let header = read_header(bytes)?;
    let version = header[OFF_VERSION];
    let keys = Keys::from_header(header)?;

    let mut tags = string_tags(header, &TAGS_BEFORE_RESULT)?;
    tags.push((
        "Result".to_owned(),
        result_tag(header[OFF_RESULT]).to_owned(),
    ));
    tags.extend(string_tags(header, &TAGS_AFTER_RESULT)?);
    let fen = start_fen(header, version, &keys)?;

    let mut tree = TreeReader {
        stream: MoveStream {
            bytes,
            pos: HEADER_LEN,
            keys: &keys,
            old_layout: version < FIRST_ENCRYPTED_VERSION,
        },
    };
    let (initial_comment, moves) = tree.read_game()?;
    Ok(XqfRecord {
        tags,
        fen,
        initial_comment,
        moves,
    })
}

/// Checks the magic and version and returns the fixed-size header.
fn read_header(bytes: &[u8]) -> Result<&[u8; HEADER_LEN], XqfError> {
    match bytes.get(..2) {
        None => {
            return Err(XqfError::Truncated {
                offset: 0,
                what: "magic",
            });
        }
        Some(magic) if magic != b"XQ" => return Err(XqfError::NotXqf),
        Some(_) => {}
    }
    match bytes.get(OFF_VERSION) {
        None => {
            return Err(XqfError::Truncated {
                offset: OFF_VERSION,
                what: "version byte",
            });
        }
        Some(&v) if v > MAX_VERSION => return Err(XqfError::UnsupportedVersion(v)),
        Some(_) => {}
    }
    bytes.first_chunk().ok_or(XqfError::Truncated {
        offset: 0,
        what: "1024-byte header",
    })
}

/// The per-file keys that undo the obfuscation of version 11 and later.
///
/// XQStudio stores four random key bytes in the header (checked by requiring
/// their sum to be 0 mod 256) and derives from them, via `(54 k² + 221)`
/// times the previously derived key (for the first, times `k` itself), one
/// byte added to every piece square, one to every move origin, one to every move destination, a
/// number added to every comment length, and a 32-byte stream added to every
/// byte of the move area. This is obfuscation, not cryptography: everything
/// needed is in the header. For older versions every key is zero.
struct Keys {
    /// Added to each piece square (and, from version 12, the rotation of
    /// the piece table).
    piece: u8,
    /// Added to each move's origin square (besides [`FROM_SQUARE_BIAS`]).
    from: u8,
    /// Added to each move's destination square (besides [`TO_SQUARE_BIAS`]).
    to: u8,
    /// Added to each comment length.
    comment_len: u32,
    /// `stream[i % 32]` is added to the move-area byte at file offset `i`.
    stream: [u8; 32],
}

impl Keys {
    /// Derives the keys from the header, or all-zero keys for old versions.
    fn from_header(header: &[u8; HEADER_LEN]) -> Result<Self, XqfError> {
        // (Constant indices into the fixed-size header are checked by the
        // compiler, so they cannot panic.)
        if header[OFF_VERSION] < FIRST_ENCRYPTED_VERSION {
            return Ok(Keys {
                piece: 0,
                from: 0,
                to: 0,
                comment_len: 0,
                stream: [0; 32],
            });
        }
        let mask = header[OFF_KEY_MASK];
        let sum = header[OFF_KEY_SUM];
        let xy = header[OFF_KEY_XY];
        let xy_from = header[OFF_KEY_XY_FROM];
        let xy_to = header[OFF_KEY_XY_TO];

        // XQStudio writes the key bytes so that they cancel out; anything
        // else means the header is damaged and the derived keys would be
        // garbage.
        let checksum = sum
            .wrapping_add(xy)
            .wrapping_add(xy_from)
            .wrapping_add(xy_to);
        if checksum != 0 {
            return Err(XqfError::BadKeyChecksum { sum: checksum });
        }

        // XQStudio chains the derivations: each derived key is the next
        // header key run through the cubic and multiplied by the previous
        // derived key.
        let piece = mix_key(xy, xy);
        let from = mix_key(xy_from, piece);
        let to = mix_key(xy_to, from);
        // Comment lengths are offset by a number in 767..=32766 built from
        // two raw key bytes (at most 255 * 256 + 255: no overflow).
        let comment_len = (u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767;

        // The stream is the seed text with bits cleared by four key bytes
        // (each first masked, then forced on by the "or" bytes), used in
        // rotation.
        let or_bytes: [u8; 4] = header_array(header, OFF_KEY_OR, "key bytes")?;
        let key_bytes = [sum, xy, xy_from, xy_to];
        let stream_keys = key_bytes
            .iter()
            .zip(or_bytes)
            .map(|(&key, or)| (key & mask) | or)
            .cycle();
        let mut stream = [0u8; 32];
        for ((out, seed), key) in stream.iter_mut().zip(KEY_STREAM_SEED).zip(stream_keys) {
            *out = seed & key;
        }
        Ok(Keys {
            piece,
            from,
            to,
            comment_len,
            stream,
        })
    }
}

/// Copies `N` header bytes starting at `offset`.
fn header_array<const N: usize>(
    header: &[u8; HEADER_LEN],
    offset: usize,
    what: &'static str,
) -> Result<[u8; N], XqfError> {
    header
        .get(offset..)
        .and_then(|rest| rest.first_chunk::<N>())
        .copied()
        .ok_or(XqfError::Truncated { offset, what })
}

/// XQStudio's key mixing: `(54 k² + 221) * previous`, truncated to a byte.
fn mix_key(key: u8, previous: u8) -> u8 {
    let k = u32::from(key);
    // At most (54 * 255² + 221) * 255 < 2^30: no overflow in u32.
    let mixed = (54 * k * k + 221) * u32::from(previous);
    mixed.to_le_bytes()[0]
}

/// Reads the non-empty string fields of the header as (tag, value) pairs.
fn string_tags(
    header: &[u8; HEADER_LEN],
    fields: &[(&str, usize, usize)],
) -> Result<Vec<(String, String)>, XqfError> {
    let mut tags = Vec::new();
    for &(name, offset, size) in fields {
        let value = pascal_string(header, offset, size)?;
        if !value.is_empty() {
            tags.push((name.to_owned(), value));
        }
    }
    Ok(tags)
}

/// Decodes a length-prefixed GBK string field of `size` bytes (length byte
/// included), trimmed of surrounding white space and NULs.
fn pascal_string(
    header: &[u8; HEADER_LEN],
    offset: usize,
    size: usize,
) -> Result<String, XqfError> {
    let truncated = || XqfError::Truncated {
        offset,
        what: "header string",
    };
    let field = header
        .get(offset..)
        .and_then(|rest| rest.get(..size))
        .ok_or_else(truncated)?;
    let (&len, body) = field.split_first().ok_or_else(truncated)?;
    // A longer length would run into the next field: the header is damaged.
    let text = body
        .get(..usize::from(len))
        .ok_or(XqfError::BadStringLength {
            offset,
            len,
            capacity: body.len(),
        })?;
    Ok(decode_gbk(text)
        .trim_matches(|c: char| c == '\0' || c.is_whitespace())
        .to_owned())
}

/// Maps the result byte to a PGN result (unknown values count as unknown).
fn result_tag(value: u8) -> &'static str {
    match value {
        1 => "1-0",
        2 => "0-1",
        3 => "1/2-1/2",
        _ => "*",
    }
}

/// Builds the FEN of the start position from the piece-square table.
fn start_fen(header: &[u8; HEADER_LEN], version: u8, keys: &Keys) -> Result<String, XqfError> {
    let stored: [u8; 32] = header_array(header, OFF_PIECES, "piece table")?;

    // Letters by square, index `rank * 9 + file`, rank 0 on Red's side.
    let mut board = [None::<u8>; 90];
    for (stored_at, piece, square) in piece_squares(&stored, version, keys) {
        // Squares past the board mean "captured / not in this position".
        let Some((file, rank)) = file_rank(square) else {
            continue;
        };
        // Always in range: file < 9 and rank < 10.
        let Some(cell) = board.get_mut(usize::from(rank) * 9 + usize::from(file)) else {
            continue;
        };
        if cell.is_some() {
            return Err(XqfError::PiecesOverlap {
                offset: OFF_PIECES + stored_at,
                square: square_name(file, rank),
            });
        }
        *cell = PIECE_LETTERS.get(piece).copied();
    }

    let side = match header[OFF_SIDE_TO_MOVE] {
        0 => 'w',
        1 => 'b',
        value => {
            return Err(XqfError::BadSideToMove {
                offset: OFF_SIDE_TO_MOVE,
                value,
            });
        }
    };

    let mut fen = String::new();
    // FEN lists ranks from Black's side (rank 9) down.
    for (i, row) in board.chunks(9).rev().enumerate() {
        if i > 0 {
            fen.push('/');
        }
        let mut empty = 0u8;
        for cell in row {
            match cell {
                Some(letter) => {
                    push_empty_run(&mut fen, &mut empty);
                    fen.push(char::from(*letter));
                }
                None => empty += 1,
            }
        }
        push_empty_run(&mut fen, &mut empty);
    }
    fen.push(' ');
    fen.push(side);
    fen.push_str(" - - 0 1");
    Ok(fen)
}

/// Writes a pending run of empty squares (at most 9) as a digit.
fn push_empty_run(fen: &mut String, empty: &mut u8) {
    if let Some(digit) = char::from_digit(u32::from(*empty), 10).filter(|_| *empty > 0) {
        fen.push(digit);
    }
    *empty = 0;
}

/// Undoes the obfuscation of the piece table, yielding (stored position,
/// piece index into [`PIECE_LETTERS`], square byte) triples.
///
/// From version 12 the table is also rotated: stored entry `i` belongs to
/// piece `(i + piece_key + 1) mod 32`.
fn piece_squares<'a>(
    stored: &'a [u8; 32],
    version: u8,
    keys: &Keys,
) -> impl Iterator<Item = (usize, usize, u8)> + 'a {
    let piece_key = keys.piece;
    let rotation = if version >= FIRST_ROTATED_VERSION {
        usize::from(piece_key) + 1
    } else {
        0
    };
    stored
        .iter()
        .enumerate()
        .map(move |(i, &square)| (i, (i + rotation) % 32, square.wrapping_sub(piece_key)))
}

/// Splits a square byte `file * 10 + rank` into (file, rank), if on board.
fn file_rank(square: u8) -> Option<(u8, u8)> {
    (square < BOARD_SQUARES).then_some((square / 10, square % 10))
}

/// ICCS name of an on-board square, e.g. "h2" (file 0..9, rank 0..10).
fn square_name(file: u8, rank: u8) -> String {
    let mut name = String::with_capacity(2);
    name.push(char::from(b'a'.saturating_add(file)));
    name.push(char::from(b'0'.saturating_add(rank)));
    name
}

/// Decodes GBK text; invalid sequences become U+FFFD rather than errors.
fn decode_gbk(bytes: &[u8]) -> String {
    GBK.decode_without_bom_handling(bytes).0.into_owned()
}

/// One decoded node of the move tree.
struct Node {
    /// Offset of the record, for error messages.
    offset: usize,
    /// Origin square byte, biases and keys removed.
    from: u8,
    /// Destination square byte, biases and keys removed.
    to: u8,
    /// A continuation (the reply to this move) follows.
    has_next: bool,
    /// An alternative to this move follows, after the continuation.
    has_sibling: bool,
    /// The comment after this move (on the root: before the first move).
    comment: Option<String>,
}

impl Node {
    /// Converts the node into a move, checking that both squares are on the
    /// board.
    fn into_move(self) -> Result<XqfMove, XqfError> {
        let (from_file, from_rank) = file_rank(self.from).ok_or(XqfError::BadSquare {
            offset: self.offset,
            value: self.from,
        })?;
        let (to_file, to_rank) = file_rank(self.to).ok_or(XqfError::BadSquare {
            offset: self.offset.saturating_add(1),
            value: self.to,
        })?;
        let mut iccs = square_name(from_file, from_rank);
        iccs.push_str(&square_name(to_file, to_rank));
        Ok(XqfMove {
            iccs,
            comment: self.comment,
            variations: Vec::new(),
        })
    }
}

/// Sequential, de-obfuscating reader over the move area.
struct MoveStream<'a> {
    /// The whole file.
    bytes: &'a [u8],
    /// Offset of the next unread byte.
    pos: usize,
    /// Keys to undo the obfuscation (all zero before version 11).
    keys: &'a Keys,
    /// Version 10 and earlier: different flag bits, and every record has a
    /// comment length.
    old_layout: bool,
}

impl MoveStream<'_> {
    /// Reads `N` bytes and removes the key stream.
    fn read_array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], XqfError> {
        let mut out = *self
            .bytes
            .get(self.pos..)
            .and_then(|rest| rest.first_chunk::<N>())
            .ok_or(XqfError::Truncated {
                offset: self.pos,
                what,
            })?;
        self.decrypt(&mut out);
        self.pos = self.pos.saturating_add(N);
        Ok(out)
    }

    /// Reads `len` bytes of comment text and decodes them.
    fn read_text(&mut self, len: usize) -> Result<String, XqfError> {
        let mut text = self
            .bytes
            .get(self.pos..)
            .and_then(|rest| rest.get(..len))
            .ok_or(XqfError::Truncated {
                offset: self.pos,
                what: "comment text",
            })?
            .to_vec();
        self.decrypt(&mut text);
        self.pos = self.pos.saturating_add(len);
        Ok(decode_gbk(&text))
    }

    /// Subtracts the key stream from bytes read at the current position.
    /// The stream is indexed by file offset modulo 32; the move area starts
    /// at offset 1024, a multiple of 32, so it starts with the first key.
    fn decrypt(&self, data: &mut [u8]) {
        let keys = self.keys.stream.iter().cycle().skip(self.pos % 32);
        for (byte, key) in data.iter_mut().zip(keys) {
            *byte = byte.wrapping_sub(*key);
        }
    }

    /// Reads one node: the 4-byte record and its comment, if any.
    fn read_node(&mut self) -> Result<Node, XqfError> {
        let offset = self.pos;
        let [from, to, flags, _reserved] = self.read_array::<4>("move record")?;
        let (has_next, has_sibling, has_comment_len) = if self.old_layout {
            (
                flags & OLD_FLAG_HAS_NEXT != 0,
                flags & OLD_FLAG_HAS_SIBLING != 0,
                true,
            )
        } else {
            (
                flags & FLAG_HAS_NEXT != 0,
                flags & FLAG_HAS_SIBLING != 0,
                flags & FLAG_HAS_COMMENT != 0,
            )
        };
        let comment = if has_comment_len {
            self.read_comment()?
        } else {
            None
        };
        Ok(Node {
            offset,
            from: from
                .wrapping_sub(FROM_SQUARE_BIAS)
                .wrapping_sub(self.keys.from),
            to: to.wrapping_sub(TO_SQUARE_BIAS).wrapping_sub(self.keys.to),
            has_next,
            has_sibling,
            comment,
        })
    }

    /// Reads a comment length and the comment; None if it is empty.
    fn read_comment(&mut self) -> Result<Option<String>, XqfError> {
        let offset = self.pos;
        let stored = u32::from_le_bytes(self.read_array::<4>("comment length")?);
        // Stored value minus the key, in i64 so that nothing can overflow;
        // a negative length can only come from a damaged file.
        let len = i64::from(stored) - i64::from(self.keys.comment_len);
        if len < 0 {
            return Err(XqfError::BadCommentLength { offset, value: len });
        }
        let len = usize::try_from(len).map_err(|_| XqfError::Truncated {
            offset: self.pos,
            what: "comment text",
        })?;
        let text = self.read_text(len)?;
        // XQStudio writes Windows line breaks and usually a final one.
        let text = text
            .replace("\r\n", "\n")
            .trim_end_matches(|c: char| c == '\0' || c.is_whitespace())
            .to_owned();
        Ok((!text.is_empty()).then_some(text))
    }
}

/// Turns the pre-order node stream into lines of moves.
///
/// The stream stores a node, then its "next" subtree, then its "sibling"
/// subtree. So for a line `m1 m2 … mn` (each the next of the one before),
/// the alternatives to `mn` come right after `mn`, then those to `mn-1`, and
/// so on back to `m1`. The line is read with a loop, not recursion, so only
/// the nesting of variations costs stack.
struct TreeReader<'a> {
    /// Where the nodes come from.
    stream: MoveStream<'a>,
}

impl TreeReader<'_> {
    /// Reads the dummy root node and the main line with its variations.
    fn read_game(&mut self) -> Result<(Option<String>, Vec<XqfMove>), XqfError> {
        // The root's squares are meaningless and not checked; a sibling of
        // the root would have no position to start from, so its flag is
        // ignored (anything after the main tree is left unread).
        let root = self.stream.read_node()?;
        let moves = if root.has_next {
            self.read_line_with_alternatives(0)?
        } else {
            Vec::new()
        };
        Ok((root.comment, moves))
    }

    /// Reads a line and then the alternatives to its first move.
    fn read_line_with_alternatives(&mut self, depth: usize) -> Result<Vec<XqfMove>, XqfError> {
        let (mut line, first_has_sibling) = self.read_line(depth)?;
        if first_has_sibling {
            let alternatives = self.read_alternatives(depth)?;
            if let Some(first) = line.first_mut() {
                first.variations = alternatives;
            }
        }
        Ok(line)
    }

    /// Reads a line and the alternatives to all but its first move. Returns
    /// the line and whether its first move has a sibling (which is stored
    /// after everything else and is the caller's to read, so that chains of
    /// siblings become one flat list of alternatives).
    fn read_line(&mut self, depth: usize) -> Result<(Vec<XqfMove>, bool), XqfError> {
        let mut line = Vec::new();
        let mut has_sibling = Vec::new();
        loop {
            let node = self.stream.read_node()?;
            let has_next = node.has_next;
            has_sibling.push(node.has_sibling);
            line.push(node.into_move()?);
            if !has_next {
                break;
            }
        }
        for (mv, &sibling) in line.iter_mut().zip(&has_sibling).skip(1).rev() {
            if sibling {
                mv.variations = self.read_alternatives(depth)?;
            }
        }
        Ok((line, has_sibling.first().copied().unwrap_or(false)))
    }

    /// Reads a chain of sibling lines, each an alternative to the same move.
    fn read_alternatives(&mut self, depth: usize) -> Result<Vec<Vec<XqfMove>>, XqfError> {
        let depth = depth + 1;
        if depth > MAX_VARIATION_DEPTH {
            return Err(XqfError::TooDeep {
                offset: self.stream.pos,
            });
        }
        let mut alternatives = Vec::new();
        loop {
            let (line, more) = self.read_line(depth)?;
            alternatives.push(line);
            if !more {
                break;
            }
        }
        Ok(alternatives)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sample game (shared/testdata/pgn/sample.xqf), or `None` when the shared folder is
    /// absent (see [`crate::testdata`]).
    fn sample_bytes() -> Option<Vec<u8>> {
        crate::testdata::read("sample.xqf")
    }

    /// Main line of the sample, checked move by move against
    /// sample-from-xqf.pgn (e.g. 1. 炮八平五 = b2e2, 1... 炮８平５ = h7e7,
    /// 23. 前马退二 = g8h6, 27. 后马进二 = g2h4, 38. 车五平七 = e9c9).
    const SAMPLE_MOVES: [&str; 75] = [
        "b2e2", "h7e7", "e2e7", "g9e7", "h2e2", "h9g7", "h0g2", "i9h9", "b0c2", "b9a7", // 1-5
        "a0d0", "a9b9", "d0d8", "b7b0", "i0i4", "b0a0", "c2b4", "a0a4", "b4c2",
        "a4a0", // 6-10
        "c2b4", "b9b7", "e2b2", "a0a4", "b2b7", "a4i4", "b7g7", "h9h7", "g7g8",
        "h7h5", // 11-15
        "b4d5", "i4e4", "g8i8", "f9e8", "d5f6", "h5e5", "e0d0", "e5f5", "f6g8",
        "e9f9", // 16-20
        "d8d4", "e6e5", "d4d6", "e4g4", "g8h6", "e7g5", "h6g4", "e5e4", "d6g6",
        "e4f4", // 21-25
        "g6g9", "f9f8", "g2h4", "e8f7", "h4g6", "f8e8", "g6h8", "e8e7", "g9d9",
        "f7e8", // 26-30
        "h8g6", "f5f6", "d9d6", "f6g6", "d6g6", "f4g4", "g6e6", "e7f7", "d0e0",
        "f7f8", // 31-35
        "e6e8", "f8f9", "e8e9", "f9f8", "e9c9", // 36-38
    ];

    /// Plies of the sample (0-based) that carry a comment in the PGN.
    const SAMPLE_COMMENTED_PLIES: [usize; 11] = [1, 4, 11, 12, 13, 21, 23, 36, 56, 62, 74];

    fn sample() -> Option<XqfRecord> {
        Some(parse_xqf(&sample_bytes()?).expect("sample decodes"))
    }

    #[test]
    fn sample_start_position_and_tags() {
        let Some(record) = sample() else { return };
        assert_eq!(
            record.fen,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"
        );
        let tags: Vec<(&str, &str)> = record
            .tags
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            tags,
            [
                ("Event", "许银川让九子对聂棋圣"),
                ("Site", "广州"),
                ("Date", "1999.12.09"),
                ("Red", "许银川"),
                ("Black", "聂卫平"),
                ("Result", "1-0"),
            ]
        );
    }

    #[test]
    fn sample_main_line_matches_pgn() {
        let Some(record) = sample() else { return };
        let iccs: Vec<&str> = record.moves.iter().map(|m| m.iccs.as_str()).collect();
        assert_eq!(iccs, SAMPLE_MOVES);
        assert!(record.moves.iter().all(|m| m.variations.is_empty()));
    }

    #[test]
    fn sample_comments_match_pgn() {
        let Some(record) = sample() else { return };
        let initial = record.initial_comment.expect("initial comment");
        assert!(initial.starts_with("\u{3000}\u{3000}象棋让九子原属茶余饭后的娱乐"));
        assert!(initial.contains("不敢掉以轻心。 \n\u{3000}\u{3000}许银川让去５只兵和双士双相"));
        assert!(initial.ends_with("执红先行。"));

        let commented: Vec<usize> = record
            .moves
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.comment.as_ref().map(|_| i))
            .collect();
        assert_eq!(commented, SAMPLE_COMMENTED_PLIES);
        assert_eq!(
            record.moves[1].comment.as_deref(),
            Some("\u{3000}\u{3000}红方首着架中炮必走之着，聂棋圣还架中炮拼兑子力，战术对头。")
        );
        assert_eq!(
            record.moves[74].comment.as_deref(),
            Some(
                "\u{3000}\u{3000}至此，聂棋圣认负。与此同时，另一盘围棋对弈我被屠去一条大龙，\
                 已无力再战，遂平分秋色，皆大欢喜。"
            )
        );
    }

    #[test]
    fn every_truncation_of_the_sample_is_an_error() {
        // The sample has no bytes after its move tree, so every proper
        // prefix lacks something.
        let Some(sample) = sample_bytes() else { return };
        for len in 0..sample.len() {
            assert!(parse_xqf(&sample[..len]).is_err(), "prefix of {len} bytes");
        }
    }

    #[test]
    fn version_11_does_not_rotate_the_piece_table() {
        // Re-store the sample's piece table the version-11 way (unrotated)
        // and the start position must not change.
        let Some(sample) = sample_bytes() else { return };
        let keys = Keys::from_header(sample.first_chunk().unwrap()).unwrap();
        let rotation = usize::from(keys.piece) + 1;
        let mut bytes = sample.clone();
        bytes[OFF_VERSION] = 11;
        for i in 0..32 {
            bytes[OFF_PIECES + (i + rotation) % 32] = sample[OFF_PIECES + i];
        }
        let record = parse_xqf(&bytes).unwrap();
        assert_eq!(record, parse_xqf(&sample).unwrap());
    }

    // ----- Hand-built unencrypted (version 10) files -----

    /// Square byte of an ICCS square name.
    fn square(name: &str) -> u8 {
        let b = name.as_bytes();
        (b[0] - b'a') * 10 + (b[1] - b'0')
    }

    /// A version-10 header with the standard start position.
    fn old_header() -> Vec<u8> {
        let mut header = vec![0u8; HEADER_LEN];
        header[..3].copy_from_slice(b"XQ\x0a");
        let squares = [
            "a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0", "i0", "b2", "h2", "a3", "c3", "e3",
            "g3", "i3", "a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9", "b7", "h7", "a6",
            "c6", "e6", "g6", "i6",
        ];
        for (i, name) in squares.iter().enumerate() {
            header[OFF_PIECES + i] = square(name);
        }
        header[OFF_RESULT] = 3;
        let title = encoding_rs::GBK.encode("测试").0;
        header[0x50] = title.len() as u8;
        header[0x51..0x51 + title.len()].copy_from_slice(&title);
        header[0x1E0] = 3;
        header[0x1E1..0x1E4].copy_from_slice(b"me ");
        header
    }

    /// A version-10 node: squares, "next"/"sibling" flags (any bit of the
    /// nibble counts, so unusual bits are used), and a comment.
    fn old_node(from: &str, to: &str, next: bool, sibling: bool, comment: &str) -> Vec<u8> {
        let text = encoding_rs::GBK.encode(comment).0;
        let flags = if next { 0x10 } else { 0 } | if sibling { 0x04 } else { 0 };
        let mut node = vec![
            square(from) + FROM_SQUARE_BIAS,
            square(to) + TO_SQUARE_BIAS,
            flags,
            0,
        ];
        node.extend_from_slice(&(text.len() as u32).to_le_bytes());
        node.extend_from_slice(&text);
        node
    }

    fn mv(iccs: &str, comment: Option<&str>, variations: Vec<Vec<XqfMove>>) -> XqfMove {
        XqfMove {
            iccs: iccs.to_owned(),
            comment: comment.map(str::to_owned),
            variations,
        }
    }

    #[test]
    fn old_version_with_variations() {
        // Tree, in file (pre-)order:
        //   root -> h2e2 -> h9g7          main line
        //                   h9g7 | b7e7   alternative to h9g7
        //           h2e2 | b2e2 -> b9c7   alternatives to h2e2 ...
        //                | h0g2           ... chained as siblings
        let mut bytes = old_header();
        for node in [
            old_node("a0", "a0", true, false, "开局\r\n"),
            old_node("h2", "e2", true, true, "中炮"),
            old_node("h9", "g7", false, true, ""),
            old_node("b7", "e7", false, false, ""),
            old_node("b2", "e2", true, true, ""),
            old_node("b9", "c7", false, false, " \r\n"),
            old_node("h0", "g2", false, false, ""),
        ] {
            bytes.extend(node);
        }
        let record = parse_xqf(&bytes).unwrap();
        assert_eq!(
            record.fen,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        );
        assert_eq!(
            record.tags,
            [
                ("Result".to_owned(), "1/2-1/2".to_owned()),
                ("Title".to_owned(), "测试".to_owned()),
                ("Author".to_owned(), "me".to_owned()),
            ]
        );
        assert_eq!(record.initial_comment.as_deref(), Some("开局"));
        assert_eq!(
            record.moves,
            [
                mv(
                    "h2e2",
                    Some("中炮"),
                    vec![
                        vec![mv("b2e2", None, vec![]), mv("b9c7", None, vec![])],
                        vec![mv("h0g2", None, vec![])],
                    ],
                ),
                mv("h9g7", None, vec![vec![mv("b7e7", None, vec![])]]),
            ]
        );
    }

    #[test]
    fn empty_game_has_no_moves() {
        let mut bytes = old_header();
        bytes.extend(old_node("a0", "a0", false, false, ""));
        let record = parse_xqf(&bytes).unwrap();
        assert!(record.moves.is_empty());
        assert_eq!(record.initial_comment, None);
    }

    #[test]
    fn deeply_nested_variations_are_rejected_not_a_stack_overflow() {
        // Each pair "m (next) -> n (sibling)" opens one more level: n's
        // alternative is again such a pair, and so on.
        let mut bytes = old_header();
        bytes.extend(old_node("a0", "a0", true, false, ""));
        for _ in 0..100_000 {
            bytes.extend(old_node("h2", "e2", true, false, ""));
            bytes.extend(old_node("h9", "g7", false, true, ""));
        }
        assert!(matches!(parse_xqf(&bytes), Err(XqfError::TooDeep { .. })));
    }

    #[test]
    fn long_main_line_is_fine() {
        let mut bytes = old_header();
        bytes.extend(old_node("a0", "a0", true, false, ""));
        for i in 0..100_000 {
            bytes.extend(old_node("h2", "e2", i + 1 < 100_000, false, ""));
        }
        assert_eq!(parse_xqf(&bytes).unwrap().moves.len(), 100_000);
    }

    #[test]
    fn specific_errors() {
        assert!(matches!(parse_xqf(b""), Err(XqfError::Truncated { .. })));
        assert!(matches!(parse_xqf(b"PK\x03\x04"), Err(XqfError::NotXqf)));
        assert!(matches!(
            parse_xqf(b"XQ\x13"),
            Err(XqfError::UnsupportedVersion(19))
        ));

        if let Some(mut bad_checksum) = sample_bytes() {
            bad_checksum[OFF_KEY_XY] ^= 1;
            assert!(matches!(
                parse_xqf(&bad_checksum),
                Err(XqfError::BadKeyChecksum { .. })
            ));
        }

        let mut bad_side = old_header();
        bad_side[OFF_SIDE_TO_MOVE] = 2;
        bad_side.extend(old_node("a0", "a0", false, false, ""));
        assert!(matches!(
            parse_xqf(&bad_side),
            Err(XqfError::BadSideToMove { value: 2, .. })
        ));

        let mut overlap = old_header();
        overlap[OFF_PIECES + 1] = square("a0");
        overlap.extend(old_node("a0", "a0", false, false, ""));
        let err = parse_xqf(&overlap).unwrap_err();
        assert!(matches!(err, XqfError::PiecesOverlap { offset: 0x11, .. }));
        assert!(err.to_string().contains("a0"), "{err}");

        let mut long_string = old_header();
        long_string[0x110] = 16; // the date field holds 15 bytes
        long_string.extend(old_node("a0", "a0", false, false, ""));
        assert!(matches!(
            parse_xqf(&long_string),
            Err(XqfError::BadStringLength {
                offset: 0x110,
                len: 16,
                capacity: 15
            })
        ));

        let mut bad_square = old_header();
        bad_square.extend(old_node("a0", "a0", true, false, ""));
        let mut node = old_node("a0", "a0", false, false, "");
        node[1] = 90 + TO_SQUARE_BIAS;
        bad_square.extend(node);
        let err = parse_xqf(&bad_square).unwrap_err();
        assert!(
            matches!(
                err,
                XqfError::BadSquare {
                    offset: 0x409,
                    value: 90
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn negative_comment_length_is_an_error() {
        // In the encrypted sample, the root's comment length is stored
        // plus a key; storing exactly zero there makes it negative.
        let Some(sample) = sample_bytes() else { return };
        let mut bytes = sample.clone();
        for i in 0..4 {
            bytes[HEADER_LEN + 4 + i] = Keys::from_header(sample.first_chunk().unwrap())
                .unwrap()
                .stream[4 + i];
        }
        assert!(matches!(
            parse_xqf(&bytes),
            Err(XqfError::BadCommentLength { offset: 0x404, .. })
        ));
    }

    /// Deterministic xorshift64 generator, enough for fuzzing.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn byte(&mut self) -> u8 {
            self.next() as u8
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let len = rng.below(3000);
            let mut bytes: Vec<u8> = (0..len).map(|_| rng.byte()).collect();
            // Mostly give it a plausible magic and version so that the
            // deeper code is reached too.
            if len >= 3 && rng.below(8) != 0 {
                bytes[..2].copy_from_slice(b"XQ");
                bytes[2] = rng.below(usize::from(MAX_VERSION) + 1) as u8;
            }
            let _ = parse_xqf(&bytes);
        }
    }

    #[test]
    fn random_tails_after_valid_headers_never_panic() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        // Without the shared sample, only the hand-built header is used.
        let sample = sample_bytes();
        for round in 0..3000 {
            let mut bytes = match &sample {
                Some(sample) if round % 2 == 0 => sample[..HEADER_LEN].to_vec(),
                _ => old_header(),
            };
            let len = rng.below(400);
            bytes.extend((0..len).map(|_| rng.byte()));
            let _ = parse_xqf(&bytes);
        }
    }

    #[test]
    fn mutated_sample_never_panics() {
        let Some(sample) = sample_bytes() else { return };
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let mut decoded = 0;
        for _ in 0..5000 {
            let mut bytes = sample.clone();
            for _ in 0..=rng.below(4) {
                let at = rng.below(bytes.len());
                bytes[at] = rng.byte();
            }
            if parse_xqf(&bytes).is_ok() {
                decoded += 1;
            }
        }
        // Some mutations (in unused header bytes, comments) are harmless.
        assert!(decoded > 0);
    }

    #[test]
    fn errors_say_where() {
        let Some(sample) = sample_bytes() else { return };
        let err = parse_xqf(&sample[..HEADER_LEN + 6]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "XQF data truncated: comment length at offset 0x404 runs past the end of the file"
        );
    }
}
