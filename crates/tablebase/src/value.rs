//! What a table stores for one position, from the side to move's view.

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
