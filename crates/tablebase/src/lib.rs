//! Endgame tablebases: for a small material set (`KRKAABB`: a chariot against advisors and
//! elephants), the value of every position with either side to move — win, loss or draw, the
//! distance to mate in plies, wins and losses by the perpetual-check rule, and the distance to
//! the next capture or mate that the 120-ply rule asks about — worked out from the mates
//! backwards.
//!
//! - [`material`]: a material set as the literature writes it, the stronger side first;
//! - [`layout`]: where each piece may stand, and a position's index in its table;
//! - [`value`]: what a table stores for one position;
//! - [`table`] and [`tables`]: one table, and the tables held (read when first asked for);
//! - [`generate`]: building the tables of a material set and of every set a capture leads to;
//! - [`mod@file`]: a table as a checksummed file;
//! - [`folder`]: the tables of a folder, one file per material set;
//! - [`verify`]: a built table checked forwards, position by position, against its moves.
//!
//! What is not here yet (docs/TABLEBASES.md): the perpetual-chase rule is not judged (the
//! draws it could change are flagged), and a win by the perpetual-check rule has no distance
//! to conversion.

pub mod file;
pub mod folder;
pub mod generate;
pub mod layout;
pub mod material;
pub mod table;
pub mod tables;
pub mod value;
pub mod verify;

pub use file::FileError;
pub use material::{Material, MaterialError};
pub use table::Table;
pub use tables::Tables;
pub use value::{Conversion, Probe, Rank, Value};
