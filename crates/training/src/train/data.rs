//! The training data: which chunk files, which of them are held out, and the positions in a
//! compact form (each piece's input as Red sees the board, two bytes), with their scores and
//! results.

use crate::datagen::chunks::chunk_paths;
use crate::samples::{decode_file, decode_header, HEADER_SIZE};
use crate::tune::parallel::fold_chunks;
use anyhow::{bail, Context, Result};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use xiangqi::{Color, Piece, PieceKind, Square};
use xiangqi_engine::nnue::features::{index, INPUTS};

/// The chunk files of the `--data` paths (a directory gives its chunk files by name, a file
/// itself), in the order given.
pub fn list_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let chunks = chunk_paths(path)?;
            if chunks.is_empty() {
                bail!(
                    "{} holds no chunk files (chunk-NNNNNN.samples, as `xiangqi datagen --dir` \
                     writes them)",
                    path.display()
                );
            }
            files.extend(chunks);
        } else if path.is_file() {
            files.push(path.clone());
        } else if let Some(what) = std::fs::metadata(path)
            .ok()
            .and_then(|m| xiangqi_files::reading::not_regular(m.file_type()))
        {
            bail!(
                "--data {}: it is {what}, not a directory or a regular file",
                path.display()
            );
        } else {
            bail!("--data {}: no such directory or file", path.display());
        }
    }
    Ok(files)
}

/// Refuses a data set that holds the same chunk twice (two directories made with the same seed
/// and overlapping chunk numbers, or a file given twice): its games would count double, and
/// could be trained on and held out at once. Files are the same when their headers' record
/// counts and checksums are.
pub fn refuse_duplicates(files: &[PathBuf]) -> Result<()> {
    let mut seen: std::collections::HashMap<(u32, u64), &PathBuf> = Default::default();
    for path in files {
        // A file that cannot be read or has no valid header is left to the reading, which
        // says what is wrong with it.
        let mut head = Vec::with_capacity(HEADER_SIZE);
        let read = xiangqi_files::reading::open(path)
            .map(|file| file.take(HEADER_SIZE as u64).read_to_end(&mut head));
        let Ok(Ok(_)) = read else { continue };
        let Ok(header) = decode_header(&head) else {
            continue;
        };
        if header.records == 0 {
            continue;
        }
        if let Some(first) = seen.insert((header.records, header.checksum), path) {
            bail!(
                "{} and {} hold the same positions: the same chunk given twice (overlapping \
                 --chunks ranges of one seed?); give each chunk once",
                first.display(),
                path.display()
            );
        }
    }
    Ok(())
}

/// Splits `files` into training and held-out files: the last `validation` files are held
/// out (whole chunks, so no game has positions on both sides). `None` holds out one file in
/// 20, at least one.
pub fn split(
    files: Vec<PathBuf>,
    validation: Option<usize>,
) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let held = validation.unwrap_or((files.len() / 20).max(1));
    if held == 0 {
        bail!("--validation-chunks must be at least 1: the validation loss needs positions");
    }
    if files.len() <= held {
        bail!(
            "{} chunk file(s) given, and {held} are held out for validation: at least one more \
             is needed for training",
            files.len()
        );
    }
    let mut train = files;
    let validation = train.split_off(train.len() - held);
    Ok((train, validation))
}

/// Positions, compactly: each piece's input as Red sees the board (Black's view is
/// [`Mirror`]ed from it), the side to move, the search's score and the result.
#[derive(Clone, Debug, Default)]
pub struct Positions {
    /// Red-view inputs of all positions, one position after another.
    inputs: Vec<u16>,
    /// Where each position's inputs start in `inputs`; one more entry than positions.
    starts: Vec<usize>,
    /// Whether Black is to move.
    black: Vec<bool>,
    /// The search's score for the side to move (centi-soldiers).
    scores: Vec<i16>,
    /// The game's result for the side to move: 0, 0.5 or 1.
    results: Vec<f32>,
    /// A fingerprint of the files read (their checksums and sizes, in order).
    fingerprint: u64,
}

impl Positions {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.black.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.black.is_empty()
    }

    /// The search's score of position `i` for the side to move.
    pub fn score(&self, i: usize) -> i16 {
        self.scores[i]
    }

    /// The result of position `i` for the side to move (0, 0.5, 1).
    pub fn result(&self, i: usize) -> f32 {
        self.results[i]
    }

    /// The fingerprint of the files the positions came from: the same files, in the same
    /// order, give the same fingerprint (wherever they are).
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Position `i`'s inputs as the side to move sees the board (`us`) and as the other side
    /// does (`them`), written into the buffers; returns how many pieces there are.
    #[inline]
    pub fn inputs(
        &self,
        i: usize,
        mirror: &Mirror,
        us: &mut [u16; 32],
        them: &mut [u16; 32],
    ) -> usize {
        let red = &self.inputs[self.starts[i]..self.starts[i + 1]];
        let (red_buf, black_buf) = if self.black[i] {
            (them, us)
        } else {
            (us, them)
        };
        for ((r, b), &input) in red_buf.iter_mut().zip(black_buf.iter_mut()).zip(red) {
            *r = input;
            *b = mirror.0[usize::from(input)];
        }
        red.len()
    }

    /// Appends `other`'s positions.
    fn append(&mut self, other: Positions) {
        let base = self.inputs.len();
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.starts
            .extend(other.starts.iter().skip(1).map(|s| s + base));
        self.inputs.extend(other.inputs);
        self.black.extend(other.black);
        self.scores.extend(other.scores);
        self.results.extend(other.results);
        self.fingerprint = mix(self.fingerprint, other.fingerprint);
    }

    /// Adds a position from its pieces, side to move, score and result.
    pub fn push(
        &mut self,
        pieces: impl Iterator<Item = (Square, Piece)>,
        side_to_move: Color,
        score: i16,
        result: f32,
    ) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for (sq, piece) in pieces {
            self.inputs.push(index(Color::Red, piece, sq) as u16);
        }
        self.starts.push(self.inputs.len());
        self.black.push(side_to_move == Color::Black);
        self.scores.push(score);
        self.results.push(result);
    }
}

/// Black's input for each of Red's: the same piece on the same square seen from the other
/// side, built from [`index`] itself so it follows the engine's definition.
pub struct Mirror(Vec<u16>);

impl Mirror {
    /// The table.
    pub fn new() -> Mirror {
        Mirror(red_input_table(|piece, sq| index(Color::Black, piece, sq)))
    }
}

impl Default for Mirror {
    fn default() -> Self {
        Mirror::new()
    }
}

/// Each input's twin with the files mirrored (file a ↔ i, b ↔ h, …): the rules are the same
/// on both wings, so a position and its mirror image are worth the same, and training on both
/// doubles what the data teaches. Built from [`index`], for either side's view (both keep the
/// files where they are).
pub struct FileFlip(Vec<u16>);

impl FileFlip {
    /// The table.
    pub fn new() -> FileFlip {
        FileFlip(red_input_table(|piece, sq| {
            index(Color::Red, piece, sq.flip_file())
        }))
    }

    /// Mirrors the inputs in place.
    #[inline]
    pub fn apply(&self, inputs: &mut [u16]) {
        for input in inputs {
            *input = self.0[usize::from(*input)];
        }
    }
}

impl Default for FileFlip {
    fn default() -> Self {
        FileFlip::new()
    }
}

/// A table indexed by Red's input for each piece on each square, holding `input(piece, sq)`.
fn red_input_table(input: impl Fn(Piece, Square) -> usize) -> Vec<u16> {
    let mut table = vec![0u16; INPUTS];
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            let piece = Piece::new(color, kind);
            for sq in Square::all() {
                table[index(Color::Red, piece, sq)] = input(piece, sq) as u16;
            }
        }
    }
    table
}

/// Reads one chunk file into positions; errors name the file (and, for a corrupt file, the
/// byte).
fn read_one(path: &Path) -> Result<Positions> {
    let bytes = xiangqi_files::reading::read(path, crate::samples::MAX_FILE_LEN)?;
    let what = || format!("{} is not a valid sample file", path.display());
    let header = decode_header(&bytes).with_context(what)?;
    let file = decode_file(&bytes).with_context(what)?;
    let mut positions = Positions {
        fingerprint: mix(header.checksum, u64::from(header.records)),
        ..Positions::default()
    };
    for sample in &file.samples {
        positions.push(
            sample.pieces(),
            sample.side_to_move(),
            sample.score(),
            sample.result().points() as f32,
        );
    }
    Ok(positions)
}

/// Reads `files` on `threads` threads, keeping their order.
pub fn read(files: &[PathBuf], threads: usize) -> Result<Positions> {
    let parts = fold_chunks(
        files,
        threads,
        Vec::new,
        |parts, _, path| parts.push(read_one(path)),
        |mut a, b| {
            a.extend(b);
            a
        },
    );
    let mut positions = Positions::default();
    for part in parts {
        positions.append(part?);
    }
    Ok(positions)
}

/// Combines two 64-bit values, order mattering (a step of FNV-1a on the second's bytes).
fn mix(a: u64, b: u64) -> u64 {
    b.to_le_bytes()
        .iter()
        .fold(a ^ 0xcbf2_9ce4_8422_2325, |h, &x| {
            (h ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}
