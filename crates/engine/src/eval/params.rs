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

/// The weights in use: hand-made, then fitted by `xiangqi tune` to self-play games in four
/// rounds, each adopted after winning a match against the weights before (docs/TUNING.md,
/// docs/STRENGTH.md).
pub const DEFAULT: Weights = Weights {
    material: [
        pair(0, 0),
        pair(169, 49),
        pair(219, 29),
        pair(355, 404),
        pair(949, 976),
        pair(533, 403),
        pair(131, 132),
    ],
    chariot_mobility: pair(10, 11),
    horse_mobility: pair(36, -10),
    horse_trapped: pair(-20, -27),
    cannon_mobility: pair(9, -7),
    missing_advisor: pair(71, 1),
    missing_elephant: pair(49, -21),
    hollow_cannon: pair(153, 27),
    central_cannon: pair(28, 24),
    chariot_on_general_line: pair(39, 30),
    palace_attack: pair(17, -18),
    king_danger: pair(400, 202),
    hanging: pair(55, 42),
    threat_scale: [0, 16, 10, 12, 6, 15, 6],
    connected_soldiers: pair(4, -1),
    tempo: 14,
    pst_scale: [
        pair(95, 64),
        pair(67, 60),
        pair(77, 53),
        pair(108, 68),
        pair(80, 76),
        pair(81, 66),
        pair(136, 54),
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
                [0, 0, 0, -10, -6],
                [0, 0, 0, -36, -9],
                [0, 0, 0, -7, 68],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, -5, -6],
                [0, 0, 0, 8, 7],
                [0, 0, 0, 16, -19],
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
                [0, 0, 0, -14, 0],
                [0, 0, 0, 0, 20],
                [0, 0, 0, -20, 0],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, -8, 0],
                [0, 0, 0, 0, -15],
                [0, 0, 0, -26, 0],
            ],
        ],
        [
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, -26, 0, 0],
                [0, 0, 0, 0, 0],
                [-15, 0, 0, 0, 58],
                [0, 0, 0, 0, 0],
                [0, 0, 22, 0, 0],
            ],
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 4, 0, 0],
                [0, 0, 0, 0, 0],
                [-1, 0, 0, 0, -36],
                [0, 0, 0, 0, 0],
                [0, 0, -22, 0, 0],
            ],
        ],
        [
            [
                [-1, 1, 5, -1, 0],
                [2, 9, 6, 2, 0],
                [0, -3, 5, 7, 3],
                [-2, 7, -14, 14, -4],
                [-2, -1, 6, 25, 0],
                [2, 1, 8, -4, 0],
                [-5, -5, -5, -3, 20],
                [18, -10, -4, -1, -1],
                [-21, -1, -10, -1, -21],
                [-4, -26, -9, -10, -1],
            ],
            [
                [-2, -2, 5, 1, 0],
                [-1, 11, -11, 2, 1],
                [1, -8, 1, 0, 2],
                [6, -12, 1, -4, -2],
                [-5, -5, 7, -5, 12],
                [2, -2, 9, 0, 2],
                [0, -3, 5, 6, 13],
                [4, -3, -4, 0, 1],
                [-11, -3, 2, -3, -9],
                [-5, 2, -9, -9, -1],
            ],
        ],
        [
            [
                [2, -6, 3, 4, 2],
                [1, 25, 10, 22, 3],
                [0, -3, 3, -5, 6],
                [-1, 8, 14, -18, -4],
                [2, 4, 8, -14, 0],
                [-6, 4, 8, -16, -1],
                [2, 1, 4, 1, 2],
                [-3, -5, -1, 6, -5],
                [-6, 5, 1, -19, -1],
                [-28, 21, 7, 2, 0],
            ],
            [
                [-3, -14, 0, -1, 1],
                [1, -1, 9, 13, 4],
                [2, 1, 4, 7, 8],
                [-3, -4, 2, 4, 5],
                [-4, -6, -1, 7, 9],
                [-6, 4, 4, -1, 1],
                [1, -1, 5, -2, 3],
                [-5, 0, 2, 2, -3],
                [-1, -1, 1, -4, -1],
                [-3, 4, 0, -1, 0],
            ],
        ],
        [
            [
                [40, 23, -12, -2, -1],
                [13, -15, -14, 0, 1],
                [2, -2, -8, -7, 1],
                [-2, -7, 6, -1, 7],
                [-2, -5, -2, -6, 26],
                [-3, 1, -19, -5, 15],
                [-1, 11, -3, -8, 1],
                [16, -8, 8, 5, 31],
                [1, 5, 1, -8, 14],
                [-1, 2, 2, -12, 0],
            ],
            [
                [18, 6, -4, -1, 0],
                [10, -2, -7, -4, 1],
                [5, -5, -5, -3, 1],
                [1, 3, 3, 2, 8],
                [1, 1, -2, -6, 6],
                [-1, 5, -24, 0, -1],
                [3, 7, 0, -2, 5],
                [-1, -6, 1, -3, -2],
                [3, 6, -3, 0, 2],
                [0, -2, -2, -18, -1],
            ],
        ],
        [
            [
                [-1, -5, -5, -3, 0],
                [1, 1, 7, 7, 2],
                [2, 2, 0, 8, 4],
                [9, 13, 27, 7, 6],
                [-3, -1, 14, 8, 7],
                [-5, 0, -5, 0, -23],
                [-22, 0, -51, 0, 19],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
            [
                [-3, -26, -35, -36, -11],
                [3, -7, -12, -36, 6],
                [8, -2, 2, 27, 3],
                [17, 16, 24, 5, -8],
                [17, 13, 10, 12, 8],
                [4, 0, 3, 0, 9],
                [5, 0, 2, 0, -8],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 0],
            ],
        ],
    ],
};
