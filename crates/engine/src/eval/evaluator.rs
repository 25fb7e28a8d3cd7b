//! The evaluator: material and piece-square values blended by game phase, mobility, general
//! safety, threats, soldier structure, and the scaling of endings that cannot be won, with the
//! weights of a [`Weights`] set.

use super::params::{self, Pair, Weights};
use super::pst::PieceSquare;
use std::sync::LazyLock;
use xiangqi::attacks;
use xiangqi::{Bitboard, Color, Move, Piece, PieceKind, Position, Square};

/// Phase weight of each kind: the sum is 32 with all chariots, horses and cannons on the board.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
const FULL_PHASE: i32 = 32;

/// Attack units of each kind whose attacks reach the enemy palace (general, advisor,
/// elephant, horse, chariot, cannon, soldier): the pieces that build a mating attack.
const ATTACK_UNITS: [i32; 7] = [0, 0, 0, 3, 4, 3, 2];

/// Evaluates positions with a fixed set of weights.
pub struct Evaluator {
    pub(super) weights: Weights,
    pub(super) piece_square: PieceSquare,
}

/// The evaluator with the default weights, built on first use.
pub static DEFAULT_EVALUATOR: LazyLock<Evaluator> =
    LazyLock::new(|| Evaluator::new(params::DEFAULT));

/// Scores accumulated for both phases, from Red's point of view.
#[derive(Default, Clone, Copy)]
pub(super) struct Score {
    pub(super) mg: i32,
    pub(super) eg: i32,
}

impl Score {
    #[inline]
    fn add(&mut self, sign: i32, w: Pair, times: i32) {
        self.mg += sign * w.mg * times;
        self.eg += sign * w.eg * times;
    }
}

/// An evaluation before its parts are combined, all from Red's point of view: the score is
/// `(mg · phase + eg · (FULL − phase)) / FULL`, times `scale / 64`, plus `tempo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// Middlegame sum of every weighted feature.
    pub mg: i32,
    /// Endgame sum of every weighted feature.
    pub eg: i32,
    /// Material left, from 0 (bare) to [`Terms::FULL_PHASE`] (all heavy pieces on the board).
    pub phase: i32,
    /// Share of the blended score that counts, in 64ths (below 64 in endings hard to win).
    pub scale: i32,
    /// The side to move's bonus: positive when Red is to move.
    pub tempo: i32,
}

impl Terms {
    /// The phase value of the full board.
    pub const FULL_PHASE: i32 = FULL_PHASE;

    /// The combined score from Red's point of view, in centi-soldiers.
    #[inline]
    pub fn red_score(&self) -> i32 {
        let blended = (self.mg * self.phase + self.eg * (FULL_PHASE - self.phase)) / FULL_PHASE;
        blended * self.scale / 64 + self.tempo
    }
}

/// The material, piece-square and phase sums of a position, from Red's point of view: the part
/// of the evaluation that changes piece by piece, so a search can keep it up to date move by
/// move ([`Evaluator::material_after`]) instead of summing the board at every node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Material {
    /// Middlegame sum.
    pub mg: i32,
    /// Endgame sum.
    pub eg: i32,
    /// Phase weight of the pieces on the board (not capped at [`Terms::FULL_PHASE`]).
    pub phase: i32,
}

impl Material {
    #[inline]
    fn add(&mut self, other: Material) {
        self.mg += other.mg;
        self.eg += other.eg;
        self.phase += other.phase;
    }

    #[inline]
    fn sub(&mut self, other: Material) {
        self.mg -= other.mg;
        self.eg -= other.eg;
        self.phase -= other.phase;
    }
}

/// What one side's pieces attack, gathered while scoring mobility.
#[derive(Default, Clone, Copy)]
pub(super) struct AttackMap {
    all: Bitboard,
    /// Attacks by pieces worth less than a chariot (everything but chariots and the general).
    minor: Bitboard,
    /// Attack units of the pieces whose attacks reach the enemy palace.
    king_units: i32,
    /// How many pieces those are.
    king_attackers: i32,
}

/// One side's mobility counts, before they are weighted.
#[derive(Default, Clone, Copy)]
pub(super) struct Mobility {
    /// Points the chariots reach, own pieces excepted.
    pub(super) chariot: i32,
    /// Horse moves: unblocked, own pieces excepted.
    pub(super) horse: i32,
    /// Horses without a single move.
    pub(super) trapped_horses: i32,
    /// Quiet cannon moves.
    pub(super) cannon: i32,
}

/// One side's counts of the features [`Evaluator::side_terms`] weighs linearly.
#[derive(Default, Clone, Copy)]
pub(super) struct Counts {
    /// Missing advisors times the enemy's chariots and horses.
    pub(super) missing_advisor: i32,
    /// Missing elephants times the enemy's cannons.
    pub(super) missing_elephant: i32,
    /// Enemy cannons on the general's file with nothing between.
    pub(super) hollow_cannon: i32,
    /// Enemy cannons on the general's file with two pieces between.
    pub(super) central_cannon: i32,
    /// Enemy chariots on the general's lines with at most one piece between.
    pub(super) chariot_on_general_line: i32,
    /// Points of the palace the enemy attacks.
    pub(super) palace_attack: i32,
    /// Pairs of soldiers over the river side by side.
    pub(super) connected_soldiers: i32,
}

/// The colour indices as constants, for the functions compiled once per side: with the
/// colour known, its palace, its half of the board and its soldiers' direction are constants
/// too (a sixth fewer instructions per evaluation than passing the colour).
pub(super) const RED: usize = 0;
pub(super) const BLACK: usize = 1;

/// What the pieces of colour `C` ([`RED`] or [`BLACK`]) attack, their mobility, and the attack
/// units ([`ATTACK_UNITS`]) of those that reach the enemy palace.
#[inline(always)]
pub(super) fn side_attacks<const C: usize>(pos: &Position) -> (AttackMap, Mobility) {
    let color = Color::ALL[C];
    let occ = pos.occupancy();
    let own = pos.color_bb(color);
    let enemy_palace = palace_of(color.other());
    let mut mobility = Mobility::default();
    let mut chariots = Bitboard::EMPTY;
    let mut minor = Bitboard::EMPTY;
    let (mut king_units, mut king_attackers) = (0, 0);
    // Counted without a branch.
    let mut note_attacker = |kind: PieceKind, reach: Bitboard| {
        let reaches = (reach & enemy_palace).any() as i32;
        king_units += ATTACK_UNITS[kind.index()] * reaches;
        king_attackers += reaches;
    };
    for &sq in pos.squares(color, PieceKind::Chariot) {
        let reach = attacks::chariot(sq, occ);
        mobility.chariot += (reach & !own).count() as i32;
        chariots |= reach;
        note_attacker(PieceKind::Chariot, reach);
    }
    for &sq in pos.squares(color, PieceKind::Horse) {
        let reach = attacks::horse(sq, occ.board);
        let moves = (reach & !own).count() as i32;
        mobility.horse += moves;
        mobility.trapped_horses += (moves == 0) as i32;
        minor |= reach;
        note_attacker(PieceKind::Horse, reach);
    }
    for &sq in pos.squares(color, PieceKind::Cannon) {
        mobility.cannon += attacks::quiet_slide_count(sq, occ) as i32;
        let reach = attacks::cannon_captures(sq, occ);
        minor |= reach;
        note_attacker(PieceKind::Cannon, reach);
    }
    // Soldiers all at once: their attacks by shifts, those reaching the palace by a mask.
    let soldiers = pos.pieces(color, PieceKind::Soldier);
    minor |= attacks::soldiers(color, soldiers);
    let reaching = (soldiers & SOLDIERS_REACHING_PALACE[color.index()]).count() as i32;
    king_units += ATTACK_UNITS[PieceKind::Soldier.index()] * reaching;
    king_attackers += reaching;
    for &sq in pos.squares(color, PieceKind::Elephant) {
        minor |= attacks::elephant(sq, occ.board);
    }
    for &sq in pos.squares(color, PieceKind::Advisor) {
        minor |= attacks::advisor(color, sq);
    }
    let general = attacks::general(color, pos.general(color));
    let map = AttackMap {
        all: chariots | minor | general,
        minor,
        king_units,
        king_attackers,
    };
    (map, mobility)
}

impl Evaluator {
    /// An evaluator with the given weights.
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator {
            piece_square: PieceSquare::new(&weights),
            weights,
        }
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The score of `pos` for the side to move, in centi-soldiers.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_with(pos, self.material(pos))
    }

    /// [`Evaluator::evaluate`] given the position's [`Material`] sums, kept up to date by the
    /// caller.
    #[inline]
    pub fn evaluate_with(&self, pos: &Position, material: Material) -> i32 {
        let red = self.terms_with(pos, material).red_score();
        match pos.side_to_move() {
            Color::Red => red,
            Color::Black => -red,
        }
    }

    /// The [`Material`] sums of `pos`, counted from scratch.
    pub fn material(&self, pos: &Position) -> Material {
        let mut sum = Material::default();
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_at(sq) {
                sum.add(self.piece_material(piece, sq));
            }
        }
        sum
    }

    /// What `piece` on `sq` adds to the [`Material`] sums.
    #[inline]
    pub fn piece_material(&self, piece: Piece, sq: Square) -> Material {
        let v = self.piece_square.get(piece.color, piece.kind, sq);
        let sign = if piece.color == Color::Red { 1 } else { -1 };
        Material {
            mg: sign * v.mg,
            eg: sign * v.eg,
            phase: PHASE_WEIGHT[piece.kind.index()],
        }
    }

    /// The [`Material`] sums after the legal move `m` is played in `pos` (not yet played),
    /// given the sums `before` it.
    #[inline]
    pub fn material_after(&self, pos: &Position, m: Move, before: Material) -> Material {
        let mut after = before;
        if let Some(mover) = pos.piece_at(m.from()) {
            after.sub(self.piece_material(mover, m.from()));
            after.add(self.piece_material(mover, m.to()));
        }
        if let Some(captured) = pos.piece_at(m.to()) {
            after.sub(self.piece_material(captured, m.to()));
        }
        after
    }

    /// The evaluation of `pos` taken apart (see [`Terms`]), for a tuner that needs to know
    /// how each weight reaches the score.
    pub fn terms(&self, pos: &Position) -> Terms {
        self.terms_with(pos, self.material(pos))
    }

    /// [`Evaluator::terms`] given the position's [`Material`] sums.
    fn terms_with(&self, pos: &Position, material: Material) -> Terms {
        let w = &self.weights;
        let mut score = Score {
            mg: material.mg,
            eg: material.eg,
        };
        // Features weighed linearly are counted per side, and each weight is applied once, to
        // Red's count less Black's (the same sum as weighing each side's count, in fewer steps).
        let (red_map, red_mobility) = side_attacks::<RED>(pos);
        let (black_map, black_mobility) = side_attacks::<BLACK>(pos);
        let mobility = |count: fn(&Mobility) -> i32| count(&red_mobility) - count(&black_mobility);
        score.add(1, w.chariot_mobility, mobility(|m| m.chariot));
        score.add(1, w.horse_mobility, mobility(|m| m.horse));
        score.add(1, w.horse_trapped, mobility(|m| m.trapped_horses));
        score.add(1, w.cannon_mobility, mobility(|m| m.cannon));
        let maps = [red_map, black_map];
        let red = self.side_terms::<RED>(pos, &maps, &mut score);
        let black = self.side_terms::<BLACK>(pos, &maps, &mut score);
        let counted = |count: fn(&Counts) -> i32| count(&red) - count(&black);
        // Penalties: a count against Red lowers Red's score.
        score.add(-1, w.missing_advisor, counted(|c| c.missing_advisor));
        score.add(-1, w.missing_elephant, counted(|c| c.missing_elephant));
        score.add(-1, w.hollow_cannon, counted(|c| c.hollow_cannon));
        score.add(-1, w.central_cannon, counted(|c| c.central_cannon));
        let on_line = counted(|c| c.chariot_on_general_line);
        score.add(-1, w.chariot_on_general_line, on_line);
        score.add(-1, w.palace_attack, counted(|c| c.palace_attack));
        score.add(1, w.connected_soldiers, counted(|c| c.connected_soldiers));
        let phase = material.phase.min(FULL_PHASE);
        let blended = (score.mg * phase + score.eg * (FULL_PHASE - phase)) / FULL_PHASE;
        Terms {
            mg: score.mg,
            eg: score.eg,
            phase,
            scale: drawish_scale(pos, blended),
            tempo: match pos.side_to_move() {
                Color::Red => w.tempo,
                Color::Black => -w.tempo,
            },
        }
    }

    /// The terms of colour `C` ([`RED`] or [`BLACK`]) that need both sides' attacks: those
    /// weighed linearly are counted and returned, the others added to `score`. The three
    /// functions it calls are inlined into it, always, so that they see the colour as a
    /// constant.
    #[inline(always)]
    fn side_terms<const C: usize>(
        &self,
        pos: &Position,
        maps: &[AttackMap; 2],
        score: &mut Score,
    ) -> Counts {
        let color = Color::ALL[C];
        let sign = if C == RED { 1 } else { -1 };
        let mut counts = self.general_safety(pos, color, maps, sign, score);
        self.threats(pos, color, maps, sign, score);
        counts.connected_soldiers = connected_soldiers(pos, color);
        counts
    }

    /// Dangers to `color`'s general: missing defenders against the attackers that exploit
    /// them, cannons and chariots aimed along its lines, attacked palace points (counted), and
    /// the king danger of an attack by two pieces or more (added to `score`).
    #[inline(always)]
    pub(super) fn general_safety(
        &self,
        pos: &Position,
        color: Color,
        maps: &[AttackMap; 2],
        sign: i32,
        score: &mut Score,
    ) -> Counts {
        let w = &self.weights;
        let mut counts = Counts::default();
        let them = color.other();
        let general = pos.general(color);
        let enemy = |k| pos.count(them, k) as i32;
        let advisors = pos.count(color, PieceKind::Advisor) as i32;
        let elephants = pos.count(color, PieceKind::Elephant) as i32;
        let horse_and_chariots = enemy(PieceKind::Chariot) + enemy(PieceKind::Horse);
        counts.missing_advisor = (2 - advisors) * horse_and_chariots;
        counts.missing_elephant = (2 - elephants) * enemy(PieceKind::Cannon);
        let occ = pos.occupied();
        let lines = attacks::lines(general);
        for cannon in pos.pieces(them, PieceKind::Cannon) & lines {
            if cannon.file() != general.file() {
                continue;
            }
            match (attacks::between(general, cannon) & occ).count() {
                0 => counts.hollow_cannon += 1,
                2 => counts.central_cannon += 1,
                _ => {}
            }
        }
        for chariot in pos.pieces(them, PieceKind::Chariot) & lines {
            if !(attacks::between(general, chariot) & occ).more_than_one() {
                counts.chariot_on_general_line += 1;
            }
        }
        let palace = palace_of(color);
        let attackers = &maps[them.index()];
        counts.palace_attack = (attackers.all & palace).count() as i32;
        if attackers.king_attackers >= 2 {
            let squared = attackers.king_units * attackers.king_units;
            score.mg -= sign * w.king_danger.mg * squared / 256;
            score.eg -= sign * w.king_danger.eg * squared / 256;
        }
        counts
    }

    /// Bonus for `color` per enemy piece it attacks that is undefended, or a chariot attacked
    /// by something cheaper.
    #[inline(always)]
    pub(super) fn threats(
        &self,
        pos: &Position,
        color: Color,
        maps: &[AttackMap; 2],
        sign: i32,
        score: &mut Score,
    ) {
        let w = &self.weights;
        let them = color.other();
        let ours = maps[color.index()];
        let defended = maps[them.index()].all;
        let targets = pos.color_bb(them) & !pos.kind_bb(PieceKind::General);
        let hanging = targets & ours.all & !defended;
        let chariots_hit = pos.pieces(them, PieceKind::Chariot) & ours.minor;
        (hanging | chariots_hit).for_each_square(|sq| {
            let kind = pos.piece_at(sq).map_or(PieceKind::Soldier, |p| p.kind);
            let scale = w.threat_scale[kind.index()];
            score.mg += sign * w.hanging.mg * scale / 8;
            score.eg += sign * w.hanging.eg * scale / 8;
        });
    }
}

/// How many pairs of `color`'s soldiers over the river stand side by side.
#[inline(always)]
pub(super) fn connected_soldiers(pos: &Position, color: Color) -> i32 {
    let crossed = pos.pieces(color, PieceKind::Soldier) & !own_half(color);
    // A pair is a soldier with another one file to its right on the same rank.
    attacks::with_right_neighbour(crossed).count() as i32
}

/// The nine points of `color`'s palace.
fn palace_of(color: Color) -> Bitboard {
    PALACES[color.index()]
}

/// `color`'s side of the river.
fn own_half(color: Color) -> Bitboard {
    attacks::OWN_HALVES[color.index()]
}

/// Bits of ranks `lo..=hi` on files `files`.
const fn region(lo: usize, hi: usize, files: (usize, usize)) -> Bitboard {
    let mut bits = 0u128;
    let mut r = lo;
    while r <= hi {
        let mut f = files.0;
        while f <= files.1 {
            bits |= 1u128 << (r * 9 + f);
            f += 1;
        }
        r += 1;
    }
    Bitboard(bits)
}

const PALACES: [Bitboard; 2] = [region(0, 2, (3, 5)), region(7, 9, (3, 5))];

/// Squares from which a `color` soldier attacks a point of the enemy palace: one rank below
/// it on its files, or (crossed, so moving sideways) on its ranks one file to either side.
const SOLDIERS_REACHING_PALACE: [Bitboard; 2] = [
    Bitboard(region(6, 8, (3, 5)).0 | region(7, 9, (2, 6)).0),
    Bitboard(region(1, 3, (3, 5)).0 | region(0, 2, (2, 6)).0),
];

/// How much of an advantage can be realised, in 64ths: endings where the stronger side's
/// attackers cannot break the defence are pulled towards a draw.
fn drawish_scale(pos: &Position, score: i32) -> i32 {
    let strong = if score >= 0 { Color::Red } else { Color::Black };
    let weak = strong.other();
    let chariots = pos.count(strong, PieceKind::Chariot);
    let horses_and_cannons =
        pos.count(strong, PieceKind::Horse) + pos.count(strong, PieceKind::Cannon);
    // Most positions leave a chariot or two other attackers: nothing to scale.
    if chariots > 0 || horses_and_cannons >= 2 {
        return 64;
    }
    let soldier_count = pos.count(strong, PieceKind::Soldier);
    if horses_and_cannons + soldier_count == 0 {
        return 0;
    }
    let defenders = pos.count(weak, PieceKind::Advisor) + pos.count(weak, PieceKind::Elephant);
    if horses_and_cannons == 1 && soldier_count == 0 {
        // A lone horse or cannon cannot mate against a defended general.
        return match defenders {
            0 => 48,
            1 => 24,
            _ => 4,
        };
    }
    if horses_and_cannons == 0 {
        // Soldiers only: those that reached the last rank no longer threaten mate.
        let soldiers = pos.pieces(strong, PieceKind::Soldier);
        let crossed_soldiers = (soldiers & !own_half(strong)).count();
        let back_rank = |sq: xiangqi::Square| match strong {
            Color::Red => sq.rank() == 9,
            Color::Black => sq.rank() == 0,
        };
        let useful = soldiers.filter(|&s| !back_rank(s)).count();
        if useful == 0 {
            return 0;
        }
        if useful == 1 && crossed_soldiers <= 1 && defenders >= 2 {
            return 8;
        }
    }
    64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        DEFAULT_EVALUATOR.evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_balanced() {
        let e = eval(xiangqi::START_FEN);
        assert_eq!(e, DEFAULT_EVALUATOR.weights().tempo);
    }

    #[test]
    fn symmetric_under_colour_mirror() {
        for fen in [
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mirrored = pos.mirror_colors();
            assert_eq!(
                DEFAULT_EVALUATOR.evaluate(&pos),
                DEFAULT_EVALUATOR.evaluate(&mirrored),
                "{fen}"
            );
        }
    }

    #[test]
    fn terms_combine_to_the_evaluation() {
        for fen in [
            xiangqi::START_FEN,
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 b - - 0 1",
            "3akab2/9/4b4/9/9/9/9/3C5/9/4K4 b",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let terms = DEFAULT_EVALUATOR.terms(&pos);
            let red = match pos.side_to_move() {
                Color::Red => DEFAULT_EVALUATOR.evaluate(&pos),
                Color::Black => -DEFAULT_EVALUATOR.evaluate(&pos),
            };
            assert_eq!(terms.red_score(), red, "{fen}");
        }
    }

    #[test]
    fn zero_piece_square_weights_leave_material_only() {
        let mut weights = params::DEFAULT.clone();
        for scale in &mut weights.pst_scale {
            *scale = params::pair(0, 0);
        }
        // The tuned per-point corrections are added after scaling, so they go too.
        weights.pst_delta = Default::default();
        let flat = Evaluator::new(weights);
        // A soldier on its own side, one rank apart: only its table tells the two apart.
        let a3 = Position::from_fen("3k5/9/9/9/9/9/P8/9/9/4K4 w").unwrap();
        let a4 = Position::from_fen("3k5/9/9/9/9/P8/9/9/9/4K4 w").unwrap();
        assert_ne!(DEFAULT_EVALUATOR.terms(&a3), DEFAULT_EVALUATOR.terms(&a4));
        assert_eq!(flat.terms(&a3), flat.terms(&a4));
    }

    #[test]
    fn material_kept_move_by_move_equals_the_count_from_scratch() {
        let e = &*DEFAULT_EVALUATOR;
        let mut pos = Position::from_fen(
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        )
        .unwrap();
        let mut material = e.material(&pos);
        // Follow the first legal capture (or move) for a while: captures change the sums most.
        for _ in 0..30 {
            let moves = pos.legal_moves();
            let Some(&m) = moves
                .iter()
                .find(|m| pos.piece_at(m.to()).is_some())
                .or(moves.iter().next())
            else {
                break;
            };
            material = e.material_after(&pos, m, material);
            pos.make_move(m);
            assert_eq!(material, e.material(&pos), "{}", pos.to_fen());
            assert_eq!(e.evaluate_with(&pos, material), e.evaluate(&pos));
        }
    }

    #[test]
    fn king_danger_needs_two_attackers_on_the_palace() {
        let mut weights = params::DEFAULT.clone();
        weights.king_danger = params::pair(0, 0);
        let without = Evaluator::new(weights);
        let red = |e: &Evaluator, fen: &str| e.terms(&Position::from_fen(fen).unwrap()).red_score();
        // A black chariot down the d-file and a horse on c3 both reach Red's palace.
        let two = "3k5/9/3r5/9/9/9/2n6/9/9/4K4 w";
        assert!(red(&DEFAULT_EVALUATOR, two) < red(&without, two));
        // The chariot alone: no king danger.
        let one = "3k5/9/3r5/9/9/9/9/9/9/4K4 w";
        assert_eq!(red(&DEFAULT_EVALUATOR, one), red(&without, one));
    }

    #[test]
    fn soldiers_reaching_the_palace_are_those_whose_attacks_touch_it() {
        for color in Color::ALL {
            for sq in Bitboard::FULL {
                let touches = (attacks::soldier(color, sq) & palace_of(color.other())).any();
                assert_eq!(
                    SOLDIERS_REACHING_PALACE[color.index()].contains(sq),
                    touches,
                    "{color:?} {sq}"
                );
            }
        }
    }

    #[test]
    fn extra_chariot_is_winning() {
        let e = eval("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
        assert!(e > 700, "{e}");
    }

    #[test]
    fn lone_cannon_against_full_defence_is_drawish() {
        let e = eval("3akab2/9/4b4/9/9/9/9/3C5/9/4K4 w");
        assert!(e.abs() < 100, "{e}");
        assert_eq!(
            eval("3k5/9/9/9/9/9/9/9/9/4K4 w"),
            DEFAULT_EVALUATOR.weights().tempo
        );
    }
}
