//! Answers about a position that need no game: the difficulty levels, a FEN checked for the
//! editor, the opening book's moves there, the endgame tables' value of it. The server's routes and a page with no server
//! answer them with these same functions.

use crate::book_view::{book_moves, BookMoveView};
use crate::error::ApiError;
use crate::tablebase_view::{tablebase_view, TablebaseView};
use crate::view::{outcome_view, OutcomeView};
use serde::{Deserialize, Serialize};
use xiangqi::{FenError, Game, Position};
use xiangqi_engine::{Book, Tablebases};

/// One difficulty level as the page lists it.
#[derive(Serialize)]
pub struct LevelView {
    /// The level, 1–10.
    level: u8,
    /// Elo estimate from the calibration matches (docs/STRENGTH.md).
    elo: i32,
}

/// The difficulty levels with their calibrated Elo (`GET /api/levels`).
pub fn levels() -> Vec<LevelView> {
    use xiangqi_engine::strength::{FULL_ENGINE_ELO, LEVEL_ELO, MAX_LEVEL, MIN_LEVEL};
    (MIN_LEVEL..=MAX_LEVEL)
        .zip(LEVEL_ELO)
        .map(|(level, elo)| LevelView {
            level,
            // Level 10 is the full engine, which plays with the network.
            elo: if level == MAX_LEVEL {
                FULL_ENGINE_ELO
            } else {
                elo
            },
        })
        .collect()
}

/// A position from the FEN a person typed, or why not, with a code the page translates.
pub fn parse_fen(fen: &str) -> Result<Position, ApiError> {
    if fen.len() > 200 {
        return Err(ApiError::BadRequest("the FEN is too long".into()));
    }
    Position::from_fen(fen.trim()).map_err(|e| {
        let code = match e {
            FenError::MissingGeneral(_) => "fen_no_general",
            FenError::TooManyPieces { .. } => "fen_too_many",
            FenError::GeneralOutsidePalace { .. } => "fen_general_palace",
            FenError::UnreachableSquare { .. } | FenError::OutsideRegion { .. } => {
                "fen_unreachable"
            }
            FenError::GeneralsFacing => "fen_generals_facing",
            FenError::OpponentInCheck(_) => "fen_opponent_in_check",
            _ => "fen_syntax",
        };
        let message = e.to_string();
        let message = message
            .strip_suffix(" (use lenient validation for composed problems)")
            .unwrap_or(&message);
        ApiError::Invalid {
            code,
            message: format!("invalid FEN: {message}"),
        }
    })
}

/// A request that names a position.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FenBody {
    /// The position.
    pub fen: String,
}

/// The opening book's moves for a position (`POST /api/book {"fen"}`).
pub fn book(body: &FenBody) -> Result<Vec<BookMoveView>, ApiError> {
    let pos = parse_fen(&body.fen)?;
    Ok(book_moves(Book::builtin().as_deref(), &pos))
}

/// What the endgame tables say of a position (`POST /api/tablebase {"fen"}`): `tables` are
/// the server's, `None` when it has none (and on a page with no server).
pub fn tablebase(body: &FenBody, tables: Option<&Tablebases>) -> Result<TablebaseView, ApiError> {
    let pos = parse_fen(&body.fen)?;
    Ok(tablebase_view(tables, &pos))
}

/// A position checked for the editor (`POST /api/fen`).
#[derive(Serialize)]
pub struct FenView {
    fen: String,
    turn: &'static str,
    in_check: bool,
    legal_moves: usize,
    /// The legal moves (ICCS), for a board that shows a position off the game's main line.
    legal: Vec<String>,
    /// How a game from this position would end at once (checkmate, stalemate, no attacking
    /// piece left), in which case no game can start from it.
    outcome: Option<OutcomeView>,
}

/// Checks a position for the editor, and says how a game from it would end at once.
pub fn check_fen(body: &FenBody) -> Result<FenView, ApiError> {
    let pos = parse_fen(&body.fen)?;
    Ok(FenView {
        fen: pos.to_fen(),
        turn: pos.side_to_move().name(),
        in_check: pos.in_check(),
        legal_moves: pos.legal_moves().len(),
        legal: pos.legal_moves().iter().map(|m| m.to_string()).collect(),
        outcome: Game::new(pos).outcome().map(outcome_view),
    })
}
