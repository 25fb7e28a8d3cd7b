//! The tagger: a puzzle's themes from its position and solution alone, one predicate a theme,
//! so that any file's themes can be recomputed and checked.

use crate::theme::{Theme, LONGEST_NAMED_MATE};
use xiangqi::attacks;
use xiangqi::{Bitboard, Color, Move, MoveList, PieceKind, Position, Square};
use xiangqi_engine::see::{see, SEE_VALUE};

/// The least material, in centi-soldiers, a solution must win to count as winning material:
/// three soldiers, less than a horse or a cannon and more than an advisor or an elephant.
pub const MATERIAL_GAIN: i32 = 300;
/// How far the solver's material may fall below its start before it counts as a sacrifice.
const SACRIFICE_DIP: i32 = 150;
/// The most attacking pieces a side may have in an endgame.
const ENDGAME_ATTACKERS: u32 = 2;

/// The solution played out: every position and the move made in it.
struct Line {
    solver: Color,
    /// `positions[i]` is the position before `moves[i]`; one more position than moves.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Line {
    fn new(start: &Position, solution: &[Move]) -> Line {
        let mut pos = start.clone();
        let mut positions = vec![pos.clone()];
        for &m in solution {
            pos.make_move(m);
            positions.push(pos.clone());
        }
        Line {
            solver: start.side_to_move(),
            positions,
            moves: solution.to_vec(),
        }
    }

    fn end(&self) -> &Position {
        self.positions
            .last()
            .expect("a line has its start position")
    }

    /// The solver's moves with the position each is made in.
    fn solver_moves(&self) -> impl Iterator<Item = (usize, &Position, Move)> + '_ {
        (0..self.moves.len())
            .step_by(2)
            .map(|i| (i, &self.positions[i], self.moves[i]))
    }

    /// Whether the solver captures on `sq` at a move after index `after`.
    fn solver_captures_on_later(&self, sq: Square, after: usize) -> bool {
        self.solver_moves()
            .any(|(i, pos, m)| i > after && m.to() == sq && pos.piece_at(sq).is_some())
    }

    fn is_mate(&self) -> bool {
        self.end().has_no_legal_move() && self.end().side_to_move() != self.solver
    }
}

/// A theme's test on a played-out solution.
type Predicate = fn(&Line) -> bool;

/// The themes of the puzzle that starts at `start` with `solution`, sorted.
pub fn themes(start: &Position, solution: &[Move]) -> Vec<Theme> {
    let line = Line::new(start, solution);
    let solver_moves = solution.len().div_ceil(2);
    let mut themes = vec![length(solver_moves)];
    if line.is_mate() {
        themes.push(Theme::Mate);
        if let Ok(n) = u8::try_from(solver_moves) {
            if n <= LONGEST_NAMED_MATE {
                themes.push(Theme::MateIn(n));
            }
        }
        themes.extend(mate_patterns(line.end(), line.solver));
    } else if material_won(&line) >= MATERIAL_GAIN {
        themes.push(Theme::Material);
    }
    let checks: [(Theme, Predicate); 7] = [
        (Theme::Endgame, |l| is_endgame(&l.positions[0])),
        (Theme::DoubleCheck, has_double_check),
        (Theme::DiscoveredAttack, has_discovered_attack),
        (Theme::Fork, has_fork),
        (Theme::Pin, has_pin),
        (Theme::Sacrifice, has_sacrifice),
        (Theme::TrappedPiece, has_trapped_piece),
    ];
    themes.extend(
        checks
            .iter()
            .filter(|(_, holds)| holds(&line))
            .map(|(t, _)| *t),
    );
    themes.sort();
    themes
}

/// The themes `puzzle` should carry: a classic's from [`classic_themes`] (its `draw` kept),
/// any other's from [`themes`].
pub fn retag(puzzle: &crate::Puzzle) -> Vec<Theme> {
    if puzzle.themes.contains(&Theme::Classic) {
        let draw = puzzle.themes.contains(&Theme::Draw);
        classic_themes(&puzzle.position, &puzzle.solution, draw)
    } else {
        themes(&puzzle.position, &puzzle.solution)
    }
}

/// The themes of a classic composition ([`crate::classic`]): `classic`, `draw` when the goal is
/// to hold the draw, the mate themes when the line ends in mate, `endgame` when the diagram is
/// one, and the length. The tactical themes are left out: over a book's long line they would
/// say little.
pub fn classic_themes(start: &Position, solution: &[Move], draw: bool) -> Vec<Theme> {
    let solver_moves = solution.len().div_ceil(2);
    let mut themes = vec![Theme::Classic, length(solver_moves)];
    if draw {
        themes.push(Theme::Draw);
    } else if Line::new(start, solution).is_mate() {
        themes.push(Theme::Mate);
        if let Ok(n) = u8::try_from(solver_moves) {
            if n <= LONGEST_NAMED_MATE {
                themes.push(Theme::MateIn(n));
            }
        }
    }
    if is_endgame(start) {
        themes.push(Theme::Endgame);
    }
    themes.sort();
    themes
}

fn length(solver_moves: usize) -> Theme {
    match solver_moves {
        0 | 1 => Theme::OneMove,
        2 => Theme::Short,
        3 => Theme::Long,
        _ => Theme::VeryLong,
    }
}

/// The value of a piece kind in centi-soldiers (the engine's exchange values).
fn value(kind: PieceKind) -> i32 {
    SEE_VALUE[kind.index()]
}

/// `color`'s material less the other side's, generals left out.
pub fn balance(pos: &Position, color: Color) -> i32 {
    let side = |c: Color| -> i32 {
        PieceKind::ALL
            .into_iter()
            .filter(|&k| k != PieceKind::General)
            .map(|k| value(k) * pos.count(c, k) as i32)
            .sum()
    };
    side(color) - side(color.other())
}

/// The most the side to move wins by one capture, exchanges on that point included.
fn best_capture(pos: &Position) -> i32 {
    let captures = pos.legal_captures();
    captures
        .as_slice()
        .iter()
        .map(|&m| see(pos, m))
        .max()
        .unwrap_or(0)
        .max(0)
}

/// Material the solver is up at the end of the line beyond its start, a capture the defender
/// still has at the end taken into account.
pub fn material_won_by(start: &Position, solution: &[Move]) -> i32 {
    material_won(&Line::new(start, solution))
}

fn material_won(line: &Line) -> i32 {
    let end = line.end();
    let pending = if end.side_to_move() == line.solver {
        0
    } else {
        best_capture(end)
    };
    balance(end, line.solver) - pending - balance(&line.positions[0], line.solver)
}

/// Chariots, horses, cannons and soldiers across the river of `color`.
fn attacking_pieces(pos: &Position, color: Color) -> u32 {
    let majors = [PieceKind::Chariot, PieceKind::Horse, PieceKind::Cannon]
        .into_iter()
        .map(|k| pos.count(color, k))
        .sum::<u32>();
    let crossed = pos
        .squares(color, PieceKind::Soldier)
        .iter()
        .filter(|sq| match color {
            Color::Red => sq.rank() >= 5,
            Color::Black => sq.rank() <= 4,
        })
        .count() as u32;
    majors + crossed
}

fn is_endgame(pos: &Position) -> bool {
    Color::ALL
        .into_iter()
        .all(|c| attacking_pieces(pos, c) <= ENDGAME_ATTACKERS)
}

/// Whether `f` holds for a square of `set` (a bitboard's own `any` says whether it is empty).
fn any_square(mut set: Bitboard, f: impl FnMut(Square) -> bool) -> bool {
    Iterator::any(&mut set, f)
}

fn checkers(pos: &Position) -> Bitboard {
    let mover = pos.side_to_move();
    pos.attackers(pos.general(mover), mover.other())
}

fn has_double_check(line: &Line) -> bool {
    line.solver_moves()
        .any(|(i, _, _)| checkers(&line.positions[i + 1]).more_than_one())
}

/// Defender pieces worth attacking: the general, or any piece the attacker wins by taking.
fn threatened_targets(after: &Position, attacker_sq: Square, solver: Color) -> Vec<Square> {
    let defender = solver.other();
    let mut targets = Vec::new();
    for sq in after.color_bb(defender) {
        if !after.attackers(sq, solver).contains(attacker_sq) {
            continue;
        }
        let is_general = sq == after.general(defender);
        if is_general || wins_by_taking(after, Move::new(attacker_sq, sq)) {
            targets.push(sq);
        }
    }
    targets
}

/// Whether the capture `m`, made by the side not to move in `pos`, wins material.
fn wins_by_taking(pos: &Position, m: Move) -> bool {
    let mut turned = pos.clone();
    turned.make_null();
    turned.is_legal(m) && see(&turned, m) > 0
}

fn has_fork(line: &Line) -> bool {
    line.solver_moves().any(|(i, _, m)| {
        let after = &line.positions[i + 1];
        let targets = threatened_targets(after, m.to(), line.solver);
        let general = after.general(line.solver.other());
        targets.len() >= 2
            && targets
                .iter()
                .any(|&t| t != general && line.solver_captures_on_later(t, i))
    })
}

fn has_discovered_attack(line: &Line) -> bool {
    line.solver_moves().any(|(i, before, m)| {
        let after = &line.positions[i + 1];
        let defender = line.solver.other();
        any_square(after.color_bb(defender), |target| {
            let general = target == after.general(defender);
            if !general && !line.solver_captures_on_later(target, i) {
                return false;
            }
            // Attackers other than the moved piece that the move's leaving square let through.
            let uncovered = after.attackers(target, line.solver)
                & !before.attackers(target, line.solver)
                & !Bitboard::from_square(m.to());
            any_square(uncovered, |sq| {
                before
                    .attackers_with(target, line.solver, before.occupancy().without(m.from()))
                    .contains(sq)
            })
        })
    })
}

/// The moves of `list` that start on `sq`.
fn moves_from(list: &MoveList, sq: Square) -> Vec<Move> {
    list.as_slice()
        .iter()
        .copied()
        .filter(|m| m.from() == sq)
        .collect()
}

/// Whether `solver` wins material by taking the piece on `sq` (the defender to move).
fn is_attacked_with_profit(pos: &Position, sq: Square, solver: Color) -> bool {
    any_square(pos.attackers(sq, solver), |a| {
        wins_by_taking(pos, Move::new(a, sq))
    })
}

/// Whether a defender's piece, attacked with profit, could not move at all without exposing its
/// general, and the solver took it later.
fn has_pin(line: &Line) -> bool {
    (1..line.moves.len()).step_by(2).any(|i| {
        let pos = &line.positions[i];
        let defender = pos.side_to_move();
        if pos.in_check() {
            return false;
        }
        let pseudo = pos.pseudo_legal_moves();
        any_square(pos.color_bb(defender), |sq| {
            let own = moves_from(&pseudo, sq);
            !own.is_empty()
                && own.iter().all(|&m| !pos.is_legal(m))
                && is_attacked_with_profit(pos, sq, line.solver)
                && line.solver_captures_on_later(sq, i)
        })
    })
}

fn has_sacrifice(line: &Line) -> bool {
    let start = balance(&line.positions[0], line.solver);
    let ends_well = line.is_mate() || material_won(line) >= MATERIAL_GAIN;
    // After a defender's reply the solver is behind its start even counting what it can take
    // back at once.
    let dips = (2..line.positions.len()).step_by(2).any(|i| {
        let pos = &line.positions[i];
        balance(pos, line.solver) + best_capture(pos) < start - SACRIFICE_DIP
    });
    ends_well && dips
}

/// Whether a defender's piece (a horse, chariot or cannon) that the solver wins was attacked
/// while every move it had lost it too.
fn has_trapped_piece(line: &Line) -> bool {
    (1..line.moves.len()).step_by(2).any(|i| {
        let pos = &line.positions[i];
        let defender = pos.side_to_move();
        if pos.in_check() {
            return false;
        }
        let legal = pos.legal_moves();
        any_square(pos.color_bb(defender), |sq| {
            let Some(piece) = pos.piece_at(sq) else {
                return false;
            };
            if !matches!(
                piece.kind,
                PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon
            ) || !line.solver_captures_on_later(sq, i)
            {
                return false;
            }
            let escapes = moves_from(&legal, sq);
            is_attacked_with_profit(pos, sq, line.solver)
                && !escapes.is_empty()
                && escapes.iter().all(|&m| {
                    let mut after = pos.clone();
                    after.make_move(m);
                    // Where it went, the solver takes it for more than it took on the way.
                    let to = m.to();
                    let took = pos.piece_at(to).map_or(0, |p| value(p.kind));
                    any_square(after.attackers(to, line.solver), |a| {
                        let take = Move::new(a, to);
                        after.is_legal(take) && see(&after, take) > took
                    })
                })
        })
    })
}

/// The classic mate pictures the final position shows.
fn mate_patterns(end: &Position, solver: Color) -> Vec<Theme> {
    let defender = solver.other();
    let general = end.general(defender);
    let mut found = Vec::new();
    for checker in checkers(end) {
        let Some(piece) = end.piece_at(checker) else {
            continue;
        };
        if piece.kind != PieceKind::Cannon {
            continue;
        }
        let screens = attacks::between(checker, general) & end.occupied();
        let Some(screen) = screens.first() else {
            continue;
        };
        match end.piece_at(screen) {
            Some(p) if p.color == solver && p.kind == PieceKind::Cannon => {
                found.push(Theme::DoubleCannonMate)
            }
            Some(p) if p.color == solver && p.kind == PieceKind::Horse => {
                let guards_a_way_out = (attacks::general(defender, general)
                    & attacks::horse(screen, end.occupied()))
                .any();
                if guards_a_way_out {
                    found.push(Theme::HorseCannonMate);
                }
            }
            _ => {}
        }
        let neighbours = attacks::general(defender, general);
        let hemmed_in = neighbours
            .into_iter()
            .all(|sq| end.piece_at(sq).is_some_and(|p| p.color == defender));
        let by_advisors = (neighbours & end.pieces(defender, PieceKind::Advisor)).any();
        if hemmed_in && by_advisors {
            found.push(Theme::SmotheredMate);
        }
    }
    if takes_a_file(end, solver) {
        found.push(Theme::FacingGenerals);
    }
    found.sort();
    found.dedup();
    found
}

/// Whether a square the mated general could step to is denied by the solver's general alone
/// (the generals may not face each other on an open file).
fn takes_a_file(end: &Position, solver: Color) -> bool {
    let defender = solver.other();
    let general = end.general(defender);
    let own_general = end.general(solver);
    let own = end.color_bb(defender);
    any_square(attacks::general(defender, general) & !own, |sq| {
        let occ = end.occupancy().after_move(general, sq);
        let faces = sq.file() == own_general.file()
            && (attacks::between(sq, own_general) & occ.board).is_empty();
        // The rules library counts the facing only where a general stands: here the other
        // pieces must leave the square alone.
        faces && end.attackers_with(sq, solver, occ).is_empty()
    })
}

#[cfg(test)]
mod tests;
