//! An exact mate prover over the rules crate, independent of the engine: a plain AND/OR search.
//!
//! The attacker mates in `n` (moves) if it has a move after which the defender has no legal
//! move, or (with `n > 1`) every defender reply leaves a position where the attacker mates in
//! `n - 1`. A side without a legal move has lost, in check or not (the rules make stalemate a
//! loss). Repetition and the 120-ply rule are ignored: a mate within five moves cannot be
//! touched by them.
//!
//! Nothing is pruned, so the answers are exact. Speed comes from move ordering (attacker:
//! checks, then captures, then the rest; defender: the reply that refuted last time at this
//! depth, then checks, captures, the rest) and a table of proven and disproven results per
//! position, keyed by the exact placement rather than a hash so that no collision can spoil a
//! proof.
//!
//! [`Prover::checks_only`] makes a prover whose attacker only plays checking moves. Its "mate"
//! answers are still sound (each is a real forced mate, every defence considered), but its "no
//! mate" answers only mean "no mate by checks alone".

use std::collections::HashMap;
use xiangqi::{Bitboard, Color, Move, Position};

/// The whole placement and the side to move, packed: positions are told apart exactly (no
/// hash-key collisions can corrupt a proof).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    occupied: Bitboard,
    /// Four bits per occupied square, in square order (at most 32 pieces).
    pieces: u128,
    black_to_move: bool,
}

impl Key {
    fn of(pos: &Position) -> Key {
        let occupied = pos.occupied();
        let mut pieces = 0u128;
        for sq in occupied {
            let piece = pos.piece_at(sq).expect("occupied");
            pieces = pieces << 4 | piece.index() as u128;
        }
        Key {
            occupied,
            pieces,
            black_to_move: pos.side_to_move() == Color::Black,
        }
    }
}

/// What is known about one position with the attacker to move.
#[derive(Clone, Copy)]
struct Known {
    /// Smallest `n` for which a mate in `n` was proven (`u32::MAX`: none yet).
    mate: u32,
    /// Largest `n` for which "no mate in `n`" was proven (0: nothing proven, mate in 0 never
    /// exists).
    no_mate: u32,
    /// A move that mates in `mate`.
    best: Move,
}

/// The prover; reuse one across calls on the same problem to keep its table.
pub struct Prover {
    known: HashMap<Key, Known>,
    /// Defender refutations by remaining depth, tried first.
    killers: Vec<Move>,
    checks_only: bool,
    /// Positions visited (both sides).
    pub nodes: u64,
    /// Positions the prover may visit before it gives up ([`Prover::gave_up`]).
    limit: u64,
}

impl Default for Prover {
    fn default() -> Self {
        Prover::new()
    }
}

impl Prover {
    /// A prover that considers every attacker move: its answers are exact.
    pub fn new() -> Prover {
        Prover {
            known: HashMap::new(),
            killers: vec![Move::NONE; 16],
            checks_only: false,
            nodes: 0,
            limit: u64::MAX,
        }
    }

    /// A prover that gives up after visiting `limit` positions: once [`Prover::gave_up`] says
    /// so, its answers and its table mean nothing, and it must be dropped.
    pub fn with_limit(limit: u64) -> Prover {
        Prover {
            limit,
            ..Prover::new()
        }
    }

    /// Whether the prover ran out of its positions (its answers are then void).
    pub fn gave_up(&self) -> bool {
        self.nodes > self.limit
    }

    /// A prover whose attacker only gives check (see the module notes).
    pub fn checks_only() -> Prover {
        Prover {
            checks_only: true,
            ..Prover::new()
        }
    }

    /// Whether the side to move mates within `n` moves.
    pub fn mates_in(&mut self, pos: &mut Position, n: u32) -> bool {
        self.attacker(pos, n)
    }

    /// The shortest mate for the side to move, up to `max` moves.
    pub fn mate_distance(&mut self, pos: &mut Position, max: u32) -> Option<u32> {
        (1..=max).find(|&n| self.attacker(pos, n))
    }

    /// Whether `m` (the attacker's move) mates in `n`: after it, the defender has no legal move,
    /// or every reply leaves a mate in `n - 1`.
    pub fn move_mates_in(&mut self, pos: &mut Position, m: Move, n: u32) -> bool {
        if n == 0 || !pos.is_legal(m) {
            return false;
        }
        let undo = pos.make_move(m);
        let result = self.defender(pos, n - 1);
        pos.unmake_move(m, undo);
        result
    }

    /// A mating line of at most `n` attacker moves: the first mating move found, against the
    /// defence that holds out longest (for messages only). `None` if there is no mate in `n`.
    pub fn line(&mut self, pos: &mut Position, n: u32) -> Option<Vec<Move>> {
        if !self.attacker(pos, n) {
            return None;
        }
        let mut line = Vec::new();
        let mut undos = Vec::new();
        let mut left = n;
        loop {
            // The table holds a mating move for every position proven a mate, for the shortest
            // distance proven there.
            assert!(self.attacker(pos, left), "a proven mate stays proven");
            let known = self.known[&Key::of(pos)];
            let m = known.best;
            left = known.mate;
            undos.push((m, pos.make_move(m)));
            line.push(m);
            left -= 1;
            let replies = pos.legal_moves();
            if replies.is_empty() {
                break;
            }
            // The defence that holds out longest: the first reply, from the longest possible
            // resistance down, after which no shorter mate exists.
            let (d, r) = (1..=left)
                .rev()
                .find_map(|d| {
                    replies
                        .iter()
                        .copied()
                        .find(|&r| {
                            let undo = pos.make_move(r);
                            let holds = !self.attacker(pos, d - 1);
                            pos.unmake_move(r, undo);
                            holds
                        })
                        .map(|r| (d, r))
                })
                .expect("every defence loses within the proven distance");
            left = d;
            undos.push((r, pos.make_move(r)));
            line.push(r);
        }
        while let Some((m, undo)) = undos.pop() {
            pos.unmake_move(m, undo);
        }
        Some(line)
    }

    fn attacker(&mut self, pos: &mut Position, n: u32) -> bool {
        self.nodes += 1;
        if n == 0 || self.gave_up() {
            return false;
        }
        let key = Key::of(pos);
        let mut hint = Move::NONE;
        if let Some(k) = self.known.get(&key) {
            if k.mate <= n {
                return true;
            }
            if k.no_mate >= n {
                return false;
            }
            hint = k.best;
        }
        let moves = self.attacker_moves(pos, hint);
        let mut found = None;
        for &m in &moves {
            let undo = pos.make_move(m);
            let mates = self.defender(pos, n - 1);
            pos.unmake_move(m, undo);
            if mates {
                found = Some(m);
                break;
            }
        }
        let entry = self.known.entry(key).or_insert(Known {
            mate: u32::MAX,
            no_mate: 0,
            best: Move::NONE,
        });
        match found {
            Some(m) => {
                entry.mate = entry.mate.min(n);
                entry.best = m;
                true
            }
            None => {
                entry.no_mate = entry.no_mate.max(n);
                false
            }
        }
    }

    /// Defender to move, the attacker having `n` moves left after this reply.
    fn defender(&mut self, pos: &mut Position, n: u32) -> bool {
        self.nodes += 1;
        let replies = pos.legal_moves();
        if replies.is_empty() {
            return true;
        }
        if n == 0 {
            return false;
        }
        let killer = self.killers[n as usize];
        let mut ordered: Vec<(u8, Move)> = replies
            .iter()
            .map(|&m| {
                let rank = if m == killer {
                    0
                } else {
                    let capture = pos.piece_at(m.to()).is_some();
                    let undo = pos.make_move(m);
                    let check = pos.in_check();
                    pos.unmake_move(m, undo);
                    if check {
                        1
                    } else if capture {
                        2
                    } else {
                        3
                    }
                };
                (rank, m)
            })
            .collect();
        ordered.sort_by_key(|&(rank, _)| rank);
        for (_, r) in ordered {
            let undo = pos.make_move(r);
            let mated = self.attacker(pos, n);
            pos.unmake_move(r, undo);
            if !mated {
                self.killers[n as usize] = r;
                return false;
            }
        }
        true
    }

    fn attacker_moves(&self, pos: &mut Position, hint: Move) -> Vec<Move> {
        let mut ordered: Vec<(u8, Move)> = Vec::new();
        for &m in pos.legal_moves().iter() {
            let capture = pos.piece_at(m.to()).is_some();
            let undo = pos.make_move(m);
            let check = pos.in_check();
            pos.unmake_move(m, undo);
            if self.checks_only && !check {
                continue;
            }
            let rank = if m == hint {
                0
            } else if check {
                1
            } else if capture {
                2
            } else {
                3
            };
            ordered.push((rank, m));
        }
        ordered.sort_by_key(|&(rank, _)| rank);
        ordered.into_iter().map(|(_, m)| m).collect()
    }
}
