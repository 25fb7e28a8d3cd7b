//! The position: where the pieces stand, whose turn it is, and make/unmake with an incremental
//! Zobrist key.

use crate::attacks::{self, file_major_bit, Occupancy};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::{Color, Piece, PieceKind};
use crate::square::{Square, SQUARES};
use crate::square_list::SquareList;
use crate::zobrist;

/// A legal Xiangqi position: exactly one general per side, each in its palace, and the side that
/// just moved not in check. Build one with [`Position::startpos`] or FEN parsing
/// ([`Position::from_fen`]).
///
/// The board is kept four ways that make/unmake update together: a mailbox (piece on each
/// square), bitboards per colour and per kind, the two occupancy words the attack tables read,
/// and a sorted list of squares per colour and kind.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; SQUARES],
    colors: [Bitboard; 2],
    kinds: [Bitboard; 7],
    occupancy: Occupancy,
    /// Squares of each colour's pieces of each kind, lowest first: walked by the evaluation
    /// and move generation, and counted (cheaper than the bits of a 128-bit set).
    lists: [[SquareList; 7]; 2],
    side: Color,
    halfmove_clock: u16,
    fullmove: u16,
    key: u64,
}

/// What [`Position::make_move`] returns so that [`Position::unmake_move`] can restore the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The piece captured by the move, if any.
    pub captured: Option<Piece>,
    halfmove_clock: u16,
    /// The key before the move: restored as it was rather than worked back.
    key: u64,
}

/// The FEN of the standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Position {
    /// An empty board, used while building a position from a validated setup.
    pub(crate) fn empty(side: Color) -> Position {
        Position {
            board: [None; SQUARES],
            colors: [Bitboard::EMPTY; 2],
            kinds: [Bitboard::EMPTY; 7],
            occupancy: Occupancy::default(),
            lists: [[SquareList::EMPTY; 7]; 2],
            side,
            halfmove_clock: 0,
            fullmove: 1,
            key: zobrist::side_key(side),
        }
    }

    /// Puts `piece` on the empty square `sq` (setup only).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(piece);
        self.list_mut(piece).insert(sq);
        self.toggle(sq, piece);
    }

    /// Sets the move counters (setup only).
    pub(crate) fn set_counters(&mut self, halfmove_clock: u16, fullmove: u16) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove = fullmove.max(1);
    }

    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies since the last capture (FEN field 5).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// Move number, starting at 1 and increasing after each Black move (FEN field 6).
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Zobrist key of the placement and side to move (not the counters).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key computed from scratch; always equal to [`Position::key`].
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::side_key(self.side);
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                key ^= zobrist::piece_key(p, sq);
            }
        }
        key
    }

    /// Squares holding pieces of `color`.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// Squares holding pieces of `kind`, either colour.
    #[inline]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.kinds[kind.index()]
    }

    /// Squares holding `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.colors[color.index()] & self.kinds[kind.index()]
    }

    /// How many pieces of `kind` `color` has (the same as counting
    /// [`Position::pieces`], only faster).
    #[inline]
    pub fn count(&self, color: Color, kind: PieceKind) -> u32 {
        u32::from(self.lists[color.index()][kind.index()].len())
    }

    /// The squares of `color`'s pieces of `kind`, lowest first (the order of iterating
    /// [`Position::pieces`], only faster to walk).
    #[inline]
    pub fn squares(&self, color: Color, kind: PieceKind) -> &[Square] {
        self.lists[color.index()][kind.index()].as_slice()
    }

    #[inline]
    fn list_mut(&mut self, piece: Piece) -> &mut SquareList {
        &mut self.lists[piece.color.index()][piece.kind.index()]
    }

    /// Occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupancy.board
    }

    /// Both occupancy words, for the attack functions.
    #[inline]
    pub fn occupancy(&self) -> Occupancy {
        self.occupancy
    }

    /// Where `color`'s general stands.
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        match self.squares(color, PieceKind::General).first() {
            Some(&sq) => sq,
            None => unreachable!("a position always has both generals"),
        }
    }

    /// Whether the side to move is in check (its general attacked, or facing the other general).
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_in_check(self.side)
    }

    /// Whether the side to move is in check, given that `m` is the move just made: the same
    /// answer as [`Position::in_check`], found faster. The side that moved could not have been
    /// giving check before (the other side's move was legal), so a check now comes from the
    /// moved piece or from a line or horse leg that `m` opened or screened; a move far from the
    /// general can only check with a horse or a soldier landing next to it.
    #[inline]
    pub fn in_check_after(&self, m: Move) -> bool {
        let general = self.general(self.side);
        let lines = attacks::lines(general);
        let near = lines | attacks::diagonal_neighbours(general);
        if near.contains(m.from()) || lines.contains(m.to()) {
            return self.in_check();
        }
        let checked = match self.board[m.to().index()] {
            Some(p) if p.kind == PieceKind::Horse => {
                attacks::horse(m.to(), self.occupancy.board).contains(general)
            }
            Some(p) if p.kind == PieceKind::Soldier => {
                attacks::soldier(p.color, m.to()).contains(general)
            }
            _ => false,
        };
        debug_assert_eq!(checked, self.in_check(), "{m} in {self:?}");
        checked
    }

    /// Whether `color`'s general is attacked.
    #[inline]
    pub fn is_in_check(&self, color: Color) -> bool {
        self.general_attacked(self.general(color), color, self.occupancy, Bitboard::EMPTY)
    }

    /// Whether a `color` general on `general` would be attacked with occupancy `occ`, ignoring
    /// enemy pieces on `removed` (a piece just captured). Facing the enemy general counts.
    #[inline]
    pub(crate) fn general_attacked(
        &self,
        general: Square,
        color: Color,
        occ: Occupancy,
        removed: Bitboard,
    ) -> bool {
        let them = self.colors[color.other().index()] & !removed;
        let file = attacks::chariot_file(general, occ);
        let rank = attacks::chariot_rank(general, occ);
        let straight = self.kinds[PieceKind::Chariot.index()]
            | (self.kinds[PieceKind::General.index()] & file);
        ((file | rank) & straight & them).any()
            || (attacks::horse_attackers(general, occ.board)
                & self.kinds[PieceKind::Horse.index()]
                & them)
                .any()
            || (attacks::cannon_captures(general, occ)
                & self.kinds[PieceKind::Cannon.index()]
                & them)
                .any()
            || (attacks::soldier_attackers(color.other(), general)
                & self.kinds[PieceKind::Soldier.index()]
                & them)
                .any()
    }

    /// Pieces of `by` that attack `sq` with the current occupancy (the general counts along an
    /// open file only, as in "flying general").
    pub fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        self.attackers_with(sq, by, self.occupancy)
    }

    /// Pieces of `by` that attack `sq` given occupancy `occ`.
    pub fn attackers_with(&self, sq: Square, by: Color, occ: Occupancy) -> Bitboard {
        let ours = self.colors[by.index()] & occ.board;
        let file = attacks::chariot_file(sq, occ);
        let rank = attacks::chariot_rank(sq, occ);
        let k = |kind: PieceKind| self.kinds[kind.index()] & ours;
        let mut out = (file | rank) & k(PieceKind::Chariot);
        out |= attacks::cannon_captures(sq, occ) & k(PieceKind::Cannon);
        out |= attacks::horse_attackers(sq, occ.board) & k(PieceKind::Horse);
        out |= attacks::soldier_attackers(by, sq) & k(PieceKind::Soldier);
        // Elephant and general steps are symmetric (the eye is the midpoint; the general stays
        // in its palace), so look from `sq`. Advisors only step to palace points; they are few,
        // so ask each, which stays exact even for an advisor placed off the palace in a
        // composed position.
        out |= attacks::elephant(sq, occ.board) & k(PieceKind::Elephant);
        if attacks::in_palace(by, sq) {
            out |= attacks::general(by, sq) & k(PieceKind::General);
            for from in k(PieceKind::Advisor) {
                if attacks::advisor(by, from).contains(sq) {
                    out.insert(from);
                }
            }
        }
        // The generals may not face each other: along an open file a general "attacks" the other.
        if self.kinds[PieceKind::General.index()].contains(sq) {
            out |= file & k(PieceKind::General);
        }
        out
    }

    /// The least valuable piece of `by` attacking `sq` given occupancy `occ`: the cheapest kind
    /// of [`Position::attackers_with`] (soldier, advisor, elephant, horse, cannon, chariot,
    /// general) and, among several, the lowest square. Pieces missing from `occ` do not count,
    /// so an exchange leaves out those already used up by moving them onto `sq`.
    /// Looking kind by kind, cheapest first, skips the sliding lookups whenever a cheap piece
    /// attacks, which is what an exchange evaluation asks again and again.
    pub fn cheapest_attacker(
        &self,
        sq: Square,
        by: Color,
        occ: Occupancy,
    ) -> Option<(Square, PieceKind)> {
        let ours = self.colors[by.index()] & occ.board;
        let k = |kind: PieceKind| self.kinds[kind.index()] & ours;
        let found = |set: Bitboard, kind: PieceKind| set.first().map(|s| (s, kind));
        let soldiers = attacks::soldier_attackers(by, sq) & k(PieceKind::Soldier);
        if let Some(hit) = found(soldiers, PieceKind::Soldier) {
            return Some(hit);
        }
        let in_palace = attacks::in_palace(by, sq);
        if in_palace {
            for from in k(PieceKind::Advisor) {
                if attacks::advisor(by, from).contains(sq) {
                    return Some((from, PieceKind::Advisor));
                }
            }
        }
        let elephants = attacks::elephant(sq, occ.board) & k(PieceKind::Elephant);
        if let Some(hit) = found(elephants, PieceKind::Elephant) {
            return Some(hit);
        }
        let horses = attacks::horse_attackers(sq, occ.board) & k(PieceKind::Horse);
        if let Some(hit) = found(horses, PieceKind::Horse) {
            return Some(hit);
        }
        let cannons = attacks::cannon_captures(sq, occ) & k(PieceKind::Cannon);
        if let Some(hit) = found(cannons, PieceKind::Cannon) {
            return Some(hit);
        }
        let file = attacks::chariot_file(sq, occ);
        let chariots = (file | attacks::chariot_rank(sq, occ)) & k(PieceKind::Chariot);
        if let Some(hit) = found(chariots, PieceKind::Chariot) {
            return Some(hit);
        }
        let mut generals = Bitboard::EMPTY;
        if in_palace {
            generals |= attacks::general(by, sq) & k(PieceKind::General);
        }
        if self.kinds[PieceKind::General.index()].contains(sq) {
            generals |= file & k(PieceKind::General);
        }
        found(generals, PieceKind::General)
    }

    /// Whether any piece of `by` attacks `sq`.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers(sq, by).any()
    }

    /// Puts `piece` on `sq` or takes it off, in every set and the key (not the mailbox).
    #[inline]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        self.toggle_sets(sq, piece);
        self.key ^= zobrist::piece_key(piece, sq);
    }

    /// [`Position::toggle`] without the key.
    #[inline]
    fn toggle_sets(&mut self, sq: Square, piece: Piece) {
        let b = Bitboard::from_square(sq);
        self.colors[piece.color.index()] ^= b;
        self.kinds[piece.kind.index()] ^= b;
        self.occupancy.board ^= b;
        self.occupancy.by_file ^= file_major_bit(sq);
    }

    /// The hash key of the position after the pseudo-legal move `m`, without playing it (to
    /// fetch the child's table entry early).
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        if let Some(piece) = self.board[from.index()] {
            key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        }
        if let Some(victim) = self.board[to.index()] {
            key ^= zobrist::piece_key(victim, to);
        }
        key
    }

    /// Plays `m`, which must be pseudo-legal for the side to move (generated by this position,
    /// or checked with [`Position::is_legal`]). Returns what [`Position::unmake_move`] needs.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            unreachable!("make_move({m}) with no piece on {from}")
        };
        let captured = self.board[to.index()];
        let undo = Undo {
            captured,
            halfmove_clock: self.halfmove_clock,
            key: self.key,
        };
        self.key ^= zobrist::BLACK_TO_MOVE;
        if let Some(victim) = captured {
            self.remove_captured(to, victim);
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        }
        self.shift_piece(piece, from, to);
        self.key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        self.list_mut(piece).relocate(from, to);
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.other();
        undo
    }

    /// Takes back `m`, which must be the last move made, with the [`Undo`] its make returned.
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[to.index()] else {
            unreachable!("unmake_move({m}) with no piece on {to}")
        };
        self.side = self.side.other();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.shift_piece(piece, to, from);
        self.list_mut(piece).relocate(to, from);
        self.board[from.index()] = Some(piece);
        self.board[to.index()] = undo.captured;
        if let Some(victim) = undo.captured {
            self.restore_captured(to, victim);
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.key = undo.key;
    }

    /// Moves `piece` from `from` to the empty (or just emptied) `to` in every set: the
    /// mailbox, the lists and the key are the callers'.
    #[inline]
    fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.colors[piece.color.index()] ^= both;
        self.kinds[piece.kind.index()] ^= both;
        self.occupancy.board ^= both;
        self.occupancy.by_file ^= file_major_bit(from) | file_major_bit(to);
    }

    /// Takes the captured `victim` off `sq` in every set and the key, but the mailbox.
    #[inline]
    fn remove_captured(&mut self, sq: Square, victim: Piece) {
        self.toggle(sq, victim);
        self.list_mut(victim).remove(sq);
    }

    /// Puts the captured `victim` back on `sq` in every set, but the mailbox and the key.
    #[inline]
    fn restore_captured(&mut self, sq: Square, victim: Piece) {
        self.toggle_sets(sq, victim);
        self.list_mut(victim).insert(sq);
    }

    /// Passes the turn without moving (for null-move pruning). Undo with [`Position::unmake_null`].
    #[inline]
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo {
            captured: None,
            halfmove_clock: self.halfmove_clock,
            key: self.key,
        };
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        self.key ^= zobrist::BLACK_TO_MOVE;
        self.side = self.side.other();
        undo
    }

    /// Takes back [`Position::make_null`].
    #[inline]
    pub fn unmake_null(&mut self, undo: Undo) {
        self.side = self.side.other();
        self.key = undo.key;
        self.halfmove_clock = undo.halfmove_clock;
    }

    /// The same position with colours swapped: ranks mirrored, Red and Black exchanged, the other
    /// side to move. Move counts (perft) and game results carry over with colours exchanged.
    pub fn mirror_colors(&self) -> Position {
        let mut out = Position::empty(self.side.other());
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                out.put(sq.flip_rank(), Piece::new(p.color.other(), p.kind));
            }
        }
        out.set_counters(self.halfmove_clock, self.fullmove);
        out
    }

    /// The same position mirrored left to right.
    pub fn mirror_files(&self) -> Position {
        let mut out = Position::empty(self.side);
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                out.put(sq.flip_file(), p);
            }
        }
        out.set_counters(self.halfmove_clock, self.fullmove);
        out
    }
}

impl PartialEq for Position {
    /// Positions are equal when placement, side to move and counters are.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl std::fmt::Display for Position {
    /// A text diagram: Black at the top, files a–i below, then the FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..10).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9 {
                let sq = Square::new(file, rank).expect("on board");
                let c = self.piece_at(sq).map_or('.', |p| p.fen_char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{}", self.to_fen())
    }
}
