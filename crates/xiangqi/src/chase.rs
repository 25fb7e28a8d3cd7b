//! Chase detection for the repetition rules: what a move threatens to take.
//!
//! The definitions, as the Asian Xiangqi Federation's rule book applies them to its diagrams:
//!
//! - **Attack.** A piece attacks an enemy piece it could take on its next move by its own
//!   movement rules, *legally*: a capture that would leave its own general in check (a pin, the
//!   generals facing) is no attack. Generals and soldiers attack but never chase (the rule book
//!   allows them to); an enemy general is never chased (that is check); a soldier that has not
//!   crossed the river is never chased.
//! - **Protection.** A piece is protected when, after the attacker takes it, its side can take
//!   back on that point, legally. Three things make a protection false (假根): a protector that
//!   is pinned, or whose recapture the capture itself exposes to a check (a discovered check by
//!   the capture, a horse leg or a cannon screen the capture changes); a protector that reaches
//!   the point only *through the attacker's own point* (an x-ray, which opens only because the
//!   attacker left). A check already standing on the board does not count against the
//!   protector: the other side answers it first, and the threat is to take on the move after.
//! - **Chase.** A piece chases an enemy piece it attacks when that piece is unprotected, or is
//!   worth more than the attacker whatever its protection (a horse or a cannon attacking a
//!   chariot; an advisor or an elephant attacking a chariot, a horse or a cannon). An attack on
//!   a piece of the same kind that can legally take the attacker back is an offer to exchange,
//!   not a chase.
//! - **What a move chases.** The chases standing after the move that did not stand before it,
//!   piece by piece: the moved piece's new threats, threats it uncovered (a discovered chase by
//!   a chariot or a cannon behind it), and threats it made real by undermining a protection
//!   (pinning or blocking the protector). A threat that merely goes on standing is not a new
//!   chase.

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
    /// back on that square. A check standing on the board does not make the recapture illegal
    /// (the other side answers it first; the threat is to capture on the move after), but a
    /// check that the capture itself uncovers does, and so does a pin on the protector.
    fn is_protected(&self, attacker: Square, target: Square) -> bool {
        let Some(victim) = self.piece_at(target) else {
            return false;
        };
        let them = victim.color;
        let standing_checkers = self.attackers(self.general(them), them.other());
        let mut probe = self.clone();
        if probe.side_to_move() == them {
            probe.make_null();
        }
        let before_capture = probe.clone();
        probe.make_move(Move::new(attacker, target));
        probe
            .pseudo_legal_captures()
            .iter()
            // A protector must guard the point already, with the attacker still where it
            // stands: one that reaches it only through the attacker's own point (an x-ray) does
            // not protect.
            .filter(|m| m.to() == target && before_capture.piece_attacks(m.from()).contains(target))
            .any(|&recapture| {
                let general_moves = probe.general(them) == recapture.from();
                let mut after = probe.clone();
                after.make_move(recapture);
                let checkers = after.attackers(after.general(them), them.other());
                let excused = if general_moves {
                    Bitboard::EMPTY
                } else {
                    standing_checkers
                };
                (checkers & !excused).is_empty()
            })
    }

    /// Enemy pieces chased by the legal move `m` of the side to move (see the module docs).
    /// `self` is the position before the move.
    pub fn chased_by(&self, m: Move) -> Bitboard {
        let us = self.side_to_move();
        let mut after = self.clone();
        after.make_move(m);
        let mut chased = Bitboard::EMPTY;
        let chasers = after.color_bb(us)
            & !after.kind_bb(PieceKind::General)
            & !after.kind_bb(PieceKind::Soldier);
        for attacker in chasers {
            let now = after.chases_from(attacker, us);
            if now.is_empty() {
                continue;
            }
            // The same piece before the move: only chases it did not already make count.
            let origin = if attacker == m.to() {
                m.from()
            } else {
                attacker
            };
            chased |= now & !self.chases_from(origin, us);
        }
        chased
    }

    /// The pieces of `by`'s opponent that `by` chases as the position stands, whoever is to
    /// move: every attack of one of its pieces that would count as a chase if the move that
    /// made it had just been played (a standing attack included, unlike
    /// [`Position::chased_by`], which counts only the new ones).
    pub fn chased_pieces(&self, by: Color) -> Bitboard {
        let chasers = self.color_bb(by)
            & !self.kind_bb(PieceKind::General)
            & !self.kind_bb(PieceKind::Soldier);
        chasers.fold(Bitboard::EMPTY, |all, attacker| {
            all | self.chases_from(attacker, by)
        })
    }

    /// The enemy pieces that `us`'s piece on `attacker` chases in this position, whoever is to
    /// move.
    fn chases_from(&self, attacker: Square, us: Color) -> Bitboard {
        let mut chased = Bitboard::EMPTY;
        for target in self.piece_attacks(attacker) & self.color_bb(us.other()) {
            if self.is_chase(attacker, target, us) {
                chased.insert(target);
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
    fn a_standing_chase_is_among_the_chased_pieces() {
        // The chariot on a5 already attacks the lone horse on e5: no move makes it new, but it
        // stands.
        let pos = Position::from_fen("4k4/9/9/9/R3n4/9/9/9/9/4K4 b").unwrap();
        let chased: Vec<String> = pos
            .chased_pieces(Color::Red)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(chased, ["e5"]);
        assert!(pos.chased_pieces(Color::Black).is_empty());
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

    /// What `mv` chases after `before` (ICCS moves) were played from `fen`.
    fn chased_after(fen: &str, before: &[&str], mv: &str) -> Vec<String> {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in before {
            let m = Move::new(m[..2].parse().unwrap(), m[2..].parse().unwrap());
            assert!(pos.is_legal(m), "{m} illegal");
            pos.make_move(m);
        }
        chased(&pos.to_fen(), mv)
    }

    #[test]
    fn pinning_a_protector_makes_a_standing_attack_a_chase() {
        // The black rook on d3 has attacked the red horse on d2 all along, protected by the red
        // chariot on e2. The black horse leaving e3 lets the cannon on e8 (over the soldier on
        // e6) pin that chariot to its general: the horse on d2 is now really unprotected, and
        // the chariot itself is attacked by the cannon (Fairy-Stockfish's test position).
        let fen = "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b";
        assert_eq!(chased(fen, "e3g4"), ["d2", "e2"]);
    }

    #[test]
    fn a_protector_behind_the_attacker_does_not_protect() {
        // The black cannon on g0 attacks the red horse on d0 over the red general. With the
        // black chariot on h0 the general could take back on d0 only by stepping onto the
        // chariot's rank, so the horse is unprotected: the chariot's move there chases it.
        let fen = "5k3/9/9/9/9/9/9/7r1/9/3NK1c2 b";
        assert_eq!(chased(fen, "h2h0"), ["d0"]);
        // A chariot that guards a piece only through the attacker's own point (an x-ray):
        // the red chariot on b8 would reach g8 only after the black chariot on f8 took there.
        let fen = "2baka3/1R3rN2/9/9/9/9/9/9/9/3K5 b";
        assert_eq!(chased(fen, "f9e8"), Vec::<String>::new());
    }

    #[test]
    fn a_standing_check_does_not_unprotect_everything() {
        // The red cannon checks from f5 over the soldier on f6. The black cannon on d7 is
        // attacked by the chariot on c7 and protected by the advisor on e8: Black answers the
        // check first, and the advisor still guards d7 on the move after.
        let fen = "2bak3r/2R1a2C1/2Rcb4/2N2P3/5C2p/9/9/4p4/4p2p1/5K3 w";
        assert!(!chased_after(fen, &["f5e5", "e9f9"], "e5f5").contains(&"d7".to_string()));
    }
}
