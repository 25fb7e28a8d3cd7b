//! A game against the computer as data: who plays it, its clock, how it ended, its variations
//! and comments, a review's report, its file, and the views the page shows of it.
//!
//! Every folder runs one way: the game itself (`game`: the rules' game, players, clock,
//! judgement) knows nothing of jobs, storage or JSON; `entry` adds the jobs' state (the
//! computer's search, an analysis, a hint, a review), `game_file` reads and writes it as PGN,
//! and the views (`view`, `summary`, `book_view`, `tablebase_view`, `lab_view`) read it. Nothing here runs a
//! thread or touches a disk, so the same code serves the web server (`xiangqi-web`) and a page
//! with no server behind it (the engine in WebAssembly); time comes from
//! [`xiangqi_engine::instant`], which works in both.

pub mod bodies;
pub mod book_view;
pub mod clock;
pub mod ending;
pub mod entry;
pub mod error;
pub mod game;
pub mod game_file;
pub mod game_requests;
pub mod handicap;
pub mod job;
pub mod job_run;
pub mod judgement;
pub mod keep;
pub mod lab_progress;
pub mod lab_requests;
pub mod lab_view;
pub mod local;
pub mod move_names;
pub mod positions;
pub mod puzzle_requests;
pub mod report;
pub mod review;
pub mod site_games;
pub mod site_puzzles;
pub mod summary;
pub mod tablebase_view;
pub mod view;
