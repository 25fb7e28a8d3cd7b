//! What a table stores for one position, from the side to move's view.

/// The value of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Mated (or stalemated, which also loses) after this many plies of best play.
    Loss(u16),
    /// Mates after this many plies of best play.
    Win(u16),
    /// Neither side can force a mate.
    Draw,
}

/// A stored value: 0 is no position (two pieces on one point, a general in check with the
/// other side to move, …), 1 a draw, 2 not known yet (a draw once generation ends), then
/// losses and wins by distance.
pub(crate) type Code = u16;

/// No position has this index.
pub(crate) const ILLEGAL: Code = 0;
/// A draw.
pub(crate) const DRAW: Code = 1;
/// Not decided yet; a draw if it stays so.
pub(crate) const UNKNOWN: Code = 2;
/// The longest distance a code holds, in plies.
pub const MAX_PLIES: u16 = (u16::MAX - 4) / 2;

impl Value {
    pub(crate) fn code(self) -> Code {
        match self {
            Value::Draw => DRAW,
            Value::Loss(n) => 3 + 2 * n.min(MAX_PLIES),
            Value::Win(n) => 4 + 2 * n.min(MAX_PLIES),
        }
    }

    /// The value a code holds (`None` for no position); an undecided code reads as a draw.
    pub(crate) fn from_code(code: Code) -> Option<Value> {
        match code {
            ILLEGAL => None,
            DRAW | UNKNOWN => Some(Value::Draw),
            c if c % 2 == 1 => Some(Value::Loss((c - 3) / 2)),
            c => Some(Value::Win((c - 4) / 2)),
        }
    }
}

impl std::fmt::Display for Value {
    /// `win dtm N`, `loss dtm N` or `draw`, N in plies.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win dtm {n}"),
            Value::Loss(n) => write!(f, "loss dtm {n}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_survives_its_code() {
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Loss(7),
            Value::Win(1),
            Value::Win(MAX_PLIES),
        ] {
            assert_eq!(Value::from_code(v.code()), Some(v));
        }
        assert_eq!(Value::from_code(ILLEGAL), None);
        assert_eq!(Value::from_code(UNKNOWN), Some(Value::Draw));
    }
}
