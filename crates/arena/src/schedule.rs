//! The schedule of a match: every opening is played by every pairing twice, colours swapped, in
//! `rounds` rounds; each game has its number (the PGN `Round`), its opening and its colours.

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// 1-based number, in schedule order (the PGN `Round`).
    pub number: usize,
    /// Index into the openings.
    pub opening: usize,
    /// Index into the pairings.
    pub pairing: usize,
    /// Which colour-swapped pair of games this one belongs to.
    pub pair: usize,
    /// Engine index playing Red.
    pub red: usize,
    /// Engine index playing Black.
    pub black: usize,
}

/// Every pairing `(i, j)` with `i < j`, and the games in the order they are handed out: round by
/// round, opening by opening, pairing by pairing, the two colours of a pair one after the other
/// (so pairs complete early, which the pentanomial statistics and the SPRT want).
pub fn schedule(
    engines: usize,
    openings: usize,
    rounds: usize,
) -> (Vec<(usize, usize)>, Vec<ScheduledGame>) {
    let pairings: Vec<(usize, usize)> = (0..engines)
        .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
        .collect();
    let mut games = Vec::new();
    let mut pair = 0;
    for _ in 0..rounds {
        for opening in 0..openings {
            for (pairing, &(i, j)) in pairings.iter().enumerate() {
                for (red, black) in [(i, j), (j, i)] {
                    games.push(ScheduledGame {
                        number: games.len() + 1,
                        opening,
                        pairing,
                        pair,
                        red,
                        black,
                    });
                }
                pair += 1;
            }
        }
    }
    (pairings, games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_schedule() {
        let (pairings, games) = schedule(3, 2, 2);
        assert_eq!(pairings, vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(games.len(), 3 * 2 * 2 * 2);
        assert_eq!((games[0].red, games[0].black), (0, 1));
        assert_eq!((games[1].red, games[1].black), (1, 0));
        assert_eq!(games[0].pair, games[1].pair);
        assert_ne!(games[1].pair, games[2].pair);
        assert_eq!(games[6].opening, 1);
        assert_eq!(games.last().map(|g| g.number), Some(24));
        assert!(games.iter().all(|g| g.red != g.black));
    }
}
