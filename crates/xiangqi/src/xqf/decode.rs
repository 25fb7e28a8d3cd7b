//! The XQF decoder: bytes to a tree of moves with the header's strings.
//!
//! The layout is described in the module above.

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
#[path = "decode_tests.rs"]
mod tests;
