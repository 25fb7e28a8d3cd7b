//! Why a move text could not be read: one error for every notation, which each reader
//! (and the shared description of a move) returns.

use crate::piece::Color;

/// Why a move text could not be read.
///
/// Every variant carries the offending text, as an [`excerpt`](crate::excerpt) so that a huge
/// text makes a short message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text does not have the shape of a move in the notation (or in any notation).
    #[error("{text:?} is not a well-formed move: {reason}")]
    Malformed {
        /// The text that was read ([`excerpt`](crate::excerpt) of it).
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A piece letter or character that names no piece.
    #[error("{text:?}: {piece:?} is not a piece")]
    UnknownPiece {
        /// The text that was read ([`excerpt`](crate::excerpt) of it).
        text: String,
        /// The letter or character.
        piece: char,
    },
    /// The side to move has no piece where the text says one is.
    #[error("{text:?}: {color} has no {wanted}")]
    NoSuchPiece {
        /// The text that was read ([`excerpt`](crate::excerpt) of it).
        text: String,
        /// The side to move.
        color: Color,
        /// What was looked for, such as "cannon on file 2" or "piece on e5".
        wanted: String,
    },
    /// The text fits more than one legal move (two pieces on one file need front / rear).
    #[error(
        "{text:?} fits {count} legal moves; tell the pieces apart with front/rear (前/后, + / -)"
    )]
    Ambiguous {
        /// The text that was read ([`excerpt`](crate::excerpt) of it).
        text: String,
        /// How many legal moves it fits.
        count: usize,
    },
    /// The piece is there but cannot make that move in this position.
    #[error("{text:?} is not a legal move in this position")]
    IllegalMove {
        /// The text that was read ([`excerpt`](crate::excerpt) of it).
        text: String,
    },
}
