//! A Xiangqi engine: alpha-beta search (PVS, aspiration windows, transposition table, null
//! move, late-move reductions, quiescence) over the `xiangqi` rules crate, with a hand-made
//! evaluation, Lazy SMP threads, time management and an opening book.
//!
//! The contract is the [`Engine`] facade: give it a [`SearchRequest`] (a position, the moves
//! played from it, and [`Limits`]), and it searches on its own threads, reports progress as
//! [`SearchInfo`] and hands back a [`SearchResult`]. The protocol front end and the web GUI both
//! drive it this way. Around it: the opening [`book`] (checked with the engine by
//! [`book_verify`]), the difficulty levels ([`strength`]), score conventions ([`score`]), the
//! deterministic benchmark ([`bench`](mod@bench)), the evaluation laid open for the tuner
//! ([`tuning`]), and the search laboratory ([`lab`]): the textbook algorithms from minimax to
//! NegaScout, written small, to compare with each other and with the engine. Everything else is
//! the engine's own business.
//!
//! It serves every front end (the web GUI, the protocols, the match manager's random openings,
//! the training tools) and stands only on the rules, on `xiangqi_files` (to read a network
//! or a book a person names) and on `xiangqi_tablebase` (the endgame tables it probes,
//! [`tablebases`]); it knows nothing of HTTP, protocols or the tools above it.
//!
//! ```
//! use xiangqi::Position;
//! use xiangqi_engine::{Engine, EngineOptions, Limits, SearchRequest};
//!
//! let mut engine = Engine::new(EngineOptions {
//!     hash_mb: 1,
//!     own_book: false,
//!     ..EngineOptions::default()
//! });
//! let limits = Limits {
//!     depth: Some(6),
//!     ..Limits::default()
//! };
//! let result = engine.search(SearchRequest::new(Position::startpos(), limits), |_| {});
//! let best = result.best_move.expect("the start position has legal moves");
//! assert!(Position::startpos().is_legal(best));
//! assert_eq!(result.depth, 6);
//! ```

pub mod bench;
pub mod book;
pub mod book_verify;
mod engine;
mod eval;
pub mod helpers;
mod history;
pub mod instant;
pub mod lab;
mod movepick;
pub mod nnue;
mod prefetch;
pub mod random;
pub mod score;
mod search;
pub mod see;
pub mod strength;
pub mod tablebases;
mod time;
mod tt;
pub mod tuning;

pub use book::Book;
pub use engine::{
    Engine, EngineOptions, SearchRequest, SearchResult, MAX_HASH_MB, MAX_MOVE_OVERHEAD,
    MAX_MULTIPV, MAX_THREADS,
};
pub use search::SearchInfo;
pub use tablebases::Tablebases;
pub use time::{Clock, Limits};
pub use tt::{Bound, HashEntry};
