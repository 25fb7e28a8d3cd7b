//! Every evaluation weight, named, in one place, so a tuner can change them.
//!
//! Values are centi-soldiers in two phases: `mg` (opening/middlegame, all heavy pieces on the
//! board) and `eg` (endgame); the evaluation blends them by the material left.

/// A weight for the middlegame and one for the endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

/// Shorthand for a [`Pair`].
pub const fn pair(mg: i32, eg: i32) -> Pair {
    Pair { mg, eg }
}

/// All weights of the hand-made evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Base value per kind, indexed like `PieceKind` (general, advisor, elephant, horse,
    /// chariot, cannon, soldier). The piece-square tables add to these.
    pub material: [Pair; 7],
    /// Per reachable point for a chariot.
    pub chariot_mobility: Pair,
    /// Per unblocked, not-own-occupied horse move.
    pub horse_mobility: Pair,
    /// A horse with no move at all (trapped) pays this on top.
    pub horse_trapped: Pair,
    /// Per quiet cannon move.
    pub cannon_mobility: Pair,
    /// Per missing advisor, times the enemy's chariots and horses.
    pub missing_advisor: Pair,
    /// Per missing elephant, times the enemy's cannons.
    pub missing_elephant: Pair,
    /// An enemy cannon on our general's file with nothing between (空头炮).
    pub hollow_cannon: Pair,
    /// An enemy cannon on our general's file behind exactly one screen (中炮 aimed at it).
    pub central_cannon: Pair,
    /// Per enemy chariot on our general's file or rank with at most one piece between.
    pub chariot_on_general_line: Pair,
    /// Per point of our palace attacked by the enemy.
    pub palace_attack: Pair,
    /// Penalty per squared attack unit (see `ATTACK_UNITS` in the evaluation) aimed at our
    /// palace, in 256ths, once two or more enemy pieces take part: danger grows faster than
    /// the attackers add up. (The units themselves are fixed: a tuner moving them would make
    /// the score far from linear in its weights.)
    pub king_danger: Pair,
    /// Per enemy piece we attack that is not defended, scaled by its kind in `threat_scale`.
    pub hanging: Pair,
    /// Relative weight of a hanging piece by kind (in eighths).
    pub threat_scale: [i32; 7],
    /// Per pair of soldiers over the river side by side.
    pub connected_soldiers: Pair,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// How much of each kind's piece-square table counts, in 64ths (64 = the table as
    /// written), so a tuner can strengthen or flatten a table without 90 weights per kind.
    pub pst_scale: [Pair; 7],
    /// Per-point corrections of the piece-square tables, in centi-soldiers, fitted by the
    /// tuner: indexed by kind, phase (middlegame, endgame), row (as the tables are written:
    /// the enemy's back rank first, seen from the piece's own side) and file counted from the
    /// nearer edge (a or i = 0, …, the central file e = 4; the tables stay left-right
    /// symmetric). They add to the scaled table of `pst_scale`.
    pub pst_delta: [PstDelta; 7],
}

/// One kind's piece-square corrections: middlegame and endgame half-tables (see
/// [`Weights::pst_delta`]).
pub type PstDelta = [[[i32; 5]; 10]; 2];

/// The weights in use: hand-made, then fitted by `xiangqi tune` to self-play games in three
/// rounds, each adopted after winning a match against the weights before (docs/TUNING.md,
/// docs/STRENGTH.md).
pub const DEFAULT: Weights = Weights {
    material: [
        pair(0, 0),
        pair(183, 98),
        pair(180, 82),
        pair(383, 428),
        pair(909, 940),
        pair(454, 410),
        pair(110, 119),
    ],
    chariot_mobility: pair(9, 18),
    horse_mobility: pair(32, -1),
    horse_trapped: pair(-26, -27),
    cannon_mobility: pair(14, -3),
    missing_advisor: pair(36, -22),
    missing_elephant: pair(30, -16),
    hollow_cannon: pair(90, 28),
    central_cannon: pair(28, 13),
    chariot_on_general_line: pair(25, 16),
    palace_attack: pair(18, -9),
    king_danger: pair(387, 195),
    hanging: pair(49, 48),
    threat_scale: [0, 9, 10, 12, 7, 15, 8],
    connected_soldiers: pair(13, 26),
    tempo: 11,
    pst_scale: [
        pair(71, 64),
        pair(65, 62),
        pair(66, 58),
        pair(74, 65),
        pair(66, 66),
        pair(68, 65),
        pair(74, 43),
    ],
    pst_delta: [
        [
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
        ],
        [
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
        ],
        [
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
        ],
        [
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
        ],
        [
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
        ],
        [
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
        ],
        [
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
        ],
    ],
};
