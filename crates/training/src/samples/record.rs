//! One record: a position with its score, result and ply in 32 bytes (the layout is drawn in
//! the [module documentation](super)). A [`Sample`] is its bytes, checked once when they are
//! read, so every accessor is a few shifts and cannot fail.

use std::fmt;
use xiangqi::{Color, FenError, Piece, PieceKind, Position, Square};
use xiangqi_engine::score::MATE_BOUND;

/// Bytes in a record.
pub const RECORD_SIZE: usize = 32;
/// The score written for a mate found by the search (negated when the side to move is mated);
/// no score is beyond it.
pub const MATE_SCORE: i16 = 32_000;
/// The largest ply a record holds; later plies are written as this.
pub const MAX_PLY: u16 = 4095;

/// Where each field starts.
const PIECES: usize = 12;
const SCORE: usize = 28;
const INFO: usize = 30;
/// Bytes of the occupancy field.
const OCCUPANCY_BYTES: usize = 12;
/// Pieces the 16 bytes of codes hold: the full set.
const MAX_PIECES: usize = 32;
/// The most pieces of each kind a side has, by kind index (general, advisor, elephant, horse,
/// chariot, cannon, soldier).
const MAX_OF_KIND: [u8; 7] = [1, 2, 2, 2, 2, 2, 5];
/// The fields of the ply word.
const PLY_MASK: u16 = 0x0fff;
const SIDE_BIT: u16 = 1 << 12;
const RESULT_SHIFT: u16 = 13;
const PAD_BIT: u16 = 1 << 15;

/// A game's result from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// That side lost.
    Loss = 0,
    /// Drawn.
    Draw = 1,
    /// That side won.
    Win = 2,
}

impl Wdl {
    /// The result for `side` of a game `winner` won (`None`: a draw).
    pub fn for_side(winner: Option<Color>, side: Color) -> Wdl {
        match winner {
            None => Wdl::Draw,
            Some(w) if w == side => Wdl::Win,
            Some(_) => Wdl::Loss,
        }
    }

    /// The same result from the other side's point of view.
    pub fn other(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The points it is worth: 0, ½ or 1.
    pub fn points(self) -> f64 {
        f64::from(self as u8) / 2.0
    }

    fn from_code(code: u16) -> Option<Wdl> {
        match code {
            0 => Some(Wdl::Loss),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }
}

/// What is wrong with a record's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// One of the occupancy's bits 90–95, which are off the board, is set.
    #[error("occupancy bits beyond square 89 are set")]
    OccupancyPadding,
    /// More squares are occupied than the 32 pieces of the game.
    #[error("{0} occupied squares; there are at most 32 pieces")]
    TooManyPieces(u32),
    /// A piece code 14 or 15.
    #[error("piece code {0} is not 0-13")]
    PieceCode(u8),
    /// More pieces of a kind than a side has.
    #[error("more than {max} {color} {kind}s", kind = .piece.kind.name(), color = .piece.color)]
    TooManyOfKind {
        /// The piece one too many of.
        piece: Piece,
        /// The most a side has.
        max: u8,
    },
    /// A side without its general.
    #[error("{0} has no general")]
    NoGeneral(Color),
    /// A piece code after the last piece that is not zero.
    #[error("a piece code after the last piece is not 0")]
    PiecePadding,
    /// A score beyond ±32000.
    #[error("score {0} is beyond ±32000")]
    ScoreRange(i16),
    /// Result code 3.
    #[error("result code 3 is not 0-2")]
    ResultCode,
    /// Bit 15 of the ply word is set.
    #[error("the last bit of the ply word is set")]
    InfoPadding,
}

/// A [`Problem`] and the byte of the record (0–31) where it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("byte {byte} of the record: {problem}")]
pub struct RecordError {
    /// Offset of the byte in the record.
    pub byte: usize,
    /// What is wrong.
    pub problem: Problem,
}

/// One training position: the placement, the side to move, the search's score and the game's
/// result (both for the side to move) and the ply, held as its 32-byte record.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sample {
    bytes: [u8; RECORD_SIZE],
}

impl Sample {
    /// The record of `pos` with the search's `score` (for the side to move, centi-soldiers;
    /// a mate becomes ±[`MATE_SCORE`]), the game's `result` for the side to move, and `ply`,
    /// the plies played from the game's start to `pos`.
    pub fn new(pos: &Position, score: i32, result: Wdl, ply: usize) -> Sample {
        let mut bytes = [0u8; RECORD_SIZE];
        let mut occupancy = 0u128;
        let mut n = 0;
        for sq in Square::all() {
            if let Some(piece) = pos.piece_at(sq) {
                // A position holds at most the standard set: the rules library checks counts.
                assert!(n < MAX_PIECES, "more than 32 pieces in {}", pos.to_fen());
                occupancy |= 1 << sq.index();
                bytes[PIECES + n / 2] |= (piece.index() as u8) << (4 * (n % 2));
                n += 1;
            }
        }
        bytes[..OCCUPANCY_BYTES].copy_from_slice(&occupancy.to_le_bytes()[..OCCUPANCY_BYTES]);
        bytes[SCORE..INFO].copy_from_slice(&clamp_score(score).to_le_bytes());
        let ply = u16::try_from(ply).unwrap_or(MAX_PLY).min(MAX_PLY);
        let side = match pos.side_to_move() {
            Color::Red => 0,
            Color::Black => SIDE_BIT,
        };
        let info = ply | side | (result as u16) << RESULT_SHIFT;
        bytes[INFO..].copy_from_slice(&info.to_le_bytes());
        Sample { bytes }
    }

    /// Reads a record, checking every constrained bit (see the module documentation).
    pub fn from_bytes(bytes: [u8; RECORD_SIZE]) -> Result<Sample, RecordError> {
        let fail = |byte, problem| Err(RecordError { byte, problem });
        let occupancy = occupancy(&bytes);
        if occupancy >> 90 != 0 {
            return fail(OCCUPANCY_BYTES - 1, Problem::OccupancyPadding);
        }
        let count = occupancy.count_ones();
        if count as usize > MAX_PIECES {
            return fail(0, Problem::TooManyPieces(count));
        }
        let mut counts = [[0u8; 7]; 2];
        for n in 0..MAX_PIECES {
            let code = nibble(&bytes, n);
            let byte = PIECES + n / 2;
            if n >= count as usize {
                if code != 0 {
                    return fail(byte, Problem::PiecePadding);
                }
                continue;
            }
            let Some(piece) = piece_of(code) else {
                return fail(byte, Problem::PieceCode(code));
            };
            let tally = &mut counts[piece.color.index()][piece.kind.index()];
            *tally += 1;
            let max = MAX_OF_KIND[piece.kind.index()];
            if *tally > max {
                return fail(byte, Problem::TooManyOfKind { piece, max });
            }
        }
        for color in Color::ALL {
            if counts[color.index()][PieceKind::General.index()] == 0 {
                return fail(PIECES, Problem::NoGeneral(color));
            }
        }
        let score = i16::from_le_bytes([bytes[SCORE], bytes[SCORE + 1]]);
        if score.unsigned_abs() > MATE_SCORE as u16 {
            return fail(SCORE, Problem::ScoreRange(score));
        }
        let info = u16::from_le_bytes([bytes[INFO], bytes[INFO + 1]]);
        if info & PAD_BIT != 0 {
            return fail(INFO + 1, Problem::InfoPadding);
        }
        if Wdl::from_code((info >> RESULT_SHIFT) & 3).is_none() {
            return fail(INFO + 1, Problem::ResultCode);
        }
        Ok(Sample { bytes })
    }

    /// The record's 32 bytes.
    pub fn as_bytes(&self) -> &[u8; RECORD_SIZE] {
        &self.bytes
    }

    /// Whose move it is.
    pub fn side_to_move(&self) -> Color {
        if self.info() & SIDE_BIT == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The search's score for the side to move, in centi-soldiers (±[`MATE_SCORE`]: a mate).
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.bytes[SCORE], self.bytes[SCORE + 1]])
    }

    /// The game's result for the side to move.
    pub fn result(&self) -> Wdl {
        // Checked when the record was made or read.
        Wdl::from_code((self.info() >> RESULT_SHIFT) & 3).unwrap_or(Wdl::Draw)
    }

    /// Plies from the game's start to this position (at most [`MAX_PLY`]).
    pub fn ply(&self) -> u16 {
        self.info() & PLY_MASK
    }

    /// How many pieces stand on the board.
    pub fn piece_count(&self) -> u32 {
        occupancy(&self.bytes).count_ones()
    }

    /// The pieces and their squares, in increasing square order (`a0` first).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut rest = occupancy(&self.bytes);
        let mut n = 0;
        std::iter::from_fn(move || {
            while rest != 0 {
                let index = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let code = nibble(&self.bytes, n);
                n += 1;
                // Both always succeed on a checked record.
                if let (Some(sq), Some(piece)) = (Square::from_index(index), piece_of(code)) {
                    return Some((sq, piece));
                }
            }
            None
        })
    }

    /// The position as FEN, with a no-capture count of 0 and move number 1 (neither is kept).
    pub fn to_fen(&self) -> String {
        let mut board = [None; 90];
        for (sq, piece) in self.pieces() {
            board[sq.index()] = Some(piece);
        }
        let mut fen = String::with_capacity(100);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match board[rank * 9 + file] {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.fen_char());
                    }
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(match self.side_to_move() {
            Color::Red => " w - - 0 1",
            Color::Black => " b - - 0 1",
        });
        fen
    }

    /// The position, if the rules library accepts it as legal (leniently: a record says
    /// nothing of how the pieces got there).
    pub fn to_position(&self) -> Result<Position, FenError> {
        Position::from_fen_with(&self.to_fen(), xiangqi::Validation::Lenient)
    }

    fn info(&self) -> u16 {
        u16::from_le_bytes([self.bytes[INFO], self.bytes[INFO + 1]])
    }
}

impl fmt::Debug for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sample")
            .field("fen", &self.to_fen())
            .field("score", &self.score())
            .field("result", &self.result())
            .field("ply", &self.ply())
            .finish()
    }
}

/// A search score as a record holds it: mates become ±[`MATE_SCORE`], anything else is kept
/// (clamped to that range, which the engine's scores never leave).
pub fn clamp_score(score: i32) -> i16 {
    let mate = i32::from(MATE_SCORE);
    let clamped = if score >= MATE_BOUND {
        mate
    } else if score <= -MATE_BOUND {
        -mate
    } else {
        score.clamp(-mate, mate)
    };
    clamped as i16
}

fn occupancy(bytes: &[u8; RECORD_SIZE]) -> u128 {
    let mut wide = [0u8; 16];
    wide[..OCCUPANCY_BYTES].copy_from_slice(&bytes[..OCCUPANCY_BYTES]);
    u128::from_le_bytes(wide)
}

/// The `n`-th piece code (0–31).
fn nibble(bytes: &[u8; RECORD_SIZE], n: usize) -> u8 {
    (bytes[PIECES + n / 2] >> (4 * (n % 2))) & 0x0f
}

/// The piece of code `code` (colour × 7 + kind), if it is one.
fn piece_of(code: u8) -> Option<Piece> {
    let color = match code / 7 {
        0 => Color::Red,
        1 => Color::Black,
        _ => return None,
    };
    Some(Piece::new(color, PieceKind::ALL[usize::from(code % 7)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 4] = [
        xiangqi::START_FEN,
        "2baka3/9/3r3c1/p4R3/3n2R2/P8/2P5P/9/4C4/2BAKA3 w - - 11 27",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R b - - 4 3",
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    ];

    fn placement(fen: &str) -> &str {
        fen.split(' ').next().unwrap()
    }

    #[test]
    fn a_position_round_trips() {
        for (i, fen) in FENS.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            let result = [Wdl::Loss, Wdl::Draw, Wdl::Win][i % 3];
            let sample = Sample::new(&pos, -123 + i as i32, result, 40 + i);
            let read = Sample::from_bytes(*sample.as_bytes()).unwrap();
            assert_eq!(read, sample);
            assert_eq!(read.side_to_move(), pos.side_to_move());
            assert_eq!(read.score(), -123 + i as i16);
            assert_eq!(read.result(), result);
            assert_eq!(read.ply(), 40 + i as u16);
            assert_eq!(placement(&read.to_fen()), placement(fen));
            let back = read.to_position().unwrap();
            assert_eq!(back.side_to_move(), pos.side_to_move());
            let pieces: Vec<_> = Square::all()
                .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p)))
                .collect();
            assert_eq!(read.pieces().collect::<Vec<_>>(), pieces);
            assert_eq!(read.piece_count() as usize, pieces.len());
        }
    }

    #[test]
    fn the_start_position_byte_by_byte() {
        let sample = Sample::new(&Position::startpos(), 25, Wdl::Win, 0);
        let b = sample.as_bytes();
        // Rank 0 is full (bits 0-8), a0 is a red chariot (code 4), b0 a red horse (3).
        assert_eq!(b[0], 0xff);
        assert_eq!(b[1] & 1, 1);
        assert_eq!(b[PIECES], 0x34);
        // Twelve bytes of occupancy, the last one's top six bits clear.
        assert_eq!(b[11] >> 2, 0);
        assert_eq!(&b[SCORE..INFO], &[25, 0]);
        // Ply 0, Red to move, won: result 2 in bits 13-14.
        assert_eq!(&b[INFO..], &[0, 0x40]);
    }

    #[test]
    fn mates_and_long_games_are_clamped() {
        let pos = Position::startpos();
        assert_eq!(
            Sample::new(&pos, MATE_BOUND + 3, Wdl::Win, 0).score(),
            32_000
        );
        assert_eq!(
            Sample::new(&pos, -MATE_BOUND, Wdl::Loss, 0).score(),
            -32_000
        );
        assert_eq!(
            Sample::new(&pos, MATE_BOUND - 1, Wdl::Win, 0).score(),
            30_879
        );
        assert_eq!(Sample::new(&pos, 0, Wdl::Draw, 5000).ply(), MAX_PLY);
        assert_eq!(Sample::new(&pos, 0, Wdl::Draw, usize::MAX).ply(), MAX_PLY);
    }

    #[test]
    fn results_for_each_side() {
        assert_eq!(Wdl::for_side(Some(Color::Red), Color::Red), Wdl::Win);
        assert_eq!(Wdl::for_side(Some(Color::Red), Color::Black), Wdl::Loss);
        assert_eq!(Wdl::for_side(None, Color::Black), Wdl::Draw);
        assert_eq!(Wdl::Win.other(), Wdl::Loss);
        assert_eq!(Wdl::Draw.points(), 0.5);
    }

    fn broken(edit: impl Fn(&mut [u8; RECORD_SIZE])) -> RecordError {
        let pos = Position::from_fen(FENS[3]).unwrap();
        let mut bytes = *Sample::new(&pos, 10, Wdl::Draw, 30).as_bytes();
        edit(&mut bytes);
        Sample::from_bytes(bytes).unwrap_err()
    }

    #[test]
    fn every_constraint_is_checked_where_it_shows() {
        // Two pieces: the red general on e0 (code 0), the black one on d9 (code 7).
        let error = |byte, problem| RecordError { byte, problem };
        assert_eq!(
            broken(|b| b[11] |= 0x04),
            error(11, Problem::OccupancyPadding)
        );
        assert_eq!(broken(|b| b[12] = 0x7e), error(12, Problem::PieceCode(14)));
        assert_eq!(
            broken(|b| b[12] = 0x74),
            error(12, Problem::NoGeneral(Color::Red))
        );
        assert_eq!(
            broken(|b| b[12] = 0x00),
            error(
                12,
                Problem::TooManyOfKind {
                    piece: Piece::new(Color::Red, PieceKind::General),
                    max: 1
                }
            )
        );
        assert_eq!(broken(|b| b[13] = 0x10), error(13, Problem::PiecePadding));
        assert_eq!(broken(|b| b[27] = 0x01), error(27, Problem::PiecePadding));
        assert_eq!(
            broken(|b| b[SCORE..INFO].copy_from_slice(&32_001i16.to_le_bytes())),
            error(28, Problem::ScoreRange(32_001))
        );
        assert_eq!(
            broken(|b| b[SCORE..INFO].copy_from_slice(&i16::MIN.to_le_bytes())),
            error(28, Problem::ScoreRange(i16::MIN))
        );
        assert_eq!(broken(|b| b[31] |= 0x60), error(31, Problem::ResultCode));
        assert_eq!(broken(|b| b[31] |= 0x80), error(31, Problem::InfoPadding));
        // Thirty-three occupied squares.
        let many = broken(|b| b[..4].copy_from_slice(&[0xff; 4]));
        assert_eq!(many.problem, Problem::TooManyPieces(33));
        assert_eq!(
            many.to_string(),
            "byte 0 of the record: 33 occupied squares; there are at most 32 pieces"
        );
    }
}
