//! What a table stores for one position, from the side to move's view.

use xiangqi::game::NO_CAPTURE_LIMIT;

/// The value of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Mated (or stalemated, which also loses) after this many plies of best play.
    Loss(u16),
    /// Mates after this many plies of best play.
    Win(u16),
    /// Neither side can force a mate, nor force the other to check forever.
    Draw,
    /// Wins by the perpetual-check rule: the other side can stop a mate only by checking
    /// forever, which loses. The [`Rank`] orders such wins for play.
    RuleWin(Rank),
    /// Loses by the perpetual-check rule: the only way to stop a mate is to check forever.
    RuleLoss(Rank),
}

/// How near a win by the perpetual-check rule is, for playing it out: the winner always has
/// a move to a lower rank, and so has the loser, unless it checks from the first rank of a
/// round of the generator (a position where it is not in check), which may reach any rank of
/// that round. A table keeps where its rounds begin ([`crate::Table::rounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u16);

impl Rank {
    /// How many ranks a code can hold.
    pub const COUNT: u16 = (u16::MAX - RULE) / 2 + 1;

    /// Rank `n`; `None` beyond what a code holds.
    pub fn new(n: u16) -> Option<Rank> {
        (n < Self::COUNT).then_some(Rank(n))
    }

    /// The rank as a number, lower nearer.
    pub fn get(self) -> u16 {
        self.0
    }
}

/// A stored value: 0 is no position (two pieces on one point, a general in check with the
/// other side to move, …), 1 a draw, 2 not known yet (a draw once generation ends), then
/// losses and wins by distance, [`CHASE_DRAW`], then from [`RULE`] losses and wins by the
/// perpetual-check rule by rank.
pub(crate) type Code = u16;

/// No position has this index.
pub(crate) const ILLEGAL: Code = 0;
/// A draw.
pub(crate) const DRAW: Code = 1;
/// Not decided yet; a draw if it stays so.
pub(crate) const UNKNOWN: Code = 2;
/// A draw that the perpetual-chase rule could change: the game of the perpetual-check rule
/// would decide it if the loser's chases counted like checks. Reads as a draw.
pub(crate) const CHASE_DRAW: Code = RULE - 1;
/// The first code of a value by the perpetual-check rule.
const RULE: Code = 0x8000;
/// The longest distance a code holds, in plies (its codes stay below the flagged draw's).
pub const MAX_PLIES: u16 = (RULE - 5) / 2;

impl Value {
    pub(crate) fn code(self) -> Code {
        match self {
            Value::Draw => DRAW,
            Value::Loss(n) => 3 + 2 * n.min(MAX_PLIES),
            Value::Win(n) => 4 + 2 * n.min(MAX_PLIES),
            Value::RuleLoss(rank) => RULE + 2 * rank.0,
            Value::RuleWin(rank) => RULE + 2 * rank.0 + 1,
        }
    }

    /// The value a code holds (`None` for no position); an undecided code reads as a draw.
    pub(crate) fn from_code(code: Code) -> Option<Value> {
        match code {
            ILLEGAL => None,
            DRAW | UNKNOWN | CHASE_DRAW => Some(Value::Draw),
            c if c >= RULE && c % 2 == 0 => Some(Value::RuleLoss(Rank((c - RULE) / 2))),
            c if c >= RULE => Some(Value::RuleWin(Rank((c - RULE) / 2))),
            c if c % 2 == 1 => Some(Value::Loss((c - 3) / 2)),
            c => Some(Value::Win((c - 4) / 2)),
        }
    }

    /// Whether the side to move wins, by mate or by the rule.
    pub fn is_win(self) -> bool {
        matches!(self, Value::Win(_) | Value::RuleWin(_))
    }

    /// Whether the side to move loses, by mate or by the rule.
    pub fn is_loss(self) -> bool {
        matches!(self, Value::Loss(_) | Value::RuleLoss(_))
    }

    /// Whether the value is a win or loss by mate (a distance to mate).
    pub fn is_by_mate(self) -> bool {
        matches!(self, Value::Win(_) | Value::Loss(_))
    }

    /// Whether the win or loss is by the perpetual-check rule (no distance to mate).
    pub fn is_by_rule(self) -> bool {
        matches!(self, Value::RuleWin(_) | Value::RuleLoss(_))
    }

    /// How good the value is for its side to move, higher better (always above 0): a faster
    /// mate, then a win by the rule (the lower its rank the better), a draw, a loss by the
    /// rule (the higher its rank the better), a slower mate against.
    pub fn preference(self) -> i32 {
        let most = i32::from(u16::MAX);
        match self {
            Value::Win(plies) => 5 * most - i32::from(plies),
            Value::RuleWin(rank) => 4 * most - i32::from(rank.get()),
            Value::Draw => 3 * most,
            Value::RuleLoss(rank) => 2 * most + i32::from(rank.get()),
            Value::Loss(plies) => most + i32::from(plies),
        }
    }

    /// The value for the other side.
    pub fn flipped(self) -> Value {
        match self {
            Value::Loss(n) => Value::Win(n),
            Value::Win(n) => Value::Loss(n),
            Value::Draw => Value::Draw,
            Value::RuleWin(r) => Value::RuleLoss(r),
            Value::RuleLoss(r) => Value::RuleWin(r),
        }
    }
}

/// How far a win or loss by mate is from its next capture or mate, in plies of best play:
/// the winner converting as fast as it can (into a win), the loser putting it off. What the
/// 120-ply no-capture rule cares about: a win is a win only if its conversion comes before the
/// count reaches the limit. A capture counts only when the win it leads to can itself be
/// converted from a count of zero, so the distance holds for the whole game, not one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// A capture or mate in this many plies (at most [`Conversion::LONGEST`]).
    In(u8),
    /// None that comes in time from any count: the loser can put it off for more than
    /// [`Conversion::LONGEST`] plies, or for ever (the win is a draw by the no-capture rule).
    Never,
}

impl Conversion {
    /// The longest distance stored; more reads as [`Conversion::Never`], which no count
    /// allows either.
    pub const LONGEST: u8 = u8::MAX - 1;

    /// The stored byte: the distance, or `u8::MAX` for never.
    pub(crate) fn byte(self) -> u8 {
        match self {
            Conversion::In(n) => n.min(Self::LONGEST),
            Conversion::Never => u8::MAX,
        }
    }

    /// The conversion a stored byte holds.
    pub(crate) fn from_byte(byte: u8) -> Conversion {
        if byte == u8::MAX {
            Conversion::Never
        } else {
            Conversion::In(byte)
        }
    }

    /// The conversion `plies` away, or never when that is beyond what a byte holds.
    pub fn plies(plies: u16) -> Conversion {
        u8::try_from(plies)
            .ok()
            .filter(|&n| n <= Self::LONGEST)
            .map_or(Conversion::Never, Conversion::In)
    }

    /// The conversion one ply further away (for the position a quiet move comes from).
    pub fn one_more(self) -> Conversion {
        match self {
            Conversion::In(n) => Conversion::plies(u16::from(n) + 1),
            Conversion::Never => Conversion::Never,
        }
    }

    /// Whether it comes before the no-capture limit, `no_capture` plies having been played
    /// without a capture (a mate on the limit's own ply counts, as the rules say).
    pub fn in_time(self, no_capture: u16) -> bool {
        match self {
            Conversion::In(n) => no_capture.saturating_add(u16::from(n)) <= NO_CAPTURE_LIMIT,
            Conversion::Never => false,
        }
    }
}

impl std::fmt::Display for Conversion {
    /// `dtc N`, or `dtc never`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Conversion::In(n) => write!(f, "dtc {n}"),
            Conversion::Never => f.write_str("dtc never"),
        }
    }
}

/// What a table holds for one position: its value and, for a win or loss by mate, its
/// [`Conversion`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The value for the side to move.
    pub value: Value,
    /// How far the next capture or mate is, for a win or loss by mate (`None` otherwise).
    pub conversion: Option<Conversion>,
}

impl std::fmt::Display for Probe {
    /// The value, with the conversion of a win or loss by mate: `win dtm 9 dtc 5`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.conversion {
            Some(conversion) => write!(f, "{} {conversion}", self.value),
            None => write!(f, "{}", self.value),
        }
    }
}

impl Probe {
    /// Whether the value stands under the no-capture rule, `no_capture` plies having been
    /// played without a capture: a win or loss by mate whose conversion comes too late is
    /// not one (the loser can reach the limit; what it is then the tables do not say). Every
    /// other value stands.
    pub fn in_time(self, no_capture: u16) -> bool {
        self.conversion.is_none_or(|c| c.in_time(no_capture))
    }
}

impl std::fmt::Display for Value {
    /// `win dtm N`, `loss dtm N`, `win by rule`, `loss by rule` or `draw`, N in plies.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win dtm {n}"),
            Value::Loss(n) => write!(f, "loss dtm {n}"),
            Value::Draw => f.write_str("draw"),
            Value::RuleWin(_) => f.write_str("win by rule"),
            Value::RuleLoss(_) => f.write_str("loss by rule"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_survives_its_code() {
        let last = Rank::new(Rank::COUNT - 1).unwrap();
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Loss(7),
            Value::Win(1),
            Value::Win(MAX_PLIES),
            Value::Loss(MAX_PLIES),
            Value::RuleWin(Rank::new(0).unwrap()),
            Value::RuleLoss(Rank::new(0).unwrap()),
            Value::RuleWin(last),
            Value::RuleLoss(Rank::new(6161).unwrap()),
        ] {
            assert_eq!(Value::from_code(v.code()), Some(v));
        }
        assert_eq!(Value::from_code(ILLEGAL), None);
        assert_eq!(Value::from_code(UNKNOWN), Some(Value::Draw));
        assert_eq!(Value::from_code(CHASE_DRAW), Some(Value::Draw));
        assert!(Value::Win(MAX_PLIES).code() < CHASE_DRAW);
        assert!(Value::Loss(MAX_PLIES).code() < CHASE_DRAW);
    }

    #[test]
    fn values_rank_from_the_fastest_mate_to_the_fastest_mate_against() {
        let r = |n| Rank::new(n).unwrap();
        let best_first = [
            Value::Win(1),
            Value::Win(9),
            Value::RuleWin(r(0)),
            Value::RuleWin(r(5)),
            Value::Draw,
            Value::RuleLoss(r(5)),
            Value::RuleLoss(r(0)),
            Value::Loss(9),
            Value::Loss(0),
        ];
        for pair in best_first.windows(2) {
            assert!(pair[0].preference() > pair[1].preference(), "{pair:?}");
        }
        assert!(Value::Loss(0).preference() > 0);
    }

    #[test]
    fn a_conversion_comes_in_time_up_to_the_limit_and_never_beyond_a_byte() {
        assert!(Conversion::In(3).in_time(117));
        assert!(!Conversion::In(3).in_time(118));
        assert!(Conversion::In(120).in_time(0));
        assert!(!Conversion::In(121).in_time(0));
        assert!(!Conversion::Never.in_time(0));
        assert_eq!(Conversion::In(7).one_more(), Conversion::In(8));
        assert_eq!(
            Conversion::In(Conversion::LONGEST).one_more(),
            Conversion::Never
        );
        assert_eq!(Conversion::plies(300), Conversion::Never);
        for c in [Conversion::In(0), Conversion::In(254), Conversion::Never] {
            assert_eq!(Conversion::from_byte(c.byte()), c);
        }
        let win = |conversion| Probe {
            value: Value::Win(9),
            conversion,
        };
        assert!(win(Some(Conversion::In(9))).in_time(111));
        assert!(!win(Some(Conversion::In(9))).in_time(112));
        assert!(Probe {
            value: Value::Draw,
            conversion: None
        }
        .in_time(119));
    }

    #[test]
    fn every_rank_a_code_holds_and_no_more() {
        assert_eq!(Rank::COUNT, 16_384);
        assert!(Rank::new(Rank::COUNT - 1).is_some());
        assert_eq!(Rank::new(Rank::COUNT), None);
        assert_eq!(
            Value::RuleWin(Rank::new(Rank::COUNT - 1).unwrap()).code(),
            u16::MAX
        );
    }
}
