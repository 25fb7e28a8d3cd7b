//! The checkpoint: everything a stopped training needs to go on as if it had not stopped (the
//! float weights, Adam's moments and step count, the epochs done, the best epoch so far with
//! its network, and the settings they were made with). The random generator needs no saving: the initial weights come from the seed and
//! each epoch's order from the seed and the epoch's number.
//!
//! ```text
//! offset size  (all integers little-endian)
//!  0      8    magic: "XQTRAIN\n"
//!  8      4    version: u32, 2
//! 12      4    L: u32, the length of the settings text
//! 16      L    the settings: UTF-8 `key=value` lines (see `super::settings_text`)
//!  …      8    epochs done: u64
//!  …      8    Adam steps: u64
//!  …      8    N: u64, the number of parameters
//!  …     4N    parameters, f32, in the model's layout
//!  …     4N    Adam's first moments, f32
//!  …     4N    Adam's second moments, f32
//!  …      8    the best epoch so far, from 1: u64 (0: none yet, and the next two fields
//!              are 0 and empty)
//!  …      8    its validation loss: f64
//!  …      8    M: u64, the length of its network file
//!  …      M    its network file
//!  …      8    checksum: u64, FNV-1a of every byte before it
//! ```

use super::adam::Adam;
use super::model::{Model, Shape};
use super::trainer::{Best, State};
use anyhow::{bail, Context, Result};
use std::path::Path;
use xiangqi_files::disk;
use xiangqi_files::reading;

const MAGIC: &[u8; 8] = b"XQTRAIN\n";
const VERSION: u32 = 2;

/// The checkpoint's bytes.
pub fn encode(settings: &str, state: &State) -> Vec<u8> {
    let params = state.model.params();
    let mut bytes = Vec::with_capacity(64 + settings.len() + 12 * params.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(settings.len() as u32).to_le_bytes());
    bytes.extend_from_slice(settings.as_bytes());
    bytes.extend_from_slice(&(state.epochs_done as u64).to_le_bytes());
    bytes.extend_from_slice(&state.adam.steps.to_le_bytes());
    bytes.extend_from_slice(&(params.len() as u64).to_le_bytes());
    for values in [params, &state.adam.m, &state.adam.v] {
        for x in values {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
    }
    let (epoch, loss, network) = match &state.best {
        Some(best) => (best.epoch as u64, best.loss, best.network.as_slice()),
        None => (0, 0.0, &[][..]),
    };
    bytes.extend_from_slice(&epoch.to_le_bytes());
    bytes.extend_from_slice(&loss.to_le_bytes());
    bytes.extend_from_slice(&(network.len() as u64).to_le_bytes());
    bytes.extend_from_slice(network);
    let checksum = fnv1a(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes
}

/// Reads a checkpoint's bytes: its settings text and the state, for a network of `shape`
/// units.
pub fn decode(bytes: &[u8], shape: Shape) -> Result<(String, State)> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        bail!("not a training checkpoint (it does not start with \"XQTRAIN\")");
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let found = fnv1a(body);
    if found.to_le_bytes() != tail {
        bail!("the checkpoint is corrupt (its checksum does not match)");
    }
    let mut reader = Reader { bytes: body, at: 8 };
    let version = reader.u32()?;
    if version != VERSION {
        bail!("checkpoint version {version}; this build reads version {VERSION}");
    }
    let len = reader.u32()? as usize;
    let settings = String::from_utf8(reader.take(len)?.to_vec())
        .context("the checkpoint's settings are not text")?;
    let epochs_done = reader.u64()? as usize;
    let steps = reader.u64()?;
    let n = reader.u64()? as usize;
    if n != Model::size(shape) {
        bail!(
            "the checkpoint holds {n} parameters; a network of {} units ({} output buckets, {} \
             king buckets) has {}",
            shape.hidden,
            shape.buckets,
            if shape.king_buckets { "with" } else { "no" },
            Model::size(shape)
        );
    }
    let mut floats = || -> Result<Vec<f32>> {
        Ok(reader
            .take(4 * n)?
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    };
    let params = floats()?;
    let m = floats()?;
    let v = floats()?;
    let best_epoch = reader.u64()? as usize;
    let best_loss = f64::from_bits(reader.u64()?);
    let network_len = reader.u64()? as usize;
    let network = reader.take(network_len)?.to_vec();
    let best = (best_epoch > 0).then_some(Best {
        epoch: best_epoch,
        loss: best_loss,
        network,
    });
    if reader.at != body.len() {
        bail!(
            "the checkpoint has {} bytes too many",
            body.len() - reader.at
        );
    }
    let model = Model::from_params(shape, params).context("parameter count")?;
    let state = State {
        model,
        adam: Adam { m, v, steps },
        epochs_done,
        best,
    };
    Ok((settings, state))
}

/// Writes the checkpoint to `path` through a temporary file renamed over it
/// (`disk::replace`), so a kill or a full disk while writing leaves the previous checkpoint
/// whole.
pub fn save(path: &Path, settings: &str, state: &State) -> Result<()> {
    Ok(disk::replace(path, &encode(settings, state))?)
}

/// The most bytes a checkpoint of a network of `shape` can have: its fixed fields, a
/// settings text of at most `MAX_SETTINGS_LEN` bytes, three floats per parameter and the
/// best epoch's network file (two bytes per parameter at most), so that a wrong path
/// (`/dev/zero` was read until the memory ran out) or a huge file is refused unread.
pub fn max_len(shape: Shape) -> u64 {
    (256 + MAX_SETTINGS_LEN + 14 * Model::size(shape)) as u64
}

/// The longest settings text a checkpoint is read with (a dozen short lines are written).
const MAX_SETTINGS_LEN: usize = 64 << 10;

/// Reads the checkpoint at `path` (see [`decode`]).
pub fn load(path: &Path, shape: Shape) -> Result<(String, State)> {
    let bytes = reading::read(path, max_len(shape)).map_err(|e| {
        anyhow::anyhow!(
            "cannot read the checkpoint {}: {}",
            path.display(),
            e.problem
        )
    })?;
    decode(&bytes, shape).with_context(|| format!("checkpoint {}", path.display()))
}

/// Reads the fields in order, failing (not panicking) at the end of the bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            bail!("the checkpoint is truncated at byte {}", self.bytes.len());
        };
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::trainer::Settings;

    fn state() -> State {
        let settings = Settings {
            hidden: 16,
            buckets: 1,
            king_buckets: false,
            epochs: 2,
            batch: 64,
            lr: 0.001,
            lambda: 0.5,
            k: 0.004,
            seed: 3,
            flip_files: true,
            threads: 1,
        };
        let mut state = State::new(&settings);
        state.adam.steps = 7;
        state.adam.m[5] = 0.25;
        state.adam.v[9] = 1.5;
        state.epochs_done = 1;
        state.best = Some(Best {
            epoch: 1,
            loss: 0.0625,
            network: vec![1, 2, 3],
        });
        state
    }

    #[test]
    fn a_checkpoint_round_trips_and_damage_is_refused() {
        let state = state();
        let bytes = encode("hidden=16\n", &state);
        let sixteen = Shape::plain(16);
        let (text, read) = decode(&bytes, sixteen).unwrap();
        assert_eq!(text, "hidden=16\n");
        assert_eq!(read, state);
        let mut broken = bytes.clone();
        broken[100] ^= 1;
        assert!(decode(&broken, sixteen)
            .unwrap_err()
            .to_string()
            .contains("corrupt"));
        assert!(decode(&bytes[..10], sixteen).is_err());
        assert!(decode(b"hello world, not a checkpoint", sixteen).is_err());
        for other in [
            Shape::plain(32),
            Shape {
                hidden: 16,
                buckets: 4,
                king_buckets: false,
            },
            Shape {
                hidden: 16,
                buckets: 1,
                king_buckets: true,
            },
        ] {
            let err = decode(&bytes, other).unwrap_err().to_string();
            assert!(err.contains("parameters"), "{err}");
        }
    }
}
