//! Chase detection for the repetition rules.
//!
//! A move *chases* when, after it, the moved piece or a piece it uncovered newly attacks an enemy
//! piece that is worth chasing: one left unprotected, one of higher value than the attacker
//! (horse or cannon attacking a chariot; advisor or elephant attacking a chariot, horse or
//! cannon), or a soldier over the river when unprotected. Generals and soldiers never chase; an
//! enemy general is never "chased" (that is check); a soldier still on its own side is never a
//! victim. An attack on a piece that can capture the attacker back with the same kind of piece
//! is an offer to exchange, not a chase. Only captures that are legal count, so a pinned piece
//! threatens only what pins it.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::{Color, PieceKind};
use crate::position::Position;
use crate::square::Square;

/// Chase value of a kind: a chase of a piece of higher value than its attacker always counts.
fn value(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Chariot => 4,
        PieceKind::Horse | PieceKind::Cannon => 3,
        PieceKind::Advisor | PieceKind::Elephant => 2,
        PieceKind::Soldier => 1,
        PieceKind::General => 5,
    }
}

impl Position {
    /// Squares the piece on `from` attacks in this position, by its own movement rules
    /// (ignoring whose turn it is and whether the capture would be legal).
    pub fn piece_attacks(&self, from: Square) -> Bitboard {
        let Some(piece) = self.piece_at(from) else {
            return Bitboard::EMPTY;
        };
        let occ = self.occupancy();
        match piece.kind {
            PieceKind::General => attacks::general(piece.color, from),
            PieceKind::Advisor => attacks::advisor(piece.color, from),
            PieceKind::Elephant => attacks::elephant(from, occ.board),
            PieceKind::Horse => attacks::horse(from, occ.board),
            PieceKind::Chariot => attacks::chariot(from, occ),
            PieceKind::Cannon => attacks::cannon_captures(from, occ),
            PieceKind::Soldier => attacks::soldier(piece.color, from),
        }
    }

    /// Whether the piece of `color` on `attacker` could legally capture on `target` if it were
    /// `color`'s turn.
    fn can_capture(&self, attacker: Square, target: Square, color: Color) -> bool {
        if !self.piece_attacks(attacker).contains(target) {
            return false;
        }
        let mut probe = self.clone();
        if probe.side_to_move() != color {
            probe.make_null();
        }
        probe.is_safe_after(Move::new(attacker, target))
    }

    /// Whether the piece on `target` is protected: after `attacker` takes it, its side can take
    /// back on that square.
    fn is_protected(&self, attacker: Square, target: Square) -> bool {
        let Some(victim) = self.piece_at(target) else {
            return false;
        };
        let mut probe = self.clone();
        if probe.side_to_move() == victim.color {
            probe.make_null();
        }
        probe.make_move(Move::new(attacker, target));
        probe.legal_captures().iter().any(|m| m.to() == target)
    }

    /// Enemy pieces chased by the legal move `m` of the side to move (see the module docs).
    /// `self` is the position before the move.
    pub fn chased_by(&self, m: Move) -> Bitboard {
        let us = self.side_to_move();
        let them = us.other();
        let mut after = self.clone();
        after.make_move(m);
        let mut chased = Bitboard::EMPTY;
        let chasers = after.color_bb(us)
            & !after.kind_bb(PieceKind::General)
            & !after.kind_bb(PieceKind::Soldier);
        for attacker in chasers {
            let targets = after.piece_attacks(attacker) & after.color_bb(them);
            // Victims this piece already attacked before the move do not count as new.
            let before = if attacker == m.to() {
                self.piece_attacks(m.from())
            } else {
                self.piece_attacks(attacker)
            };
            for target in targets & !before {
                if after.is_chase(attacker, target, us) {
                    chased.insert(target);
                }
            }
        }
        chased
    }

    /// Whether `us`'s piece on `attacker` chases the enemy piece on `target` in this position.
    fn is_chase(&self, attacker: Square, target: Square, us: Color) -> bool {
        let (Some(a), Some(v)) = (self.piece_at(attacker), self.piece_at(target)) else {
            return false;
        };
        if v.kind == PieceKind::General {
            return false;
        }
        if v.kind == PieceKind::Soldier && attacks::on_own_side(v.color, target) {
            return false;
        }
        if !self.can_capture(attacker, target, us) {
            return false;
        }
        if v.kind == a.kind && self.can_capture(target, attacker, us.other()) {
            return false;
        }
        value(v.kind) > value(a.kind) || !self.is_protected(attacker, target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chased(fen: &str, mv: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let m = Move::new(mv[..2].parse().unwrap(), mv[2..].parse().unwrap());
        assert!(pos.is_legal(m), "{mv} illegal in {fen}");
        pos.chased_by(m).map(|s| s.to_string()).collect()
    }

    #[test]
    fn chariot_attacking_unprotected_horse_chases() {
        // Red chariot a0 to a5 attacks the lone black horse on e5.
        assert_eq!(chased("4k4/9/9/9/4n4/9/9/9/9/R3K4 w", "a0a5"), ["e5"]);
    }

    #[test]
    fn protected_equal_piece_is_not_chased() {
        // Black horse on e5 protected by a black horse on c6: a chariot attack on a protected
        // horse is not a chase (the horse is not worth more than the chariot).
        assert!(chased("3k5/9/9/2n6/4n4/9/9/9/9/R3K4 w", "a0a5").is_empty());
    }

    #[test]
    fn horse_attacking_chariot_chases_even_if_protected() {
        // Red horse c3 to d5 attacks the black chariot on e7, worth more than the horse.
        assert_eq!(chased("4k4/4a4/4r4/9/9/9/2N6/9/9/3K5 w", "c3d5"), ["e7"]);
    }

    #[test]
    fn generals_and_soldiers_do_not_chase() {
        // A red soldier over the river steps sideways to attack an unprotected black horse.
        assert!(chased("3k5/9/9/3n5/4P4/9/9/9/9/5K3 w", "e5d5").is_empty());
        // The red general steps next to an unprotected black cannon.
        assert!(chased("3k5/9/9/9/9/9/9/3c5/9/4K4 w", "e0e1").is_empty());
    }

    #[test]
    fn same_kind_counter_attack_is_an_offer() {
        // Chariot to the e-file facing the black chariot: either can take the other.
        assert!(chased("3k5/9/9/9/4r4/9/9/9/9/R4K3 w", "a0a5").is_empty());
    }

    #[test]
    fn uncrossed_soldier_is_never_chased() {
        assert!(chased("3k5/9/9/4p4/9/9/9/9/9/R4K3 w", "a0a6").is_empty());
        // The same soldier once over the river (on e4) is chased when unprotected.
        assert_eq!(chased("3k5/9/9/9/9/4p4/9/9/9/R4K3 w", "a0a4"), ["e4"]);
    }
}
