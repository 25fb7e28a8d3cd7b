//! The tables against the engine's own search, which knows nothing of them: on random
//! positions of a table, every mate the search proves must be one the table holds, no slower;
//! every mate the search suffers a loss in the table; and a mate of one or two plies in the
//! table must not escape the search. Two independent answers to the same question, so a
//! fault in either shows (`xiangqi tb crosscheck`, and a test).
//!
//! The search plays the bare game for this ([`checking_engine`]): it scores every repetition
//! as a draw. Judged by the rules, a repetition inside a search loses at once for the side
//! that checked or chased all through it, so its "mate" scores would count wins by the rules
//! too, and sooner than the tables' mates, which are the bare game's: the defender may repeat
//! a position once before it must change its move, and the tables do not judge chases.

use crate::random::Rng;
use crate::score::{MATE, MATE_BOUND};
use crate::{Engine, EngineOptions, Limits, SearchRequest};
use xiangqi::{Color, Position};
use xiangqi_tablebase::layout::Layout;
use xiangqi_tablebase::{Material, Value};

/// `count` random positions of `material`'s table, legal and not over (the side to move has
/// a move), drawn with `rng`.
pub fn random_positions(material: Material, count: usize, rng: &mut Rng) -> Vec<Position> {
    let layout = Layout::new(material);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let index = rng.below(layout.size() as u64) as usize;
        let side = if rng.below(2) == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let Some((pieces, len)) = layout.decode(index) else {
            continue;
        };
        if let Some(pos) = Position::from_pieces(side, &pieces[..len]) {
            if !pos.has_no_legal_move() {
                positions.push(pos);
            }
        }
    }
    positions
}

/// What a search of one position said against its table's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchCheck {
    /// The search proved a mate, for or against the side to move, and the table agrees.
    Mate,
    /// The search proved no mate, and the table has none it should have seen.
    NoMate,
    /// The two disagree: why.
    Disagrees(String),
}

/// The engine for [`check_against_search`]: no tables, no book, one thread, a fixed seed, and
/// every repetition a draw (see the module notes).
pub fn checking_engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 16,
        own_book: false,
        seed: Some(1),
        tablebases: None,
        repetition_is_draw: true,
        ..EngineOptions::default()
    })
}

/// Searches `pos` to `depth` plies with `engine` (a [`checking_engine`]) and compares the
/// result with `value`, the table's value of `pos`.
pub fn check_against_search(
    engine: &mut Engine,
    pos: &Position,
    value: Value,
    depth: u32,
) -> SearchCheck {
    engine.new_game();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = engine.search(SearchRequest::new(pos.clone(), limits), |_| {});
    let fen = pos.to_fen();
    if result.score >= MATE_BOUND {
        let plies = (MATE - result.score) as u16;
        if matches!(value, Value::Win(n) if n <= plies) {
            SearchCheck::Mate
        } else {
            SearchCheck::Disagrees(format!(
                "{fen}: the search mates in {plies} plies, the table says {value}"
            ))
        }
    } else if result.score <= -MATE_BOUND {
        if matches!(value, Value::Loss(_)) {
            SearchCheck::Mate
        } else {
            SearchCheck::Disagrees(format!(
                "{fen}: the search is mated, the table says {value}"
            ))
        }
    } else if matches!(value, Value::Win(n) | Value::Loss(n) if n <= 2) {
        // A longer mate may lie beyond the search's reach, or behind its pruning; one of
        // one or two plies may not.
        SearchCheck::Disagrees(format!(
            "{fen}: the search finds no mate, the table says {value}"
        ))
    } else {
        SearchCheck::NoMate
    }
}
