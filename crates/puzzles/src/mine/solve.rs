//! One candidate position: is there exactly one winning move, and what is the line that proves
//! it? The solver's moves are the engine's best, each re-checked; the defender's are the
//! engine's best defence.

use super::analyst::{Analysis, Analyst};
use super::{Reject, Settings};
use crate::tag::{material_won_by, MATERIAL_GAIN};
use xiangqi::{Move, Position};

/// The least winning chance the solver's move must give (a score of about +275).
pub const WIN_CHANCE: f64 = 0.75;
/// How much more winning chance the best move must give than the second best, for it to be the
/// only winning move.
pub const ONLY_MOVE_GAP: f64 = 0.35;

/// A solution found at the line's node budget, to be verified deeper.
#[derive(Clone, Debug)]
pub struct Found {
    /// Both sides' moves, the solver's first and last.
    pub moves: Vec<Move>,
    /// Moves to mate from the start, for a mating puzzle.
    pub mate: Option<u32>,
}

/// Whether `best` wins where every other move (`second` the best of them; `None`: there is no
/// other) does not: in a mating puzzle (`mating`) only `best` mates; otherwise `best` wins and
/// gives a much larger winning chance than any other move.
pub fn is_only_move(best: &Analysis, second: Option<&Analysis>, mating: bool) -> bool {
    let Some(second) = second else {
        return true;
    };
    if mating {
        best.mates_in().is_some() && second.mates_in().is_none()
    } else {
        best.chance() >= WIN_CHANCE && best.chance() - second.chance() >= ONLY_MOVE_GAP
    }
}

/// Looks for a puzzle starting at `start`.
pub fn solve(
    analyst: &mut Analyst,
    start: &Position,
    settings: &Settings,
) -> Result<Found, Reject> {
    let nodes = settings.line_nodes;
    let first = analyst
        .analyse(start, &[], nodes, &[])
        .ok_or(Reject::NoMove)?;
    let mate = first.mates_in();
    match mate {
        Some(n) if n > settings.longest_mate => return Err(Reject::MateTooLong),
        None if first.chance() < WIN_CHANCE => return Err(Reject::NotWinning),
        _ => {}
    }
    if start.legal_moves().len() == 1 {
        return Err(Reject::OnlyLegalMove);
    }
    let second = analyst.analyse(start, &[], nodes, &[first.best]);
    if !is_only_move(&first, second.as_ref(), mate.is_some()) {
        return Err(Reject::NotOnlyMove);
    }
    let mut moves = vec![first.best];
    loop {
        let mut pos = start.clone();
        moves.iter().for_each(|&m| {
            pos.make_move(m);
        });
        if pos.has_no_legal_move() {
            break;
        }
        if moves.len().div_ceil(2) >= settings.most_solver_moves {
            if mate.is_some() {
                return Err(Reject::MateTooLong);
            }
            break;
        }
        let reply = analyst
            .analyse(start, &moves, nodes, &[])
            .ok_or(Reject::NoMove)?;
        moves.push(reply.best);
        let Some(next) = analyst.analyse(start, &moves, nodes, &[]) else {
            return Err(Reject::NoMove);
        };
        if mate.is_some() {
            if next.mates_in().is_none() {
                return Err(Reject::MateLost);
            }
            moves.push(next.best);
            continue;
        }
        let other = analyst.analyse(start, &moves, nodes, &[next.best]);
        if is_only_move(&next, other.as_ref(), false) {
            moves.push(next.best);
        } else {
            moves.pop();
            break;
        }
    }
    if mate.is_none() {
        if moves.len() == 1 {
            return Err(Reject::OneMove);
        }
        if material_won_by(start, &moves) < MATERIAL_GAIN {
            return Err(Reject::NoMaterial);
        }
    }
    Ok(Found { moves, mate })
}
