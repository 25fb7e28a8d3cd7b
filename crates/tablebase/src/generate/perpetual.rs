//! The perpetual-check rule: checking forever loses. After the mates are found, a position
//! still undecided is a draw unless one side — call it the winner — can force the other to
//! check at every move from some point on, without checking at every move itself (both
//! checking forever is a draw, as is one check with one idle move). Then the checker loses
//! at the repetition, or leaves the checks and is mated; either way the winner wins.
//!
//! For each winner this is a game on the undecided positions: the loser may never make a
//! move that does not check (unless it reaches a position already won) nor capture into a
//! draw, and the winner must make a move that does not check again and again. The generator
//! finds it in rounds:
//!
//! 1. **Look forwards** at every undecided position: captures into a smaller table's
//!    positions decided by the rule (first round only), and whether its side can hold only by
//!    checking — every quiet move that reaches an undecided position checks, and no capture
//!    reaches a draw.
//! 2. **The core**, for each winner: the positions where the loser can hold only by checking,
//!    and the winner's positions in check that those checks reach, as a graph. On it the
//!    winner must return, again and again, to a position where the loser is not in check (a
//!    Büchi game): the positions from which the winner cannot force that are taken away, with
//!    everything the loser can force into them, until nothing changes.
//! 3. **Spread backwards** from the core like the mates: a position with a move to one lost by
//!    the rule is won by it, one whose every move reaches a win by mate or rule is lost.
//!
//! A round that decides nothing ends the work; a later round can find more, as the loser's
//! moves that did not check may now reach positions won. What captures into smaller tables
//! decide, and what follows from it, is a round of its own before the first core. Each position decided gets a
//! [`Rank`]: each round has ranks of its own, above the earlier rounds', counted in steps from
//! its first, the core's positions where the loser is not in check (step 0); the table keeps
//! where each round begins. The winner always has a move to a lower rank; so has the loser,
//! except a check from a step-0 position, which reaches the same round. So play
//! that follows the ranks either ends, or the loser checks at every move while the winner
//! passes step 0 without checking again and again: what `verify` checks, position by
//! position.

use super::buchi::Graph;
use super::retro::{predecessors_of, schedule, Decided, Open};
use super::{capture_code, each};
use crate::material::KINDS;
use crate::table::Table;
use crate::tables::Tables;
use crate::value::{Rank, Value, CHASE_DRAW, UNKNOWN};
use xiangqi::{Color, PieceKind, Position};

/// What looking forwards at one undecided position finds.
#[derive(Clone, Copy, Default)]
struct Look {
    /// A capture reaches a position its side to move loses by the rule.
    wins_by_capture: bool,
    /// Captures that reach a position its side to move wins by the rule.
    losing_captures: u8,
    /// Ways to hold without checking: quiet moves that do not check and reach an undecided
    /// position, and captures into a draw ([`NEVER`] for a side that cannot check at all).
    holds: u8,
}

/// The count of ways to hold of a side that cannot give check: it never has to.
const NEVER: u8 = u8::MAX;

/// Which moves the loser may not make forever.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Forbidden {
    /// Checks: the perpetual-check rule.
    Checks,
    /// Checks, and moves after which the mover chases a piece: what the chase flag assumes.
    ChecksAndChases,
}

impl Forbidden {
    /// Whether the move that reached `pos` is forbidden.
    fn reached(self, pos: &Position) -> bool {
        pos.in_check()
            || (self == Forbidden::ChecksAndChases
                && !pos.chased_pieces(pos.side_to_move().other()).is_empty())
    }

    /// Whether `side` has a piece that can make a forbidden move.
    fn can(self, pos: &Position, side: Color) -> bool {
        let kinds: &[PieceKind] = match self {
            // The chariot, horse, cannon and soldier: the kinds that check.
            Forbidden::Checks => &KINDS[..4],
            // Every kind besides the general: advisors and elephants chase too.
            Forbidden::ChecksAndChases => &KINDS,
        };
        kinds.iter().any(|&kind| !pos.pieces(side, kind).is_empty())
    }
}

/// Decides every undecided position of `table` the perpetual-check rule decides, then flags
/// the draws left that the game would decide if chases counted like checks ([`CHASE_DRAW`]);
/// `open` holds each undecided position's moves that do not lose yet, as mate finding left
/// them.
pub(super) fn judge(
    table: &mut Table,
    tables: &Tables,
    open: &mut [Vec<Open>; 2],
    threads: usize,
    step: &mut dyn FnMut(super::Step),
) {
    solve(table, tables, open, threads, Forbidden::Checks, step);
    let mut with_chases = table.clone();
    let mut open = open.clone();
    solve(
        &mut with_chases,
        tables,
        &mut open,
        threads,
        Forbidden::ChecksAndChases,
        step,
    );
    for (codes, chased) in table.codes.iter_mut().zip(&with_chases.codes) {
        for (code, chased) in codes.iter_mut().zip(chased) {
            if *code == UNKNOWN && *chased != UNKNOWN {
                *code = CHASE_DRAW;
            }
        }
    }
}

/// Decides what the game with `forbidden` moves decides in `table`.
fn solve(
    table: &mut Table,
    tables: &Tables,
    open: &mut [Vec<Open>; 2],
    threads: usize,
    forbidden: Forbidden,
    step: &mut dyn FnMut(super::Step),
) {
    let mut decided_so_far = 0;
    let mut round_done = |decided: usize, round: usize| {
        decided_so_far += decided;
        step(super::Step::Rule {
            chases: forbidden == Forbidden::ChecksAndChases,
            round,
            decided: decided_so_far,
        });
    };
    // Captures into a smaller table's values by the rule are counted once, by the game of
    // checks (the game with chases starts from its results).
    let captures_matter = forbidden == Forbidden::Checks
        && super::after_captures(table.material)
            .into_iter()
            .filter_map(|m| tables.get(m))
            .any(|sub| {
                sub.codes
                    .iter()
                    .flatten()
                    .any(|&c| Value::from_code(c).is_some_and(Value::is_by_rule))
            });
    let reached = Color::ALL.map(|side| {
        let codes = &table.codes[side.index()];
        each(codes.len(), threads, &|index| {
            codes[index] == UNKNOWN
                && forbidden.reached(
                    &super::position(&table.layout, side, index)
                        .expect("an undecided entry is a position"),
                )
        })
    });
    let size = table.layout.size();
    let mut work = Work {
        holds: [vec![NEVER; size], vec![NEVER; size]],
        reached,
        only_checks: [Vec::new(), Vec::new()],
        ranks: Ranks {
            base: 0,
            past: 0,
            clamp: forbidden == Forbidden::ChecksAndChases,
        },
    };
    // 1. Look forwards, once.
    let mut decided_now = 0;
    let mut spread_from: Vec<Vec<Decided>> = Vec::new();
    // Both sides are looked at before anything is decided, so that every count is of the
    // same undecided positions.
    let looks = Color::ALL.map(|side| {
        look_side(
            table,
            tables,
            &work,
            side,
            captures_matter,
            forbidden,
            threads,
        )
    });
    for (side, looks) in Color::ALL.into_iter().zip(looks) {
        for (index, look) in looks {
            let i = index as usize;
            work.holds[side.index()][i] = look.holds;
            let state = &mut open[side.index()][i];
            state.left -= look.losing_captures;
            let value = if look.wins_by_capture {
                Value::RuleWin(work.ranks.at(1))
            } else if state.left == 0 {
                Value::RuleLoss(work.ranks.at(1))
            } else {
                if look.holds == 0 {
                    work.only_checks[side.index()].push(index);
                }
                continue;
            };
            decide(table, &mut spread_from, side, index, value, 1);
            decided_now += 1;
        }
    }
    decided_now += spread(table, open, &mut work, spread_from, threads);
    round_done(decided_now, 0);
    if decided_now > 0 {
        // What the captures decided is a round of its own, below the cores': a core's
        // position where the loser is not in check (the first rank of its round) may have a
        // quiet move into it, which must reach a lower rank.
        table.rounds.push(work.ranks.base);
        work.ranks.base = work.ranks.past;
        decided_now = 0;
    }
    // 2 and 3, round after round.
    let mut round = 0;
    loop {
        for winner in Color::ALL {
            let loser = winner.other();
            let candidates = &mut work.only_checks[loser.index()];
            candidates.retain(|&i| table.codes[loser.index()][i as usize] == UNKNOWN);
            candidates.sort_unstable();
            let core = core(table, loser, candidates, threads);
            let mut spread_from: Vec<Vec<Decided>> = Vec::new();
            for (side, index, step) in core {
                let value = if side == winner {
                    Value::RuleWin(work.ranks.at(step))
                } else {
                    Value::RuleLoss(work.ranks.at(step))
                };
                decide(table, &mut spread_from, side, index, value, step);
                decided_now += 1;
            }
            decided_now += spread(table, open, &mut work, spread_from, threads);
        }
        round += 1;
        round_done(decided_now, round);
        if decided_now == 0 {
            return;
        }
        table.rounds.push(work.ranks.base);
        work.ranks.base = work.ranks.past;
        decided_now = 0;
    }
}

/// What the rounds carry from one to the next.
struct Work {
    /// Each undecided entry's ways to hold without checking, by side to move.
    holds: [Vec<u8>; 2],
    /// Whether each undecided entry is reached by a forbidden move (its side to move in
    /// check, or with a piece chased), by side to move.
    reached: [Vec<bool>; 2],
    /// The entries with none left, by side to move (some decided since).
    only_checks: [Vec<u32>; 2],
    ranks: Ranks,
}

/// The ranks of a round: from its first, `base` (step 0), to before `past`. With `clamp`
/// (where only what is decided counts, not its rank) a rank beyond the last is the last.
struct Ranks {
    base: u16,
    past: u16,
    clamp: bool,
}

impl Ranks {
    /// The rank of `step` in this round.
    fn at(&mut self, step: u16) -> Rank {
        let last = Rank::new(Rank::COUNT - 1).expect("the last rank");
        let rank = self
            .base
            .checked_add(step)
            .and_then(Rank::new)
            .or(self.clamp.then_some(last))
            .unwrap_or_else(|| {
                panic!(
                    "a win by the perpetual-check rule beyond the {} ranks a code holds",
                    Rank::COUNT
                )
            });
        self.past = self.past.max(rank.get().saturating_add(1));
        rank
    }
}

/// Stores `value` for entry `index` of `side` and puts it among the positions to spread
/// from at `step`.
fn decide(
    table: &mut Table,
    by_step: &mut Vec<Vec<Decided>>,
    side: Color,
    index: u32,
    value: Value,
    step: u16,
) {
    table.codes[side.index()][index as usize] = value.code();
    let decided = Decided {
        side,
        index,
        tentative: false,
    };
    schedule(by_step, step, decided);
}

/// Looks forwards at every undecided entry of `side`, on `threads` threads; returns what
/// it finds, in entry order.
fn look_side(
    table: &Table,
    tables: &Tables,
    work: &Work,
    side: Color,
    captures: bool,
    forbidden: Forbidden,
    threads: usize,
) -> Vec<(u32, Look)> {
    let codes = &table.codes[side.index()];
    let looks = each(codes.len(), threads, &|index| {
        (codes[index] == UNKNOWN)
            .then(|| look_at(table, tables, work, side, index, captures, forbidden))
    });
    looks
        .into_iter()
        .enumerate()
        .filter_map(|(index, look)| look.map(|l| (index as u32, l)))
        .collect()
}

fn look_at(
    table: &Table,
    tables: &Tables,
    work: &Work,
    side: Color,
    index: usize,
    captures: bool,
    forbidden: Forbidden,
) -> Look {
    let mut look = Look::default();
    let mut pos =
        super::position(&table.layout, side, index).expect("an undecided entry is a position");
    let can = forbidden.can(&pos, side);
    if !captures && !can {
        look.holds = NEVER;
        return look;
    }
    for &m in pos.legal_moves().as_slice() {
        let capture = pos.piece_at(m.to()).is_some();
        if !capture && !can {
            continue;
        }
        let undo = pos.make_move(m);
        if capture {
            let code = capture_code(tables, &pos);
            match Value::from_code(code) {
                Some(Value::RuleLoss(_)) if captures => look.wins_by_capture = true,
                Some(Value::RuleWin(_)) if captures => look.losing_captures += 1,
                // A draw the chase rule could change holds only where chases are allowed.
                Some(Value::Draw) if code != CHASE_DRAW || forbidden == Forbidden::Checks => {
                    look.holds = look.holds.saturating_add(1)
                }
                _ => {}
            }
        } else if let Some((child, child_side)) = table.layout.encode(&pos, false) {
            if table.codes[child_side.index()][child] == UNKNOWN
                && !work.reached[child_side.index()][child]
            {
                look.holds = look.holds.saturating_add(1);
            }
        }
        pos.unmake_move(m, undo);
    }
    if !can {
        look.holds = NEVER;
    }
    look
}

/// The core for `loser`'s opponent: the positions won and lost by the rule that the loser's
/// checks keep among themselves, with each one's step. `only_checks` are the loser's
/// undecided positions that hold only by checking, in entry order.
fn core(
    table: &Table,
    loser: Color,
    only_checks: &[u32],
    threads: usize,
) -> Vec<(Color, u32, u16)> {
    if only_checks.is_empty() {
        return Vec::new();
    }
    let winner = loser.other();
    let layout = &table.layout;
    let quiet_moves = |side: Color, index: u32, keep: &dyn Fn(&Position) -> Option<u32>| {
        let mut pos = super::position(layout, side, index as usize).expect("a node is a position");
        let mut ends = Vec::new();
        for &m in pos.legal_moves().as_slice() {
            if pos.piece_at(m.to()).is_some() {
                continue;
            }
            let undo = pos.make_move(m);
            ends.extend(keep(&pos));
            pos.unmake_move(m, undo);
        }
        (ends, pos.in_check())
    };
    // The loser's checks: each reaches a winner's undecided position in check.
    let undecided = |pos: &Position| {
        layout
            .encode(pos, false)
            .map(|(index, _)| index as u32)
            .filter(|&index| table.codes[winner.index()][index as usize] == UNKNOWN)
    };
    let loser_moves = each(only_checks.len(), threads, &|n| {
        quiet_moves(loser, only_checks[n], &undecided)
    });
    let mut winners: Vec<u32> = loser_moves
        .iter()
        .flat_map(|(ends, _)| ends.iter().copied())
        .collect();
    winners.sort_unstable();
    winners.dedup();
    // The winner's moves into the loser's nodes.
    let into_losers = |pos: &Position| {
        layout
            .encode(pos, false)
            .and_then(|(index, _)| only_checks.binary_search(&(index as u32)).ok())
            .map(|n| n as u32)
    };
    let winner_moves = each(winners.len(), threads, &|n| {
        quiet_moves(winner, winners[n], &into_losers)
    });
    // Nodes: the loser's first, then the winner's.
    let losers = only_checks.len();
    let mut edges = Vec::new();
    for (n, (ends, _)) in loser_moves.iter().enumerate() {
        for end in ends {
            let to = winners.binary_search(end).expect("a check's end is a node");
            edges.push((n as u32, (losers + to) as u32));
        }
    }
    for (n, (ends, _)) in winner_moves.iter().enumerate() {
        edges.extend(ends.iter().map(|&to| ((losers + n) as u32, to)));
    }
    let graph = Graph::new(losers + winners.len(), &edges);
    let loses = |n: usize| n < losers;
    let idle = |n: usize| n < losers && !loser_moves[n].1;
    let mut inside = vec![true; losers + winners.len()];
    loop {
        let steps = graph.reach_idle(&inside, &idle, &loses);
        let stuck: Vec<usize> = (0..inside.len())
            .filter(|&n| inside[n] && steps[n].is_none())
            .collect();
        if stuck.is_empty() {
            return steps
                .iter()
                .enumerate()
                .filter_map(|(n, step)| {
                    let (side, index) = if loses(n) {
                        (loser, only_checks[n])
                    } else {
                        (winner, winners[n - losers])
                    };
                    step.map(|s| (side, index, s))
                })
                .collect();
        }
        graph.take_away(&mut inside, stuck, &loses);
    }
}

/// Spreads values by the rule backwards from `by_step` (positions just decided in this
/// round, by step), as mates are spread, and counts down the ways to hold of the positions
/// before them; returns how many positions it decided.
fn spread(
    table: &mut Table,
    open: &mut [Vec<Open>; 2],
    work: &mut Work,
    mut by_step: Vec<Vec<Decided>>,
    threads: usize,
) -> usize {
    let mut decided = 0;
    let mut step = 0;
    while step < by_step.len() {
        let frontier = std::mem::take(&mut by_step[step]);
        let next = step as u16 + 1;
        // Each position by whether it is lost for its side to move, and whether the moves
        // that reach it are quiet (they do not check).
        let kinds: Vec<(bool, bool)> = frontier
            .iter()
            .map(|d| {
                let (side, i) = (d.side.index(), d.index as usize);
                let value = Value::from_code(table.codes[side][i]);
                (value.is_some_and(Value::is_loss), !work.reached[side][i])
            })
            .collect();
        for lost in [true, false] {
            for quiet in [true, false] {
                let part: Vec<Decided> = frontier
                    .iter()
                    .zip(&kinds)
                    .filter(|(_, &kind)| kind == (lost, quiet))
                    .map(|(&d, _)| d)
                    .collect();
                for (side, index) in predecessors_of(&table.layout, &part, threads) {
                    let i = index as usize;
                    if table.codes[side.index()][i] != UNKNOWN {
                        continue;
                    }
                    let holds = &mut work.holds[side.index()][i];
                    if quiet && *holds != NEVER {
                        *holds -= 1;
                    }
                    let value = if lost {
                        // A move reaches a position lost by the rule.
                        Value::RuleWin(work.ranks.at(next))
                    } else {
                        let state = &mut open[side.index()][i];
                        state.left -= 1;
                        if state.left > 0 {
                            if quiet && *holds == 0 {
                                work.only_checks[side.index()].push(index);
                            }
                            continue;
                        }
                        Value::RuleLoss(work.ranks.at(next))
                    };
                    decide(table, &mut by_step, side, index, value, next);
                    decided += 1;
                }
            }
        }
        step += 1;
    }
    decided
}
