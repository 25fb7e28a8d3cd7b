//! What the endgame tables say of a position, as the page shows it: its material set, its
//! value for the side to move with the distance to mate, and every legal move with the value
//! it keeps for its side, best first. A page with no server has no tables, and says so.

use crate::move_names::MoveNames;
use serde::Serialize;
use xiangqi::Position;
use xiangqi_engine::Tablebases;
use xiangqi_tablebase::{Conversion, Material, Value};

/// The tables' answer for one position (`POST /api/tablebase`).
#[derive(Serialize)]
pub struct TablebaseView {
    /// Whether any tables are loaded: with none, nothing below is known but the material.
    available: bool,
    /// The most men of any loaded table (0 with none): a position with more is beyond them all.
    most_men: usize,
    /// The position's material set, the stronger side first (`KRKAABB`).
    material: String,
    /// Whether a table holds the position.
    found: bool,
    /// `win`, `loss` or `draw` for the side to move, when a table holds the position.
    value: Option<&'static str>,
    /// The win or loss is by the perpetual-check rule: the loser can stop the mate only by
    /// checking forever, which loses. There is no distance to mate then.
    by_rule: bool,
    /// Plies to the mate of a win or a loss, with best play.
    plies: Option<u16>,
    /// Moves to the mate: a win in N plies mates in (N + 1) / 2 of the winner's moves, a loss
    /// in N plies is mated after N / 2 of the loser's.
    moves_to_mate: Option<u16>,
    /// A draw the perpetual-chase rule could change: one side may hold it only by chasing
    /// forever, which the tables do not judge.
    chase_flag: bool,
    /// Plies to the next capture or mate of a win or loss by mate, with best play (`None` when
    /// the loser can put them off for ever, or for more than the 120-ply rule allows).
    conversion: Option<u16>,
    /// The 120-ply no-capture rule draws the game, with best defence, before the win
    /// converts (the position's no-capture count and its conversion are too long together).
    beyond_no_capture_limit: bool,
    /// Every legal move, best first, when a table holds the position.
    moves: Vec<TablebaseMoveView>,
}

/// One legal move and what it keeps for the side that plays it.
#[derive(Serialize)]
pub struct TablebaseMoveView {
    #[serde(flatten)]
    names: MoveNames,
    /// `win`, `loss` or `draw` for the mover; `None` when no loaded table holds the position
    /// the move leads to.
    value: Option<&'static str>,
    /// The win or loss is by the perpetual-check rule.
    by_rule: bool,
    /// Plies to the mate counting this move, so that the best move's equal the position's.
    plies: Option<u16>,
    /// Moves to the mate, counted as for the position.
    moves_to_mate: Option<u16>,
}

/// What `tables` (none on a page without a server) say of `pos`.
pub fn tablebase_view(tables: Option<&Tablebases>, pos: &Position) -> TablebaseView {
    let (material, _) = Material::of(pos);
    let probe = tables.and_then(|tb| tb.tables().lookup(pos));
    let value = probe.map(|p| p.value);
    let (name, plies, moves_to_mate) = describe(value);
    let moves = match (tables, value) {
        (Some(tb), Some(_)) => rated_moves(tb, pos),
        _ => Vec::new(),
    };
    TablebaseView {
        available: tables.is_some(),
        most_men: tables.map_or(0, |tb| tb.tables().most_men()),
        material: material.to_string(),
        found: value.is_some(),
        value: name,
        by_rule: value.is_some_and(Value::is_by_rule),
        chase_flag: tables.is_some_and(|tb| tb.tables().chase_flag(pos)),
        plies,
        moves_to_mate,
        conversion: probe.and_then(|p| match p.conversion? {
            Conversion::In(n) => Some(u16::from(n)),
            Conversion::Never => None,
        }),
        beyond_no_capture_limit: probe.is_some_and(|p| !p.in_time(pos.halfmove_clock())),
        moves,
    }
}

/// Every legal move of `pos` with the value it keeps for its side, best first: the fastest
/// wins, then the draws, then the slowest losses, then the moves no table judges; moves of
/// one rank in ICCS order.
fn rated_moves(tables: &Tablebases, pos: &Position) -> Vec<TablebaseMoveView> {
    let mut rated: Vec<_> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut after = pos.clone();
            after.make_move(m);
            (m, tables.probe(&after).map(for_mover))
        })
        .collect();
    rated.sort_by_key(|&(m, value)| (std::cmp::Reverse(rank(value)), m.to_string()));
    rated
        .into_iter()
        .map(|(m, value)| {
            let (name, plies, moves_to_mate) = describe(value);
            TablebaseMoveView {
                names: MoveNames::of(pos, m),
                value: name,
                by_rule: value.is_some_and(Value::is_by_rule),
                plies,
                moves_to_mate,
            }
        })
        .collect()
}

/// The value for the side that moved, from the value of the position its move leads to (for
/// the side then to move), one ply further from the mate.
fn for_mover(after: Value) -> Value {
    match after {
        Value::Loss(plies) => Value::Win(plies.saturating_add(1)),
        Value::Win(plies) => Value::Loss(plies.saturating_add(1)),
        Value::Draw => Value::Draw,
        Value::RuleWin(rank) => Value::RuleLoss(rank),
        Value::RuleLoss(rank) => Value::RuleWin(rank),
    }
}

/// How good a value is for its side ([`Value::preference`]), no value lowest of all.
fn rank(value: Option<Value>) -> i32 {
    value.map_or(0, Value::preference)
}

/// A value's name, plies to mate and moves to mate.
fn describe(value: Option<Value>) -> (Option<&'static str>, Option<u16>, Option<u16>) {
    match value {
        Some(Value::Win(plies)) => (Some("win"), Some(plies), Some(plies / 2 + plies % 2)),
        Some(Value::Loss(plies)) => (Some("loss"), Some(plies), Some(plies / 2)),
        Some(Value::RuleWin(_)) => (Some("win"), None, None),
        Some(Value::RuleLoss(_)) => (Some("loss"), None, None),
        Some(Value::Draw) => (Some("draw"), None, None),
        None => (None, None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_tablebase::Tables;

    fn krk() -> Tablebases {
        let mut tables = Tables::with_threads(1);
        tables.generate("KRK".parse().unwrap(), &mut |_| {});
        Tablebases::new(tables)
    }

    fn view(tables: Option<&Tablebases>, fen: &str) -> serde_json::Value {
        let pos = Position::from_fen(fen).unwrap();
        serde_json::to_value(tablebase_view(tables, &pos)).unwrap()
    }

    #[test]
    fn a_win_lists_the_fastest_mates_first_and_a_loss_the_longest_defence() {
        let tb = krk();
        let win = view(Some(&tb), "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
        assert_eq!(
            (&win["material"], &win["most_men"]),
            (&"KRK".into(), &3.into())
        );
        assert_eq!(
            (&win["value"], &win["plies"], &win["moves_to_mate"]),
            (&"win".into(), &3.into(), &2.into()),
            "{win}"
        );
        let moves = win["moves"].as_array().unwrap();
        let legal = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w")
            .unwrap()
            .legal_moves();
        assert_eq!(moves.len(), legal.len(), "{win}");
        assert_eq!(moves[0]["plies"], 3, "{win}");
        assert!(moves
            .iter()
            .take_while(|m| m["plies"] == 3)
            .any(|m| m["iccs"] == "a0a8"));
        // Each later move is no better than the one before it.
        let ranks: Vec<i32> = moves
            .iter()
            .map(|m| {
                let value = match m["value"].as_str() {
                    Some("win") => Value::Win(m["plies"].as_u64().unwrap() as u16),
                    Some("loss") => Value::Loss(m["plies"].as_u64().unwrap() as u16),
                    Some("draw") => Value::Draw,
                    _ => return rank(None),
                };
                rank(Some(value))
            })
            .collect();
        assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "{ranks:?}");

        let loss = view(Some(&tb), "4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1");
        assert_eq!(
            (&loss["value"], &loss["plies"], &loss["moves_to_mate"]),
            (&"loss".into(), &4.into(), &2.into()),
            "{loss}"
        );
        assert_eq!(loss["moves"][0]["value"], "loss");
        assert_eq!(loss["moves"][0]["plies"], 4, "{loss}");
        assert_eq!(loss["beyond_no_capture_limit"], false);
    }

    #[test]
    fn no_tables_no_table_and_a_mate_the_limit_cuts_say_so() {
        let none = view(None, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
        assert_eq!(
            (&none["available"], &none["found"]),
            (&false.into(), &false.into())
        );
        assert_eq!(
            (&none["material"], &none["most_men"]),
            (&"KRK".into(), &0.into())
        );
        assert!(none["moves"].as_array().unwrap().is_empty());

        let tb = krk();
        let two = view(Some(&tb), "4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1");
        assert_eq!(
            (&two["available"], &two["found"]),
            (&true.into(), &false.into())
        );
        assert_eq!(two["material"], "KRRK");
        assert!(two["value"].is_null() && two["moves"].as_array().unwrap().is_empty());

        let late = view(Some(&tb), "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 80");
        assert_eq!(late["value"], "win");
        assert_eq!(late["beyond_no_capture_limit"], true);
    }

    #[test]
    fn distances_in_moves_round_as_the_players_count() {
        assert_eq!(
            describe(Some(Value::Win(1))),
            (Some("win"), Some(1), Some(1))
        );
        assert_eq!(describe(Some(Value::Win(4))).2, Some(2));
        assert_eq!(describe(Some(Value::Loss(0))).2, Some(0));
        assert_eq!(describe(Some(Value::Loss(6))).2, Some(3));
        assert_eq!(for_mover(Value::Loss(2)), Value::Win(3));
        assert_eq!(for_mover(Value::Win(u16::MAX)), Value::Loss(u16::MAX));
    }
}
