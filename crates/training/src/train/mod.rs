//! `xiangqi train`: trains the evaluation network (see `xiangqi_engine::nnue`) on the sample
//! chunks of `xiangqi datagen --dir`, and writes it as a network file.
//!
//! ```text
//! xiangqi train --data data/run1 --hidden 128 --epochs 10 --out first.nnue \
//!   --checkpoint first.ckpt
//! ```
//!
//! Each position's target blends the search's score and the game's result,
//! `λ · sigmoid(K · score) + (1 − λ) · result`, with `K` fitted to the training data as the
//! Texel tuner does (unless `--k` gives it). The loss is the mean squared error between
//! `sigmoid(K · SCALE · y)` (the network's output `y`, read in centi-soldiers) and the target.
//! Adam takes one step per batch; the learning rate falls along a cosine over the whole
//! training. The last chunk files are held out: the validation loss is measured on them with the
//! float network and with the exported integer one (the engine's own evaluation).
//!
//! Determinism: the same data, seed and settings give the same network file, byte for byte, on
//! any number of threads. Each batch is cut into a fixed number of shards ([`shards`]) whose
//! gradients are added in shard order; the optimiser's step is per parameter; the initial
//! weights come from the seed and each epoch's order from the seed and the epoch.
//!
//! Files: [`data`] reads and holds the positions, [`model`] is the network with its forward
//! and backward passes and its export, [`adam`] the optimiser, [`shards`] the parallel work,
//! [`trainer`] the loop and the losses, [`checkpoint`] saves and restores a training,
//! [`progress`] is the line on stderr.

pub mod adam;
pub mod checkpoint;
pub mod data;
pub mod model;
pub mod progress;
pub mod shards;
pub mod trainer;

use anyhow::{bail, Context, Result};
use clap::Args;
use data::Positions;
use model::Shape;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;
use trainer::{Settings, State};
use xiangqi::Position;
use xiangqi_engine::nnue::{Network, MAX_HIDDEN, MAX_OUTPUT_BUCKETS};
use xiangqi_files::disk;

/// Arguments of `train`.
#[derive(Args, Clone, Debug)]
pub struct TrainArgs {
    /// A directory of sample chunks from `xiangqi datagen --dir` (or one sample file); repeat
    /// for more. Chunks are taken in the order given, each directory's by name.
    #[arg(long = "data", value_name = "DIR", required = true)]
    pub data: Vec<PathBuf>,
    /// Chunk files held out to measure the validation loss: the last N of the list (default:
    /// one in 20, at least 1).
    #[arg(long, value_name = "N")]
    pub validation_chunks: Option<usize>,
    /// Units in the first layer, for each side: a multiple of 16, at most 1024.
    #[arg(long, default_value_t = 128, value_name = "H")]
    pub hidden: usize,
    /// Output layers, one of which evaluates a position by its number of pieces (1 to 8; with
    /// 8: 2–4 pieces, 5–8, …, 29–32).
    #[arg(long, default_value_t = 1, value_name = "B")]
    pub output_buckets: usize,
    /// Train a set of first-layer inputs for each palace square of the side's own general
    /// (king buckets), factorised with a set shared by all squares.
    #[arg(long)]
    pub king_buckets: bool,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10, value_name = "E")]
    pub epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384, value_name = "B")]
    pub batch: usize,
    /// Adam's learning rate at the first step; it falls along a cosine to 1/20 of that at the
    /// last step of the last epoch.
    #[arg(long, default_value_t = 0.001, value_name = "LR")]
    pub lr: f64,
    /// How much the target leans on the search's score: target = L · sigmoid(K · score) +
    /// (1 − L) · result (1: the scores alone, 0: the results alone).
    #[arg(long, default_value_t = 0.5, value_name = "L")]
    pub lambda: f64,
    /// The scaling constant per centi-soldier (default: the K with which sigmoid(K · score)
    /// best fits the training positions' results).
    #[arg(long, value_name = "K")]
    pub k: Option<f64>,
    /// Seed of the initial weights and of each epoch's order.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Train every position only as it stands. By default half of each epoch's positions
    /// (a different half each epoch) are trained with their files mirrored (a ↔ i): a position
    /// and its mirror image are worth the same, so the data teaches twice as much.
    #[arg(long)]
    pub no_flip_files: bool,
    /// Write the network of the last epoch to --out, instead of the epoch with the lowest
    /// validation loss.
    #[arg(long)]
    pub last_epoch: bool,
    /// Threads (the network is the same on any number).
    #[arg(long, default_value_t = 2, value_name = "T")]
    pub threads: usize,
    /// The network file written at the end: the epoch with the lowest validation loss (see
    /// --last-epoch).
    #[arg(long, default_value = "xiangqi.nnue", value_name = "FILE")]
    pub out: PathBuf,
    /// A checkpoint file, written after every epoch: the float weights, the optimiser's state
    /// and the epochs done.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Go on from --checkpoint, with the same data and settings (--threads may differ); the
    /// network is then the same as that of a training that never stopped.
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
    /// Stop after this many epochs (counted from the first), leaving --checkpoint to resume
    /// from and writing no --out: splits a long training into sittings.
    #[arg(long, value_name = "E", requires = "checkpoint")]
    pub stop_after: Option<usize>,
}

/// Most positions the integer network's validation loss is measured on (evenly spread over the
/// held-out ones): each needs a full position for the engine's evaluation.
pub const QUANTIZED_POSITIONS: usize = 100_000;
/// Most positions `K` is fitted on (evenly spread): plenty for one number, and quick.
const FIT_POSITIONS: usize = 1_000_000;
/// Threads of the `K` fit: fixed, as its sums depend on the number of threads and `K` must not.
const FIT_THREADS: usize = 2;

/// One epoch's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch's number, from 1.
    pub epoch: usize,
    /// Mean training loss over the epoch.
    pub train: f64,
    /// Validation loss of the float network.
    pub validation: f64,
    /// Validation loss of the exported integer network.
    pub quantized: f64,
    /// Seconds the epoch took, validation included.
    pub seconds: f64,
}

/// What a run of the trainer produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The scaling constant used.
    pub k: f64,
    /// The epochs run by this call (not those before a resume).
    pub epochs: Vec<EpochReport>,
    /// The network file's bytes, as written to `--out` (not written when `--stop-after`
    /// stopped the training early).
    pub network: Vec<u8>,
}

/// Checks the arguments that need no data.
fn check(args: &TrainArgs) -> Result<()> {
    if args.hidden == 0 || args.hidden % 16 != 0 || args.hidden > MAX_HIDDEN {
        bail!(
            "--hidden {}: the engine takes a multiple of 16 from 16 to {MAX_HIDDEN}",
            args.hidden
        );
    }
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&args.output_buckets) {
        bail!(
            "--output-buckets {}: the engine takes 1 to {MAX_OUTPUT_BUCKETS}",
            args.output_buckets
        );
    }
    if args.epochs == 0 {
        bail!("--epochs must be at least 1");
    }
    if args.batch == 0 {
        bail!("--batch must be at least 1");
    }
    if !(args.lr.is_finite() && args.lr > 0.0) {
        bail!("--lr must be above 0");
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be from 0 to 1");
    }
    if let Some(k) = args.k {
        if !(k.is_finite() && k > 0.0) {
            bail!("--k must be above 0");
        }
    }
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    Ok(())
}

/// The settings a checkpoint must share with the run that resumes it, one `key=value` line
/// each (floats written so they read back exactly). The output buckets are written only when
/// there are several, so that the checkpoints made before buckets still resume.
pub fn settings_text(settings: &Settings, train: &Positions, validation: &Positions) -> String {
    let mut buckets = match settings.buckets {
        1 => String::new(),
        b => format!("output buckets={b}\n"),
    };
    if settings.king_buckets {
        buckets += "king buckets=yes\n";
    }
    format!(
        "hidden={}\n{buckets}epochs={}\nbatch={}\nlr={}\nlambda={}\nk={}\nseed={}\n\
         flip files={}\ntraining positions={}\ntraining data={:016x}\n\
         validation data={:016x}\n",
        settings.hidden,
        settings.epochs,
        settings.batch,
        settings.lr,
        settings.lambda,
        settings.k,
        settings.seed,
        settings.flip_files,
        train.len(),
        train.fingerprint(),
        validation.fingerprint()
    )
}

/// The `k=` line of a settings text.
fn k_of(text: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix("k="))
        .and_then(|k| k.parse().ok())
}

/// Refuses a checkpoint made with other settings, naming each difference.
fn compare_settings(path: &Path, found: &str, wanted: &str) -> Result<()> {
    let differences: Vec<String> = found
        .lines()
        .zip(wanted.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("{a} there, {b} here"))
        .collect();
    if !differences.is_empty() || found.lines().count() != wanted.lines().count() {
        bail!(
            "the checkpoint {} was made with other settings or data ({}); resume with the \
             command that made it",
            path.display(),
            differences.join("; ")
        );
    }
    Ok(())
}

/// The scaling constant fitted to the training positions (as `xiangqi tune` fits it): the `K`
/// with which `sigmoid(K · score)` best predicts the results.
fn fit_k(train: &Positions) -> f64 {
    let every = train.len().div_ceil(FIT_POSITIONS).max(1);
    let points: Vec<crate::tune::sigmoid::Point> = (0..train.len())
        .step_by(every)
        .map(|i| crate::tune::sigmoid::Point {
            // The fit is symmetric, so the side to move's view serves as well as Red's.
            eval: f64::from(train.score(i)),
            result: f64::from(train.result(i)),
        })
        .collect();
    crate::tune::sigmoid::fit_k(&points, FIT_THREADS)
}

/// Up to [`QUANTIZED_POSITIONS`] held-out positions, evenly spread, with their targets.
fn quantized_positions(files: &[PathBuf], targets: &[f32]) -> Result<Vec<(Position, f32)>> {
    let every = targets.len().div_ceil(QUANTIZED_POSITIONS).max(1);
    let mut positions = Vec::new();
    let mut i = 0;
    for path in files {
        for sample in crate::samples::read_file(path)?.samples {
            if i % every == 0 {
                // A placement the rules library refuses (none in datagen's data) is skipped.
                if let (Ok(pos), Some(&t)) = (sample.to_position(), targets.get(i)) {
                    positions.push((pos, t));
                }
            }
            i += 1;
        }
    }
    Ok(positions)
}

/// The data: the held-out files and the positions of both parts.
struct Data {
    validation_files: Vec<PathBuf>,
    train: Positions,
    validation: Positions,
}

/// Lists, splits and reads the `--data` files.
fn read_data(args: &TrainArgs) -> Result<Data> {
    let started = Instant::now();
    let files = data::list_files(&args.data)?;
    data::refuse_duplicates(&files)?;
    let (train_files, validation_files) = data::split(files, args.validation_chunks)?;
    let train = data::read(&train_files, args.threads)?;
    let validation = data::read(&validation_files, args.threads)?;
    if train.is_empty() {
        bail!("the training chunks hold no positions");
    }
    if validation.is_empty() {
        bail!("the held-out chunks hold no positions");
    }
    eprintln!(
        "read {} training positions ({} files) and {} held out ({} files) in {:.1} s",
        train.len(),
        train_files.len(),
        validation.len(),
        validation_files.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(Data {
        validation_files,
        train,
        validation,
    })
}

/// The settings and the state to start from: a new network, or the checkpoint's with
/// `--resume` (after checking that it was made with the same settings and data). Also returns
/// the settings' text, for the checkpoints to come.
fn start(args: &TrainArgs, data: &Data) -> Result<(Settings, String, State)> {
    let resumed = match (&args.checkpoint, args.resume) {
        (Some(path), true) => Some((path, checkpoint::load(path, shape(args))?)),
        _ => None,
    };
    let k = match (args.k, &resumed) {
        (Some(k), _) => k,
        (None, Some((_, (text, _)))) => {
            let k = k_of(text).context("the checkpoint has no k= line")?;
            eprintln!("K = {k} (the checkpoint's)");
            k
        }
        (None, None) => {
            let k = fit_k(&data.train);
            eprintln!("K = {k:.6} (fitted: sigmoid(K · score) predicts the results best)");
            k
        }
    };
    let settings = Settings {
        hidden: args.hidden,
        buckets: args.output_buckets,
        king_buckets: args.king_buckets,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lambda: args.lambda,
        k,
        seed: args.seed,
        flip_files: !args.no_flip_files,
        threads: args.threads,
    };
    let text = settings_text(&settings, &data.train, &data.validation);
    let state = match resumed {
        Some((path, (found, state))) => {
            compare_settings(path, &found, &text)?;
            eprintln!(
                "resuming from {} after epoch {} of {}",
                path.display(),
                state.epochs_done,
                args.epochs
            );
            state
        }
        None => State::new(&settings),
    };
    Ok((settings, text, state))
}

/// Takes the room of the network file beside `--out` before any work ([`disk::NewFile`]):
/// a training must not run for hours and then fail to save its network, nor find only then
/// that `--out` is a FIFO or a device. The file is written over with the network at the end.
fn reserve_out(out: &Path, shape: Shape) -> Result<disk::NewFile> {
    let mut file = disk::NewFile::create(out)?;
    file.reserve(Network::file_len(shape.hidden, shape.king_buckets, shape.buckets) as u64)?;
    Ok(file)
}

/// The network's architecture, as the arguments ask.
fn shape(args: &TrainArgs) -> Shape {
    Shape {
        hidden: args.hidden,
        buckets: args.output_buckets,
        king_buckets: args.king_buckets,
    }
}

/// Trains as `args` say; `stdout` gets the header and one line per epoch.
pub fn train(args: &TrainArgs, stdout: &mut dyn std::io::Write) -> Result<Outcome> {
    check(args)?;
    let out = match args.stop_after {
        Some(stop) if stop < args.epochs => None,
        _ => Some(reserve_out(&args.out, shape(args))?),
    };
    if let Some(path) = &args.checkpoint {
        disk::check_target(path)?;
    }
    let started = Instant::now();
    let data = read_data(args)?;
    let (settings, text, mut state) = start(args, &data)?;
    if let (Some(path), false) = (&args.checkpoint, args.resume) {
        // The first checkpoint, before the first epoch: a disk without room for one is found
        // now, not an epoch later.
        checkpoint::save(path, &text, &state)?;
    }
    let k = settings.k;
    let (train, validation) = (&data.train, &data.validation);
    let train_targets = trainer::targets(train, k, args.lambda);
    let validation_targets = trainer::targets(validation, k, args.lambda);
    let boards = quantized_positions(&data.validation_files, &validation_targets)?;
    eprintln!(
        "validation loss of the search's own scores, for reference: {:.6}",
        trainer::score_loss(validation, &validation_targets, k)
    );
    writeln!(stdout, "epoch train_loss val_loss val_loss_int seconds")?;
    let mut progress = progress::Progress::new(
        std::io::stderr().is_terminal(),
        args.epochs,
        state.epochs_done,
        train.len(),
    );
    let mut reports = Vec::new();
    let stop = args.stop_after.unwrap_or(args.epochs).min(args.epochs);
    while state.epochs_done < stop {
        let epoch = state.epochs_done;
        let epoch_started = Instant::now();
        let loss =
            trainer::train_epoch(&mut state, train, &train_targets, &settings, &mut |done| {
                progress.batch(epoch, done)
            });
        progress.epoch_done(epoch);
        let validation_loss = trainer::validation_loss(
            &state.model,
            validation,
            &validation_targets,
            k,
            args.threads,
        );
        let network = state.model.to_network()?;
        let quantized = trainer::quantized_loss(&network, &boards, k, args.threads);
        state.offer_best(epoch + 1, validation_loss, || network.to_bytes());
        if let Some(path) = &args.checkpoint {
            checkpoint::save(path, &text, &state)?;
        }
        let report = EpochReport {
            epoch: epoch + 1,
            train: loss,
            validation: validation_loss,
            quantized,
            seconds: epoch_started.elapsed().as_secs_f64(),
        };
        writeln!(
            stdout,
            "{} {:.6} {:.6} {:.6} {:.1}",
            report.epoch, report.train, report.validation, report.quantized, report.seconds
        )?;
        stdout.flush()?;
        reports.push(report);
    }
    let last = state.model.to_network()?.to_bytes();
    let Some(mut out) = out.filter(|_| state.epochs_done == args.epochs) else {
        eprintln!(
            "stopped after epoch {} of {}: resume with --resume",
            state.epochs_done, args.epochs
        );
        return Ok(Outcome {
            k,
            epochs: reports,
            network: last,
        });
    };
    let (network, which) = match &state.best {
        Some(best) if !args.last_epoch => (
            best.network.clone(),
            format!(
                "epoch {} of {}, the lowest validation loss ({:.6})",
                best.epoch, args.epochs, best.loss
            ),
        ),
        _ => (last, format!("the last epoch, {}", args.epochs)),
    };
    out.write_all(&network)?;
    out.commit()?;
    eprintln!(
        "wrote {} ({} units, {} output bucket{}; {which}) in {}",
        args.out.display(),
        args.hidden,
        args.output_buckets,
        if args.output_buckets == 1 { "" } else { "s" },
        progress::duration(started.elapsed().as_secs_f64())
    );
    Ok(Outcome {
        k,
        epochs: reports,
        network,
    })
}

/// Runs `train`.
pub fn run(args: &TrainArgs) -> Result<()> {
    train(args, &mut std::io::stdout().lock()).map(|_| ())
}

#[cfg(test)]
mod tests;
