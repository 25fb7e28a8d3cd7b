//! Attack tables, built at compile time, and the functions that read them.
//!
//! Chariots and cannons slide along ranks and files. A rank's occupancy is nine consecutive bits
//! of the board word; a file's occupancy is ten consecutive bits of a second, file-major word
//! (`file * 10 + rank`) that the position keeps beside the first. Both index small tables, so a
//! line attack costs two shifts, two masks and two loads.

use crate::bitboard::{bits_from, Bitboard};
use crate::piece::Color;
use crate::square::{Square, FILES, RANKS, SQUARES};

/// Bits of one rank (nine points) or one file (ten points).
const RANK_BITS: u32 = 0x1FF;
const FILE_BITS: u32 = 0x3FF;

/// Points reached from `pos` on a line of `len` points with occupancy `occ`, up to and including
/// the first piece in each direction: the chariot's moves and captures.
const fn slide_line(pos: u32, occ: u32, len: u32) -> u16 {
    let mut out = 0u32;
    let mut i = pos + 1;
    while i < len {
        out |= 1 << i;
        if occ >> i & 1 != 0 {
            break;
        }
        i += 1;
    }
    let mut i = pos as i32 - 1;
    while i >= 0 {
        out |= 1 << i;
        if occ >> i & 1 != 0 {
            break;
        }
        i -= 1;
    }
    out as u16
}

/// The point of the first piece beyond the first screen in each direction: what a cannon on
/// `pos` attacks.
const fn cannon_line(pos: u32, occ: u32, len: u32) -> u16 {
    let mut out = 0u32;
    let mut screened = false;
    let mut i = pos + 1;
    while i < len {
        if occ >> i & 1 != 0 {
            if screened {
                out |= 1 << i;
                break;
            }
            screened = true;
        }
        i += 1;
    }
    screened = false;
    let mut i = pos as i32 - 1;
    while i >= 0 {
        if occ >> i & 1 != 0 {
            if screened {
                out |= 1 << i;
                break;
            }
            screened = true;
        }
        i -= 1;
    }
    out as u16
}

const fn rank_table(cannon: bool) -> [[u16; 512]; 9] {
    let mut t = [[0u16; 512]; 9];
    let mut pos = 0;
    while pos < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[pos][occ] = if cannon {
                cannon_line(pos as u32, occ as u32, 9)
            } else {
                slide_line(pos as u32, occ as u32, 9)
            };
            occ += 1;
        }
        pos += 1;
    }
    t
}

const fn file_table(cannon: bool) -> [[u16; 1024]; 10] {
    let mut t = [[0u16; 1024]; 10];
    let mut pos = 0;
    while pos < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[pos][occ] = if cannon {
                cannon_line(pos as u32, occ as u32, 10)
            } else {
                slide_line(pos as u32, occ as u32, 10)
            };
            occ += 1;
        }
        pos += 1;
    }
    t
}

/// Turns a ten-bit file mask (bit = rank) into the board bits of file `a`.
const fn file_spread_table() -> [u128; 1024] {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if m >> r & 1 != 0 {
                t[m] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
}

static RANK_CHARIOT: [[u16; 512]; 9] = rank_table(false);
static RANK_CANNON: [[u16; 512]; 9] = rank_table(true);
static FILE_CHARIOT: [[u16; 1024]; 10] = file_table(false);
static FILE_CANNON: [[u16; 1024]; 10] = file_table(true);
static FILE_SPREAD: [u128; 1024] = file_spread_table();

/// The points of `sq`'s file whose ranks are the bits of `mask`.
#[inline]
fn spread_file(mask: u16, sq: Square) -> u128 {
    // A file is below 64, which the mask tells the compiler: a shift by 64 or more would need
    // extra instructions for the words trading places.
    FILE_SPREAD[usize::from(mask)] << (sq.file() & 63)
}

/// The bit of each square in the file-major word (`file * 10 + rank`), read from a table
/// rather than shifted into place (see [`Bitboard::from_square`]).
static FILE_MAJOR_BITS: [u128; SQUARES] = {
    let mut t = [0u128; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        t[i] = 1u128 << ((i % 9) * 10 + i / 9);
        i += 1;
    }
    t
};

/// The bit of `sq` in the file-major occupancy word.
#[inline]
pub fn file_major_bit(sq: Square) -> u128 {
    FILE_MAJOR_BITS[sq.index()]
}

/// Both occupancy words of a position: the board word and its file-major twin.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Occupancy {
    /// Occupied squares, rank-major.
    pub board: Bitboard,
    /// Occupied squares, file-major (`file * 10 + rank`).
    pub by_file: u128,
}

impl Occupancy {
    /// The occupancy after a piece leaves `from` and lands on `to` (which may have been occupied).
    #[inline]
    pub fn after_move(self, from: Square, to: Square) -> Occupancy {
        Occupancy {
            board: Bitboard(
                (self.board.0 & !Bitboard::from_square(from).0) | Bitboard::from_square(to).0,
            ),
            by_file: (self.by_file & !file_major_bit(from)) | file_major_bit(to),
        }
    }

    /// The occupancy with `sq` emptied.
    #[inline]
    pub fn without(self, sq: Square) -> Occupancy {
        Occupancy {
            board: Bitboard(self.board.0 & !Bitboard::from_square(sq).0),
            by_file: self.by_file & !file_major_bit(sq),
        }
    }

    #[inline]
    fn rank_bits(self, sq: Square) -> usize {
        bits_from(self.board.0, sq.rank() as u32 * 9) as usize & RANK_BITS as usize
    }

    #[inline]
    fn file_bits(self, sq: Square) -> usize {
        bits_from(self.by_file, sq.file() as u32 * 10) as usize & FILE_BITS as usize
    }
}

/// Squares a chariot on `sq` reaches along its rank: moves up to and including the first piece.
#[inline]
pub fn chariot_rank(sq: Square, occ: Occupancy) -> Bitboard {
    let bits = RANK_CHARIOT[sq.file() as usize][occ.rank_bits(sq)];
    Bitboard((bits as u128) << (sq.rank() as u32 * 9))
}

/// Squares a chariot on `sq` reaches along its file.
#[inline]
pub fn chariot_file(sq: Square, occ: Occupancy) -> Bitboard {
    let bits = FILE_CHARIOT[sq.rank() as usize][occ.file_bits(sq)];
    Bitboard(spread_file(bits, sq))
}

/// Squares a chariot on `sq` reaches (moves to empty points and the first piece each way).
#[inline]
pub fn chariot(sq: Square, occ: Occupancy) -> Bitboard {
    chariot_rank(sq, occ) | chariot_file(sq, occ)
}

/// How many empty points a chariot or cannon on `sq` can move to: what a cannon does without
/// capturing. Counted on the rank and file bits alone, without building the set.
#[inline]
pub fn quiet_slide_count(sq: Square, occ: Occupancy) -> u32 {
    let rank_occ = occ.rank_bits(sq);
    let file_occ = occ.file_bits(sq);
    let rank = RANK_CHARIOT[sq.file() as usize][rank_occ] as usize & !rank_occ;
    let file = FILE_CHARIOT[sq.rank() as usize][file_occ] as usize & !file_occ;
    rank.count_ones() + file.count_ones()
}

/// Squares a cannon on `sq` could capture on: the first piece behind exactly one screen.
#[inline]
pub fn cannon_captures(sq: Square, occ: Occupancy) -> Bitboard {
    let rank = RANK_CANNON[sq.file() as usize][occ.rank_bits(sq)];
    let file = FILE_CANNON[sq.rank() as usize][occ.file_bits(sq)];
    Bitboard(((rank as u128) << (sq.rank() as u32 * 9)) | spread_file(file, sq))
}

/// The cannon's captures along the file only.
#[inline]
pub fn cannon_file(sq: Square, occ: Occupancy) -> Bitboard {
    let file = FILE_CANNON[sq.rank() as usize][occ.file_bits(sq)];
    Bitboard(spread_file(file, sq))
}

/// Whether `sq` lies inside `color`'s palace (files d–f, ranks 0–2 or 7–9).
pub const fn in_palace(color: Color, sq: Square) -> bool {
    let f = sq.file();
    let r = sq.rank();
    f >= 3
        && f <= 5
        && match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        }
}

/// Whether `sq` is on `color`'s own side of the river.
pub const fn on_own_side(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.rank() <= 4,
        Color::Black => sq.rank() >= 5,
    }
}

const fn bit(sq: Square) -> u128 {
    1u128 << sq.index()
}

const fn sq_at(i: usize) -> Square {
    Square::from_index_unchecked(i)
}

/// One way a horse or elephant can go: the point that must be empty (the horse's leg, the
/// elephant's eye) and the points reached through it.
#[derive(Clone, Copy)]
pub struct Step {
    /// The blocking point as a one-bit set; empty when the step leaves the board (then
    /// `targets` is empty too), so a step off the board never contributes anything.
    pub block: Bitboard,
    /// The points reached when `block` is empty.
    pub targets: Bitboard,
}

const NO_STEP: Step = Step {
    block: Bitboard::EMPTY,
    targets: Bitboard::EMPTY,
};

const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Horse moves from each square, grouped by leg.
static HORSE_STEPS: [[Step; 4]; SQUARES] = {
    let mut t = [[NO_STEP; 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let sq = sq_at(i);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHOGONAL[d];
            if let Some(leg) = sq.offset(df, dr) {
                let mut targets = 0u128;
                // Continue one more point in the same direction and one to either side.
                let (a, b) = if df == 0 {
                    ((1, 0), (-1, 0))
                } else {
                    ((0, 1), (0, -1))
                };
                if let Some(t1) = leg.offset(df + a.0, dr + a.1) {
                    targets |= bit(t1);
                }
                if let Some(t2) = leg.offset(df + b.0, dr + b.1) {
                    targets |= bit(t2);
                }
                t[i][d] = Step {
                    block: Bitboard(bit(leg)),
                    targets: Bitboard(targets),
                };
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Horses that could attack each square, grouped by the (diagonal) leg point they need empty.
static HORSE_ATTACKER_STEPS: [[Step; 4]; SQUARES] = {
    let mut t = [[NO_STEP; 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let sq = sq_at(i);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAGONAL[d];
            if let Some(leg) = sq.offset(df, dr) {
                let mut from = 0u128;
                if let Some(h) = leg.offset(df, 0) {
                    from |= bit(h);
                }
                if let Some(h) = leg.offset(0, dr) {
                    from |= bit(h);
                }
                t[i][d] = Step {
                    block: Bitboard(bit(leg)),
                    targets: Bitboard(from),
                };
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Elephant moves from each square: eye point and target, never across the river.
static ELEPHANT_STEPS: [[Step; 4]; SQUARES] = {
    let mut t = [[NO_STEP; 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let sq = sq_at(i);
        let red_half = sq.rank() <= 4;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAGONAL[d];
            if let (Some(eye), Some(to)) = (sq.offset(df, dr), sq.offset(2 * df, 2 * dr)) {
                if (to.rank() <= 4) == red_half {
                    t[i][d] = Step {
                        block: Bitboard(bit(eye)),
                        targets: Bitboard(bit(to)),
                    };
                }
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Per-colour table of fixed-step moves built by `f(color, square)`.
const fn per_color_table(kind: u8) -> [[Bitboard; SQUARES]; 2] {
    let mut t = [[Bitboard::EMPTY; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let mut i = 0;
        while i < SQUARES {
            t[c][i] = Bitboard(step_targets(kind, color, sq_at(i)));
            i += 1;
        }
        c += 1;
    }
    t
}

const GENERAL_TABLE: u8 = 0;
const ADVISOR_TABLE: u8 = 1;
const SOLDIER_TABLE: u8 = 2;
const SOLDIER_ATTACKER_TABLE: u8 = 3;

const fn step_targets(kind: u8, color: Color, sq: Square) -> u128 {
    let mut out = 0u128;
    match kind {
        GENERAL_TABLE | ADVISOR_TABLE => {
            let dirs = if kind == GENERAL_TABLE {
                ORTHOGONAL
            } else {
                DIAGONAL
            };
            let mut d = 0;
            while d < 4 {
                if let Some(to) = sq.offset(dirs[d].0, dirs[d].1) {
                    if in_palace(color, to) {
                        out |= bit(to);
                    }
                }
                d += 1;
            }
        }
        SOLDIER_TABLE => {
            let forward = if matches!(color, Color::Red) { 1 } else { -1 };
            if let Some(to) = sq.offset(0, forward) {
                out |= bit(to);
            }
            if !on_own_side(color, sq) {
                if let Some(to) = sq.offset(1, 0) {
                    out |= bit(to);
                }
                if let Some(to) = sq.offset(-1, 0) {
                    out |= bit(to);
                }
            }
        }
        _ => {
            // Soldiers of `color` that attack `sq`: the inverse of SOLDIER_TABLE.
            let mut i = 0;
            while i < SQUARES {
                if step_targets(SOLDIER_TABLE, color, sq_at(i)) & bit(sq) != 0 {
                    out |= bit(sq_at(i));
                }
                i += 1;
            }
        }
    }
    out
}

static GENERAL_MOVES: [[Bitboard; SQUARES]; 2] = per_color_table(GENERAL_TABLE);
static ADVISOR_MOVES: [[Bitboard; SQUARES]; 2] = per_color_table(ADVISOR_TABLE);
static SOLDIER_MOVES: [[Bitboard; SQUARES]; 2] = per_color_table(SOLDIER_TABLE);
static SOLDIER_ATTACKERS: [[Bitboard; SQUARES]; 2] = per_color_table(SOLDIER_ATTACKER_TABLE);

/// Where the blocking point of each of the four `directions` (one point away) lies in the
/// window [`blocked_steps`] cuts from the board: bit `k` is the point `sq - 10 + k`.
const fn in_window(directions: [(i8, i8); 4]) -> [u32; 4] {
    let mut out = [0; 4];
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        out[d] = (10 + df as i32 + 9 * dr as i32) as u32;
        d += 1;
    }
    out
}

/// The four blocking points of a piece's steps in the window, and a multiplier that gathers
/// them into the top four bits of a product: one multiplication instead of four tests. The
/// gathered bits come out in some order of their own; the tables are built with the same
/// multiplication, so the order never matters (and a test checks no two sets share an index).
#[derive(Clone, Copy)]
struct Gather {
    in_window: [u32; 4],
    mask: u64,
    magic: u64,
}

impl Gather {
    const fn new(directions: [(i8, i8); 4], magic: u64) -> Gather {
        let in_window = in_window(directions);
        let mut mask = 0;
        let mut d = 0;
        while d < 4 {
            mask |= 1 << in_window[d];
            d += 1;
        }
        Gather {
            in_window,
            mask,
            magic,
        }
    }

    /// The table index of the blocking points set in `window`.
    #[inline]
    const fn index(self, window: u64) -> usize {
        ((window & self.mask).wrapping_mul(self.magic) >> 60) as usize
    }

    /// The window holding exactly the blocking points of the steps in `blocked` (bit `d` for
    /// step `d`).
    const fn window_of(self, blocked: usize) -> u64 {
        let mut window = 0;
        let mut d = 0;
        while d < 4 {
            if blocked & (1 << d) != 0 {
                window |= 1 << self.in_window[d];
            }
            d += 1;
        }
        window
    }
}

/// Legs of the horse (points 1, 9, 11, 19 of the window); each multiplier term moves one of
/// them to bits 60–63 without any other term reaching there.
const ORTHOGONAL_GATHER: Gather = Gather::new(ORTHOGONAL, 0x0824_1000_0000_0000);
/// Eyes of the elephant and the legs of a horse attacking the centre (points 0, 2, 18, 20).
const DIAGONAL_GATHER: Gather = Gather::new(DIAGONAL, 0x4400_2200_0000_0000);

/// The index of the blocked steps from `sq` in the tables of [`by_blocked_steps`]. One shift
/// cuts the 21 points around `sq` out of the board; a step leaving the board reads some
/// unrelated point, which does not matter since its targets are empty.
#[inline]
fn blocked_steps(sq: Square, occ: Bitboard, gather: Gather) -> usize {
    let window = bits_from(occ.0 << 10, sq.index() as u32) as u32;
    gather.index(u64::from(window))
}

/// For each square and each set of blocked steps (indexed as [`blocked_steps`] finds them),
/// the union of the targets of the open steps: one lookup instead of four tests.
const fn by_blocked_steps(
    steps: &[[Step; 4]; SQUARES],
    gather: Gather,
) -> [[Bitboard; 16]; SQUARES] {
    let mut t = [[Bitboard::EMPTY; 16]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let mut blocked = 0;
        while blocked < 16 {
            let index = gather.index(gather.window_of(blocked));
            let mut d = 0;
            while d < 4 {
                if blocked & (1 << d) == 0 {
                    t[i][index].0 |= steps[i][d].targets.0;
                }
                d += 1;
            }
            blocked += 1;
        }
        i += 1;
    }
    t
}

static HORSE_BY_LEGS: [[Bitboard; 16]; SQUARES] = by_blocked_steps(&HORSE_STEPS, ORTHOGONAL_GATHER);
static HORSE_ATTACKERS_BY_LEGS: [[Bitboard; 16]; SQUARES] =
    by_blocked_steps(&HORSE_ATTACKER_STEPS, DIAGONAL_GATHER);
static ELEPHANT_BY_EYES: [[Bitboard; 16]; SQUARES] =
    by_blocked_steps(&ELEPHANT_STEPS, DIAGONAL_GATHER);

/// Points a horse on `sq` attacks, given the occupied squares (legs blocked by any piece).
#[inline]
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    HORSE_BY_LEGS[sq.index()][blocked_steps(sq, occ, ORTHOGONAL_GATHER)]
}

/// Points from which a horse would attack `sq`, given the occupied squares.
#[inline]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    HORSE_ATTACKERS_BY_LEGS[sq.index()][blocked_steps(sq, occ, DIAGONAL_GATHER)]
}

/// Points an elephant on `sq` reaches, given the occupied squares (eyes blocked by any piece).
#[inline]
pub fn elephant(sq: Square, occ: Bitboard) -> Bitboard {
    ELEPHANT_BY_EYES[sq.index()][blocked_steps(sq, occ, DIAGONAL_GATHER)]
}

/// Points a `color` general on `sq` steps to inside its palace.
#[inline]
pub fn general(color: Color, sq: Square) -> Bitboard {
    GENERAL_MOVES[color.index()][sq.index()]
}

/// Points a `color` advisor on `sq` steps to inside its palace.
#[inline]
pub fn advisor(color: Color, sq: Square) -> Bitboard {
    ADVISOR_MOVES[color.index()][sq.index()]
}

/// Points a `color` soldier on `sq` attacks (forward, and sideways once over the river).
#[inline]
pub fn soldier(color: Color, sq: Square) -> Bitboard {
    SOLDIER_MOVES[color.index()][sq.index()]
}

/// Points from which a `color` soldier would attack `sq`.
#[inline]
pub fn soldier_attackers(color: Color, sq: Square) -> Bitboard {
    SOLDIER_ATTACKERS[color.index()][sq.index()]
}

/// Bits of file a (`FILE_EDGES[0]`) and file i (`FILE_EDGES[1]`), every rank.
const FILE_EDGES: [u128; 2] = {
    let mut t = [0u128; 2];
    let mut r = 0;
    while r < RANKS as usize {
        t[0] |= 1u128 << (r * 9);
        t[1] |= 1u128 << (r * 9 + 8);
        r += 1;
    }
    t
};

/// Each colour's own side of the river, by colour index: Red's ranks 0–4, Black's ranks 5–9.
pub const OWN_HALVES: [Bitboard; 2] = {
    let red = (1u128 << 45) - 1;
    [Bitboard(red), Bitboard(Bitboard::FULL.0 & !red)]
};

/// Every point some `color` soldier in `soldiers` attacks: the union of [`soldier`] over the
/// set, computed with shifts instead of square by square.
#[inline]
pub fn soldiers(color: Color, soldiers: Bitboard) -> Bitboard {
    let set = soldiers.0;
    let crossed = set & !OWN_HALVES[color.index()].0;
    let forward = match color {
        Color::Red => set << 9,
        Color::Black => set >> 9,
    };
    let left = (crossed & !FILE_EDGES[0]) >> 1;
    let right = (crossed & !FILE_EDGES[1]) << 1;
    Bitboard((forward | left | right) & Bitboard::FULL.0)
}

/// Squares in `set` whose right-hand neighbour (one file up, same rank) is in `set` too.
#[inline]
pub fn with_right_neighbour(set: Bitboard) -> Bitboard {
    Bitboard(set.0 & (set.0 >> 1) & !FILE_EDGES[1])
}

/// Every point on the same rank or file as `sq` (excluding `sq`).
#[inline]
pub fn lines(sq: Square) -> Bitboard {
    LINES[sq.index()]
}

static LINES: [Bitboard; SQUARES] = {
    let mut t = [Bitboard::EMPTY; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let mut j = 0;
        while j < SQUARES {
            if i != j && (i % 9 == j % 9 || i / 9 == j / 9) {
                t[i].0 |= 1u128 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The four diagonal neighbours of `sq`: the legs of every horse that could attack it.
#[inline]
pub fn diagonal_neighbours(sq: Square) -> Bitboard {
    DIAGONAL_NEIGHBOURS[sq.index()]
}

static DIAGONAL_NEIGHBOURS: [Bitboard; SQUARES] = {
    let mut t = [Bitboard::EMPTY; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let mut d = 0;
        while d < 4 {
            if let Some(n) = sq_at(i).offset(DIAGONAL[d].0, DIAGONAL[d].1) {
                t[i].0 |= bit(n);
            }
            d += 1;
        }
        i += 1;
    }
    t
};

const _: () = assert!(FILES as usize * RANKS as usize == SQUARES);

/// Points strictly between two squares on one rank or file; empty when they share neither.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

static BETWEEN: [[Bitboard; SQUARES]; SQUARES] = {
    let mut t = [[Bitboard::EMPTY; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut b = 0;
        while b < SQUARES {
            let (fa, ra, fb, rb) = (a % 9, a / 9, b % 9, b / 9);
            let mut m = 0u128;
            if fa == fb && ra != rb {
                let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                let mut r = lo + 1;
                while r < hi {
                    m |= 1u128 << (r * 9 + fa);
                    r += 1;
                }
            } else if ra == rb && fa != fb {
                let (lo, hi) = if fa < fb { (fa, fb) } else { (fb, fa) };
                let mut f = lo + 1;
                while f < hi {
                    m |= 1u128 << (ra * 9 + f);
                    f += 1;
                }
            }
            t[a][b] = Bitboard(m);
            b += 1;
        }
        a += 1;
    }
    t
};

/// Enemy horses that would attack `sq` through each of its four diagonal neighbours, paired
/// with that neighbour: if the neighbour holds the only thing stopping such a horse, moving it
/// away exposes `sq`.
#[inline]
pub fn horse_attacks_through_legs(sq: Square) -> &'static [Step; 4] {
    &HORSE_ATTACKER_STEPS[sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn union_of_singles(color: Color, set: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in set {
            out |= soldier(color, sq);
        }
        out
    }

    #[test]
    fn soldier_set_attacks_equal_the_union_of_single_soldiers() {
        for color in [Color::Red, Color::Black] {
            for i in 0..SQUARES {
                let single = Bitboard::from_square(sq_at(i));
                assert_eq!(soldiers(color, single), soldier(color, sq_at(i)), "{i}");
            }
            // Pseudo-random sets of squares.
            let mut x = 0x9E37_79B9_7F4A_7C15_u64;
            for _ in 0..200 {
                let mut set = 0u128;
                for _ in 0..7 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    set |= 1u128 << (x % SQUARES as u64);
                }
                let set = Bitboard(set);
                assert_eq!(soldiers(color, set), union_of_singles(color, set));
            }
        }
    }

    /// The step-by-step definition the lookup tables replace.
    fn unblocked(steps: &[Step; 4], occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for step in steps {
            if (step.block & occ).is_empty() {
                out |= step.targets;
            }
        }
        out
    }

    #[test]
    fn gathers_give_each_set_of_blocked_steps_its_own_index() {
        for gather in [ORTHOGONAL_GATHER, DIAGONAL_GATHER] {
            let mut seen = [false; 16];
            for blocked in 0..16 {
                let index = gather.index(gather.window_of(blocked));
                assert!(!seen[index], "index {index} twice");
                seen[index] = true;
                // Points of the window outside the four blocking points change nothing.
                let noise = !gather.mask & 0x1F_FFFF;
                assert_eq!(gather.index(gather.window_of(blocked) | noise), index);
            }
        }
    }

    #[test]
    fn leg_and_eye_lookups_agree_with_the_steps() {
        let mut x = 0x2545_F491_4F6C_DD1D_u64;
        for round in 0..2000 {
            // Sparse and dense random boards, and the empty and full ones.
            let mut occ = 0u128;
            for _ in 0..(round % 60) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                occ |= 1u128 << (x % SQUARES as u64);
            }
            let occ = match round {
                0 => Bitboard::EMPTY,
                1 => Bitboard::FULL,
                _ => Bitboard(occ),
            };
            for i in 0..SQUARES {
                let sq = sq_at(i);
                assert_eq!(horse(sq, occ), unblocked(&HORSE_STEPS[i], occ), "horse {i}");
                assert_eq!(
                    horse_attackers(sq, occ),
                    unblocked(&HORSE_ATTACKER_STEPS[i], occ),
                    "horse attackers {i}"
                );
                assert_eq!(
                    elephant(sq, occ),
                    unblocked(&ELEPHANT_STEPS[i], occ),
                    "elephant {i}"
                );
            }
        }
    }

    #[test]
    fn quiet_slide_count_counts_the_empty_points_a_chariot_reaches() {
        let mut x = 0x0DDB_1A5E_5BAD_5EED_u64;
        for round in 0..500 {
            let mut occ = Occupancy::default();
            for _ in 0..(round % 50) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let sq = sq_at((x % SQUARES as u64) as usize);
                occ.board.insert(sq);
                occ.by_file |= file_major_bit(sq);
            }
            for i in 0..SQUARES {
                let sq = sq_at(i);
                let expected = (chariot(sq, occ) & !occ.board).count();
                assert_eq!(
                    quiet_slide_count(sq, occ),
                    expected,
                    "{i} in {:?}",
                    occ.board
                );
            }
        }
    }

    #[test]
    fn own_halves_agree_with_on_own_side() {
        for color in [Color::Red, Color::Black] {
            for i in 0..SQUARES {
                let sq = sq_at(i);
                assert_eq!(
                    OWN_HALVES[color.index()].contains(sq),
                    on_own_side(color, sq)
                );
            }
        }
    }

    #[test]
    fn right_neighbours_stay_on_the_rank() {
        let at = |f, r| Bitboard::from_square(Square::new(f, r).unwrap());
        // i0 and a1 are adjacent bits but not neighbours; c4 and d4 are.
        let set = at(8, 0) | at(0, 1) | at(2, 4) | at(3, 4);
        assert_eq!(with_right_neighbour(set), at(2, 4));
    }
}
