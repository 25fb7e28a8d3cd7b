//! Retrograde analysis: the values of a table worked out from the mates backwards, each
//! position visited once as a successor and once as a predecessor.
//!
//! 1. **Start.** Every entry's moves are generated once. A side without a move has lost; a
//!    capture is looked up in the smaller table it leads to (a capture that reaches a lost
//!    position is a win in one more ply, one that reaches a won position a move that loses);
//!    the quiet moves are counted.
//! 2. **Backwards, ply by ply.** The positions decided at distance *n* are taken together. The
//!    positions one quiet move before a loss in *n* are wins in *n* + 1. Each position one
//!    quiet move before a win in *n* has one move fewer left that does not lose; when none is
//!    left, it is lost, in one ply more than its slowest losing move.
//! 3. What is never decided is left undecided, for the perpetual-check rule and then as a
//!    draw (the `generate` module).
//!
//! Predecessors are found by taking moves back ("unmoves"), each checked by playing it
//! forwards. Only entries (Red's general on the d or e file) count as predecessors; a position
//! whose Red general stands on the d file is also reached from the mirror images of its
//! predecessors, whose moves lead to its mirror, which the table keeps as this entry. So each
//! move of each entry is counted exactly once.
//!
//! Both parts are shared among threads: the start by ranges of entries, each ply's
//! predecessors by shares of the positions decided at that distance. Only the generation of
//! moves runs on the threads; the counts and values are written by one thread afterwards, in
//! a fixed order, so the table does not depend on the number of threads.

use super::capture_code;
use crate::layout::{Layout, Placement};
use crate::table::Table;
use crate::tables::Tables;
use crate::value::{Code, Value, DRAW, ILLEGAL, UNKNOWN};
use xiangqi::game::is_insufficient_material;
use xiangqi::{Color, Move, Piece, PieceKind, Position, Square};

/// The state of one entry that is neither decided nor a draw at the start.
#[derive(Clone, Copy, Default)]
pub(super) struct Open {
    /// Moves that do not lose yet (quiet moves not known to reach a win for the opponent,
    /// and the captures that draw or win, which never will).
    pub(super) left: u8,
    /// The slowest of the captures that reach a win for the opponent, in plies (0 if none).
    slowest_losing_capture: u16,
}

/// A position decided at some distance, to be taken backwards at that distance.
#[derive(Clone, Copy)]
pub(super) struct Decided {
    pub(super) side: Color,
    pub(super) index: u32,
    /// A win by capture, found at the start, that a faster win by a quiet move may still
    /// replace: written only when its distance comes and the entry is still open.
    pub(super) tentative: bool,
}

/// Decides every mate of `material`'s table (the tables captures lead to are in `tables`);
/// the rest stays undecided. Returns each undecided entry's moves that do not lose yet.
pub(super) fn build(
    table: &mut Table,
    tables: &Tables,
    threads: usize,
    step: &mut dyn FnMut(super::Step),
) -> [Vec<Open>; 2] {
    let size = table.layout.size();
    assert!(
        u32::try_from(size).is_ok(),
        "a table's entries are counted in 32 bits"
    );
    let mut open: [Vec<Open>; 2] = [vec![Open::default(); size], vec![Open::default(); size]];
    let mut by_distance: Vec<Vec<Decided>> = Vec::new();

    // 1. The start.
    for side in Color::ALL {
        let found = start_side(
            &table.layout,
            tables,
            side,
            &mut table.codes[side.index()],
            &mut open[side.index()],
            threads,
        );
        for (plies, decided) in found {
            schedule(&mut by_distance, plies, decided);
        }
        step(super::Step::Moves {
            side,
            entries: size,
        });
    }
    let mut decided_so_far = 0;

    // 2. Backwards, ply by ply.
    let mut plies: usize = 0;
    while plies < by_distance.len() {
        let now = plies as u16;
        let mut frontier = std::mem::take(&mut by_distance[plies]);
        frontier.retain(|d| {
            let code = &mut table.codes[d.side.index()][d.index as usize];
            if !d.tentative {
                return true;
            }
            if *code != UNKNOWN {
                return false;
            }
            *code = Value::Win(now).code();
            true
        });
        if !frontier.is_empty() {
            table.longest = now;
        }
        decided_so_far += frontier.len();
        step(super::Step::Distance {
            plies: now,
            decided: decided_so_far,
        });
        let lost_here = now % 2 == 0;
        for (side, index) in predecessors_of(&table.layout, &frontier, threads) {
            let code = &mut table.codes[side.index()][index as usize];
            if *code != UNKNOWN {
                continue;
            }
            let decided = Decided {
                side,
                index,
                tentative: false,
            };
            if lost_here {
                // A move reaches a loss in `now`: a win in one more.
                *code = Value::Win(now + 1).code();
                schedule(&mut by_distance, now + 1, decided);
            } else {
                let state = &mut open[side.index()][index as usize];
                state.left -= 1;
                if state.left == 0 {
                    let lost_in = now.max(state.slowest_losing_capture) + 1;
                    *code = Value::Loss(lost_in).code();
                    schedule(&mut by_distance, lost_in, decided);
                }
            }
        }
        plies += 1;
    }

    open
}

/// Puts `decided` among the positions to take backwards at `plies`.
pub(super) fn schedule(by_distance: &mut Vec<Vec<Decided>>, plies: u16, decided: Decided) {
    let plies = usize::from(plies);
    if by_distance.len() <= plies {
        by_distance.resize_with(plies + 1, Vec::new);
    }
    by_distance[plies].push(decided);
}

/// What the start finds for an entry.
enum Start {
    /// Decided already (no position, lost without a move, drawn by material).
    Code(Code),
    /// Still open; `capture_win` is the fastest win by a capture, if any.
    Open {
        state: Open,
        capture_win: Option<u16>,
    },
}

/// The start of every entry of `side`: each entry's code and open state written in place, by
/// ranges of entries shared among the threads. Returns the positions already decided at some
/// distance (lost without a move or by captures only, won by a capture), in entry order.
fn start_side(
    layout: &Layout,
    tables: &Tables,
    side: Color,
    codes: &mut [Code],
    open: &mut [Open],
    threads: usize,
) -> Vec<(u16, Decided)> {
    let share = codes.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = codes
            .chunks_mut(share)
            .zip(open.chunks_mut(share))
            .enumerate()
            .map(|(n, (codes, open))| {
                scope.spawn(move || {
                    let first = n * share;
                    let mut found = Vec::new();
                    for (offset, (code, state)) in codes.iter_mut().zip(open).enumerate() {
                        let decided = |tentative| Decided {
                            side,
                            index: (first + offset) as u32,
                            tentative,
                        };
                        match start(layout, tables, side, first + offset) {
                            Start::Code(c) => {
                                *code = c;
                                if c == Value::Loss(0).code() {
                                    found.push((0, decided(false)));
                                }
                            }
                            Start::Open {
                                state: s,
                                capture_win,
                            } => {
                                *code = UNKNOWN;
                                *state = s;
                                if let Some(plies) = capture_win {
                                    found.push((plies, decided(true)));
                                } else if s.left == 0 {
                                    // Every move is a capture that loses.
                                    let plies = s.slowest_losing_capture + 1;
                                    *code = Value::Loss(plies).code();
                                    found.push((plies, decided(false)));
                                }
                            }
                        }
                    }
                    found
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a generation thread does not panic"))
            .collect()
    })
}

fn start(layout: &Layout, tables: &Tables, side: Color, index: usize) -> Start {
    let Some(mut pos) = super::position(layout, side, index) else {
        return Start::Code(ILLEGAL);
    };
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Start::Code(Value::Loss(0).code());
    }
    if is_insufficient_material(&pos) {
        return Start::Code(DRAW);
    }
    let mut state = Open::default();
    let mut capture_win: Option<u16> = None;
    for &m in moves.as_slice() {
        if pos.piece_at(m.to()).is_none() {
            state.left += 1;
            continue;
        }
        let undo = pos.make_move(m);
        let code = capture_code(tables, &pos);
        pos.unmake_move(m, undo);
        match Value::from_code(code) {
            Some(Value::Loss(n)) => {
                let plies = n + 1;
                capture_win = Some(capture_win.map_or(plies, |w| w.min(plies)));
                state.left += 1;
            }
            Some(Value::Win(n)) => {
                state.slowest_losing_capture = state.slowest_losing_capture.max(n);
            }
            // A draw, or a table missing (which `generate` does not allow): never lost.
            _ => state.left += 1,
        }
    }
    Start::Open { state, capture_win }
}

/// The entries one quiet move before each position of `frontier`, as (side to move, entry),
/// in the frontier's order, found by `threads` threads each taking a share.
pub(super) fn predecessors_of(
    layout: &Layout,
    frontier: &[Decided],
    threads: usize,
) -> Vec<(Color, u32)> {
    if frontier.is_empty() {
        return Vec::new();
    }
    let share = frontier.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = frontier
            .chunks(share)
            .map(|part| {
                scope.spawn(move || {
                    let mut found = Vec::new();
                    for d in part {
                        let placed = layout
                            .decode(d.index as usize)
                            .expect("a decided entry is a position");
                        let before = d.side.other();
                        for index in predecessors(layout, &placed, d.side) {
                            found.push((before, index));
                        }
                    }
                    found
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a generation thread does not panic"))
            .collect()
    })
}

/// The entries from which one quiet move of the side not to move reaches the position
/// `placed` (`side` to move), or its mirror image when the table keeps the mirror as this
/// entry (Red's general on the d file).
fn predecessors(layout: &Layout, placed: &Placement, side: Color) -> Vec<u32> {
    let (pieces, len) = placed;
    let pieces = &pieces[..*len];
    let mut found = Vec::new();
    unmoves(layout, pieces, side, &mut found);
    let red_general = pieces
        .iter()
        .find(|(_, p)| *p == Piece::new(Color::Red, PieceKind::General))
        .map(|(sq, _)| *sq);
    if red_general.is_some_and(|sq| sq.file() == 3) {
        let mut mirrored = [pieces[0]; crate::layout::MAX_MEN];
        for (m, &(sq, piece)) in mirrored.iter_mut().zip(pieces) {
            *m = (sq.flip_file(), piece);
        }
        unmoves(layout, &mirrored[..pieces.len()], side, &mut found);
    }
    found
}

/// Adds to `found` the entries (Red's general on the d or e file) from which a quiet move of
/// the side not to move leads to `pieces` with `side` to move.
fn unmoves(layout: &Layout, pieces: &[(Square, Piece)], side: Color, found: &mut Vec<u32>) {
    let mover = side.other();
    let mut occupied = [false; 90];
    for (sq, _) in pieces {
        occupied[sq.index()] = true;
    }
    let empty = |sq: Square| !occupied[sq.index()];
    let mut before = [pieces[0]; crate::layout::MAX_MEN];
    before[..pieces.len()].copy_from_slice(pieces);
    for (i, &(to, piece)) in pieces.iter().enumerate() {
        if piece.color != mover {
            continue;
        }
        let mut try_from = |from: Square| {
            before[i] = (from, piece);
            if let Some(index) = entry_before(layout, &before[..pieces.len()], mover, from, to) {
                found.push(index);
            }
            before[i] = (to, piece);
        };
        match piece.kind {
            PieceKind::Chariot | PieceKind::Cannon => {
                // A quiet move of either slides over empty points.
                for (df, dr) in ORTHOGONAL {
                    let mut at = to.offset(df, dr);
                    while let Some(sq) = at.filter(|&sq| empty(sq)) {
                        try_from(sq);
                        at = sq.offset(df, dr);
                    }
                }
            }
            PieceKind::General | PieceKind::Soldier => {
                for (df, dr) in ORTHOGONAL {
                    if let Some(sq) = to.offset(df, dr).filter(|&sq| empty(sq)) {
                        try_from(sq);
                    }
                }
            }
            PieceKind::Horse => {
                for (df, dr) in HORSE {
                    if let Some(sq) = to.offset(df, dr).filter(|&sq| empty(sq)) {
                        try_from(sq);
                    }
                }
            }
            PieceKind::Advisor | PieceKind::Elephant => {
                let step = if piece.kind == PieceKind::Advisor {
                    1
                } else {
                    2
                };
                for (df, dr) in DIAGONAL {
                    if let Some(sq) = to.offset(df * step, dr * step).filter(|&sq| empty(sq)) {
                        try_from(sq);
                    }
                }
            }
        }
    }
}

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const HORSE: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The entry of the position `pieces` with `mover` to move, if it is a legal position that
/// the table keeps as it stands (Red's general on the d or e file) and the quiet move
/// `from`–`to` is legal in it (which checks the horse's leg, the elephant's eye, a soldier's
/// direction and the general's palace).
fn entry_before(
    layout: &Layout,
    pieces: &[(Square, Piece)],
    mover: Color,
    from: Square,
    to: Square,
) -> Option<u32> {
    let pos = Position::from_pieces(mover, pieces)?;
    if pos.general(Color::Red).file() == 5 || !pos.is_legal(Move::new(from, to)) {
        return None;
    }
    let (index, _) = layout.encode(&pos, false)?;
    Some(index as u32)
}
