//! The perpetual-check rule checked against a solver written separately: the textbook nested
//! fixpoints of a game where the winner needs, among the positions seen again and again, no
//! quiet move of the loser that does not check, and some move of its own that does not.

use super::*;
use crate::value::{Rank, Value};
use std::collections::HashMap;

/// One position of the positions no mate decides.
struct Node {
    side: Color,
    in_check: bool,
    /// In check, or with a piece the other side chases.
    threatened: bool,
    /// The table flags it as a draw the chase rule could change.
    chase_flag: bool,
    /// Each move's end: another such position, or a position a mate (or a smaller table)
    /// decides, as whether the winner wins it.
    moves: Vec<End>,
}

enum End {
    Inside(usize),
    /// A decided position's value, and whether it is a draw the chase rule could change.
    Decided(Value, bool),
}

/// Every position of `material` that no mate decides, with its moves.
fn undecided(tables: &Tables, material: Material) -> Vec<(Node, Value)> {
    let table = tables.get(material).unwrap();
    let mut ids = HashMap::new();
    let mut found = Vec::new();
    for side in Color::ALL {
        for index in 0..table.size() {
            let Some(pos) = position(table.layout(), side, index) else {
                continue;
            };
            let value = table.value(&pos, false).unwrap();
            if matches!(value, Value::Draw | Value::RuleWin(_) | Value::RuleLoss(_)) {
                ids.insert((side, index), found.len());
                found.push((pos, value));
            }
        }
    }
    found
        .into_iter()
        .map(|(mut pos, value)| {
            let moves = pos
                .legal_moves()
                .iter()
                .map(|&m| {
                    let is_capture = pos.piece_at(m.to()).is_some();
                    let undo = pos.make_move(m);
                    let child = tables.probe(&pos).unwrap();
                    let inside = match table.layout().encode(&pos, false) {
                        Some((index, side)) if !is_capture => ids.get(&(side, index)),
                        _ => None,
                    };
                    let flag = tables.chase_flag(&pos);
                    let end = inside.map_or(End::Decided(child, flag), |&id| End::Inside(id));
                    pos.unmake_move(m, undo);
                    end
                })
                .collect();
            let node = Node {
                side: pos.side_to_move(),
                in_check: pos.in_check(),
                threatened: pos.in_check()
                    || !pos.chased_pieces(pos.side_to_move().other()).is_empty(),
                chase_flag: tables.chase_flag(&pos),
                moves,
            };
            (node, value)
        })
        .collect()
}

/// Where `winner` wins: μZ3. νZ2. μZ1. (C3 ∩ Pre Z3) ∪ (C2 ∩ Pre Z2) ∪ (C1 ∩ Pre Z1), where
/// C1 holds the positions the last move made in check (or, with `chases`, threatened with a
/// chase) but for the loser's positions only in check, C2 the loser's positions not in check
/// (the winner's last move did not check) and C3 the winner's others (the loser's last move
/// neither checked nor, with `chases`, chased); Pre Z, the positions from which the winner
/// forces Z or a decided win in a move.
fn winning(nodes: &[(Node, Value)], winner: Color, chases: bool) -> Vec<bool> {
    let wins_for_winner = |end: &End, z: &[bool], mover: Color| match end {
        End::Inside(id) => z[*id],
        // The value is for the side to move after the move: the mover's opponent. A draw the
        // chase rule could change saves no loser where chases count.
        End::Decided(v, flag) => {
            if mover == winner {
                v.is_loss()
            } else {
                v.is_win() || (chases && *flag)
            }
        }
    };
    let pre = |id: usize, z: &[bool]| {
        let node = &nodes[id].0;
        let mut ends = node.moves.iter().map(|e| wins_for_winner(e, z, node.side));
        if node.side == winner {
            ends.any(|w| w)
        } else {
            ends.all(|w| w)
        }
    };
    let priority = |node: &Node| {
        let forbidden = if chases {
            node.threatened
        } else {
            node.in_check
        };
        match (node.side == winner, forbidden, node.in_check) {
            (true, true, _) | (false, _, true) => 1,
            (false, _, false) => 2,
            (true, false, _) => 3,
        }
    };
    let n = nodes.len();
    let mut z3 = vec![false; n];
    loop {
        let mut z2 = vec![true; n];
        loop {
            let mut z1 = vec![false; n];
            loop {
                let next: Vec<bool> = (0..n)
                    .map(|id| match priority(&nodes[id].0) {
                        1 => pre(id, &z1),
                        2 => pre(id, &z2),
                        _ => pre(id, &z3),
                    })
                    .collect();
                if next == z1 {
                    break;
                }
                z1 = next;
            }
            if z1 == z2 {
                break;
            }
            z2 = z1;
        }
        if z2 == z3 {
            return z3;
        }
        z3 = z2;
    }
}

fn assert_as_the_fixpoints_say(tables: &Tables, name: &str) -> usize {
    let material: Material = name.parse().unwrap();
    let nodes = undecided(tables, material);
    let mut by_rule = 0;
    for winner in Color::ALL {
        let wins = winning(&nodes, winner, false);
        for ((node, stored), &won) in nodes.iter().zip(&wins) {
            let expected = match (won, node.side == winner) {
                (false, _) => false,
                (true, true) => matches!(stored, Value::RuleWin(_)),
                (true, false) => matches!(stored, Value::RuleLoss(_)),
            };
            let stored_for_winner = match stored {
                Value::RuleWin(_) => node.side == winner,
                Value::RuleLoss(_) => node.side != winner,
                _ => false,
            };
            assert_eq!(won, stored_for_winner, "{name}: {stored:?}");
            assert!(!won || expected);
            by_rule += usize::from(won);
        }
    }
    by_rule
}

/// Checks the chase rule's flags of `name` against the fixpoints with chases counted like
/// checks: a draw is flagged exactly when that game decides it. Returns the flags.
fn assert_flags_as_the_fixpoints_say(tables: &Tables, name: &str) -> usize {
    let material: Material = name.parse().unwrap();
    let nodes = undecided(tables, material);
    let wins = Color::ALL.map(|winner| winning(&nodes, winner, true));
    let mut flagged = 0;
    for (n, (node, stored)) in nodes.iter().enumerate() {
        let expected = *stored == Value::Draw && (wins[0][n] || wins[1][n]);
        assert_eq!(node.chase_flag, expected, "{name}: {stored:?}");
        flagged += usize::from(expected);
    }
    assert_eq!(flagged, tables.get(material).unwrap().chase_flags());
    flagged
}

#[test]
fn the_perpetual_check_rule_decides_what_the_fixpoints_decide() {
    let tables = {
        let mut tables = Tables::new();
        for name in ["KRKH", "KRKR", "KHKH", "KCKH", "KRKC"] {
            tables.generate(name.parse().unwrap(), &mut |_| {});
        }
        tables
    };
    let krkh = assert_as_the_fixpoints_say(&tables, "KRKH");
    assert_eq!(krkh, tables.get("KRKH".parse().unwrap()).unwrap().by_rule());
    assert!(krkh > 1_000, "{krkh}");
    for name in ["KRKR", "KHKH", "KCKH", "KRKC"] {
        assert_as_the_fixpoints_say(&tables, name);
        crate::verify::verify(&tables, name.parse().unwrap(), 2).unwrap();
    }
    // No draw of these needs a chase to hold: the flags' game, solved both ways, agrees.
    for name in ["KRKH", "KRKR", "KHKH", "KCKH", "KRKC"] {
        assert_eq!(
            assert_flags_as_the_fixpoints_say(&tables, name),
            0,
            "{name}"
        );
    }
    crate::verify::verify(&tables, "KRKH".parse().unwrap(), 2).unwrap();
}

#[test]
fn a_horse_that_can_only_check_forever_loses() {
    let mut tables = Tables::new();
    tables.generate("KRKH".parse().unwrap(), &mut |_| {});
    // Black's horse on b1 checks Red's general; without the rule it holds by checking.
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/3K5/1n7/8R w - - 0 1").unwrap();
    assert!(matches!(tables.probe(&pos), Some(Value::RuleWin(_))));
    let black = Position::from_fen("9/9/4k4/9/1n3R3/9/9/9/3K5/9 b - - 0 1").unwrap();
    assert!(matches!(tables.probe(&black), Some(Value::RuleLoss(_))));
}

#[test]
fn a_rank_that_does_not_lead_anywhere_is_found_by_the_check() {
    let mut tables = Tables::new();
    let krkh: Material = "KRKH".parse().unwrap();
    tables.generate(krkh, &mut |_| {});
    let mut table = tables.get(krkh).unwrap().clone();
    // A win by the rule whose rank is the lowest: no move can reach a lower one.
    let (side, index) = (0..2)
        .flat_map(|s| (0..table.size()).map(move |i| (s, i)))
        .find(|&(s, i)| matches!(Value::from_code(table.codes[s][i]), Some(Value::RuleWin(_))))
        .unwrap();
    table.codes[side][index] = Value::RuleWin(Rank::new(0).unwrap()).code();
    tables.insert(table);
    let error = crate::verify::verify(&tables, krkh, 1).unwrap_err();
    assert!(
        error.to_string().contains("no move reaches a loss by rule"),
        "{error}"
    );
}

#[test]
fn wins_by_the_rule_through_captures_keep_their_ranks() {
    // 车 vs 马双士: taking an advisor can lead into `KRKHA`'s wins by the rule, a round of
    // their own; the cores after it must rank above them.
    let mut tables = Tables::new();
    let krkhaa: Material = "KRKHAA".parse().unwrap();
    tables.generate(krkhaa, &mut |_| {});
    let table = tables.get(krkhaa).unwrap();
    assert!(table.by_rule() > 0);
    assert!(table.rounds().len() > 1, "{:?}", table.rounds());
    crate::verify::verify(&tables, krkhaa, 2).unwrap();
}

#[test]
fn the_first_four_kinds_are_the_ones_that_check() {
    use xiangqi::PieceKind::*;
    assert_eq!(
        crate::material::KINDS[..4],
        [Chariot, Horse, Cannon, Soldier]
    );
}
