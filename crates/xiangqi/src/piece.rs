//! Sides and pieces.

use std::fmt;
use std::ops::Not;

/// A side. Red moves first and sits on ranks 0–4.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Red (upper-case FEN letters), moves first.
    Red = 0,
    /// Black (lower-case FEN letters).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black: an index for per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// Lower-case English name, `red` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// General (帅 / 將), FEN `K`. Stays in the palace; may not face the other general.
    General = 0,
    /// Advisor (仕 / 士), FEN `A`. Moves one point diagonally inside the palace.
    Advisor = 1,
    /// Elephant (相 / 象), FEN `B` or `E`. Moves two points diagonally, blocked at the eye, never
    /// crosses the river.
    Elephant = 2,
    /// Horse (马 / 馬 / 傌), FEN `N` or `H`. One point straight then one diagonally; blocked at the leg.
    Horse = 3,
    /// Chariot (车 / 車 / 俥), FEN `R`. Moves like a rook.
    Chariot = 4,
    /// Cannon (炮 / 砲), FEN `C`. Moves like a chariot, captures by jumping exactly one screen.
    Cannon = 5,
    /// Soldier (兵 / 卒), FEN `P`. One point forward; sideways too after crossing the river.
    Soldier = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// Index 0–6 for per-kind arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case FEN letter (`K A B N R C P`).
    pub const fn fen_letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// The kind for a FEN letter of either case, accepting `E` (elephant) and `H` (horse) as well.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'K' => Some(PieceKind::General),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Chariot),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Soldier),
            _ => None,
        }
    }

    /// Whether this kind can cross the river and attack (chariot, horse, cannon, soldier).
    pub const fn is_attacker(self) -> bool {
        matches!(
            self,
            PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier
        )
    }

    /// English name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Soldier => "soldier",
        }
    }
}

/// A piece: a kind and a colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_letter();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (`E`/`H` accepted), upper case meaning Red.
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match PieceKind::from_letter(c) {
            Some(kind) => {
                let color = if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                Some(Piece { color, kind })
            }
            None => None,
        }
    }

    /// Index 0–13: colour * 7 + kind.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.kind.index()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}
