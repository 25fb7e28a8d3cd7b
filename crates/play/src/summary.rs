//! The games list's line of a game, which the store also keeps for the games it has unloaded.

use crate::ending::Ending;
use crate::game::{Human, WebGame};
use crate::game_file::{import_hash, opening, record_names, record_tag, GameOpening};
use serde::Serialize;

/// One line of the games list.
#[derive(Clone, Serialize)]
pub struct Summary {
    /// The game's id.
    pub id: String,
    red: String,
    black: String,
    event: Option<String>,
    /// The ECCO opening.
    opening: Option<GameOpening>,
    human: Human,
    level: u8,
    plies: usize,
    result: Option<&'static str>,
    reason: Option<&'static str>,
    created: u64,
    /// When it last changed, in seconds since 1970.
    pub updated: u64,
    /// The fingerprint of the file the game was loaded from (not sent: it finds the game when
    /// the same file is loaded again).
    #[serde(skip)]
    pub import_hash: Option<String>,
}

/// The games list's line for a game.
pub fn summary(game: &WebGame) -> Summary {
    let (red, black) = record_names(game);
    let outcome = game.ending();
    Summary {
        id: game.id().to_owned(),
        red,
        black,
        event: record_tag(game, "Event"),
        opening: opening(game),
        human: game.human(),
        level: game.level(),
        plies: game.rules().len(),
        result: outcome.map(|o| o.pgn_result()),
        reason: outcome.and_then(Ending::code),
        created: game.record().created,
        updated: game.record().updated,
        import_hash: import_hash(game),
    }
}
