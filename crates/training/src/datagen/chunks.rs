//! `xiangqi datagen --dir DIR --chunks M`: a data set for training a network, as a directory
//! of sample files ([`crate::samples`]) of `--chunk-games` games each.
//! `--chunks A..B` makes chunks A to B alone, so that many workers (a cluster's job array) can
//! share one data set: each makes its range, and the chunk files of any split are the files
//! one run would have made.
//!
//! - **Reproducible.** Chunk *k*'s games are seeded from [`chunk_seed`]`(seed, k)` alone, so
//!   each chunk file is a function of the settings and *k*: the same command gives the same
//!   bytes whatever `--concurrency`, however often it was stopped and started, and a larger
//!   `--chunks` extends a data set with the chunks a single run would have made.
//! - **Resumable.** A chunk is written whole to a temporary file, synced and renamed
//!   (`disk::replace`), so a chunk file that exists is complete; a stopped run leaves at
//!   most a temporary file, removed on the next start, which makes the missing chunks.
//! - **Checked.** The settings (and a fingerprint of the engine's play) are written to
//!   `DIR/datagen.txt` by the first run; a later run with other settings, or by an engine that
//!   plays differently, is refused rather than mixed into the same data set.

use super::config::Config;
use super::schedule;
use super::searcher::Searcher;
use super::seeds::{chunk_seed, game_seed};
use super::selfplay::{self, GameResult};
use crate::samples::{self, Sample, HEADER_SIZE};
use anyhow::{anyhow, bail, Context, Result};
use std::io::Read as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use xiangqi_engine::nnue::Network;
use xiangqi_files::disk;
use xiangqi_files::reading;

/// The settings of a `--dir` run.
#[derive(Clone, Debug)]
pub struct ChunkRun {
    /// The chunk numbers the directory holds when the run is done.
    pub chunks: Range<u64>,
    /// Games per chunk.
    pub chunk_games: u32,
    /// Seed of the whole run.
    pub seed: u64,
    /// Settings of each game.
    pub config: Config,
    /// Games at once.
    pub concurrency: usize,
}

/// Reads `--chunks`: `M` is chunks 0 to M − 1; `A..B` is chunks A to B, both included (as a
/// job array's index range is written).
pub fn parse_chunks(text: &str) -> Result<Range<u64>, String> {
    let number = |part: &str| {
        part.trim().parse::<u64>().map_err(|_| {
            format!("{text:?} is not a chunk count M or a range A..B of chunk numbers")
        })
    };
    match text.split_once("..") {
        None => Ok(0..number(text)?),
        Some((first, last)) => {
            let (first, last) = (number(first)?, number(last)?);
            if last < first {
                return Err(format!("the range {text} ends before it starts"));
            }
            let end = last
                .checked_add(1)
                .ok_or_else(|| format!("the range {text} is too large"))?;
            Ok(first..end)
        }
    }
}

/// How a range of chunks is said: "no chunks", "chunk 4", "chunks 0-9".
pub fn describe_chunks(chunks: &Range<u64>) -> String {
    match chunks.end.saturating_sub(chunks.start) {
        0 => "no chunks".to_owned(),
        1 => format!("chunk {}", chunks.start),
        _ => format!("chunks {}-{}", chunks.start, chunks.end - 1),
    }
}

/// The file in the directory that records the run's settings.
pub const MANIFEST: &str = "datagen.txt";
/// The longest manifest read: a few hundred bytes of settings, with room to spare.
const MAX_MANIFEST_LEN: u64 = 64 << 10;

/// The file name of chunk `chunk`.
pub fn chunk_name(chunk: u64) -> String {
    format!("chunk-{chunk:06}.samples")
}

/// The chunk number of a chunk file's name.
pub fn chunk_number(name: &str) -> Option<u64> {
    let digits = name.strip_prefix("chunk-")?.strip_suffix(".samples")?;
    if digits.len() < 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The manifest's text for `run` made by an engine with fingerprint `engine`.
pub fn manifest(run: &ChunkRun, engine: u64) -> String {
    let c = &run.config;
    format!(
        "# xiangqi datagen --dir: the settings of every chunk here. The same command makes the\n\
         # missing chunks; other settings are refused.\n\
         format {}\nseed {}\nnodes {}\nrandom-plies {}\nskip-plies {}\nmax-plies {}\nhash {}\n\
         chunk-games {}\nengine {engine:016x}\n",
        samples::VERSION,
        run.seed,
        c.nodes,
        c.random_plies,
        c.skip_plies,
        c.max_plies,
        c.hash_mb,
        run.chunk_games,
    )
}

/// A fingerprint of how the engine plays with `network` (`None`: the hand-made evaluation): a
/// hash of a short fixed self-play game (24 plies at 2,000 nodes a move, some 50,000 nodes in
/// all). Any change to the search or the evaluation almost surely changes a move or a score,
/// and with it the fingerprint.
pub fn engine_fingerprint(network: Option<Arc<Network>>) -> Result<u64> {
    let config = Config {
        nodes: 2000,
        random_plies: 4,
        skip_plies: 0,
        max_plies: 24,
        hash_mb: 1,
        network,
    };
    let game = selfplay::play(&mut Searcher::new(&config), &config, 0)?;
    let file = samples::encode_file(&game.samples()?, 1);
    // The header's checksum is the hash of the records.
    let mut checksum = [0u8; 8];
    checksum.copy_from_slice(&file[24..HEADER_SIZE]);
    Ok(u64::from_le_bytes(checksum))
}

/// Gets `dir` ready for `run` (made and given its manifest, or checked against it; temporary
/// files removed; existing chunks checked) and returns the chunks still to make, in order.
pub fn prepare(dir: &Path, run: &ChunkRun) -> Result<Vec<u64>> {
    if run.chunk_games == 0 {
        bail!("--chunk-games must be at least 1");
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let wanted = manifest(run, engine_fingerprint(run.config.network.clone())?);
    let manifest_path = dir.join(MANIFEST);
    match reading::read(&manifest_path, MAX_MANIFEST_LEN) {
        Ok(found) => compare_manifests(dir, &String::from_utf8_lossy(&found), &wanted)?,
        Err(e) if e.is_not_found() => {
            if let Some(name) = chunk_files(dir)?.first() {
                bail!(
                    "{} holds {name} but no {MANIFEST}: its settings are unknown; use another \
                     directory",
                    dir.display()
                );
            }
            disk::replace(&manifest_path, wanted.as_bytes())?;
        }
        Err(e) => return Err(e.into()),
    }
    disk::remove_stale_temps(dir);
    let mut missing = Vec::new();
    for chunk in run.chunks.clone() {
        let path = dir.join(chunk_name(chunk));
        if path.exists() {
            check_chunk(&path, run.chunk_games)?;
        } else {
            missing.push(chunk);
        }
    }
    Ok(missing)
}

/// Refuses a directory made with other settings, naming them.
fn compare_manifests(dir: &Path, found: &str, wanted: &str) -> Result<()> {
    let settings = |text: &str| -> Vec<(String, String)> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let (key, value) = l.split_once(' ').unwrap_or((l, ""));
                (key.to_owned(), value.trim().to_owned())
            })
            .collect()
    };
    let (found, wanted) = (settings(found), settings(wanted));
    if found == wanted {
        return Ok(());
    }
    let mut differences = Vec::new();
    for (key, value) in &wanted {
        let there = found
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str());
        if there != Some(value) {
            let there = there.unwrap_or("nothing");
            differences.push(format!("{key} {there} there, {value} here"));
        }
    }
    if differences.is_empty() {
        differences.push(format!(
            "{MANIFEST} has settings this program does not know"
        ));
    }
    let engine_note = if differences.iter().any(|d| d.starts_with("engine ")) {
        " (the engine's fingerprint differs: this build plays differently from the one that \
         made the chunks)"
    } else {
        ""
    };
    bail!(
        "{} holds chunks made with other settings: {}{engine_note}; use another directory, or \
         the same settings",
        dir.display(),
        differences.join(", ")
    )
}

/// The chunk files in `dir`, by name.
fn chunk_files(dir: &Path) -> Result<Vec<String>> {
    let mut names = Vec::new();
    let items = std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for item in items {
        let name = item?.file_name().to_string_lossy().into_owned();
        if chunk_number(&name).is_some() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// The chunk files of a directory, in chunk order.
pub fn chunk_paths(dir: &Path) -> Result<Vec<PathBuf>> {
    Ok(chunk_files(dir)?
        .into_iter()
        .map(|name| dir.join(name))
        .collect())
}

/// Checks an existing chunk's header and length (reading the records is for `--stats`).
fn check_chunk(path: &Path, chunk_games: u32) -> Result<()> {
    let fail = |why: String| {
        anyhow!(
            "{}: {why}; delete it and run again to make it anew",
            path.display()
        )
    };
    let mut head = Vec::with_capacity(HEADER_SIZE);
    let mut file = reading::open(path)?;
    let len = file.metadata()?.len();
    file.by_ref()
        .take(HEADER_SIZE as u64)
        .read_to_end(&mut head)?;
    let header = samples::decode_header(&head).map_err(|e| fail(e.to_string()))?;
    if len != header.file_len() {
        return Err(fail(format!(
            "{len} bytes long, where its header announces {} records ({} bytes)",
            header.records,
            header.file_len()
        )));
    }
    if header.games != chunk_games {
        return Err(fail(format!(
            "holds {} games, where --chunk-games is {chunk_games}",
            header.games
        )));
    }
    Ok(())
}

/// A chunk just written, for the progress line.
#[derive(Clone, Debug, Default)]
pub struct ChunkDone {
    /// Its number.
    pub chunk: u64,
    /// Positions in it.
    pub positions: usize,
    /// Plies played in its games.
    pub plies: u64,
    /// Its games' results: Red wins, draws, Black wins.
    pub results: [u32; 3],
}

/// Makes the chunks `missing` of `run` in `dir`, in order, calling `progress` after writing
/// each; an error from `progress` stops the run (the chunks written so far stay).
pub fn generate(
    dir: &Path,
    run: &ChunkRun,
    missing: &[u64],
    mut progress: impl FnMut(&ChunkDone) -> Result<()>,
) -> Result<()> {
    let per_chunk = u64::from(run.chunk_games);
    let config = &run.config;
    let mut samples: Vec<Sample> = Vec::new();
    let mut done = ChunkDone::default();
    schedule::run_in_order(
        missing.len() as u64 * per_chunk,
        run.concurrency,
        || Searcher::new(config),
        |searcher, job| {
            let chunk = missing[(job / per_chunk) as usize];
            let game = job % per_chunk;
            let seed = game_seed(chunk_seed(run.seed, chunk), game);
            let played = selfplay::play(searcher, config, seed)
                .with_context(|| format!("chunk {chunk}, game {}", game + 1))?;
            let chunk_samples = played.samples()?;
            Ok((played, chunk_samples))
        },
        |job, (played, game_samples)| {
            samples.extend(game_samples);
            done.plies += played.plies as u64;
            let slot = match played.result {
                GameResult::RedWin => 0,
                GameResult::Draw => 1,
                GameResult::BlackWin => 2,
            };
            done.results[slot] += 1;
            if job % per_chunk + 1 < per_chunk {
                return Ok(());
            }
            done.chunk = missing[(job / per_chunk) as usize];
            done.positions = samples.len();
            let path = dir.join(chunk_name(done.chunk));
            let bytes = samples::encode_file(&samples, run.chunk_games);
            disk::replace(&path, &bytes)?;
            samples.clear();
            let finished = std::mem::take(&mut done);
            progress(&finished)
        },
    )
}

/// Runs `datagen --dir`: the missing chunks, a progress line per chunk on stderr.
pub fn run(run: &ChunkRun, dir: &Path) -> Result<()> {
    let missing = prepare(dir, run)?;
    let wanted = run.chunks.end.saturating_sub(run.chunks.start);
    let present = wanted - missing.len() as u64;
    let range = format!(" ({})", describe_chunks(&run.chunks));
    eprintln!(
        "{}: {present} of {wanted} chunks{range} present, making {} ({} games of {} nodes a \
         move each, {} at once)",
        dir.display(),
        missing.len(),
        run.chunk_games,
        run.config.nodes,
        run.concurrency
    );
    let started = Instant::now();
    let (mut made, mut positions, mut results) = (0u64, 0u64, [0u64; 3]);
    generate(dir, run, &missing, |chunk| {
        made += 1;
        positions += chunk.positions as u64;
        for (total, n) in results.iter_mut().zip(chunk.results) {
            *total += u64::from(n);
        }
        let seconds = started.elapsed().as_secs_f64();
        let games = (made * u64::from(run.chunk_games)) as f64;
        let left = (missing.len() as u64 - made) as f64 * seconds / made as f64;
        eprintln!(
            "{} ({made}/{}): {} positions, {:.0} plies/game | {positions} positions in \
             {:.1} min, {:.0} positions/s, W/D/L {:.0}/{:.0}/{:.0} % (Red), {:.0} min left",
            chunk_name(chunk.chunk),
            missing.len(),
            chunk.positions,
            chunk.plies as f64 / f64::from(run.chunk_games),
            seconds / 60.0,
            positions as f64 / seconds,
            100.0 * results[0] as f64 / games,
            100.0 * results[1] as f64 / games,
            100.0 * results[2] as f64 / games,
            left / 60.0,
        );
        Ok(())
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let held = describe_chunks(&run.chunks);
    eprintln!(
        "done: {} holds {held}; {made} made now, {positions} positions in {seconds:.1} s \
         ({:.0} positions/s)",
        dir.display(),
        positions as f64 / seconds.max(1e-9),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(chunks: u64, concurrency: usize) -> ChunkRun {
        ChunkRun {
            chunks: 0..chunks,
            chunk_games: 2,
            seed: 21,
            config: Config::tiny(),
            concurrency,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("xiangqi-chunks-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut all: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|item| {
                let item = item.unwrap();
                let name = item.file_name().to_string_lossy().into_owned();
                (name, std::fs::read(item.path()).unwrap())
            })
            .collect();
        all.sort();
        all
    }

    fn make(dir: &Path, run: &ChunkRun) {
        let missing = prepare(dir, run).unwrap();
        generate(dir, run, &missing, |_| Ok(())).unwrap();
    }

    #[test]
    fn a_stopped_run_resumed_gives_the_same_files() {
        let whole = scratch("whole");
        make(&whole, &tiny(3, 2));
        let expected = files(&whole);
        let names: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "chunk-000000.samples",
                "chunk-000001.samples",
                "chunk-000002.samples",
                MANIFEST
            ]
        );
        for (name, bytes) in &expected[..3] {
            let file = samples::decode_file(bytes).unwrap();
            assert_eq!(file.games, 2);
            assert!(!file.samples.is_empty(), "{name}");
        }

        // Stopped after its first chunk while the other thread was playing, with a temporary
        // file left behind; then resumed on one thread.
        let stopped = scratch("stopped");
        let run = tiny(3, 2);
        let missing = prepare(&stopped, &run).unwrap();
        assert_eq!(missing, [0, 1, 2]);
        let result = generate(&stopped, &run, &missing, |_| bail!("stopped"));
        assert_eq!(result.unwrap_err().to_string(), "stopped");
        std::fs::write(stopped.join(".chunk-000001.samples.tmp"), b"half a chunk").unwrap();
        let resumed = tiny(3, 1);
        assert_eq!(prepare(&stopped, &resumed).unwrap(), [1, 2]);
        make(&stopped, &resumed);
        assert_eq!(files(&stopped), expected);

        // Made two chunks at a time, with a gap: the same again.
        let extended = scratch("extended");
        make(&extended, &tiny(1, 1));
        std::fs::remove_file(extended.join(chunk_name(0))).unwrap();
        make(&extended, &tiny(2, 2));
        make(&extended, &tiny(3, 2));
        assert_eq!(files(&extended), expected);

        for dir in [whole, stopped, extended] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }

    #[test]
    fn other_settings_and_broken_chunks_are_refused() {
        let dir = scratch("refused");
        make(&dir, &tiny(2, 1));
        let mut other = tiny(2, 1);
        other.config.nodes = 400;
        let error = prepare(&dir, &other).unwrap_err().to_string();
        assert!(error.contains("nodes 300 there, 400 here"), "{error}");
        let mut larger = tiny(2, 1);
        larger.chunk_games = 3;
        let error = prepare(&dir, &larger).unwrap_err().to_string();
        assert!(error.contains("chunk-games 2 there, 3 here"), "{error}");
        // The same settings with the other evaluation: the fingerprint tells them apart.
        let mut hand_made = tiny(2, 1);
        hand_made.config.network = None;
        let error = prepare(&dir, &hand_made).unwrap_err().to_string();
        assert!(error.contains("plays differently"), "{error}");
        let manifest_text = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
        let changed = manifest_text.replace("engine ", "engine f");
        std::fs::write(dir.join(MANIFEST), changed).unwrap();
        let error = prepare(&dir, &tiny(2, 1)).unwrap_err().to_string();
        assert!(error.contains("plays differently"), "{error}");
        std::fs::write(dir.join(MANIFEST), manifest_text).unwrap();

        let chunk = dir.join(chunk_name(1));
        let bytes = std::fs::read(&chunk).unwrap();
        std::fs::write(&chunk, &bytes[..bytes.len() - 5]).unwrap();
        let error = prepare(&dir, &tiny(2, 1)).unwrap_err().to_string();
        assert!(error.contains("chunk-000001.samples:"), "{error}");
        assert!(error.contains("delete it"), "{error}");
        std::fs::remove_file(&chunk).unwrap();
        assert_eq!(prepare(&dir, &tiny(2, 1)).unwrap(), [1]);

        std::fs::remove_file(dir.join(MANIFEST)).unwrap();
        let error = prepare(&dir, &tiny(2, 1)).unwrap_err().to_string();
        assert!(error.contains("no datagen.txt"), "{error}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn chunk_ranges_read_as_job_arrays_write_them() {
        assert_eq!(parse_chunks("5"), Ok(0..5));
        assert_eq!(parse_chunks("1000..1999"), Ok(1000..2000));
        assert_eq!(parse_chunks("7..7"), Ok(7..8));
        assert!(parse_chunks("9..3")
            .unwrap_err()
            .contains("ends before it starts"));
        assert!(parse_chunks("3..")
            .unwrap_err()
            .contains("not a chunk count"));
        assert!(parse_chunks("-1").is_err());
        assert!(parse_chunks(&format!("0..{}", u64::MAX)).is_err());
        assert_eq!(describe_chunks(&(4..4)), "no chunks");
        assert_eq!(describe_chunks(&(4..5)), "chunk 4");
        assert_eq!(describe_chunks(&(1000..2000)), "chunks 1000-1999");
    }

    #[test]
    fn chunk_names_read_back() {
        assert_eq!(chunk_name(7), "chunk-000007.samples");
        assert_eq!(chunk_number("chunk-000007.samples"), Some(7));
        assert_eq!(chunk_number("chunk-1234567.samples"), Some(1_234_567));
        assert_eq!(chunk_number(".chunk-000007.samples.tmp"), None);
        assert_eq!(chunk_number("chunk-7.samples"), None);
        assert_eq!(chunk_number("datagen.txt"), None);
    }
}
