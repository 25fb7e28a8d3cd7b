//! The reports' simple evaluation, as report 001 describes it: each side's material, plus
//! where its pieces stand, plus what they can move to, attack and protect. Every term is
//! summed per side; the value is Red's sum less Black's, from the side to move's point of
//! view. All values are in centi-soldiers (a soldier on its own side is 100).
//!
//! The weights, and why:
//!
//! - **Material** ([`VALUES`]): report 001's table: soldier 100, advisor 200, elephant 200,
//!   horse 400, cannon 450, chariot 900. Its general (100,000) is left out: both generals are
//!   always on the board, and losing one is mate, which the search scores itself.
//! - **Position** ([`position_bonus`]): report 001 has none; report 000 and the thesis value a
//!   piece by where it stands (a chariot on the central files, a soldier over the river, a horse
//!   near the enemy palace). Small rules, never more than 70, so that material decides: a
//!   soldier over the river gains 20, and 10 more for each rank towards the palace and for the
//!   three central files, but only 10 on the last rank (where it can only go sideways); a
//!   horse 3 for each file nearer the centre and 4 for each rank forward (up to the seventh); a
//!   chariot 10 on the three central files and 10 over the river; a cannon 10 on the central
//!   file (aimed at the general); a general 10 less for each rank it has left its back rank.
//! - **Mobility** ([`MOBILITY`]): 2 for every point a chariot, horse or cannon can move to
//!   (pins aside): a free chariot reaches 17 points and gains 34, a third of a soldier; the
//!   other pieces move within small areas, where more points mean little.
//! - **Attack** (the report's 攻击力): for each enemy piece (not the general: a check is the
//!   search's business) that a piece attacks, a share of its value: a tenth for the side to
//!   move, a hundredth for the other side. The report counts the whole value, and a tenth of
//!   it for the side not to move (which cannot take first). A whole value would count two
//!   threatened chariots as 1,800 when at most one can be taken; a tenth keeps an attack worth
//!   less than the piece (at most 90 for a chariot) and keeps the report's ratio of ten between
//!   the side that moves and the side that waits.
//! - **Protection** (保护力): for each own piece (not the general) a piece defends, a twentieth
//!   of its value: a defended piece is safer, but defence wins nothing by itself, so it counts
//!   half as much as an attack.
//!
//! Report 001 also adds a small random number to break ties. The laboratory does not: its
//! searches must be repeatable, and equal values are exactly what the algorithms are compared
//! on.

use xiangqi::{attacks, Bitboard, Color, PieceKind, Position, Square};

/// Material per kind, indexed like [`PieceKind`] (general, advisor, elephant, horse, chariot,
/// cannon, soldier): report 001's values.
pub const VALUES: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

/// Per point a chariot, horse or cannon can move to.
pub const MOBILITY: i32 = 2;

/// An attacked piece counts its value divided by this for the side to move…
pub const ATTACK_DIVISOR_TO_MOVE: i32 = 10;

/// …and by this for the side not to move (the report's factor of 0.1 on top).
pub const ATTACK_DIVISOR_WAITING: i32 = 100;

/// A defended piece counts its value divided by this.
pub const PROTECTION_DIVISOR: i32 = 20;

/// One side's terms, each positive when good for that side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideTerms {
    /// Sum of [`VALUES`] of its pieces.
    pub material: i32,
    /// Sum of [`position_bonus`] of its pieces.
    pub position: i32,
    /// [`MOBILITY`] times the points its chariots, horses and cannons can move to.
    pub mobility: i32,
    /// Shares of the enemy pieces it attacks.
    pub attack: i32,
    /// Shares of its own pieces it defends.
    pub protection: i32,
}

impl SideTerms {
    /// The terms with their names, in the order of the fields.
    pub fn named(&self) -> [(&'static str, i32); 5] {
        [
            ("material", self.material),
            ("position", self.position),
            ("mobility", self.mobility),
            ("attack", self.attack),
            ("protection", self.protection),
        ]
    }

    /// All terms added up.
    pub fn total(&self) -> i32 {
        self.named().iter().map(|&(_, value)| value).sum()
    }
}

/// Both sides' terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimpleTerms {
    /// Red's terms.
    pub red: SideTerms,
    /// Black's terms.
    pub black: SideTerms,
}

impl SimpleTerms {
    /// Red's total less Black's.
    pub fn red_score(&self) -> i32 {
        self.red.total() - self.black.total()
    }
}

/// The value of `pos` for its side to move.
///
/// ```
/// use xiangqi::Position;
/// use xiangqi_engine::lab::simple;
///
/// // At the start both sides have the same material.
/// let start = Position::startpos();
/// let terms = simple::terms(&start);
/// assert_eq!(terms.red.material, terms.black.material);
/// assert_eq!(simple::evaluate(&start), terms.red_score());
/// ```
pub fn evaluate(pos: &Position) -> i32 {
    let red = terms(pos).red_score();
    match pos.side_to_move() {
        Color::Red => red,
        Color::Black => -red,
    }
}

/// Every term of `pos` for each side.
pub fn terms(pos: &Position) -> SimpleTerms {
    SimpleTerms {
        red: side_terms(pos, Color::Red),
        black: side_terms(pos, Color::Black),
    }
}

/// How far `sq` is from `color`'s back rank (0 on it, 9 on the enemy's).
fn advance(color: Color, sq: Square) -> i32 {
    match color {
        Color::Red => i32::from(sq.rank()),
        Color::Black => 9 - i32::from(sq.rank()),
    }
}

/// What a `color` `kind` on `sq` gains by standing there (see the module's notes).
pub fn position_bonus(color: Color, kind: PieceKind, sq: Square) -> i32 {
    let forward = advance(color, sq);
    let from_centre = (i32::from(sq.file()) - 4).abs();
    let central = from_centre <= 1;
    match kind {
        PieceKind::Soldier => match forward {
            0..=4 => 0,
            9 => 10,
            _ => 20 + 10 * (forward - 5) + if central { 10 } else { 0 },
        },
        PieceKind::Horse => 3 * (4 - from_centre) + 4 * forward.min(7),
        PieceKind::Chariot => (if central { 10 } else { 0 }) + if forward >= 5 { 10 } else { 0 },
        PieceKind::Cannon => {
            if from_centre == 0 {
                10
            } else {
                0
            }
        }
        PieceKind::General => -10 * forward,
        PieceKind::Advisor | PieceKind::Elephant => 0,
    }
}

/// The points a `color` `kind` on `sq` attacks or defends: where it could capture if an enemy
/// stood there. A cannon's are the pieces behind exactly one screen.
fn reach(pos: &Position, color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    let occ = pos.occupancy();
    match kind {
        PieceKind::General => attacks::general(color, sq),
        PieceKind::Advisor => attacks::advisor(color, sq),
        PieceKind::Elephant => attacks::elephant(sq, occ.board),
        PieceKind::Horse => attacks::horse(sq, occ.board),
        PieceKind::Chariot => attacks::chariot(sq, occ),
        PieceKind::Cannon => attacks::cannon_captures(sq, occ),
        PieceKind::Soldier => attacks::soldier(color, sq),
    }
}

/// The points a `color` `kind` on `sq` can move to (pins aside), for chariots, horses and
/// cannons; 0 for the others.
fn mobility(pos: &Position, color: Color, kind: PieceKind, sq: Square) -> i32 {
    let own = pos.color_bb(color);
    let count = match kind {
        PieceKind::Chariot | PieceKind::Horse => (reach(pos, color, kind, sq) & !own).count(),
        PieceKind::Cannon => {
            let captures = reach(pos, color, kind, sq) & pos.color_bb(color.other());
            attacks::quiet_slide_count(sq, pos.occupancy()) + captures.count()
        }
        _ => 0,
    };
    count as i32
}

/// The sum of [`VALUES`] of the pieces on `squares`.
fn value_of(pos: &Position, squares: Bitboard) -> i32 {
    squares
        .filter_map(|sq| pos.piece_at(sq))
        .map(|p| VALUES[p.kind.index()])
        .sum()
}

fn side_terms(pos: &Position, color: Color) -> SideTerms {
    let own = pos.color_bb(color);
    let enemy = pos.color_bb(color.other());
    let not_generals = !pos.kind_bb(PieceKind::General);
    let mut terms = SideTerms::default();
    // Attacked and defended values are summed first and divided once, so that rounding
    // costs at most one point per side.
    let mut attacked = 0;
    let mut defended = 0;
    for kind in PieceKind::ALL {
        for &sq in pos.squares(color, kind) {
            terms.material += VALUES[kind.index()];
            terms.position += position_bonus(color, kind, sq);
            terms.mobility += MOBILITY * mobility(pos, color, kind, sq);
            let reach = reach(pos, color, kind, sq) & not_generals;
            attacked += value_of(pos, reach & enemy);
            defended += value_of(pos, reach & own);
        }
    }
    let divisor = if pos.side_to_move() == color {
        ATTACK_DIVISOR_TO_MOVE
    } else {
        ATTACK_DIVISOR_WAITING
    };
    terms.attack = attacked / divisor;
    terms.protection = defended / PROTECTION_DIVISOR;
    terms
}
