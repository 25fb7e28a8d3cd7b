//! A Xiangqi engine: alpha-beta search (PVS, aspiration windows, transposition table, null
//! move, late-move reductions, quiescence) over the `xiangqi` rules crate, with a hand-made
//! evaluation, Lazy SMP threads and time management, behind a small [`Engine`] facade that the
//! protocol front end and the web GUI share.

pub mod eval;
pub mod score;
pub mod see;
pub mod tt;
