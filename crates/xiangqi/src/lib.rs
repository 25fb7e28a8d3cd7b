//! Xiangqi (Chinese chess) rules: the board, exact legal move generation, FEN, move notations
//! (ICCS, UCI, WXF, Chinese), game records with the end-of-game rules, and PGN/XQF files.
//!
//! Every other crate stands on it, and it stands on none of the project's: it owns why a move
//! is illegal and how a game ended, and knows nothing of search, files on disk, HTTP or
//! protocols.
//!
//! ```
//! use xiangqi::{Position, perft};
//! let mut pos = Position::startpos();
//! assert_eq!(perft(&mut pos, 2), 1920);
//! ```

pub mod attacks;
pub mod bitboard;
pub mod chase;
pub mod ecco;
mod excerpt;
pub mod fen;
pub mod game;
pub mod illegal;
mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod pgn;
pub mod piece;
pub mod position;
pub mod repetition;
pub mod square;
mod square_list;
#[cfg(test)]
mod testdata;
pub mod xqf;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use excerpt::{excerpt, EXCERPT_CHARS};
pub use fen::{FenError, Validation};
pub use game::{Game, PlayError};
pub use illegal::IllegalMove;
pub use movegen::{
    perft, perft_cancellable, perft_depth_refusal, perft_divide, Legality, MAX_PERFT_DEPTH,
};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::{format_move, parse_move, parse_move_as, Notation, NotationError};
pub use outcome::{DrawReason, Outcome, WinReason};
pub use pgn::{read_pgn, write_pgn, GameRecord, MoveCodec, PgnError, RecordMove};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, Undo, START_FEN};
pub use repetition::{judge_repetition, CyclePly};
pub use square::Square;
pub use xqf::{record_from_xqf, XqfImportError};
