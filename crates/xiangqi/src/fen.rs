//! FEN: parsing with errors that say what and where, validation, and formatting.

use crate::attacks::in_palace;
use crate::excerpt::excerpt;
use crate::piece::{Color, Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;
use std::fmt::Write as _;
use std::str::FromStr;

/// How strictly to check piece placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Validation {
    /// Every piece must stand where it could ever stand in a game: advisors on the palace
    /// diagonals, elephants on their seven points, soldiers never behind their start rank.
    #[default]
    Strict,
    /// Accept such unreachable placements (composed problems use them); generals and advisors
    /// must still be in their palaces, elephants on their side of the river, and piece counts
    /// within the standard set.
    Lenient,
}

/// Why a FEN could not be read as a legal position. Text quoted from the FEN is an
/// [`excerpt`](crate::excerpt) of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is empty.
    #[error("empty FEN")]
    Empty,
    /// The placement field does not have ten ranks separated by `/`.
    #[error("the board has {0} ranks; a Xiangqi FEN needs 10 separated by '/'")]
    WrongRankCount(usize),
    /// A rank describes more or fewer than nine points.
    #[error("rank {rank} ({text:?}) describes {points} points; each rank needs exactly 9")]
    WrongRankLength {
        /// ICCS rank number (9 = first rank in the FEN).
        rank: u8,
        /// The rank's text.
        text: String,
        /// How many points it described.
        points: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    #[error("unknown piece letter {letter:?} in rank {rank}")]
    UnknownPiece {
        /// The character.
        letter: char,
        /// ICCS rank number.
        rank: u8,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    #[error("side to move {0:?} is not w, r or b")]
    InvalidSide(String),
    /// The side-to-move field is missing.
    #[error("missing side to move after the board")]
    MissingSide,
    /// Field 5 is not a number.
    #[error("no-capture half-move count {0:?} is not a number")]
    InvalidHalfmoveClock(String),
    /// Field 6 is not a number.
    #[error("move number {0:?} is not a number")]
    InvalidFullmoveNumber(String),
    /// More than six fields.
    #[error("unexpected text {0:?} after the six FEN fields")]
    TooManyFields(String),
    /// A side has no general.
    #[error("{0} has no general")]
    MissingGeneral(Color),
    /// A side has more pieces of a kind than the game provides.
    #[error("{color} has {count} {kind}s; at most {max} are possible")]
    TooManyPieces {
        /// Whose pieces.
        color: Color,
        /// Which kind.
        kind: &'static str,
        /// How many were found.
        count: usize,
        /// The most a side can have.
        max: usize,
    },
    /// A general stands outside its palace.
    #[error("the {color} general on {square} is outside its palace")]
    GeneralOutsidePalace {
        /// Whose general.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// An advisor outside its palace or an elephant across the river: no position, played or
    /// composed, has one there, and the move generator and check detection rely on it.
    #[error("the {color} {kind} on {square} is outside its {region}, which it can never leave")]
    OutsideRegion {
        /// Whose piece.
        color: Color,
        /// Which kind.
        kind: &'static str,
        /// Where it stands.
        square: Square,
        /// `palace` or `side of the river`.
        region: &'static str,
    },
    /// (Strict validation) a piece stands where no game could bring it.
    #[error("the {color} {kind} on {square} stands where it can never go (use lenient validation for composed problems)")]
    UnreachableSquare {
        /// Whose piece.
        color: Color,
        /// Which kind.
        kind: &'static str,
        /// Where it stands.
        square: Square,
    },
    /// The two generals face each other on an open file.
    #[error("the generals face each other on an open file")]
    GeneralsFacing,
    /// The side that just moved is in check, so the side to move could capture its general.
    #[error("{0}, who is not to move, is in check")]
    OpponentInCheck(Color),
}

/// The most pieces of each kind one side can have.
const MAX_COUNT: [usize; 7] = [1, 2, 2, 2, 2, 2, 5];

impl Position {
    /// Parses a FEN with [`Validation::Strict`].
    ///
    /// Accepts `E`/`H` for elephant/horse, `r` for Red to move, and FENs that stop after the
    /// side to move (counters default to 0 and 1).
    ///
    /// ```
    /// use xiangqi::Position;
    /// let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
    /// assert_eq!(pos.legal_moves().len(), 44);
    /// assert!(Position::from_fen("9/9/9/9/9/9/9/9/9/9 w").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Validation::Strict)
    }

    /// Parses a FEN with the chosen validation.
    pub fn from_fen_with(fen: &str, validation: Validation) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let side = match fields.next() {
            None => return Err(FenError::MissingSide),
            Some("w" | "r" | "W" | "R") => Color::Red,
            Some("b" | "B") => Color::Black,
            Some(other) => return Err(FenError::InvalidSide(excerpt(other))),
        };
        // Fields 3 and 4 (castling, en passant in chess) are always "-" but ignored if not.
        let _ = fields.next();
        let _ = fields.next();
        let halfmove = match fields.next() {
            None => 0,
            Some(t) => t
                .parse::<u16>()
                .map_err(|_| FenError::InvalidHalfmoveClock(excerpt(t)))?,
        };
        let fullmove = match fields.next() {
            None => 1,
            Some(t) => t
                .parse::<u16>()
                .map_err(|_| FenError::InvalidFullmoveNumber(excerpt(t)))?,
        };
        if let Some(extra) = fields.next() {
            return Err(FenError::TooManyFields(excerpt(extra)));
        }

        let mut pos = Position::empty(side);
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::WrongRankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            let wrong_length = |points| FenError::WrongRankLength {
                rank,
                text: excerpt(text),
                points,
            };
            for c in text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_fen_char(c) {
                    if file >= 9 {
                        return Err(wrong_length(file + 1));
                    }
                    let sq = Square::new(file as u8, rank).expect("file and rank checked");
                    pos.put(sq, piece);
                    file += 1;
                } else {
                    return Err(FenError::UnknownPiece { letter: c, rank });
                }
            }
            if file != 9 {
                return Err(wrong_length(file));
            }
        }
        pos.set_counters(halfmove, fullmove);
        validate(&pos, validation)?;
        Ok(pos)
    }

    /// A position from its pieces and the side to move, checked as strictly as a FEN
    /// ([`Position::from_fen`]); `None` when two pieces share a square or the position is not
    /// legal. Tablebase generation builds millions of positions this way.
    pub fn from_pieces(side: Color, pieces: &[(Square, Piece)]) -> Option<Position> {
        let mut pos = Position::empty(side);
        for &(sq, piece) in pieces {
            if pos.piece_at(sq).is_some() {
                return None;
            }
            pos.put(sq, piece);
        }
        validate(&pos, Validation::Strict).ok()?;
        Some(pos)
    }

    /// The FEN of this position (standard letters `K A B N R C P`, `w`/`b`).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let sq = Square::new(file, rank).expect("on board");
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        let _ = write!(
            out,
            " {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        );
        out
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

/// Whether a piece of `color` and `kind` can ever stand on `sq` in a game from the start position.
pub fn is_reachable(color: Color, kind: PieceKind, sq: Square) -> bool {
    // Work from Red's point of view.
    let sq = match color {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    };
    let (f, r) = (sq.file(), sq.rank());
    match kind {
        PieceKind::General => in_palace(Color::Red, sq),
        PieceKind::Advisor => matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
        PieceKind::Elephant => {
            matches!(
                (f, r),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            )
        }
        PieceKind::Soldier => r >= 5 || (r >= 3 && f % 2 == 0),
        PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon => true,
    }
}

/// The region an advisor or elephant on `sq` has left (`palace`, `side of the river`), if any:
/// even lenient validation keeps them inside, as their moves never take them out.
fn outside_region(color: Color, kind: PieceKind, sq: Square) -> Option<&'static str> {
    match kind {
        PieceKind::Advisor if !in_palace(color, sq) => Some("palace"),
        PieceKind::Elephant if !crate::attacks::OWN_HALVES[color.index()].contains(sq) => {
            Some("side of the river")
        }
        _ => None,
    }
}

fn validate(pos: &Position, validation: Validation) -> Result<(), FenError> {
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            let bb = pos.pieces(color, kind);
            let count = bb.count() as usize;
            if kind == PieceKind::General && count == 0 {
                return Err(FenError::MissingGeneral(color));
            }
            if count > MAX_COUNT[kind.index()] {
                return Err(FenError::TooManyPieces {
                    color,
                    kind: kind.name(),
                    count,
                    max: MAX_COUNT[kind.index()],
                });
            }
            for sq in bb {
                if kind == PieceKind::General && !in_palace(color, sq) {
                    return Err(FenError::GeneralOutsidePalace { color, square: sq });
                }
                if let Some(region) = outside_region(color, kind, sq) {
                    return Err(FenError::OutsideRegion {
                        color,
                        kind: kind.name(),
                        square: sq,
                        region,
                    });
                }
                if validation == Validation::Strict && !is_reachable(color, kind, sq) {
                    return Err(FenError::UnreachableSquare {
                        color,
                        kind: kind.name(),
                        square: sq,
                    });
                }
            }
        }
    }
    let red = pos.general(Color::Red);
    let black = pos.general(Color::Black);
    if red.file() == black.file()
        && crate::attacks::chariot_file(red, pos.occupancy()).contains(black)
    {
        return Err(FenError::GeneralsFacing);
    }
    let waiting = pos.side_to_move().other();
    if pos.is_in_check(waiting) {
        return Err(FenError::OpponentInCheck(waiting));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::START_FEN;

    #[test]
    fn start_round_trips() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
        assert_eq!(pos.key(), pos.compute_key());
    }

    #[test]
    fn accepts_variants() {
        let wxf = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r";
        let pos = Position::from_fen(wxf).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
    }

    fn err(fen: &str) -> FenError {
        Position::from_fen(fen).unwrap_err()
    }

    #[test]
    fn rejects_with_reasons() {
        assert_eq!(err(""), FenError::Empty);
        assert_eq!(err("rnbakabnr/9 w"), FenError::WrongRankCount(2));
        assert!(matches!(
            err("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::WrongRankLength {
                rank: 9,
                points: 10,
                ..
            }
        ));
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w"),
            FenError::WrongRankLength {
                rank: 1,
                points: 8,
                ..
            }
        ));
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1x/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::UnknownPiece {
                letter: 'x',
                rank: 6
            }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
            FenError::InvalidSide("x".into())
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"),
            FenError::MissingSide
        );
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::GeneralsFacing);
        assert_eq!(
            err("9/9/9/9/9/9/9/9/9/4K4 w"),
            FenError::MissingGeneral(Color::Black)
        );
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/9/3KK4 w"),
            FenError::TooManyPieces { .. }
        ));
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/K8/9 w"),
            FenError::GeneralOutsidePalace { .. }
        ));
        // Red chariot gives check but it is Red's turn: Black (not to move) is in check.
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/9/3R1K3 w"),
            FenError::OpponentInCheck(Color::Black)
        );
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/9/3R1K3 w - - x 1"),
            FenError::InvalidHalfmoveClock(_)
        ));
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1 z"),
            FenError::TooManyFields(_)
        ));
    }

    #[test]
    fn strict_and_lenient() {
        let odd = "4k4/9/9/9/9/9/9/9/4A4/3K5 w";
        assert!(Position::from_fen(odd).is_ok(), "e1 is an advisor point");
        let odd = "3k5/9/9/9/9/9/9/9/3A5/4K4 w";
        assert!(matches!(err(odd), FenError::UnreachableSquare { .. }));
        assert!(Position::from_fen_with(odd, Validation::Lenient).is_ok());
        let pawn_back = "3k5/9/9/9/9/9/9/9/P8/4K4 w";
        assert!(matches!(err(pawn_back), FenError::UnreachableSquare { .. }));
    }

    #[test]
    fn even_lenient_keeps_advisors_in_the_palace_and_elephants_at_home() {
        // Found by the fen fuzz target: a red elephant across the river on c7 attacks e9, and
        // a lenient reader let Red capture the general.
        for fen in [
            "3ak4/4a4/2B6/5PP2/2P3P2/9/9/1C7/r8/3K1R3 w - - 0 1",
            "3k5/4A4/9/9/9/9/9/9/9/4K4 w",
            "3k5/9/9/9/9/9/9/A8/9/4K4 w",
            "3k5/9/9/9/9/b8/9/9/9/4K4 b",
        ] {
            for validation in [Validation::Strict, Validation::Lenient] {
                let error = Position::from_fen_with(fen, validation).unwrap_err();
                assert!(
                    matches!(error, FenError::OutsideRegion { .. }),
                    "{fen}: {error}"
                );
            }
        }
    }
}
