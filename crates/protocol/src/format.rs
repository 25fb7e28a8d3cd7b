//! How search output is written in each protocol.

use super::command::Dialect;
use std::fmt::Write as _;
use xiangqi::{Move, Notation, Position};
use xiangqi_engine::score::{printed, Printed};
use xiangqi_engine::{Bound, SearchInfo};

/// A move in protocol coordinates: ICCS `h2e2`, or ranks 1–10 (`h3e3`) after `UCI_Variant`.
pub fn format_move(pos: &Position, m: Move, ranks_1_to_10: bool) -> String {
    let notation = if ranks_1_to_10 {
        Notation::UciRanks1To10
    } else {
        Notation::Iccs
    };
    xiangqi::format_move(pos, m, notation)
}

/// Win/draw/loss in permille for a score, from a simple logistic model: a score of about
/// ±300 centi-soldiers wins about two games in three.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if score >= xiangqi_engine::score::MATE_BOUND {
        return (1000, 0, 0);
    }
    if score <= -xiangqi_engine::score::MATE_BOUND {
        return (0, 0, 1000);
    }
    let s = score as f64;
    let win = 1000.0 / (1.0 + (-(s - 150.0) / 90.0).exp());
    let loss = 1000.0 / (1.0 + ((s + 150.0) / 90.0).exp());
    let (w, l) = (win.round() as u32, loss.round() as u32);
    (w, 1000u32.saturating_sub(w + l), l)
}

/// One `info` line: a completed iteration's, or the line of one the search was stopped in.
pub fn format_info(
    info: &SearchInfo,
    dialect: Dialect,
    root: &Position,
    ranks_1_to_10: bool,
    wdl: Option<(u32, u32, u32)>,
) -> String {
    let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    let ms = info.time.as_millis().max(1) as u64;
    match dialect {
        Dialect::Uci => {
            let _ = write!(line, " multipv {}", info.multipv);
            match printed(info.score) {
                Printed::Cp(cp) => {
                    let _ = write!(line, " score cp {cp}");
                }
                Printed::Mate(n) => {
                    let _ = write!(line, " score mate {n}");
                }
            }
            // A bound in UCI's words (UCCI has none: its line gives the score alone).
            match info.bound {
                Bound::Exact => {}
                Bound::Lower => line.push_str(" lowerbound"),
                Bound::Upper => line.push_str(" upperbound"),
            }
            if let Some((w, d, l)) = wdl {
                let _ = write!(line, " wdl {w} {d} {l}");
            }
        }
        Dialect::Ucci => {
            let _ = write!(line, " score {}", info.score);
        }
    }
    let nps = info.nodes.saturating_mul(1000) / ms;
    let _ = write!(
        line,
        " nodes {} nps {nps} hashfull {}",
        info.nodes, info.hashfull
    );
    // Only an engine given endgame tables probes them; without, the line stays as it was.
    if info.tbhits > 0 {
        let _ = write!(line, " tbhits {}", info.tbhits);
    }
    let _ = write!(line, " time {}", info.time.as_millis());
    line.push_str(" pv");
    let mut pos = root.clone();
    for &m in &info.pv {
        if !pos.is_legal(m) {
            break;
        }
        let _ = write!(line, " {}", format_move(&pos, m, ranks_1_to_10));
        pos.make_move(m);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_is_sane() {
        let (w, d, l) = wdl(0);
        assert_eq!(w, l);
        assert_eq!(w + d + l, 1000);
        assert!(wdl(400).0 > 900);
        assert_eq!(wdl(31_000 - 5), (1000, 0, 0));
    }

    #[test]
    fn a_bound_is_said_in_uci_and_left_out_in_ucci() {
        let root = Position::startpos();
        let info = |bound| SearchInfo {
            depth: 6,
            seldepth: 8,
            multipv: 1,
            score: 47,
            bound,
            nodes: 3073,
            tbhits: 0,
            time: std::time::Duration::from_millis(2),
            hashfull: 0,
            pv: vec![xiangqi::parse_move_as(&root, "h2e2", Notation::Iccs).unwrap()],
        };
        let uci = |bound| format_info(&info(bound), Dialect::Uci, &root, false, None);
        assert!(uci(Bound::Lower).contains(" score cp 47 lowerbound nodes 3073 "));
        assert!(uci(Bound::Upper).contains(" score cp 47 upperbound nodes 3073 "));
        assert!(uci(Bound::Exact).contains(" score cp 47 nodes 3073 "));
        for bound in [Bound::Lower, Bound::Upper, Bound::Exact] {
            let ucci = format_info(&info(bound), Dialect::Ucci, &root, false, None);
            assert!(ucci.contains(" score 47 nodes 3073 "), "{ucci}");
            assert!(ucci.ends_with(" pv h2e2"), "{ucci}");
        }
    }
}
