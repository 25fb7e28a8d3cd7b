//! `xiangqi match` end to end: fake engines (a Python script in `tests/match_fakes/`, one mode per
//! kind of misbehaviour) and the real binary as an engine.

mod clocks;
mod games;
mod misbehaviour;
mod ponder;
mod processes;
mod schedule;
mod support;
