//! Move ordering for the main search, generated in stages so that a node refuted by its first
//! moves never generates the rest:
//!
//! 1. the hash move;
//! 2. captures that do not lose material, most valuable victim first, cheapest attacker next;
//! 3. the two killer moves and the counter move (quiet moves that refuted siblings);
//! 4. the other quiet moves, by history;
//! 5. captures that lose material.
//!
//! Quiescence uses [`MovePicker::for_quiescence`]: one list ordered by MVV-LVA.
//!
//! The lists hold pseudo-legal moves; each is tested for legality (and a capture for losing
//! material) only when its turn comes, so a cutoff spares the tests of the rest. Equal scores
//! keep the generation order, so moves skipped on the way do not reorder the others.

use crate::history::{Context, History, PieceTo};
use crate::see::{see_at_least, SEE_VALUE};
use xiangqi::{Bitboard, Legality, Move, MoveList, Position, MAX_MOVES};

/// What the picker knows besides the position.
pub struct OrderingHints {
    /// Best move from the transposition table (already checked to be legal).
    pub hash_move: Option<Move>,
    /// The two killer moves of this ply.
    pub killers: [Move; 2],
    /// The counter move to the previous move.
    pub counter: Move,
    /// The last two moves, whose continuation histories order the quiet moves.
    pub context: Context,
}

/// Whether a capture could lose material: only when the attacker is worth more than the
/// victim (otherwise even an immediate recapture leaves us level or ahead), so SEE is needed.
#[inline]
pub fn can_lose_material(pos: &Position, m: Move) -> bool {
    let value = |sq| {
        pos.piece_at(sq)
            .map_or(0, |p: xiangqi::Piece| SEE_VALUE[p.kind.index()])
    };
    value(m.from()) > value(m.to())
}

/// Most valuable victim, least valuable attacker.
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos
        .piece_at(m.to())
        .map_or(0, |p| SEE_VALUE[p.kind.index()]);
    let attacker = pos
        .piece_at(m.from())
        .map_or(0, |p| SEE_VALUE[p.kind.index()]);
    victim * 16 - attacker / 16
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    HashMove,
    GenerateCaptures,
    GoodCaptures,
    Refutations,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Whether `m` was already handed out by a stage before the quiet moves.
#[inline]
fn already_tried(hints: &OrderingHints, m: Move) -> bool {
    Some(m) == hints.hash_move
        || m == hints.killers[0]
        || m == hints.killers[1]
        || m == hints.counter
}

/// A list of moves with scores, handed out best first; among equal scores, in the order they
/// were pushed (so moves a caller skips or sets aside while picking do not change the order of
/// the others, and the search stays deterministic).
struct ScoredList {
    /// The moves in the order they were pushed.
    moves: MoveList,
    /// One sort key per move: the score, then the push order, which also says where the move
    /// is (see [`ScoredList::key`]). Keys are distinct, so sorting them needs no stable sort.
    keys: [u64; MAX_MOVES],
    next: usize,
}

impl ScoredList {
    fn new() -> ScoredList {
        ScoredList {
            moves: MoveList::new(),
            keys: [0; MAX_MOVES],
            next: 0,
        }
    }

    /// Empties the list for reuse (cheaper than a new one: nothing is zeroed).
    fn clear(&mut self) {
        self.moves.clear();
        self.next = 0;
    }

    /// The key of the move pushed `index`-th with `score`: a higher score gives a larger key,
    /// and so does an earlier push among equal scores; the low half is the index, reversed.
    #[inline]
    fn key(score: i32, index: usize) -> u64 {
        let biased = (score as i64 - i32::MIN as i64) as u64;
        biased << 32 | (MAX_MOVES - 1 - index) as u64
    }

    #[inline]
    fn move_of(&self, key: u64) -> Move {
        self.moves[MAX_MOVES - 1 - (key & 0xffff_ffff) as usize]
    }

    /// Refills the list with the moves `generate` appends, keeping those `score` gives a score.
    /// The moves go straight into the list: no other list is filled and copied.
    #[inline]
    fn fill(
        &mut self,
        generate: impl FnOnce(&mut MoveList),
        mut score: impl FnMut(Move) -> Option<i32>,
    ) {
        self.clear();
        generate(&mut self.moves);
        let keys = &mut self.keys;
        let mut kept = 0;
        self.moves.retain(|m| match score(m) {
            Some(s) => {
                keys[kept] = ScoredList::key(s, kept);
                kept += 1;
                true
            }
            None => false,
        });
    }

    fn push(&mut self, m: Move, score: i32) {
        let index = self.moves.len();
        self.keys[index] = ScoredList::key(score, index);
        self.moves.push(m);
    }

    /// The best remaining move. The whole list is sorted when the first move is asked for
    /// (not before: a cutoff by an earlier stage spares it); sorting a few dozen keys costs
    /// less than picking even the best three by selection.
    fn pop_best(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        if self.next == 0 {
            self.keys[..n].sort_unstable_by(|a, b| b.cmp(a));
        }
        let m = self.move_of(self.keys[self.next]);
        self.next += 1;
        Some(m)
    }
}

/// Hands out the legal moves of a node in stages (see the module documentation).
pub struct MovePicker {
    stage: Stage,
    hints: OrderingHints,
    list: ScoredList,
    /// Captures that lose material, made only when there is one (most nodes have none).
    bad_captures: Option<ScoredList>,
    refutation_index: usize,
    quiescence: bool,
    /// Set when the lists hold pseudo-legal moves: each is tested when its turn comes, so the
    /// moves after a cutoff are never tested.
    legality: Option<Legality>,
    /// Set by [`MovePicker::skip_quiets`].
    quiets_skipped: bool,
}

impl MovePicker {
    /// A staged picker for the main search.
    pub fn new(hints: OrderingHints) -> MovePicker {
        MovePicker {
            stage: Stage::HashMove,
            hints,
            list: ScoredList::new(),
            bad_captures: None,
            refutation_index: 0,
            quiescence: false,
            legality: None,
            quiets_skipped: false,
        }
    }

    /// An empty picker for quiescence, handing out one list best first: fill it with
    /// [`MovePicker::add_captures`] or, in check, [`MovePicker::add_evasions`]. (Filled in
    /// place because a picker returned after filling would be copied whole.)
    pub fn for_quiescence(hash_move: Option<Move>) -> MovePicker {
        MovePicker {
            stage: Stage::Quiets,
            hints: OrderingHints {
                hash_move,
                killers: [Move::NONE; 2],
                counter: Move::NONE,
                context: [PieceTo::NONE; 2],
            },
            list: ScoredList::new(),
            bad_captures: None,
            refutation_index: 0,
            quiescence: true,
            legality: None,
            quiets_skipped: false,
        }
    }

    /// Adds the captures of the enemy pieces in `victims` (all of them, or only those worth
    /// enough to matter), ordered by MVV-LVA only (the hash move, a legal capture, first,
    /// if its victim is among them). They are generated pseudo-legal and each is tested when
    /// its turn comes.
    pub fn add_captures(&mut self, pos: &Position, victims: Bitboard) {
        let hash_move = self.hints.hash_move;
        self.list.fill(
            |list| pos.pseudo_legal_captures_of_into(list, victims),
            |m| Some(MovePicker::quiescence_score(pos, m, hash_move)),
        );
        if !self.list.moves.is_empty() {
            self.legality = Some(pos.legality());
        }
    }

    /// Adds the `evasions` (every legal move) of `pos`, in check: the hash move, then
    /// captures by MVV-LVA, then the rest.
    pub fn add_evasions(&mut self, pos: &Position, evasions: &MoveList) {
        for &m in evasions.iter() {
            let score = MovePicker::quiescence_score(pos, m, self.hints.hash_move);
            self.list.push(m, score);
        }
    }

    #[inline]
    fn quiescence_score(pos: &Position, m: Move, hash_move: Option<Move>) -> i32 {
        if Some(m) == hash_move {
            i32::MAX
        } else if pos.piece_at(m.to()).is_some() {
            1_000_000 + mvv_lva(pos, m)
        } else {
            0
        }
    }

    /// Hands out no more quiet moves but the killers: the search would prune every other one
    /// (late move pruning), so generating, ordering and testing them would be wasted. Captures
    /// that lose material still follow.
    pub fn skip_quiets(&mut self) {
        self.quiets_skipped = true;
    }

    /// Whether `m`, from one of the lists, is legal (always, when the lists hold legal moves).
    #[inline]
    fn is_legal(&self, pos: &Position, m: Move) -> bool {
        self.legality
            .as_ref()
            .is_none_or(|legality| pos.is_legal_with(legality, m))
    }

    /// The next move to search in `pos` (the position of the node, restored after each move).
    /// Inlined into the two search loops that call it: as a call of its own, saving and
    /// restoring registers cost about 1 % of the instructions of a search.
    #[inline(always)]
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(m) = self.hints.hash_move {
                        return Some(m);
                    }
                }
                Stage::GenerateCaptures => {
                    self.legality = Some(pos.legality());
                    let hash_move = self.hints.hash_move;
                    self.list.fill(
                        |list| pos.pseudo_legal_captures_into(list),
                        |m| (Some(m) != hash_move).then(|| mvv_lva(pos, m)),
                    );
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.list.pop_best() {
                    Some(m) if !self.is_legal(pos, m) => {}
                    // Captures that lose material wait until after the quiet moves; the
                    // exchange is only worked out for those whose turn comes.
                    Some(m) if can_lose_material(pos, m) && !see_at_least(pos, m, 0) => {
                        self.bad_captures
                            .get_or_insert_with(ScoredList::new)
                            .push(m, mvv_lva(pos, m));
                    }
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Refutations,
                },
                Stage::Refutations => {
                    let candidates = [
                        self.hints.killers[0],
                        self.hints.killers[1],
                        self.hints.counter,
                    ];
                    // Skipping quiet moves leaves the killers, which late move pruning spares.
                    let count = if self.quiets_skipped {
                        2
                    } else {
                        candidates.len()
                    };
                    while self.refutation_index < count {
                        let m = candidates[self.refutation_index];
                        self.refutation_index += 1;
                        let duplicate = candidates[..self.refutation_index - 1].contains(&m);
                        if !m.is_none()
                            && !duplicate
                            && Some(m) != self.hints.hash_move
                            && pos.piece_at(m.to()).is_none()
                            && pos.is_legal(m)
                        {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets | Stage::Quiets
                    if self.quiets_skipped && !self.quiescence =>
                {
                    self.stage = Stage::BadCaptures;
                }
                Stage::GenerateQuiets => {
                    let hints = &self.hints;
                    let scorer = history.quiet_scorer(&hints.context);
                    self.list.fill(
                        |list| pos.pseudo_legal_quiets_into(list),
                        |m| {
                            (!already_tried(hints, m))
                                .then(|| pos.piece_at(m.from()).map_or(0, |p| scorer.score(p, m)))
                        },
                    );
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.list.pop_best() {
                    Some(m) if !self.is_legal(pos, m) => {}
                    Some(m) => return Some(m),
                    None if self.quiescence => self.stage = Stage::Done,
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => match self.bad_captures.as_mut().and_then(|l| l.pop_best()) {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use xiangqi::PieceKind;

    /// Positions the picker tests walk: the start, two middlegames with captures both ways,
    /// a pinned horse (none of its moves is legal, its capture of the cannon neither) beside
    /// generals that may not face each other, and a check along the rank (most pseudo-legal
    /// moves do not answer it; the capture of the checking chariot comes first in quiescence).
    const POSITIONS: [&str; 5] = [
        xiangqi::START_FEN,
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "3kr4/9/9/9/9/9/9/2n6/4N4/4K4 w - - 0 1",
        "5k3/9/9/9/9/9/2n6/9/9/3RK1r2 w - - 0 1",
    ];

    /// The staged picker yields exactly the legal moves, each once ("move-picker perft").
    #[test]
    fn picker_yields_every_legal_move_once() {
        let history = History::default();
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            let legal: Vec<Move> = pos.legal_moves().to_vec();
            let quiet = *legal
                .iter()
                .find(|m| pos.piece_at(m.to()).is_none())
                .unwrap();
            let other_quiet = *legal
                .iter()
                .rev()
                .find(|m| pos.piece_at(m.to()).is_none())
                .unwrap();
            let illegal = Move::new(
                xiangqi::Square::new(0, 5).unwrap(),
                xiangqi::Square::new(8, 5).unwrap(),
            );
            for hash_move in [None, Some(legal[0]), Some(quiet)] {
                let hints = OrderingHints {
                    hash_move,
                    killers: [other_quiet, illegal],
                    counter: quiet,
                    context: [PieceTo::NONE; 2],
                };
                let mut picker = MovePicker::new(hints);
                let mut seen = Vec::new();
                while let Some(m) = picker.next(&pos, &history) {
                    seen.push(m);
                }
                let unique: BTreeSet<Move> = seen.iter().copied().collect();
                assert_eq!(unique.len(), seen.len(), "duplicates in {fen}");
                assert_eq!(
                    unique,
                    legal.iter().copied().collect::<BTreeSet<_>>(),
                    "{fen}"
                );
                if let Some(h) = hash_move {
                    assert_eq!(seen[0], h);
                }
            }
        }
    }

    /// The quiescence picker hands out exactly the legal captures (every legal move when in
    /// check), each once: the hash move first, then captures by MVV-LVA.
    #[test]
    fn quiescence_picker_yields_the_legal_captures_or_evasions_in_order() {
        let history = History::default();
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            let in_check = pos.in_check();
            let expected: Vec<Move> = if in_check {
                pos.legal_moves().to_vec()
            } else {
                pos.legal_captures().to_vec()
            };
            let last = expected.last().copied();
            for hash_move in [None, last] {
                let mut picker = MovePicker::for_quiescence(hash_move);
                if in_check {
                    picker.add_evasions(&pos, &pos.legal_moves());
                } else {
                    picker.add_captures(&pos, Bitboard::FULL);
                }
                let mut seen = Vec::new();
                while let Some(m) = picker.next(&pos, &history) {
                    seen.push(m);
                }
                let mut sorted = seen.clone();
                sorted.sort();
                let mut want = expected.clone();
                want.sort();
                assert_eq!(sorted, want, "{fen}");
                if let Some(h) = hash_move {
                    assert_eq!(seen[0], h, "{fen}");
                }
                let rest = if hash_move.is_some() {
                    &seen[1..]
                } else {
                    &seen[..]
                };
                let order = |m: &Move| match pos.piece_at(m.to()) {
                    Some(_) => 1_000_000 + mvv_lva(&pos, *m),
                    None => 0,
                };
                assert!(
                    rest.windows(2).all(|w| order(&w[0]) >= order(&w[1])),
                    "{fen}: {rest:?}"
                );
            }
        }
    }

    /// Given only some victims, the quiescence picker hands out the legal captures of those,
    /// in the order it gives them among all captures.
    #[test]
    fn quiescence_picker_keeps_the_captures_of_the_victims_asked_for() {
        let history = History::default();
        for fen in &POSITIONS[..3] {
            let pos = Position::from_fen(fen).unwrap();
            let drain = |victims: Bitboard| {
                let mut picker = MovePicker::for_quiescence(None);
                picker.add_captures(&pos, victims);
                let mut seen = Vec::new();
                while let Some(m) = picker.next(&pos, &history) {
                    seen.push(m);
                }
                seen
            };
            let all = drain(Bitboard::FULL);
            assert!(!all.is_empty(), "{fen}");
            for kinds in [
                &[PieceKind::Chariot][..],
                &[PieceKind::Chariot, PieceKind::Cannon, PieceKind::Horse],
                &[PieceKind::Soldier, PieceKind::Advisor],
            ] {
                let victims = kinds
                    .iter()
                    .fold(Bitboard::EMPTY, |set, &k| set | pos.kind_bb(k));
                let expected: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|m| victims.contains(m.to()))
                    .collect();
                assert_eq!(drain(victims), expected, "{fen} {kinds:?}");
            }
            assert!(drain(Bitboard::EMPTY).is_empty());
        }
    }

    /// After `skip_quiets`, the picker hands out the captures it still holds and the killers,
    /// in the order it would have anyway, and no other quiet move (the counter move included).
    #[test]
    fn skipping_quiets_leaves_only_the_remaining_captures_and_killers() {
        let history = History::default();
        // The positions out of check, where quiet moves other than the refutations exist.
        for fen in &POSITIONS[..3] {
            let pos = Position::from_fen(fen).unwrap();
            let is_capture = |m: Move| pos.piece_at(m.to()).is_some();
            let quiets: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| !is_capture(m))
                .collect();
            let (killer, counter) = (quiets[0], quiets[quiets.len() - 1]);
            let hints = || OrderingHints {
                hash_move: None,
                killers: [killer, Move::NONE],
                counter,
                context: [PieceTo::NONE; 2],
            };
            let mut full = Vec::new();
            let mut picker = MovePicker::new(hints());
            while let Some(m) = picker.next(&pos, &history) {
                full.push(m);
            }
            // Skipped from the start: the killer still comes, after the good captures.
            let mut picker = MovePicker::new(hints());
            picker.skip_quiets();
            let mut skipped = Vec::new();
            while let Some(m) = picker.next(&pos, &history) {
                skipped.push(m);
            }
            let expected: Vec<Move> = full
                .iter()
                .copied()
                .filter(|&m| is_capture(m) || m == killer)
                .collect();
            assert_eq!(skipped, expected, "{fen}");
            // Skipped after the first quiet move that is not a refutation.
            let first_quiet = full
                .iter()
                .position(|&m| !is_capture(m) && m != killer && m != counter)
                .unwrap();
            let mut picker = MovePicker::new(hints());
            let mut skipped = Vec::new();
            while let Some(m) = picker.next(&pos, &history) {
                skipped.push(m);
                if skipped.len() == first_quiet + 1 {
                    picker.skip_quiets();
                }
            }
            let mut expected = full[..=first_quiet].to_vec();
            expected.extend(full[first_quiet + 1..].iter().filter(|&&m| is_capture(m)));
            assert_eq!(skipped, expected, "{fen}");
        }
    }
}
