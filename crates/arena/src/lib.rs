//! `xiangqi match`: plays engines against each other (UCI or UCCI), because the chess tournament
//! managers (cutechess-cli, fastchess) do not play Xiangqi.
//!
//! ```text
//! xiangqi match \
//!   --engine "name=new cmd=./xq-new args=uci tc=movetime:200" \
//!   --engine "name=old cmd=./xq-old args=uci tc=movetime:200" \
//!   --each "proto=uci option.Hash=16 option.Threads=1" \
//!   --openings openings.txt --rounds 50 --concurrency 2 --pgn games.pgn \
//!   --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
//! ```
//!
//! Engines run in process groups of their own, so that stopping one (a hung engine, the end of
//! the match, Ctrl-C) stops whatever a wrapper script started too.
//!
//! Progress goes to stderr, one line per finished game; the summary to stdout, whose last line
//! sums the match up: `A vs B: W 40 D 30 L 30 (55.0%) Elo +34.9 ± 57.7 LLR 0.19 [-2.94, 2.94]
//! inconclusive` (the SPRT part only with `--sprt`), or the standings with three or more
//! engines. Counts and Elo are from the side of the first engine of each pairing.
//!
//! Files: [`config`] reads engine specifications, [`openings`] the openings file,
//! [`engine_process`] runs one engine (in its own [`process_group`]), [`engine_slot`] keeps it
//! between games, [`wire`] is the protocol text, [`game_rules`] sets the limits of a move,
//! [`game_runner`] plays one game, [`ponder`] asks for moves (pondering or not), [`clock`] keeps
//! a side's time, [`adjudication`] ends games on scores, [`schedule`] orders the games,
//! [`tournament`] runs them, [`stats`] and [`sprt`] judge the results, [`report`] and
//! [`pgn_out`] write them, [`resume`] reads them back, [`interrupt`] stops the match on Ctrl-C.
//!
//! It serves the engine developer, who measures a change by games. It stands on the rules, the
//! engine (for its random numbers only) and the file rules, and on nothing of the web GUI, the
//! protocol front end or the training tools: the engines it plays are programs it starts.

pub mod adjudication;
pub mod clock;
pub mod config;
pub mod engine_process;
pub mod engine_slot;
pub mod game_rules;
pub mod game_runner;
pub mod interrupt;
pub mod openings;
pub mod pgn_out;
pub mod ponder;
pub mod process_group;
pub mod report;
pub mod resume;
pub mod schedule;
pub mod sprt;
pub mod stats;
pub mod tournament;
pub mod wire;

use adjudication::{DrawRule, ResignRule};
use anyhow::{bail, Context, Result};
use clap::Args;
use config::EngineSpec;
use engine_process::{EngineProcess, ProcessSettings};
use game_rules::GameRules;
use std::path::PathBuf;
use std::time::Duration;
use tournament::MatchConfig;
use xiangqi_files::outln;

/// Arguments of `match`.
#[derive(Args)]
#[command(
    after_help = "Engines run in process groups of their own: an engine that hangs, or \
every engine when the match ends, gets `quit`, then its whole group (a wrapper script and what it \
started) SIGTERM and SIGKILL. Ctrl-C stops the match that way, prints the summary so far and \
exits with an error; --resume continues it."
)]
pub struct MatchArgs {
    /// One engine (repeat for each; two or more play a round robin): ONE argument holding
    /// key=value pairs separated by spaces: name=NAME cmd=PROGRAM [args="ARG …"]
    /// [proto=uci|ucci] [tc=movetime:MS|depth:N|nodes:N|clock:SECONDS+INC|clock:MOVES/SECONDS+INC]
    /// [ponder=true] [uci-variant=true] [option.NAME=VALUE …]. Quotes inside it group text
    /// with spaces. clock:40/60+0.5 gives 60 s for every 40 moves (added again after each 40th
    /// move of that engine; book moves do not count) plus 0.5 s a move, and sends movestogo.
    /// A clock may end with bBYO for byo-yomi: clock:10b1 gives 10 s, then each move must come
    /// within 1 s (sent as `byoyomi`).
    /// ponder=true (clock controls only) lets the engine think on the opponent's time after
    /// `bestmove M ponder P` (`go ponder`, then `ponderhit` or `stop`); only the time after
    /// `ponderhit` is charged.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// key=value pairs applied to every engine before its own (e.g. "proto=ucci tc=depth:6").
    #[arg(long, value_name = "SPEC", default_value = "")]
    each: String,
    /// Openings file: one per line, a FEN, moves in any notation, or "FEN | moves"; # comments.
    /// Each opening is played twice per pairing, colours swapped. Default: the start position.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Play the openings in a random order (the same in every round) instead of file order.
    #[arg(long)]
    shuffle_openings: bool,
    /// The seed of --shuffle-openings: the same seed gives the same order. Without it a seed is
    /// drawn and printed on stderr, so the order can be repeated (and a match resumed).
    #[arg(long, value_name = "N", requires = "shuffle_openings")]
    seed: Option<u64>,
    /// How many times to play the whole schedule.
    #[arg(long, default_value_t = 1, value_name = "N")]
    rounds: usize,
    /// Games played at the same time (each with its own engine processes).
    #[arg(long, default_value_t = 1, value_name = "N")]
    concurrency: usize,
    /// Append the games to this PGN file (ICCS moves, `{score/depth time}` comments).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Continue a match that was stopped: the games already in the --pgn file (written by the
    /// same command) count and are not played again; new games are appended. The file's games
    /// must belong to this match: same engines in the same order, same openings, same --seed.
    #[arg(long, requires = "pgn")]
    resume: bool,
    /// The PGN `Event` tag.
    #[arg(long, default_value = "xiangqi match")]
    event: String,
    /// Adjudicate a loss for a side whose score is -CP or worse for --resign-moves moves.
    #[arg(long, value_name = "CP", allow_negative_numbers = true)]
    resign_score: Option<i64>,
    /// Consecutive moves of one side for resign adjudication.
    #[arg(long, default_value_t = 3, value_name = "N")]
    resign_moves: u32,
    /// Adjudicate a draw when both sides' scores are within ±CP for --draw-moves moves each.
    #[arg(long, value_name = "CP", allow_negative_numbers = true)]
    draw_score: Option<i64>,
    /// Consecutive moves of each side for draw adjudication.
    #[arg(long, default_value_t = 8, value_name = "N")]
    draw_moves: u32,
    /// No draw adjudication before this many plies.
    #[arg(long, default_value_t = 60, value_name = "PLIES")]
    draw_after: usize,
    /// A game still running after this many plies is drawn.
    #[arg(long, default_value_t = 600, value_name = "PLIES")]
    max_plies: usize,
    /// Clock games: how far past its time an engine may answer before it loses on time.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    time_margin: u64,
    /// Depth and node limits: how long to wait for a move before the engine counts as hung.
    #[arg(long, default_value_t = 60_000, value_name = "MS")]
    hang_timeout: u64,
    /// How long an engine may take to start, answer `isready` or begin a new game.
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    startup_timeout: u64,
    /// Stop when the SPRT decides (two engines only): elo0=E elo1=E [alpha=0.05] [beta=0.05].
    /// The exact GSPRT in the logistic Elo model, on colour-swapped pairs.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Vec<String>,
    /// Echo all engine input and output on stderr (and let engines write to stderr).
    #[arg(long)]
    debug: bool,
}

/// Reads the engine specifications, with `--each` in front of every one.
fn engine_specs(args: &MatchArgs) -> Result<Vec<EngineSpec>> {
    let mut specs: Vec<EngineSpec> = Vec::new();
    for text in &args.engines {
        let spec = config::parse_engine_spec(text, &args.each)
            .with_context(|| format!("--engine {text:?}"))?;
        if specs.iter().any(|s| s.name == spec.name) {
            bail!("two engines are named {:?}: give each a name=", spec.name);
        }
        specs.push(spec);
    }
    if specs.len() < 2 {
        bail!("a match needs at least two --engine");
    }
    Ok(specs)
}

/// The openings in the order they are played, and the seed they were shuffled with.
fn opening_order(args: &MatchArgs) -> Result<(Vec<openings::Opening>, Option<u64>)> {
    let mut openings = match &args.openings {
        Some(path) => openings::load_openings(path)?,
        None => vec![openings::Opening::startpos()],
    };
    if !args.shuffle_openings {
        return Ok((openings, None));
    }
    let seed = args
        .seed
        .unwrap_or_else(|| xiangqi_engine::random::Rng::from_time().next_u64());
    openings::shuffle(&mut openings, seed);
    Ok((openings, Some(seed)))
}

/// Turns the arguments into a match configuration, checking everything that can be checked
/// before an engine runs. Also returns the seed the openings were shuffled with.
fn configure(args: &MatchArgs) -> Result<(MatchConfig, Option<u64>)> {
    let engines = engine_specs(args)?;
    let (openings, seed) = opening_order(args)?;
    if args.rounds == 0 || args.concurrency == 0 {
        bail!("--rounds and --concurrency must be at least 1");
    }
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        if engines.len() != 2 {
            bail!("--sprt needs exactly two engines");
        }
        Some(args.sprt.join(" ").parse::<sprt::Sprt>()?)
    };
    let resign = args.resign_score.map(|cp| ResignRule {
        cp,
        moves: args.resign_moves.max(1),
    });
    let draw = args.draw_score.map(|cp| DrawRule {
        cp,
        moves: args.draw_moves.max(1),
        after: args.draw_after,
    });
    let cfg = MatchConfig {
        engines,
        openings,
        rounds: args.rounds,
        concurrency: args.concurrency,
        rules: GameRules {
            max_plies: args.max_plies.max(1),
            time_margin: Duration::from_millis(args.time_margin),
            hang_timeout: Duration::from_millis(args.hang_timeout),
            sync_timeout: Duration::from_millis(args.startup_timeout),
            resign,
            draw,
        },
        process: ProcessSettings {
            startup_timeout: Duration::from_millis(args.startup_timeout),
            debug: args.debug,
        },
        sprt,
    };
    Ok((cfg, seed))
}

/// Plays the match: progress on stderr, the summary on stdout, its last line the one-line result.
pub fn run(args: &MatchArgs) -> Result<()> {
    let (cfg, seed) = configure(args)?;
    if let Some(seed) = seed {
        eprintln!("openings shuffled with --seed {seed}");
    }
    let names: Vec<&str> = cfg.engines.iter().map(|s| s.name.as_str()).collect();
    let done = match (&args.pgn, args.resume) {
        (Some(path), true) => {
            let (_, schedule) = tournament::schedule_of(&cfg);
            let done = resume::load(path, &schedule, &cfg.openings, &names)?;
            eprintln!(
                "resuming: {} of {} games already in {}",
                done.len(),
                schedule.len(),
                path.display()
            );
            done
        }
        _ => Vec::new(),
    };
    if let Some(path) = &args.pgn {
        // Appending nothing: a --pgn that is a FIFO, a device or in a missing folder is
        // refused before the first game, not after it.
        xiangqi_files::disk::append(path, b"")?;
    }
    // Start every engine once, so a wrong path or protocol fails now with a clear message.
    for spec in &cfg.engines {
        EngineProcess::start(spec, cfg.process)
            .map_err(|e| anyhow::anyhow!("engine {} {e}", spec.name))?;
    }
    let interrupt = interrupt::watch_ctrl_c();
    let date = pgn_out::today();
    let results = tournament::run(&cfg, &done, &interrupt, |game, played, results| {
        let players = [names[game.red], names[game.black]];
        let first = names[results.pairings[game.pairing].0];
        eprintln!(
            "{}",
            report::progress_line(
                game.number,
                players,
                &played.end,
                results,
                game.pairing,
                first,
                cfg.sprt.as_ref(),
            )
        );
        if let Some(path) = &args.pgn {
            let (red_tc, black_tc) = (cfg.engines[game.red].tc, cfg.engines[game.black].tc);
            let time_control = if red_tc == black_tc {
                red_tc.to_string()
            } else {
                format!("{red_tc} / {black_tc}")
            };
            let tags = pgn_out::GameTags {
                event: &args.event,
                round: game.number,
                players,
                time_control,
                date: date.clone(),
            };
            pgn_out::append(path, played, &tags)?;
        }
        Ok(())
    })?;
    for line in report::summary(&results, &names, cfg.sprt.as_ref()) {
        outln!("{line}");
    }
    if results.interrupted {
        let resume = if args.pgn.is_some() {
            "; --resume continues it"
        } else {
            ""
        };
        bail!(
            "interrupted after {} of {} games{resume}",
            results.played,
            results.scheduled
        );
    }
    Ok(())
}
