//! The match's text: a progress line per game and the final summary.

use super::game_runner::GameEnd;
use super::sprt::Sprt;
use super::stats::{EloEstimate, PairingStats};
use super::tournament::MatchResults;
use std::fmt::Write as _;

/// `Elo +34.9 ± 57.7` (`+inf ± inf` for a clean sweep), or `Elo -` before any game.
fn elo_text(elo: Option<EloEstimate>) -> String {
    match elo {
        Some(e) => format!("Elo {:+.1} ± {:.1}", e.elo, e.error),
        None => "Elo -".to_string(),
    }
}

/// `62.5%`, or `-` before any game.
fn percent(stats: &PairingStats) -> String {
    match stats.games() {
        0 => "-".to_string(),
        n => format!("{:.1}%", 100.0 * stats.points() / f64::from(n)),
    }
}

/// `LLR 1.23 [-2.94, 2.94]`.
fn llr_text(llr: f64, sprt: &Sprt) -> String {
    let (lower, upper) = sprt.bounds();
    format!("LLR {llr:.2} [{lower:.2}, {upper:.2}]")
}

/// The progress line of a finished game:
/// `game 12/100: A vs B 1-0 (checkmate)  score A 7.5/12 (62.5%) LLR 0.52`.
pub fn progress_line(
    number: usize,
    players: [&str; 2],
    end: &GameEnd,
    results: &MatchResults,
    pairing: usize,
    first: &str,
    sprt: Option<&Sprt>,
) -> String {
    let stats = &results.stats[pairing];
    let mut line = format!(
        "game {number}/{}: {} vs {} {} ({})  score {first} {}/{} ({})",
        results.scheduled,
        players[0],
        players[1],
        end.result(),
        end.reason,
        stats.points(),
        stats.games(),
        percent(stats)
    );
    if let Some(sprt) = sprt {
        let _ = write!(line, " LLR {:.2}", results.llr(sprt));
    }
    line
}

/// The summary of a pairing, from the first engine's side:
/// `A vs B: W 40 D 30 L 30 (55.0%) Elo +34.9 ± 57.7 LLR 0.19 [-2.94, 2.94] inconclusive`.
pub fn pairing_line(names: [&str; 2], stats: &PairingStats, sprt: Option<(&Sprt, f64)>) -> String {
    let mut line = format!(
        "{} vs {}: W {} D {} L {} ({}) {}",
        names[0],
        names[1],
        stats.wins,
        stats.draws,
        stats.losses,
        percent(stats),
        elo_text(stats.elo())
    );
    if let Some((sprt, llr)) = sprt {
        let _ = write!(line, " {} {}", llr_text(llr, sprt), sprt.decide(llr));
    }
    line
}

/// The detail lines of a pairing: where its error bar comes from.
pub fn pairing_details(names: [&str; 2], stats: &PairingStats) -> String {
    let (model, _) = stats.model();
    let [ll, ld, even, wd, ww] = stats.pentanomial;
    format!(
        "{} vs {}: pairs [LL {ll}, LD {ld}, DD/WL {even}, WD {wd}, WW {ww}] of {}; error bar from the {} model",
        names[0],
        names[1],
        stats.pairs(),
        model.name()
    )
}

/// The lines printed at the end, the last being the one-line summary: the pairing line with
/// two engines, the standings with more.
pub fn summary(results: &MatchResults, names: &[&str], sprt: Option<&Sprt>) -> Vec<String> {
    let mut lines = Vec::new();
    let mut header = format!("games {} of {}", results.played, results.scheduled);
    if let Some(decision) = results.stopped_by_sprt {
        let _ = write!(header, " (stopped by the SPRT: {decision})");
    }
    if results.interrupted {
        header.push_str(" (interrupted)");
    }
    let [red, black, draws] = results.by_colour;
    let _ = write!(
        header,
        "; red wins {red}, black wins {black}, draws {draws}"
    );
    lines.push(header);
    if !results.endings.is_empty() {
        let endings: Vec<String> = results
            .endings
            .iter()
            .map(|(t, n)| format!("{} {n}", t.pgn_name()))
            .collect();
        lines.push(format!("endings: {}", endings.join(", ")));
    }
    let pair_names = |&(i, j): &(usize, usize)| [names[i], names[j]];
    for (pairing, stats) in results.pairings.iter().zip(&results.stats) {
        lines.push(pairing_details(pair_names(pairing), stats));
    }
    for (pairing, stats) in results.pairings.iter().zip(&results.stats) {
        let test = sprt.map(|s| (s, results.llr(s)));
        lines.push(pairing_line(pair_names(pairing), stats, test));
    }
    if names.len() > 2 {
        lines.push(standings(results, names));
    }
    lines
}

/// `standings: A 12.5/20 (62.5%), B 10/20 (50.0%), …`, best first.
fn standings(results: &MatchResults, names: &[&str]) -> String {
    let mut table: Vec<(usize, f64, u32)> = (0..names.len()).map(|i| (i, 0.0, 0)).collect();
    for (&(i, j), stats) in results.pairings.iter().zip(&results.stats) {
        let games = stats.games();
        table[i].1 += stats.points();
        table[i].2 += games;
        table[j].1 += f64::from(games) - stats.points();
        table[j].2 += games;
    }
    table.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let entries: Vec<String> = table
        .iter()
        .map(|&(i, points, games)| {
            let pct = if games == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * points / f64::from(games))
            };
            format!("{} {points}/{games} ({pct})", names[i])
        })
        .collect();
    format!("standings: {}", entries.join(", "))
}

#[cfg(test)]
mod tests {
    use super::super::game_runner::Termination;
    use super::super::schedule::schedule;
    use super::*;
    use xiangqi::Color;

    #[test]
    fn pairing_line_format() {
        let stats = PairingStats {
            wins: 40,
            draws: 30,
            losses: 30,
            pentanomial: [0; 5],
        };
        let sprt: Sprt = "elo0=0 elo1=5".parse().unwrap();
        let llr = sprt.llr(&stats.trinomial());
        assert_eq!(
            pairing_line(["A", "B"], &stats, Some((&sprt, llr))),
            "A vs B: W 40 D 30 L 30 (55.0%) Elo +34.9 ± 57.7 LLR 0.19 [-2.94, 2.94] inconclusive"
        );
        assert_eq!(
            pairing_line(["A", "B"], &PairingStats::default(), None),
            "A vs B: W 0 D 0 L 0 (-) Elo -"
        );
        let sweep = PairingStats {
            wins: 3,
            ..PairingStats::default()
        };
        assert_eq!(
            pairing_line(["A", "B"], &sweep, None),
            "A vs B: W 3 D 0 L 0 (100.0%) Elo +inf ± inf"
        );
    }

    #[test]
    fn summary_and_standings() {
        let (pairings, games) = schedule(3, 1, 1);
        let mut results = MatchResults::new(pairings, games.len());
        let win = |winner| GameEnd {
            winner: Some(winner),
            termination: Termination::Normal,
            reason: "checkmate".to_string(),
        };
        // Engine 0 (A) wins all four of its games; B beats C twice.
        for game in &games {
            let a_plays = game.red == 0 || game.black == 0;
            let winner_is_red = if a_plays {
                game.red == 0
            } else {
                game.red == 1
            };
            let winner = if winner_is_red {
                Color::Red
            } else {
                Color::Black
            };
            results.record(game, &win(winner));
        }
        let names = ["A", "B", "C"];
        let lines = summary(&results, &names, None);
        assert_eq!(
            lines.last().unwrap(),
            "standings: A 4/4 (100.0%), B 2/4 (50.0%), C 0/4 (0.0%)"
        );
        assert!(lines[0].starts_with("games 6 of 6; red wins 3, black wins 3"));
        assert_eq!(lines[1], "endings: normal 6");
        let line = progress_line(1, ["A", "B"], &win(Color::Red), &results, 0, "A", None);
        assert_eq!(
            line,
            "game 1/6: A vs B 1-0 (checkmate)  score A 2/2 (100.0%)"
        );
    }
}
