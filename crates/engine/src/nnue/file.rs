//! A network's weights and its file format.
//!
//! # The file, byte by byte
//!
//! All integers are little-endian.
//!
//! ```text
//! offset size  header
//!  0      8    magic: the ASCII bytes "XQNNUE\r\n" (a text-mode copy breaks it visibly)
//!  8      2    version: u16, 1 or 2 (a reader refuses any other)
//! 10      2    inputs: u16, N: 1260 (features::INPUTS), or in version 2 also 11340
//!              (features::BUCKETED_INPUTS: king buckets, a set of 1260 for each palace square)
//! 12      2    hidden: u16, H, a multiple of 16 from 16 to 1024
//! 14      2    activation: u16, 1 = SCReLU (the only one)
//! 16      2    QA: u16, 255
//! 18      2    QB: u16, 64
//! 20      2    SCALE: u16, 400
//! 22      2    output buckets: u16, B; version 1: zero, meaning one; version 2: 2 to 8
//! 24      8    checksum: u64, FNV-1a (64 bits) of every byte after the header
//! 32           first-layer weights: N × H i16, input by input (H for input 0, then input 1, …)
//!              first-layer biases: H i16
//!              output weights: B × 2 × H i16, bucket by bucket, in each the side to move's
//!                units first
//!              output biases: B × i32
//!              the file ends there
//! ```
//!
//! A network with one output bucket and no king buckets is written as version 1, so the files
//! made before buckets existed and their checksums stay as they were. Which output bucket
//! evaluates a position is [`output_bucket`]'s rule; which set of inputs a side uses,
//! [`features::king_bucket`](super::features::king_bucket)'s.

use super::features::{bucketed_index, index, BUCKETED_INPUTS, INPUTS};
use super::kernels;
use super::numbers::{MAX_HIDDEN, MAX_OUTPUT_BUCKETS, MAX_VALUE, QA, QB, SCALE};
use std::path::Path;
use xiangqi::{Color, Piece, Square};

const MAGIC: &[u8; 8] = b"XQNNUE\r\n";
/// The version of a file with one output bucket.
const VERSION: u16 = 1;
/// The version of a file with several output buckets.
const VERSION_BUCKETS: u16 = 2;
const SCRELU: u16 = 1;
const HEADER_SIZE: usize = 32;
/// Pieces on the board at most: a first-layer sum adds at most this many columns.
const MAX_PIECES: i32 = 32;
/// The largest output weight the SIMD kernel takes: `QA × 127` still fits an `i16`.
const MAX_OUTPUT_WEIGHT: i32 = 127;

/// Why a network file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetworkError {
    /// Shorter than its header.
    #[error("not a network file: {0} bytes, shorter than the 32-byte header")]
    TooShort(usize),
    /// The first 8 bytes are not the magic.
    #[error("not a network file: it does not start with \"XQNNUE\"")]
    Magic,
    /// Another version of the format.
    #[error("network file version {0}; this build reads versions 1 and 2")]
    Version(u16),
    /// A header field with a value this build does not take.
    #[error("network header: {field} is {found}, expected {expected}")]
    Header {
        /// The field's name.
        field: &'static str,
        /// Its value in the file.
        found: u32,
        /// What this build needs.
        expected: String,
    },
    /// The length does not match the header's sizes.
    #[error("network file is {found} bytes; its header says {expected}")]
    Length {
        /// The file's length.
        found: usize,
        /// The length the header implies.
        expected: usize,
    },
    /// The checksum does not match the contents.
    #[error("network file is corrupt: checksum {found:#018x}, expected {expected:#018x}")]
    Checksum {
        /// Computed from the contents.
        found: u64,
        /// Written in the header.
        expected: u64,
    },
    /// Weights so large that the integer arithmetic could overflow.
    #[error("network weights out of range: {0}")]
    Range(String),
    /// The file could not be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The path given.
        path: String,
        /// The system's reason.
        message: String,
    },
}

/// A network's integer weights (see the [module](super) documentation for what they compute).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// The inputs are bucketed by the square of each side's own general.
    king_buckets: bool,
    /// `INPUTS × hidden` (`BUCKETED_INPUTS × hidden` with king buckets), input by input.
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// `2 × hidden` for each output bucket: the side to move's units, then the other side's.
    output_weights: Vec<i16>,
    /// One for each output bucket.
    output_bias: Vec<i32>,
    /// The checksum of the file: tells networks apart (the search's evaluation cache).
    checksum: u64,
}

impl Network {
    /// A network from its integer weights (as a trainer exports them), checked like a file:
    /// one output bucket.
    pub fn from_parts(
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
    ) -> Result<Network, NetworkError> {
        Network::from_layers(
            feature_weights,
            feature_bias,
            output_weights,
            vec![output_bias],
        )
    }

    /// A network of any shape, checked like a file: `hidden` units (the biases' number), king
    /// buckets when `feature_weights` holds `BUCKETED_INPUTS × hidden` rather than
    /// `INPUTS × hidden`, and as many output buckets as `output_bias` has values
    /// (`output_weights` holds `2 × hidden` for each, bucket by bucket).
    pub fn from_layers(
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        let hidden = feature_bias.len();
        check_hidden(hidden)?;
        let buckets = output_bias.len();
        check_buckets(buckets)?;
        let king_buckets = feature_weights.len() == BUCKETED_INPUTS * hidden;
        if !(king_buckets || feature_weights.len() == INPUTS * hidden)
            || output_weights.len() != buckets * 2 * hidden
        {
            return Err(NetworkError::Range(format!(
                "{} first-layer weights and {} output weights for {hidden} units and {buckets} \
                 output buckets",
                feature_weights.len(),
                output_weights.len()
            )));
        }
        let mut network = Network {
            hidden,
            king_buckets,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            checksum: 0,
        };
        network.check_ranges()?;
        network.checksum = fnv1a(&network.payload());
        Ok(network)
    }

    /// Reads a network file's bytes, checking every field.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_SIZE {
            return Err(NetworkError::TooShort(bytes.len()));
        }
        if &bytes[0..8] != MAGIC {
            return Err(NetworkError::Magic);
        }
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let version = u16_at(8);
        if version != VERSION && version != VERSION_BUCKETS {
            return Err(NetworkError::Version(version));
        }
        let expect = |field: &'static str, at: usize, expected: i32| {
            let found = u16_at(at);
            if i32::from(found) == expected {
                Ok(())
            } else {
                Err(NetworkError::Header {
                    field,
                    found: u32::from(found),
                    expected: expected.to_string(),
                })
            }
        };
        let king_buckets = match (version, usize::from(u16_at(10))) {
            (_, INPUTS) => false,
            (VERSION_BUCKETS, BUCKETED_INPUTS) => true,
            (_, found) => {
                return Err(NetworkError::Header {
                    field: "inputs",
                    found: found as u32,
                    expected: if version == VERSION {
                        format!("{INPUTS}")
                    } else {
                        format!("{INPUTS} or {BUCKETED_INPUTS}")
                    },
                })
            }
        };
        expect("activation", 14, i32::from(SCRELU))?;
        expect("QA", 16, QA)?;
        expect("QB", 18, QB)?;
        expect("SCALE", 20, SCALE)?;
        let buckets = if version == VERSION {
            expect("output buckets (version 1)", 22, 0)?;
            1
        } else {
            let buckets = usize::from(u16_at(22));
            // Version 2 only for a shape version 1 cannot hold.
            if buckets < 2 && !(buckets == 1 && king_buckets) {
                return Err(NetworkError::Header {
                    field: "output buckets (version 2)",
                    found: buckets as u32,
                    expected: format!(
                        "2 to {MAX_OUTPUT_BUCKETS}, or 1 with {BUCKETED_INPUTS} inputs"
                    ),
                });
            }
            check_buckets(buckets)?;
            buckets
        };
        let inputs = if king_buckets {
            BUCKETED_INPUTS
        } else {
            INPUTS
        };
        let hidden = usize::from(u16_at(12));
        check_hidden(hidden)?;
        let expected = file_size(inputs, hidden, buckets);
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                found: bytes.len(),
                expected,
            });
        }
        let payload = &bytes[HEADER_SIZE..];
        let mut checksum = [0; 8];
        checksum.copy_from_slice(&bytes[24..32]);
        let (found, expected) = (fnv1a(payload), u64::from_le_bytes(checksum));
        if found != expected {
            return Err(NetworkError::Checksum { found, expected });
        }
        let mut values = payload
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(inputs * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(buckets * 2 * hidden);
        let output_bias = payload[payload.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let network = Network {
            hidden,
            king_buckets,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            checksum: expected,
        };
        network.check_ranges()?;
        Ok(network)
    }

    /// Reads a network file: a regular file of at most the largest network's length, so a
    /// FIFO, a device (`/dev/zero`) or a huge file is refused unread ([`xiangqi_files::reading::read`]).
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = xiangqi_files::reading::read(
            path,
            Network::file_len(MAX_HIDDEN, true, MAX_OUTPUT_BUCKETS) as u64,
        )
        .map_err(|e| NetworkError::Io {
            path: e.path.display().to_string(),
            message: e.problem.to_string(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// The network as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let mut bytes = Vec::with_capacity(HEADER_SIZE + payload.len());
        bytes.extend_from_slice(MAGIC);
        let (version, buckets) = match (self.output_buckets(), self.king_buckets) {
            (1, false) => (VERSION, 0),
            (b, _) => (VERSION_BUCKETS, b as u16),
        };
        for field in [
            version,
            self.inputs() as u16,
            self.hidden as u16,
            SCRELU,
            QA as u16,
            QB as u16,
            SCALE as u16,
            buckets,
        ] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        bytes.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// The length of the file of a network with `hidden` units, king buckets or not, and
    /// `buckets` output buckets (a trainer reserves it).
    pub fn file_len(hidden: usize, king_buckets: bool, buckets: usize) -> usize {
        let inputs = if king_buckets {
            BUCKETED_INPUTS
        } else {
            INPUTS
        };
        file_size(inputs, hidden, buckets)
    }

    /// Inputs per side: [`INPUTS`], or [`BUCKETED_INPUTS`] with king buckets.
    pub fn inputs(&self) -> usize {
        if self.king_buckets {
            BUCKETED_INPUTS
        } else {
            INPUTS
        }
    }

    /// Whether the inputs are bucketed by the square of each side's own general.
    pub fn has_king_buckets(&self) -> bool {
        self.king_buckets
    }

    /// The input for `piece` on `sq` as `side` sees the board, `side`'s general standing on
    /// `general` (which only a network with king buckets looks at).
    #[inline]
    pub(super) fn input(&self, side: Color, piece: Piece, sq: Square, general: Square) -> usize {
        if self.king_buckets {
            bucketed_index(side, piece, sq, general)
        } else {
            index(side, piece, sq)
        }
    }

    /// Output buckets: how many output layers the network has, one of which evaluates a
    /// position by its number of pieces ([`output_bucket`]).
    pub fn output_buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// Units in the first layer (per side).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The checksum of the network's file: equal networks have equal checksums.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The first layer's weight column of one input.
    #[inline]
    pub(super) fn column(&self, input: usize) -> &[i16] {
        &self.feature_weights[input * self.hidden..(input + 1) * self.hidden]
    }

    /// The first layer's biases.
    #[inline]
    pub(super) fn bias(&self) -> &[i16] {
        &self.feature_bias
    }

    /// The output layer of the bucket for `pieces` on the board: the weights of the side to
    /// move's units, the other side's, and the bias.
    #[inline]
    fn output_layer(&self, pieces: u32) -> (&[i16], &[i16], i32) {
        let bucket = output_bucket(pieces, self.output_buckets());
        let size = 2 * self.hidden;
        let weights = &self.output_weights[bucket * size..(bucket + 1) * size];
        let (own, other) = weights.split_at(self.hidden);
        (own, other, self.output_bias[bucket])
    }

    /// The evaluation in centi-soldiers for the side to move, whose first-layer sums are `us`,
    /// the other side's `them`, with `pieces` on the board.
    #[inline]
    pub(super) fn output(&self, us: &[i16], them: &[i16], pieces: u32) -> i32 {
        let (own, other, bias) = self.output_layer(pieces);
        let sum = kernels::simd::output(us, own) + kernels::simd::output(them, other);
        scale(sum, bias)
    }

    /// [`Network::output`] with the scalar kernel: the same value, for tests.
    #[cfg(test)]
    pub(super) fn output_scalar(&self, us: &[i16], them: &[i16], pieces: u32) -> i32 {
        let (own, other, bias) = self.output_layer(pieces);
        let sum = kernels::scalar::output(us, own) + kernels::scalar::output(them, other);
        scale(sum, bias)
    }

    fn payload(&self) -> Vec<u8> {
        let mut bytes =
            Vec::with_capacity(file_size(self.inputs(), self.hidden, self.output_buckets()));
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        bytes
    }

    /// Refuses weights whose sums could overflow: a unit's bias plus its 32 largest
    /// first-layer weights (in absolute value) must fit an `i16`, and output weights must fit
    /// the SIMD kernel.
    fn check_ranges(&self) -> Result<(), NetworkError> {
        let mut largest = vec![0i32; self.hidden];
        for column in self.feature_weights.chunks_exact(self.hidden) {
            for (l, &w) in largest.iter_mut().zip(column) {
                *l = (*l).max(i32::from(w).abs());
            }
        }
        for (unit, (&l, &b)) in largest.iter().zip(&self.feature_bias).enumerate() {
            if MAX_PIECES * l + i32::from(b).abs() > i32::from(i16::MAX) {
                return Err(NetworkError::Range(format!(
                    "unit {unit}: bias {b} and weights up to {l} could overflow 32 pieces' sum"
                )));
            }
        }
        if let Some(w) = self
            .output_weights
            .iter()
            .find(|w| i32::from(**w).abs() > MAX_OUTPUT_WEIGHT)
        {
            return Err(NetworkError::Range(format!(
                "output weight {w} is beyond ±{MAX_OUTPUT_WEIGHT}"
            )));
        }
        Ok(())
    }
}

/// The output bucket that evaluates a position with `pieces` on the board (both generals
/// included) in a network of `buckets`: the counts 1–32 cut into `buckets` equal parts, fewest
/// pieces first (with 8: 2–4, 5–8, …, 29–32; with 4: 2–8, 9–16, 17–24, 25–32).
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let from_zero = pieces.clamp(1, 32) as usize - 1;
    (from_zero * buckets / 32).min(buckets - 1)
}

/// The length of a network file with `inputs` per side, `hidden` units and `buckets` output
/// buckets.
fn file_size(inputs: usize, hidden: usize, buckets: usize) -> usize {
    HEADER_SIZE + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

fn check_buckets(buckets: usize) -> Result<(), NetworkError> {
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
        return Err(NetworkError::Header {
            field: "output buckets",
            found: buckets as u32,
            expected: format!("1 to {MAX_OUTPUT_BUCKETS}"),
        });
    }
    Ok(())
}

fn check_hidden(hidden: usize) -> Result<(), NetworkError> {
    if hidden == 0 || hidden % 16 != 0 || hidden > MAX_HIDDEN {
        return Err(NetworkError::Header {
            field: "hidden",
            found: hidden as u32,
            expected: format!("a multiple of 16 from 16 to {MAX_HIDDEN}"),
        });
    }
    Ok(())
}

/// The output's integer sum turned into centi-soldiers (see the module documentation).
#[inline]
fn scale(sum: i64, bias: i32) -> i32 {
    let value = (sum / i64::from(QA) + i64::from(bias)) * i64::from(SCALE) / i64::from(QA * QB);
    value.clamp(-i64::from(MAX_VALUE), i64::from(MAX_VALUE)) as i32
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
