//! The trainer's tests, on small synthetic data sets written as real chunk files: random games
//! scored by the hand-made evaluation, with results drawn from those scores.

use super::data::{FileFlip, Mirror, Positions};
use super::model::{Gradient, Model, Scratch};
use super::trainer::{self, flipped, Settings, State};
use super::*;
use crate::samples::{encode_file, Sample, Wdl};
use xiangqi::Position;
use xiangqi_engine::nnue::{Network, SCALE};
use xiangqi_engine::random::Rng;
use xiangqi_engine::tuning::DEFAULT_EVALUATOR;

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Positions of random games from the start: the hand-made evaluation's score for the side to
/// move, and a result drawn with the probability that score gives.
fn random_samples(games: usize, seed: u64) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut samples = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for ply in 0..70 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
            if ply < 4 {
                continue;
            }
            let score = DEFAULT_EVALUATOR.evaluate(&pos).clamp(-3000, 3000);
            let p = 1.0 / (1.0 + (-0.004 * f64::from(score)).exp());
            let draw = rng.unit();
            let result = if (0.4..0.6).contains(&draw) {
                Wdl::Draw
            } else if rng.unit() < p {
                Wdl::Win
            } else {
                Wdl::Loss
            };
            samples.push(Sample::new(&pos, score, result, ply + 1));
        }
    }
    samples
}

/// A directory of `chunks` chunk files of `games` random games each.
fn data_dir(name: &str, chunks: usize, games: usize) -> PathBuf {
    let dir = scratch(name);
    for c in 0..chunks {
        let samples = random_samples(games, 100 + c as u64);
        let bytes = encode_file(&samples, games as u32);
        std::fs::write(dir.join(format!("chunk-{c:06}.samples")), bytes).unwrap();
    }
    dir
}

/// Small settings: quick in a test build.
fn args(dir: &Path, out: &Path) -> TrainArgs {
    TrainArgs {
        data: vec![dir.to_path_buf()],
        validation_chunks: Some(1),
        hidden: 16,
        output_buckets: 1,
        king_buckets: false,
        epochs: 3,
        batch: 256,
        lr: 0.01,
        lambda: 0.5,
        k: None,
        seed: 1,
        no_flip_files: false,
        last_epoch: false,
        threads: 2,
        out: out.to_path_buf(),
        checkpoint: None,
        resume: false,
        stop_after: None,
    }
}

fn run_quietly(args: &TrainArgs) -> Result<Outcome> {
    train(args, &mut Vec::new())
}

#[test]
fn the_same_seed_gives_the_same_bytes_on_any_number_of_threads() {
    let dir = data_dir("threads", 3, 6);
    let out = dir.join("net.nnue");
    let mut a = args(&dir, &out);
    a.epochs = 2;
    a.threads = 1;
    let one = run_quietly(&a).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), one.network);
    a.threads = 2;
    let two = run_quietly(&a).unwrap();
    a.threads = 3;
    let three = run_quietly(&a).unwrap();
    assert_eq!(one.network, two.network);
    assert_eq!(one.network, three.network);
    assert_eq!(one.epochs[1].train, three.epochs[1].train);
    assert_eq!(one.epochs[1].validation, three.epochs[1].validation);
    a.seed = 2;
    assert_ne!(run_quietly(&a).unwrap().network, one.network);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_loss_falls_over_the_epochs() {
    let dir = data_dir("falls", 4, 8);
    let out = dir.join("net.nnue");
    let mut a = args(&dir, &out);
    a.epochs = 5;
    let mut lines = Vec::new();
    let outcome = train(&a, &mut lines).unwrap();
    let text = String::from_utf8(lines).unwrap();
    assert!(text.starts_with("epoch train_loss val_loss val_loss_int seconds\n"));
    assert_eq!(text.lines().count(), 6, "{text}");
    let e = &outcome.epochs;
    assert!(e[4].train < e[0].train * 0.9, "{e:#?}");
    assert!(e[4].validation < e[0].validation, "{e:#?}");
    assert!(e[4].quantized < e[0].quantized, "{e:#?}");
    // The fitted K is near the one the results were drawn with (0.004 per centi-soldier),
    // lowered by the draws mixed in.
    assert!((0.001..0.006).contains(&outcome.k), "K {}", outcome.k);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_exported_network_evaluates_as_the_float_one() {
    for (buckets, king_buckets) in [(1, false), (4, false), (1, true)] {
        exported_network_evaluates_as_the_float_one(buckets, king_buckets);
    }
}

fn exported_network_evaluates_as_the_float_one(buckets: usize, king_buckets: bool) {
    let samples = random_samples(12, 7);
    let mut data = Positions::default();
    for s in &samples {
        data.push(s.pieces(), s.side_to_move(), s.score(), 0.5);
    }
    let settings = Settings {
        hidden: 32,
        buckets,
        king_buckets,
        epochs: 3,
        batch: 128,
        lr: 0.01,
        lambda: 1.0,
        k: 0.004,
        seed: 5,
        flip_files: false,
        threads: 2,
    };
    let targets = trainer::targets(&data, settings.k, settings.lambda);
    let mut state = State::new(&settings);
    for _ in 0..settings.epochs {
        trainer::train_epoch(&mut state, &data, &targets, &settings, &mut |_| {});
    }
    let bytes = state.model.to_network().unwrap().to_bytes();
    let network = Network::from_bytes(&bytes).unwrap();
    let (mirror, mut scratch) = (Mirror::new(), Scratch::new(32));
    let (mut us, mut them) = ([0u16; 64], [0u16; 64]);
    let shape = settings.shape();
    let rounded = state.model.rounded();
    let (mut worst, mut worst_rounded, mut total, mut spread) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for (i, s) in samples.iter().enumerate() {
        let n = trainer::columns(&data, i, &mirror, None, shape, &mut us, &mut them);
        let float = state.model.evaluate(&us[..n], &them[..n], &mut scratch);
        let on_grid = rounded.evaluate(&us[..n], &them[..n], &mut scratch);
        let integer = network.evaluate(&s.to_position().unwrap()) as f32;
        worst = worst.max((float - integer).abs());
        worst_rounded = worst_rounded.max((on_grid - integer).abs());
        total += (float - integer).abs();
        spread = spread.max(float.abs());
    }
    let mean = total / samples.len() as f32;
    let figures = format!(
        "float vs integer: mean {mean:.2}, worst {worst:.2}; rounded float vs integer: worst \
         {worst_rounded:.2}; largest evaluation {spread:.0} (centi-soldiers)"
    );
    // The network learned something (its evaluations are not all near 0).
    assert!(spread > 100.0, "{figures}");
    // The engine computes exactly what the rounded weights say, up to its integer divisions.
    assert!(worst_rounded <= 1.5, "{figures}");
    // Rounding the output weights to 1/64 moves an evaluation by up to 400/128 centi-soldiers
    // a unit at full activation: a few centi-soldiers on average, more at worst (with four
    // buckets, each trained on its share of these few positions, 4.84 and 19.13 when written).
    let (mean_bound, worst_bound) = if buckets == 1 {
        (4.0, 16.0)
    } else {
        (6.0, 24.0)
    };
    assert!(mean <= mean_bound && worst <= worst_bound, "{figures}");
    eprintln!("{figures}");
}

/// One position's loss computed afresh in f64 from the parameters, by the formulas of the
/// module documentation (independent of [`Model`]'s code).
fn reference_loss(
    params: &[f64],
    shape: Shape,
    us: &[u16],
    them: &[u16],
    target: f64,
    k_scale: f64,
) -> f64 {
    let (h, buckets) = (shape.hidden, shape.buckets);
    let inputs = shape.columns();
    let pieces = us.len() / if shape.king_buckets { 2 } else { 1 };
    let bucket = xiangqi_engine::nnue::output_bucket(pieces as u32, buckets);
    let bias = &params[inputs * h..(inputs + 1) * h];
    let out_start = (inputs + 1) * h + bucket * 2 * h;
    let out = &params[out_start..out_start + 2 * h];
    let mut y = params[params.len() - buckets + bucket];
    for (side, active) in [us, them].into_iter().enumerate() {
        for j in 0..h {
            let mut a = bias[j];
            for &i in active {
                a += params[usize::from(i) * h + j];
            }
            let c = a.clamp(0.0, 1.0);
            y += c * c * out[side * h + j];
        }
    }
    let p = 1.0 / (1.0 + (-k_scale * y).exp());
    (p - target) * (p - target)
}

#[test]
fn the_backward_pass_matches_finite_differences() {
    for (buckets, king_buckets) in [(1, false), (8, false), (2, true)] {
        backward_pass_matches_finite_differences(Shape {
            hidden: 16,
            buckets,
            king_buckets,
        });
    }
}

fn backward_pass_matches_finite_differences(shape: Shape) {
    let h = shape.hidden;
    let mut model = Model::new(shape, 11);
    // Biases away from zero, so that some units sit inside SCReLU's curve and some outside.
    let inputs = shape.columns();
    for (j, b) in model.params_mut()[inputs * h..(inputs + 1) * h]
        .iter_mut()
        .enumerate()
    {
        *b = 0.1 + 0.05 * j as f32;
    }
    let samples = random_samples(1, 3);
    let mut data = Positions::default();
    for s in samples.iter().take(20) {
        data.push(s.pieces(), s.side_to_move(), s.score(), 1.0);
    }
    let mirror = Mirror::new();
    let k_scale = 0.004 * f64::from(SCALE);
    let mut rng = Rng::new(1);
    let mut checked = 0;
    for i in [0, 7, 19] {
        let (mut us, mut them) = ([0u16; 64], [0u16; 64]);
        let n = trainer::columns(&data, i, &mirror, None, shape, &mut us, &mut them);
        let (us, them) = (&us[..n], &them[..n]);
        let target = 0.9f64;
        let mut grad = Gradient::new(shape);
        let mut scratch = Scratch::new(h);
        model.backward(
            us,
            them,
            target as f32,
            k_scale as f32,
            &mut scratch,
            &mut grad,
        );
        let base: Vec<f64> = model.params().iter().map(|&w| f64::from(w)).collect();
        // Parameters to check: the active columns of both sides, the biases, the output
        // weights and bias of the position's bucket and of the next bucket (with several, the
        // next one's gradient is 0), and a column no piece uses (0 too).
        let pieces = us.len() / if shape.king_buckets { 2 } else { 1 };
        let bucket = xiangqi_engine::nnue::output_bucket(pieces as u32, shape.buckets);
        let other = (bucket + 1) % shape.buckets;
        let mut which: Vec<usize> = Vec::new();
        // Every fifth of the columns: with king buckets both bucketed and shared ones.
        for &input in us.iter().chain(them).step_by(5).take(6) {
            which.push(usize::from(input) * h + rng.below(h as u64) as usize);
        }
        which.extend((0..4).map(|j| inputs * h + j * 4));
        which.extend((0..6).map(|j| (inputs + 1) * h + bucket * 2 * h + j * 5));
        which.push(base.len() - shape.buckets + bucket);
        which.push((inputs + 1) * h + other * 2 * h + 3);
        which.push(base.len() - shape.buckets + other);
        let unused = (0..inputs as u16)
            .find(|c| !us.contains(c) && !them.contains(c))
            .unwrap();
        which.push(usize::from(unused) * h);
        for p in which {
            let eps = 1e-5;
            let mut plus = base.clone();
            plus[p] += eps;
            let mut minus = base.clone();
            minus[p] -= eps;
            let numeric = (reference_loss(&plus, shape, us, them, target, k_scale)
                - reference_loss(&minus, shape, us, them, target, k_scale))
                / (2.0 * eps);
            let analytic = f64::from(grad.values[p]);
            assert!(
                (numeric - analytic).abs() <= 1e-4 * numeric.abs().max(1e-2),
                "parameter {p}: finite differences {numeric}, backward {analytic}"
            );
            checked += 1;
        }
        // The float forward pass is the reference's.
        let float = model.loss(us, them, target as f32, k_scale as f32, &mut scratch);
        let reference = reference_loss(&base, shape, us, them, target, k_scale);
        assert!((f64::from(float) - reference).abs() < 1e-5);
    }
    assert_eq!(checked, 3 * 20);
}

#[test]
fn a_network_with_buckets_is_written_and_loads() {
    let dir = data_dir("buckets", 3, 4);
    let out = dir.join("net.nnue");
    let mut a = args(&dir, &out);
    a.output_buckets = 4;
    a.king_buckets = true;
    a.checkpoint = Some(dir.join("train.ckpt"));
    let outcome = run_quietly(&a).unwrap();
    let network = Network::load(&out).unwrap();
    assert_eq!(
        (network.output_buckets(), network.has_king_buckets()),
        (4, true)
    );
    assert_eq!(network.to_bytes(), outcome.network);
    // A checkpoint of other buckets does not resume.
    a.resume = true;
    for (output_buckets, king_buckets) in [(1, true), (4, false)] {
        a.output_buckets = output_buckets;
        a.king_buckets = king_buckets;
        // Refused by its size, or by its number of parameters.
        let err = format!("{:#}", run_quietly(&a).unwrap_err());
        assert!(err.contains("checkpoint"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resumed_training_ends_with_the_same_network() {
    let dir = data_dir("resume", 3, 6);
    let out = dir.join("net.nnue");
    let mut a = args(&dir, &out);
    a.epochs = 2;
    let straight = run_quietly(&a).unwrap();
    std::fs::remove_file(&out).unwrap();
    a.checkpoint = Some(dir.join("train.ckpt"));
    a.stop_after = Some(1);
    let first = run_quietly(&a).unwrap();
    assert_eq!(first.epochs.len(), 1);
    assert!(!out.exists(), "a stopped training writes no network");
    a.stop_after = None;
    a.resume = true;
    a.threads = 1;
    let resumed = run_quietly(&a).unwrap();
    assert_eq!(resumed.epochs.len(), 1);
    assert_eq!(resumed.epochs[0].epoch, 2);
    assert_eq!(resumed.k, straight.k);
    assert_eq!(resumed.network, straight.network);
    assert_eq!(std::fs::read(&out).unwrap(), straight.network);
    // Resuming a finished training writes the network again and trains no more.
    assert!(run_quietly(&a).unwrap().epochs.is_empty());
    // Other settings are refused, naming the difference.
    a.lr = 0.02;
    let err = format!("{:#}", run_quietly(&a).unwrap_err());
    assert!(err.contains("lr=0.01 there, lr=0.02 here"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_gives_errors_that_say_what_is_wrong() {
    let dir = data_dir("bad", 2, 2);
    let out = dir.join("net.nnue");
    let error = |a: &TrainArgs| format!("{:#}", run_quietly(a).unwrap_err());
    let mut a = args(&dir.join("missing"), &out);
    assert!(error(&a).contains("no such directory"), "{}", error(&a));
    let empty = scratch("bad-empty");
    a.data = vec![empty.clone()];
    assert!(error(&a).contains("holds no chunk files"), "{}", error(&a));
    a.data = vec![dir.clone()];
    a.validation_chunks = Some(2);
    assert!(error(&a).contains("at least one more"), "{}", error(&a));
    a.validation_chunks = Some(0);
    assert!(error(&a).contains("at least 1"), "{}", error(&a));
    a.validation_chunks = Some(1);
    a.hidden = 100;
    assert!(error(&a).contains("multiple of 16"), "{}", error(&a));
    a.hidden = 16;
    for buckets in [0, 9] {
        a.output_buckets = buckets;
        assert!(error(&a).contains("--output-buckets"), "{}", error(&a));
    }
    a.output_buckets = 1;
    a.lambda = 1.5;
    assert!(error(&a).contains("--lambda"), "{}", error(&a));
    a.lambda = 0.5;
    a.checkpoint = Some(dir.join("none.ckpt"));
    a.resume = true;
    assert!(
        error(&a).contains("cannot read the checkpoint"),
        "{}",
        error(&a)
    );
    a.checkpoint = None;
    a.resume = false;
    // An --out that cannot be written is refused before any work.
    a.out = dir.join("missing").join("net.nnue");
    let e = error(&a);
    assert!(
        e.starts_with("could not save") && e.contains("its folder does not exist"),
        "{e}"
    );
    a.out = dir.clone();
    assert!(error(&a).contains("it is a directory"), "{}", error(&a));
    a.out = out.clone();
    // A corrupt chunk: the error names the file and the byte.
    let chunk = dir.join("chunk-000000.samples");
    let mut bytes = std::fs::read(&chunk).unwrap();
    bytes[32 + 12] = 0xff;
    std::fs::write(&chunk, bytes).unwrap();
    let e = error(&a);
    assert!(
        e.contains("chunk-000000.samples") && e.contains("offset 44"),
        "{e}"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();
}

#[test]
fn the_network_written_is_that_of_the_best_epoch() {
    let dir = data_dir("best", 3, 6);
    let out = dir.join("net.nnue");
    let mut a = args(&dir, &out);
    // A learning rate far too high, so the validation loss does not fall all the way.
    a.lr = 0.3;
    a.epochs = 4;
    a.checkpoint = Some(dir.join("train.ckpt"));
    // Each epoch's own network, from trainings stopped after it (a stopped training returns
    // its last epoch's network); the finished one writes --out.
    let mut each = Vec::new();
    let mut reports = Vec::new();
    for stop in 1..=a.epochs {
        a.stop_after = (stop < a.epochs).then_some(stop);
        a.resume = stop > 1;
        let outcome = run_quietly(&a).unwrap();
        reports.extend(outcome.epochs.clone());
        each.push(outcome.network);
    }
    let best = (0..reports.len())
        .min_by(|&x, &y| reports[x].validation.total_cmp(&reports[y].validation))
        .unwrap();
    assert!(
        best < a.epochs - 1,
        "the test needs a best epoch before the last"
    );
    let written = std::fs::read(&out).unwrap();
    assert!(written == each[best], "--out holds epoch {}", best + 1);
    // A straight run writes the same, and --last-epoch writes another network: the last's.
    a.checkpoint = None;
    a.stop_after = None;
    a.resume = false;
    assert!(run_quietly(&a).unwrap().network == written);
    a.last_epoch = true;
    let last = run_quietly(&a).unwrap().network;
    assert!(last != written && std::fs::read(&out).unwrap() == last);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn file_flips_mirror_the_board_and_split_each_position_over_the_epochs() {
    let flip = FileFlip::new();
    let mirror = Mirror::new();
    let pos =
        Position::from_fen("2bak4/4a4/4b1n2/p3p1N1p/2p6/6P2/P3P3P/4B2C1/4A4/3AK1B2 b - - 0 1")
            .unwrap();
    let mut data = Positions::default();
    let mut mirrored = Positions::default();
    let sample = Sample::new(&pos, 0, Wdl::Draw, 1);
    data.push(sample.pieces(), pos.side_to_move(), 0, 0.5);
    let image = Sample::new(&pos.mirror_files(), 0, Wdl::Draw, 1);
    mirrored.push(image.pieces(), pos.side_to_move(), 0, 0.5);
    let (mut us, mut them, mut us2, mut them2) = ([0u16; 32], [0u16; 32], [0u16; 32], [0u16; 32]);
    let n = data.inputs(0, &mirror, &mut us, &mut them);
    assert_eq!(mirrored.inputs(0, &mirror, &mut us2, &mut them2), n);
    let original = us;
    flip.apply(&mut us[..n]);
    flip.apply(&mut them[..n]);
    assert_ne!(us, original);
    let sorted = |x: &[u16]| {
        let mut v = x.to_vec();
        v.sort_unstable();
        v
    };
    assert_eq!(sorted(&us[..n]), sorted(&us2[..n]));
    assert_eq!(sorted(&them[..n]), sorted(&them2[..n]));
    flip.apply(&mut us[..n]);
    assert_eq!(us, original, "mirroring twice gives the position back");
    // Each position is mirrored in one of two consecutive epochs; about half in each.
    let flipped_first = (0..10_000).filter(|&i| flipped(7, 0, i)).count();
    assert!((4_700..5_300).contains(&flipped_first), "{flipped_first}");
    assert!((0..10_000).all(|i| flipped(7, 0, i) != flipped(7, 1, i)));
    assert!((0..10_000).all(|i| flipped(7, 2, i) == flipped(7, 0, i)));
}

/// The program's own files and temporary files in `dir`: what a failed run must not leave.
fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|item| item.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with("chunk-"))
        .collect();
    names.sort();
    names
}

/// On a full disk the network's room is not there: the training stops before its first epoch
/// (it once trained every epoch, then lost the network), and leaves no temporary file.
#[test]
fn a_full_disk_is_found_before_the_first_epoch() {
    let dir = data_dir("full", 2, 2);
    let out = dir.join("net.nnue");
    std::fs::write(&out, b"an older network").unwrap();
    xiangqi_files::disk::faults::fill(&dir);
    let mut stdout = Vec::new();
    let result = train(&args(&dir, &out), &mut stdout);
    xiangqi_files::disk::faults::clear(&dir);
    let e = format!("{:#}", result.unwrap_err());
    assert_eq!(
        e,
        format!(
            "could not save {}: the disk is full (injected by a test)",
            out.display()
        )
    );
    assert!(stdout.is_empty(), "{}", String::from_utf8_lossy(&stdout));
    assert_eq!(std::fs::read(&out).unwrap(), b"an older network");
    assert_eq!(file_names(&dir), ["net.nnue"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--out` and `--checkpoint` naming a FIFO are refused before any work, and the FIFO stays a
/// FIFO (a rename once put a file in its place, as it would have put one in place of
/// `/dev/null`).
#[test]
#[cfg(unix)]
fn outputs_that_are_not_files_are_refused_before_any_work() {
    use std::os::unix::fs::FileTypeExt as _;
    let dir = data_dir("fifo", 2, 2);
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let is_fifo = || {
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    };
    let expected = format!(
        "could not save {}: it is a FIFO, not a regular file",
        fifo.display()
    );
    let mut stdout = Vec::new();
    let e = train(&args(&dir, &fifo), &mut stdout).unwrap_err();
    assert_eq!(format!("{e:#}"), expected);
    assert!(stdout.is_empty() && is_fifo());
    let mut a = args(&dir, &dir.join("net.nnue"));
    a.checkpoint = Some(fifo.clone());
    let e = train(&a, &mut stdout).unwrap_err();
    assert_eq!(format!("{e:#}"), expected);
    assert!(stdout.is_empty() && is_fifo());
    assert_eq!(file_names(&dir), ["fifo"], "no network, no temporary file");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint far longer than any of its network's size is refused unread (`/dev/zero` was
/// read until the memory ran out, a sparse 10 GB file would have been read whole).
#[test]
fn a_checkpoint_too_large_for_its_network_is_refused_unread() {
    let dir = data_dir("huge-checkpoint", 2, 2);
    let checkpoint = dir.join("train.ckpt");
    std::fs::File::create(&checkpoint)
        .unwrap()
        .set_len(100 << 20)
        .unwrap();
    let mut a = args(&dir, &dir.join("net.nnue"));
    a.checkpoint = Some(checkpoint.clone());
    a.resume = true;
    let e = format!("{:#}", run_quietly(&a).unwrap_err());
    assert_eq!(
        e,
        format!(
            "cannot read the checkpoint {}: it is larger than {} bytes",
            checkpoint.display(),
            checkpoint::max_len(Shape::plain(16))
        )
    );
    // `/dev/zero` was read until the memory ran out: as an output it is refused at once.
    #[cfg(unix)]
    {
        a.checkpoint = Some(PathBuf::from("/dev/zero"));
        let e = format!("{:#}", run_quietly(&a).unwrap_err());
        assert_eq!(
            e,
            "could not save /dev/zero: it is a character device, not a regular file"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A chunk file beyond the largest sample file is refused by its length before it is read (a
/// sparse 10 GB one was read whole).
#[test]
fn a_chunk_beyond_the_largest_sample_file_is_refused_unread() {
    let dir = data_dir("huge-chunk", 2, 2);
    let chunk = dir.join("chunk-000001.samples");
    std::fs::File::create(&chunk)
        .unwrap()
        .set_len(crate::samples::MAX_FILE_LEN + 1)
        .unwrap();
    let e = format!(
        "{:#}",
        run_quietly(&args(&dir, &dir.join("net.nnue"))).unwrap_err()
    );
    assert_eq!(
        e,
        format!(
            "cannot read {}: it is larger than 1073741824 bytes",
            chunk.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
