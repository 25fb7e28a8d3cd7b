//! Move generation: pseudo-legal moves from the attack tables, then a legality filter that only
//! does the full "is my general attacked afterwards" test for moves that could expose it.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;
use std::sync::atomic::{AtomicBool, Ordering};

/// What [`Position::legality`] found around the mover's general: enough to tell, move by
/// move, which pseudo-legal moves of the position are legal ([`Position::is_legal_with`]).
pub struct Legality(Exposure);

/// See [`Position::exposure`].
struct Exposure {
    from: Bitboard,
    to: Bitboard,
    in_check: bool,
    /// When in check: the points a move other than the general's must land on to answer it
    /// (a checker, or a point on a checking line or horse leg).
    evasion_to: Bitboard,
    /// When in check: pieces whose leaving answers a cannon's check (its screens).
    evasion_from: Bitboard,
}

impl Exposure {
    /// When in check, whether `m` could answer it at all: a general's move, or one that
    /// captures a checker, blocks a line or leg, or takes a cannon's screen away. Any other
    /// move leaves every check standing.
    #[inline]
    fn may_answer_check(&self, m: Move, general: Square) -> bool {
        m.from() == general
            || self.evasion_to.contains(m.to())
            || self.evasion_from.contains(m.from())
    }
}

impl Position {
    /// Appends every pseudo-legal move of the side to move whose target is in `targets`
    /// (pass the complement of one's own pieces for all moves, the enemy's pieces for captures).
    fn pseudo_legal_into(&self, list: &mut MoveList, targets: Bitboard) {
        let us = self.side_to_move();
        let own = self.color_bb(us);
        let enemy = self.color_bb(us.other());
        let occ = self.occupancy();
        let mut push_all = |from, to_set: Bitboard| {
            to_set.for_each_square(|to| list.push(Move::new(from, to)));
        };
        for &from in self.squares(us, PieceKind::Chariot) {
            push_all(from, attacks::chariot(from, occ) & !own & targets);
        }
        // A cannon moves like a chariot but captures over a screen: work out only the half
        // the targets can contain (captures only, or quiet moves only, are the common calls).
        let wants_quiets = (targets & !occ.board).any();
        let wants_captures = (targets & enemy).any();
        for &from in self.squares(us, PieceKind::Cannon) {
            let mut reach = Bitboard::EMPTY;
            if wants_quiets {
                reach |= attacks::chariot(from, occ) & !occ.board;
            }
            if wants_captures {
                reach |= attacks::cannon_captures(from, occ) & enemy;
            }
            push_all(from, reach & targets);
        }
        for &from in self.squares(us, PieceKind::Horse) {
            push_all(from, attacks::horse(from, occ.board) & !own & targets);
        }
        for &from in self.squares(us, PieceKind::Soldier) {
            push_all(from, attacks::soldier(us, from) & !own & targets);
        }
        for &from in self.squares(us, PieceKind::Elephant) {
            push_all(from, attacks::elephant(from, occ.board) & !own & targets);
        }
        for &from in self.squares(us, PieceKind::Advisor) {
            push_all(from, attacks::advisor(us, from) & !own & targets);
        }
        let general = self.general(us);
        push_all(general, attacks::general(us, general) & !own & targets);
    }

    /// Whether the pseudo-legal move `m` leaves the mover's general safe (not attacked, not
    /// facing the other general). This is the full test, for any pseudo-legal move.
    #[inline]
    pub fn is_safe_after(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let occ = self.occupancy().after_move(from, to);
        let general = if self.pieces(us, PieceKind::General).contains(from) {
            to
        } else {
            self.general(us)
        };
        !self.general_attacked(general, us, occ, Bitboard::from_square(to))
    }

    /// Looks along the lines and horse legs around the mover's general once, finding whether it
    /// is in check and, if not, where a move could expose it: pieces whose leaving would open a
    /// line or horse leg onto it (`from`), and empty points where a piece would become a cannon's
    /// screen (`to`). The general's own moves are always treated as risky.
    fn exposure(&self) -> Exposure {
        let us = self.side_to_move();
        let them = us.other();
        let general = self.general(us);
        let occ = self.occupied();
        let own = self.color_bb(us);
        let mut exposure = Exposure {
            from: Bitboard::from_square(general),
            to: Bitboard::EMPTY,
            in_check: false,
            evasion_to: Bitboard::EMPTY,
            evasion_from: Bitboard::EMPTY,
        };
        let lines = attacks::lines(general);
        let straight =
            (self.pieces(them, PieceKind::Chariot) | self.pieces(them, PieceKind::General)) & lines;
        straight.for_each_square(|s| {
            let gap = attacks::between(general, s);
            let between = gap & occ;
            if between.is_empty() {
                exposure.in_check = true;
                exposure.evasion_to |= gap | Bitboard::from_square(s);
            } else if !between.more_than_one() {
                // The only piece between may not leave the line.
                exposure.from |= between & own;
            }
        });
        for s in self.pieces(them, PieceKind::Cannon) & lines {
            let gap = attacks::between(general, s);
            let between = gap & occ;
            match between.count() {
                0 => exposure.to |= gap,
                1 => {
                    exposure.in_check = true;
                    exposure.evasion_to |= gap | Bitboard::from_square(s);
                    exposure.evasion_from |= between;
                }
                2 => exposure.from |= between & own,
                _ => {}
            }
        }
        let horses = self.pieces(them, PieceKind::Horse);
        for step in attacks::horse_attacks_through_legs(general) {
            let checkers = step.targets & horses;
            if checkers.any() {
                if (step.block & occ).is_empty() {
                    exposure.in_check = true;
                    exposure.evasion_to |= step.block | checkers;
                } else {
                    exposure.from |= step.block & own;
                }
            }
        }
        let soldiers =
            attacks::soldier_attackers(them, general) & self.pieces(them, PieceKind::Soldier);
        if soldiers.any() {
            exposure.in_check = true;
            exposure.evasion_to |= soldiers;
        }
        exposure
    }

    /// Looks around the mover's general once, so that pseudo-legal moves can then be tested
    /// one at a time with [`Position::is_legal_with`]: cheaper than listing the legal moves when
    /// a search may try only the first few.
    pub fn legality(&self) -> Legality {
        Legality(self.exposure())
    }

    /// Whether `m`, a pseudo-legal move of this position (from [`Position::pseudo_legal_captures`]
    /// or [`Position::pseudo_legal_quiets`]), is legal; `legality` comes from
    /// [`Position::legality`] on this same position.
    #[inline]
    pub fn is_legal_with(&self, legality: &Legality, m: Move) -> bool {
        let risky = &legality.0;
        if risky.in_check {
            let general = self.general(self.side_to_move());
            return risky.may_answer_check(m, general) && self.is_safe_after(m);
        }
        (!risky.from.contains(m.from()) && !risky.to.contains(m.to())) || self.is_safe_after(m)
    }

    /// Drops the moves that would leave the mover's general attacked.
    fn retain_legal(&self, list: &mut MoveList) {
        let legality = self.legality();
        list.retain(|m| self.is_legal_with(&legality, m));
    }

    /// The number of legal moves, counted without listing most of them (perft's last ply).
    pub fn count_legal_moves(&self) -> usize {
        let risky = self.exposure();
        if risky.in_check {
            let mut list = MoveList::new();
            self.pseudo_legal_into(&mut list, !self.color_bb(self.side_to_move()));
            let legality = Legality(risky);
            return list
                .iter()
                .filter(|&&m| self.is_legal_with(&legality, m))
                .count();
        }
        let us = self.side_to_move();
        let own = self.color_bb(us);
        let enemy = self.color_bb(us.other());
        let occ = self.occupancy();
        let mut count = 0usize;
        let mut add = |from: Square, targets: Bitboard| {
            if risky.from.contains(from) {
                count += targets
                    .filter(|&to| self.is_safe_after(Move::new(from, to)))
                    .count();
            } else {
                count += (targets & !risky.to).count() as usize;
                count += (targets & risky.to)
                    .filter(|&to| self.is_safe_after(Move::new(from, to)))
                    .count();
            }
        };
        for &from in self.squares(us, PieceKind::Chariot) {
            add(from, attacks::chariot(from, occ) & !own);
        }
        for &from in self.squares(us, PieceKind::Cannon) {
            add(
                from,
                (attacks::chariot(from, occ) & !occ.board)
                    | (attacks::cannon_captures(from, occ) & enemy),
            );
        }
        for &from in self.squares(us, PieceKind::Horse) {
            add(from, attacks::horse(from, occ.board) & !own);
        }
        for &from in self.squares(us, PieceKind::Soldier) {
            add(from, attacks::soldier(us, from) & !own);
        }
        for &from in self.squares(us, PieceKind::Elephant) {
            add(from, attacks::elephant(from, occ.board) & !own);
        }
        for &from in self.squares(us, PieceKind::Advisor) {
            add(from, attacks::advisor(us, from) & !own);
        }
        let general = self.general(us);
        add(general, attacks::general(us, general) & !own);
        count
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_into(&mut list, !self.color_bb(self.side_to_move()));
        self.retain_legal(&mut list);
        list
    }

    /// Every legal capture of the side to move.
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_into(&mut list, self.color_bb(self.side_to_move().other()));
        self.retain_legal(&mut list);
        list
    }

    /// Every legal move of the side to move that captures nothing.
    pub fn legal_quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_into(&mut list, !self.occupied());
        self.retain_legal(&mut list);
        list
    }

    /// Every pseudo-legal capture (the general's safety not checked: see
    /// [`Position::is_legal_with`]), in the same order as [`Position::legal_captures`].
    pub fn pseudo_legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_captures_into(&mut list);
        list
    }

    /// Appends [`Position::pseudo_legal_captures`] to `list` (for a caller that keeps its own
    /// list, sparing the copy of a returned one).
    #[inline]
    pub fn pseudo_legal_captures_into(&self, list: &mut MoveList) {
        self.pseudo_legal_into(list, self.color_bb(self.side_to_move().other()));
    }

    /// Appends the pseudo-legal captures of the enemy pieces in `victims` (a search that would
    /// prune the captures of the cheap ones does not generate them).
    #[inline]
    pub fn pseudo_legal_captures_of_into(&self, list: &mut MoveList, victims: Bitboard) {
        self.pseudo_legal_into(list, victims & self.color_bb(self.side_to_move().other()));
    }

    /// Every pseudo-legal move that captures nothing, in the same order as
    /// [`Position::legal_quiets`].
    pub fn pseudo_legal_quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_quiets_into(&mut list);
        list
    }

    /// Appends [`Position::pseudo_legal_quiets`] to `list`.
    #[inline]
    pub fn pseudo_legal_quiets_into(&self, list: &mut MoveList) {
        self.pseudo_legal_into(list, !self.occupied());
    }

    /// Every pseudo-legal move (piece rules respected, own general's safety not checked).
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_into(&mut list, !self.color_bb(self.side_to_move()));
        list
    }

    /// Whether `m` obeys the moving piece's rules, for a move from an outside source such as a
    /// hash table: a piece of the side to move on `from`, `to` reachable and not one's own.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color != us || self.color_bb(us).contains(to) {
            return false;
        }
        let occ = self.occupancy();
        let reach = match piece.kind {
            PieceKind::General => attacks::general(us, from),
            PieceKind::Advisor => attacks::advisor(us, from),
            PieceKind::Elephant => attacks::elephant(from, occ.board),
            PieceKind::Horse => attacks::horse(from, occ.board),
            PieceKind::Chariot => attacks::chariot(from, occ),
            PieceKind::Cannon => {
                if self.piece_at(to).is_some() {
                    attacks::cannon_captures(from, occ)
                } else {
                    attacks::chariot(from, occ) & !occ.board
                }
            }
            PieceKind::Soldier => attacks::soldier(us, from),
        };
        reach.contains(to)
    }

    /// Whether `m` is a legal move in this position.
    pub fn is_legal(&self, m: Move) -> bool {
        !m.is_none() && self.is_pseudo_legal(m) && self.is_safe_after(m)
    }

    /// Whether the side to move has no legal move (checkmated or stalemated: a loss either way).
    pub fn has_no_legal_move(&self) -> bool {
        self.legal_moves().is_empty()
    }

    /// Whether `m` (legal) would put the opponent in check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.make_move(m);
        after.in_check()
    }
}

/// The deepest perft worth running: the bound that `xiangqi perft` and the protocols' `go perft`
/// hold to.
///
/// Depth 7 from the start position has some 40 times the 5.4·10⁹ leaves of depth 6, which took
/// 32–48 s on one core of the project's machine: 20 to 30 minutes. Depth 8 would take some 40
/// times longer again, many hours, which is more likely a typo than a test. A bound is needed
/// anyway: the count recurses once per ply, and `perft 100000` overflowed the stack and aborted.
pub const MAX_PERFT_DEPTH: u32 = 7;

/// Why a perft to `depth` is not run (the depth is beyond [`MAX_PERFT_DEPTH`]), or `None`.
pub fn perft_depth_refusal(depth: u32) -> Option<String> {
    (depth > MAX_PERFT_DEPTH).then(|| {
        format!(
            "perft depth {depth} refused: the deepest perft is {MAX_PERFT_DEPTH} (deeper takes hours)"
        )
    })
}

/// Counts the leaf nodes of the legal move tree to `depth` plies (a move generator checksum).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in &moves {
        let undo = pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move(m, undo);
    }
    nodes
}

/// [`perft`] that gives up once `stop` is set: `None` when stopped, else the same count.
///
/// The flag is read at every node two or more plies from the leaves, so a stop takes effect
/// within one such node's subtree (about 1,600 leaves from a middlegame position), deep inside a
/// root move's subtree rather than between root moves. Whether stopped or not, `pos` is left as
/// it was. The plain [`perft`] stays free of the check, as it is the move generator's benchmark.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use xiangqi::{perft_cancellable, Position};
/// let mut pos = Position::startpos();
/// assert_eq!(perft_cancellable(&mut pos, 3, &AtomicBool::new(false)), Some(79_666));
/// assert_eq!(perft_cancellable(&mut pos, 3, &AtomicBool::new(true)), None);
/// ```
pub fn perft_cancellable(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    perft_checked(pos, depth, &mut || stop.load(Ordering::Relaxed))
}

/// [`perft`] that asks `stopped` at every node two or more plies from the leaves and gives up
/// (`None`) when it says so, unmaking every move on the way out.
fn perft_checked(
    pos: &mut Position,
    depth: u32,
    stopped: &mut impl FnMut() -> bool,
) -> Option<u64> {
    if depth <= 1 {
        return Some(perft(pos, depth));
    }
    if stopped() {
        return None;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in &moves {
        let undo = pos.make_move(m);
        let below = perft_checked(pos, depth - 1, stopped);
        // Unmake before giving up, so a stop leaves the position as it was.
        pos.unmake_move(m, undo);
        nodes += below?;
    }
    Some(nodes)
}

/// Perft split by root move: each legal move with the leaf count below it.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in &moves {
        let undo = pos.make_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unmake_move(m, undo);
        out.push((m, n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

    /// The flag is looked at in every node of depth 2 or more: once at the root, once per node
    /// one and two plies below it. So a stop lands inside a root move's subtree.
    #[test]
    fn every_node_above_the_last_two_plies_looks_at_the_flag() {
        let mut pos = Position::from_fen_with(FEN, crate::Validation::Lenient).unwrap();
        let mut asked = 0u64;
        let mut count_looks = || {
            asked += 1;
            false
        };
        assert_eq!(
            perft_checked(&mut pos, 4, &mut count_looks),
            Some(1_339_047)
        );
        assert_eq!(asked, 1 + perft(&mut pos, 1) + perft(&mut pos, 2));
    }

    /// A stop ends the count at the very look that sees it and leaves the position as it was.
    #[test]
    fn a_stop_inside_a_subtree_gives_up_and_restores_the_position() {
        let mut pos = Position::from_fen_with(FEN, crate::Validation::Lenient).unwrap();
        let key = pos.key();
        let mut asked = 0;
        // Look 100 is past the first root move (1 + 1 + its 30-odd replies) and inside a
        // later one's subtree.
        let mut stop_at_100 = || {
            asked += 1;
            asked >= 100
        };
        assert_eq!(perft_checked(&mut pos, 4, &mut stop_at_100), None);
        assert_eq!(asked, 100);
        assert_eq!(pos.key(), key);
        assert_eq!(pos.to_fen(), FEN);
        assert_eq!(perft(&mut pos, 4), 1_339_047);
    }
}
