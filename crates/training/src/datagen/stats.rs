//! `xiangqi datagen --stats PATH`: what a data set holds, to check it before training on it.
//! PATH is a `--dir` directory (all its chunk files) or one sample file. Every record is read
//! and checked (a file that fails is named with the offset), and every position is given to the
//! rules library.
//!
//! Printed: the counts of files, games and positions; the side to move; the results; the
//! scores' mean, spread and percentiles, and a table of score ranges with the share of
//! positions in each and how the games went from there (a good data set has the side with the
//! better score winning more often as the score grows); plies and pieces on the board, and how
//! many of the piece-on-square pairs a game can reach occur (a network's inputs).

use super::chunks;
use crate::samples::{self, Sample, Wdl, MATE_SCORE, MAX_PLY};
use anyhow::{bail, Result};
use std::fmt::Write as _;
use std::path::Path;
use xiangqi::fen::is_reachable;
use xiangqi::{Color, Piece, PieceKind, Square};
use xiangqi_files::out;

/// Upper ends of the score ranges of the table (the last range is open).
const RANGE_TOPS: [i32; 12] = [-801, -401, -201, -101, -51, -21, 20, 50, 100, 200, 400, 800];

/// Running counts over samples.
pub struct Stats {
    files: u64,
    games: u64,
    positions: u64,
    red_to_move: u64,
    /// Results for the side to move, by [`Wdl`] code.
    results: [u64; 3],
    /// Results for Red, by [`Wdl`] code.
    red_results: [u64; 3],
    /// Positions by score, indexed by score + 32768.
    scores: Vec<u64>,
    /// Positions by score range, and their results for the side to move.
    ranges: [[u64; 3]; RANGE_TOPS.len() + 1],
    /// Positions by ply.
    plies: Vec<u64>,
    /// Positions by pieces on the board.
    pieces: [u64; 33],
    /// Positions by piece (its index, colour × 7 + kind) and square: how often a network's
    /// piece-square inputs would be seen.
    placements: Vec<[u64; 90]>,
    /// Positions the rules library refuses, and the first one's FEN and why.
    illegal: u64,
    first_illegal: Option<String>,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            files: 0,
            games: 0,
            positions: 0,
            red_to_move: 0,
            results: [0; 3],
            red_results: [0; 3],
            scores: vec![0; 1 << 16],
            ranges: [[0; 3]; RANGE_TOPS.len() + 1],
            plies: vec![0; usize::from(MAX_PLY) + 1],
            pieces: [0; 33],
            placements: vec![[0; 90]; 14],
            illegal: 0,
            first_illegal: None,
        }
    }
}

impl Stats {
    /// Counts a file's samples and games.
    pub fn add_file(&mut self, file: &samples::SampleFile) {
        self.files += 1;
        self.games += u64::from(file.games);
        for sample in &file.samples {
            self.add(sample);
        }
    }

    /// Counts one sample.
    pub fn add(&mut self, sample: &Sample) {
        self.positions += 1;
        let result = sample.result();
        self.results[result as usize] += 1;
        let red_result = match sample.side_to_move() {
            Color::Red => {
                self.red_to_move += 1;
                result
            }
            Color::Black => result.other(),
        };
        self.red_results[red_result as usize] += 1;
        let score = i32::from(sample.score());
        self.scores[(score + 32768) as usize] += 1;
        let range = RANGE_TOPS.partition_point(|&top| top < score);
        self.ranges[range][result as usize] += 1;
        self.plies[usize::from(sample.ply())] += 1;
        self.pieces[sample.piece_count().min(32) as usize] += 1;
        for (sq, piece) in sample.pieces() {
            self.placements[piece.index()][sq.index()] += 1;
        }
        if let Err(e) = sample.to_position() {
            self.illegal += 1;
            if self.first_illegal.is_none() {
                self.first_illegal = Some(format!("{} ({e})", sample.to_fen()));
            }
        }
    }

    /// The summary, several lines.
    pub fn report(&self) -> String {
        let n = self.positions;
        let mut out = String::new();
        let per_game = if self.games > 0 {
            format!(" ({:.1} a game)", n as f64 / self.games as f64)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{} files, {} games, {n} positions{per_game}",
            self.files, self.games
        );
        if n == 0 {
            return out;
        }
        let _ = writeln!(
            out,
            "side to move: Red {}, Black {}",
            percent(self.red_to_move, n),
            percent(n - self.red_to_move, n)
        );
        let [loss, draw, win] = self.results;
        let _ = writeln!(
            out,
            "results for the side to move: win {}, draw {}, loss {}",
            percent(win, n),
            percent(draw, n),
            percent(loss, n)
        );
        let [black, draw, red] = self.red_results;
        let _ = writeln!(
            out,
            "results for Red: win {}, draw {}, loss {}",
            percent(red, n),
            percent(draw, n),
            percent(black, n)
        );
        self.report_scores(&mut out);
        let plies = Histogram(&self.plies);
        let _ = writeln!(
            out,
            "ply: mean {:.1}, min {}, median {}, max {}",
            plies.mean(),
            plies.quantile(0.0),
            plies.quantile(0.5),
            plies.quantile(1.0)
        );
        let pieces = Histogram(&self.pieces);
        let group = |low: usize, high: usize| self.pieces[low..=high].iter().sum::<u64>();
        let _ = writeln!(
            out,
            "pieces on the board: mean {:.1}; 28-32 {}, 20-27 {}, 12-19 {}, 2-11 {}",
            pieces.mean(),
            percent(group(28, 32), n),
            percent(group(20, 27), n),
            percent(group(12, 19), n),
            percent(group(0, 11), n)
        );
        self.report_placements(&mut out);
        let _ = write!(out, "positions the rules library refuses: {}", self.illegal);
        if let Some(first) = &self.first_illegal {
            let _ = write!(out, ", the first {first}");
        }
        out.push('\n');
        out
    }

    /// How many of the piece-square pairs a game can reach were seen, and the rarest.
    fn report_placements(&self, out: &mut String) {
        let mut pairs = Vec::new();
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                for sq in Square::all().filter(|&sq| is_reachable(color, kind, sq)) {
                    pairs.push((self.placements[piece.index()][sq.index()], piece, sq));
                }
            }
        }
        pairs.sort_by_key(|&(count, _, _)| count);
        let seen = pairs.iter().filter(|&&(count, _, _)| count > 0).count();
        let (fewest, piece, sq) = pairs[0];
        let _ = writeln!(
            out,
            "piece on square: {seen} of the {} pairs a game can reach seen; the rarest {} {} on \
             {sq} ({fewest} times), the median {} times",
            pairs.len(),
            piece.color,
            piece.kind.name(),
            pairs[pairs.len() / 2].0
        );
    }

    fn report_scores(&self, out: &mut String) {
        let n = self.positions;
        let scores = Histogram(&self.scores);
        let mates = self.scores[(32768 - i32::from(MATE_SCORE)) as usize]
            + self.scores[(32768 + i32::from(MATE_SCORE)) as usize];
        let score_of = |index: usize| index as i64 - 32768;
        let _ = writeln!(
            out,
            "score for the side to move (centi-soldiers): mean {:+.1}, standard deviation {:.1}, \
             mates {mates}",
            scores.mean() - 32768.0,
            scores.deviation()
        );
        let _ = write!(out, "  percentiles:");
        for (label, q) in [
            ("1 %", 0.01),
            ("10 %", 0.1),
            ("25 %", 0.25),
            ("median", 0.5),
            ("75 %", 0.75),
            ("90 %", 0.9),
            ("99 %", 0.99),
        ] {
            let _ = write!(out, " {label} {}", score_of(scores.quantile(q)));
        }
        let _ = writeln!(
            out,
            " (min {}, max {})",
            score_of(scores.quantile(0.0)),
            score_of(scores.quantile(1.0))
        );
        let _ = writeln!(
            out,
            "  {:<12} {:>10} {:>7}   win  draw  loss   points (for the side to move)",
            "score", "positions", "share"
        );
        for (i, [loss, draw, win]) in self.ranges.iter().copied().enumerate() {
            let count = loss + draw + win;
            if count == 0 {
                continue;
            }
            let label = match i {
                0 => format!("below {}", RANGE_TOPS[0] + 1),
                _ if i == RANGE_TOPS.len() => format!("above {}", RANGE_TOPS[i - 1]),
                _ => format!("{} to {}", RANGE_TOPS[i - 1] + 1, RANGE_TOPS[i]),
            };
            let points = (win as f64 + draw as f64 * Wdl::Draw.points()) / count as f64;
            let _ = writeln!(
                out,
                "  {label:<12} {count:>10} {:>7} {:>5.0} {:>5.0} {:>5.0}   {points:.3}",
                percent(count, n),
                100.0 * win as f64 / count as f64,
                100.0 * draw as f64 / count as f64,
                100.0 * loss as f64 / count as f64,
            );
        }
    }
}

/// Counts by value (the index).
struct Histogram<'a>(&'a [u64]);

impl Histogram<'_> {
    fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    fn mean(&self) -> f64 {
        let sum: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(v, &c)| v as f64 * c as f64)
            .sum();
        sum / self.total().max(1) as f64
    }

    fn deviation(&self) -> f64 {
        let mean = self.mean();
        let sum: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(v, &c)| (v as f64 - mean).powi(2) * c as f64)
            .sum();
        (sum / self.total().max(1) as f64).sqrt()
    }

    /// The smallest value with at least the share `q` of the counts at or below it (`q` = 0:
    /// the smallest value present).
    fn quantile(&self, q: f64) -> usize {
        let total = self.total();
        let needed = ((q * total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (value, &count) in self.0.iter().enumerate() {
            seen += count;
            if seen >= needed {
                return value;
            }
        }
        self.0.len().saturating_sub(1)
    }
}

fn percent(part: u64, whole: u64) -> String {
    format!("{:.1} %", 100.0 * part as f64 / whole.max(1) as f64)
}

/// Runs `datagen --stats PATH`.
pub fn run(path: &Path) -> Result<()> {
    let paths = if path.is_dir() {
        let paths = chunks::chunk_paths(path)?;
        if paths.is_empty() {
            bail!(
                "{} holds no chunk files (chunk-NNNNNN.samples)",
                path.display()
            );
        }
        paths
    } else {
        vec![path.to_path_buf()]
    };
    let mut stats = Stats::default();
    for path in &paths {
        stats.add_file(&samples::read_file(path)?);
    }
    out!("{}", stats.report());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Position;

    #[test]
    fn the_report_counts_what_it_is_given() {
        let start = Position::startpos();
        let mut black = Position::startpos();
        black.make_move(black.legal_moves().as_slice()[0]);
        let file = samples::SampleFile {
            games: 2,
            samples: vec![
                Sample::new(&start, 30, Wdl::Win, 12),
                Sample::new(&black, -30, Wdl::Loss, 13),
                Sample::new(&start, -900, Wdl::Draw, 40),
                Sample::new(&black, 5, Wdl::Draw, 41),
            ],
        };
        let mut stats = Stats::default();
        stats.add_file(&file);
        let report = stats.report();
        let expected_lines = [
            "1 files, 2 games, 4 positions (2.0 a game)",
            "side to move: Red 50.0 %, Black 50.0 %",
            "results for the side to move: win 25.0 %, draw 50.0 %, loss 25.0 %",
            "results for Red: win 50.0 %, draw 50.0 %, loss 0.0 %",
            "score for the side to move (centi-soldiers): mean -223.8, standard deviation 391.0, \
             mates 0",
            "  percentiles: 1 % -900 10 % -900 25 % -900 median -30 75 % 5 90 % 30 99 % 30 \
             (min -900, max 30)",
            "  below -800            1  25.0 %     0   100     0   0.500",
            "  -50 to -21            1  25.0 %     0     0   100   0.000",
            "  -20 to 20             1  25.0 %     0   100     0   0.500",
            "  21 to 50              1  25.0 %   100     0     0   1.000",
            "ply: mean 26.5, min 12, median 13, max 41",
            "pieces on the board: mean 32.0; 28-32 100.0 %, 20-27 0.0 %, 12-19 0.0 %, 2-11 0.0 %",
            "piece on square: 33 of the 692 pairs a game can reach seen; the rarest red general \
             on d0 (0 times), the median 0 times",
            "positions the rules library refuses: 0",
        ];
        for line in expected_lines {
            assert!(report.lines().any(|l| l == line), "{line:?} in\n{report}");
        }
    }
}
