//! The proof: a much deeper search from both sides must agree with the line. The solver's first
//! move must still be the only one that wins, and at every defender's turn the defender must
//! still be lost (and, in a mating puzzle, find no longer way to resist than the line's).

use super::analyst::Analyst;
use super::solve::{is_only_move, Found, WIN_CHANCE};
use super::{Reject, Settings};
use xiangqi::Position;
use xiangqi_engine::score;

/// Checks `found` from `start` at the verification budget; returns the nodes the deep search
/// needed before it settled on the first move (what the difficulty is estimated from).
pub fn verify(
    analyst: &mut Analyst,
    start: &Position,
    found: &Found,
    settings: &Settings,
) -> Result<u64, Reject> {
    let nodes = settings.verify_nodes;
    let key = found.moves[0];
    let deep = analyst
        .analyse(start, &[], nodes, &[])
        .ok_or(Reject::NoMove)?;
    if deep.best != key {
        return Err(Reject::DeepDisagrees);
    }
    let winning = match found.mate {
        Some(n) => deep.mates_in().is_some_and(|m| m <= n),
        None => deep.mates_in().is_some() || deep.chance() >= WIN_CHANCE,
    };
    if !winning {
        return Err(Reject::DeepDisagrees);
    }
    let second = analyst.analyse(start, &[], nodes, &[key]);
    if !is_only_move(&deep, second.as_ref(), found.mate.is_some()) {
        return Err(Reject::DeepNotOnlyMove);
    }
    for defender_turn in (1..found.moves.len()).step_by(2) {
        let moves = &found.moves[..defender_turn];
        let defence = analyst
            .analyse(start, moves, nodes / 2, &[])
            .ok_or(Reject::NoMove)?;
        let lost = match found.mate {
            Some(_) => defence.is_mated(),
            None => 1.0 - defence.chance() >= WIN_CHANCE,
        };
        if !lost {
            return Err(Reject::DefenceHolds);
        }
        if found.mate.is_some() {
            let solver_moves_left = (found.moves.len() - defender_turn).div_ceil(2) as i32;
            let mated_in = match score::printed(defence.score) {
                score::Printed::Mate(n) => -n,
                score::Printed::Cp(_) => i32::MAX,
            };
            if mated_in > solver_moves_left {
                return Err(Reject::LongerDefence);
            }
        }
    }
    Ok(deep.settled_at)
}
