//! A Xiangqi engine: alpha-beta search (PVS, aspiration windows, transposition table, null
//! move, late-move reductions, quiescence) over the `xiangqi` rules crate, with a hand-made
//! evaluation, Lazy SMP threads, time management and an opening book, behind a small [`Engine`] facade that the
//! protocol front end and the web GUI share.

pub mod bench;
pub mod book;
pub mod engine;
pub mod eval;
pub mod history;
pub mod movepick;
mod prefetch;
pub mod random;
pub mod score;
pub mod search;
pub mod see;
pub mod strength;
pub mod time;
pub mod tt;

pub use book::Book;
pub use engine::{Engine, EngineOptions, SearchRequest, SearchResult};
pub use search::SearchInfo;
pub use time::{Clock, Limits};
