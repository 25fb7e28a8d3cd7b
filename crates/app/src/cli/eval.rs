//! `xiangqi eval [--fen FEN] [--moves M…]`: both evaluations taken apart, term by term, for Red
//! and for Black: the engine's (each term in middlegame and endgame values, and blended by the
//! position's phase) and the laboratory's simple one; then the built-in network's total.
//!
//! Each table row is a term's name and its numbers, separated by spaces; the lines after a
//! table say how the terms combine, ending with the total, which is exactly what the engine's
//! (or the simple) evaluation returns.

use anyhow::Result;
use clap::Args;
use xiangqi::{Color, Position};
use xiangqi_engine::lab::simple;
use xiangqi_engine::tuning::{Pair, Terms, DEFAULT_EVALUATOR};
use xiangqi_files::outln;

/// Arguments of `eval`.
#[derive(Args)]
pub struct EvalArgs {
    /// Start position (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from it first, in any notation.
    #[arg(long, num_args = 0.., value_name = "MOVE")]
    moves: Vec<String>,
}

/// Prints the engine's terms, then the simple evaluation's, each with its total for Red and
/// for the side to move.
pub fn run(args: &EvalArgs) -> Result<()> {
    let pos = super::root_position(args.fen.as_deref(), &args.moves)?;
    outln!("position {} ({} to move)", pos.to_fen(), pos.side_to_move());
    outln!();
    engine_terms(&pos)?;
    outln!();
    simple_terms(&pos)?;
    outln!();
    let network = xiangqi_engine::nnue::embedded();
    outln!(
        "network evaluation (built in, {} units a side; a network has no terms)",
        network.hidden()
    );
    outln!(
        "network total for the side to move ({}): {}",
        pos.side_to_move(),
        network.evaluate(&pos)
    );
    Ok(())
}

/// `red` (a value from Red's point of view) for the side to move in `pos`.
fn for_side_to_move(pos: &Position, red: i32) -> i32 {
    match pos.side_to_move() {
        Color::Red => red,
        Color::Black => -red,
    }
}

/// The engine's evaluation: each term's middlegame and endgame values for each side, blended
/// by the phase; then the blend of their sums, the scaling of drawish endings and the tempo.
fn engine_terms(pos: &Position) -> Result<()> {
    let breakdown = DEFAULT_EVALUATOR.breakdown(pos);
    let combined = breakdown.combined;
    let full = Terms::FULL_PHASE;
    outln!(
        "engine evaluation in centi-soldiers; phase {} of {full}: blended = (mg * {} + eg * {}) / {full}",
        combined.phase,
        combined.phase,
        full - combined.phase,
    );
    let cells = |p: Pair| [p.mg.to_string(), p.eg.to_string()];
    let line = |name: &str, mg: [String; 2], red: f64, black_mg: [String; 2], black: f64| {
        format!(
            "{name:<24} {:>7} {:>7} {red:>9.1} {:>8} {:>8} {black:>9.1} {:>9.1}",
            mg[0],
            mg[1],
            black_mg[0],
            black_mg[1],
            red - black
        )
    };
    outln!(
        "{:<24} {:>7} {:>7} {:>9} {:>8} {:>8} {:>9} {:>9}",
        "term",
        "red_mg",
        "red_eg",
        "red",
        "black_mg",
        "black_eg",
        "black",
        "red-black"
    );
    let (mut red_sum, mut black_sum) = (0.0, 0.0);
    for term in &breakdown.terms {
        let red = breakdown.blend(term.red);
        let black = breakdown.blend(term.black);
        red_sum += red;
        black_sum += black;
        outln!(
            "{}",
            line(term.name, cells(term.red), red, cells(term.black), black)
        );
    }
    let blank = || [String::new(), String::new()];
    outln!("{}", line("sum", blank(), red_sum, blank(), black_sum));
    let blended = (combined.mg * combined.phase + combined.eg * (full - combined.phase)) / full;
    outln!("blended red-black, rounded towards zero: {blended}");
    outln!(
        "scaled by {}/64 (endings that are hard to win count less): {}",
        combined.scale,
        blended * combined.scale / 64
    );
    outln!(
        "tempo (the side to move's bonus, from red's side): {:+}",
        combined.tempo
    );
    let red = combined.red_score();
    outln!("engine total for red: {red}");
    outln!(
        "engine total for the side to move ({}): {}",
        pos.side_to_move(),
        for_side_to_move(pos, red)
    );
    Ok(())
}

/// The simple evaluation: each term for each side, and the totals.
fn simple_terms(pos: &Position) -> Result<()> {
    let terms = simple::terms(pos);
    outln!("simple evaluation (the reports'; see xiangqi_engine::lab::simple) in centi-soldiers");
    outln!(
        "{:<12} {:>7} {:>7} {:>9}",
        "term",
        "red",
        "black",
        "red-black"
    );
    let rows = terms.red.named().into_iter().zip(terms.black.named());
    for ((name, red), (_, black)) in rows {
        outln!("{name:<12} {red:>7} {black:>7} {:>9}", red - black);
    }
    let (red, black) = (terms.red.total(), terms.black.total());
    outln!("{:<12} {red:>7} {black:>7} {:>9}", "sum", red - black);
    outln!(
        "simple total for the side to move ({}): {}",
        pos.side_to_move(),
        simple::evaluate(pos)
    );
    Ok(())
}
