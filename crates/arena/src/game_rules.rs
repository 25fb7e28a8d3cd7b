//! The match-wide rules of a game, and what they make of one move: the `go` limit a side's
//! engine is sent and how long the match waits for its answer.

use super::adjudication::{DrawRule, ResignRule};
use super::clock::GameClock;
use super::config::TimeControl;
use super::wire::GoLimit;
use std::time::Duration;
use xiangqi::Color;

/// How long after a fixed move time an engine may still answer before it counts as hung.
pub const MOVETIME_GRACE: Duration = Duration::from_millis(1000);

/// The match-wide settings of a game.
#[derive(Clone, Copy, Debug)]
pub struct GameRules {
    /// Plies after which the game is drawn (a safety cap).
    pub max_plies: usize,
    /// Clock games: how far past its time an engine may answer before it forfeits.
    pub time_margin: Duration,
    /// Depth and node limits: how long to wait for `bestmove` before the engine counts as hung.
    pub hang_timeout: Duration,
    /// How long the engine may take to answer `isready` before each move.
    pub sync_timeout: Duration,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
}

/// The `go` limit of `side` (with time control `tc`) and how long to wait for its answer.
pub fn go_limit(
    tc: TimeControl,
    clocks: &[Option<GameClock>; 2],
    side: Color,
    rules: &GameRules,
) -> (GoLimit, Duration) {
    match tc {
        TimeControl::MoveTime(t) => (GoLimit::MoveTime(t), t + MOVETIME_GRACE),
        TimeControl::Depth(d) => (GoLimit::Depth(d), rules.hang_timeout),
        TimeControl::Nodes(n) => (GoLimit::Nodes(n), rules.hang_timeout),
        TimeControl::Clock {
            base,
            inc,
            moves,
            byoyomi,
        } => {
            // Every clock control has its clock; a full one is only a stand-in.
            let own = clocks[side.index()]
                .unwrap_or_else(|| GameClock::full(base, inc, moves).with_byoyomi(byoyomi))
                .side_time();
            let limit = GoLimit::Clock {
                own,
                opponent: clocks[side.other().index()].map(|c| c.side_time()),
                red_to_move: side == Color::Red,
            };
            (limit, own.left + own.byoyomi + rules.time_margin)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::wire::SideTime;
    use super::*;

    #[test]
    fn clock_limits() {
        let rules = GameRules {
            max_plies: 600,
            time_margin: Duration::from_millis(100),
            hang_timeout: Duration::from_secs(60),
            sync_timeout: Duration::from_secs(10),
            resign: None,
            draw: None,
        };
        let s = Duration::from_secs;
        let red_tc = TimeControl::Clock {
            base: s(60),
            inc: s(1),
            moves: None,
            byoyomi: Duration::ZERO,
        };
        let black_tc = TimeControl::Clock {
            base: s(40),
            inc: s(0),
            moves: Some(10),
            byoyomi: Duration::ZERO,
        };
        let mut clocks = [GameClock::new(red_tc), GameClock::new(black_tc)];
        if let Some(red) = clocks[0].as_mut() {
            red.punch(s(31));
        }
        let (limit, wait) = go_limit(black_tc, &clocks, Color::Black, &rules);
        let side = |left, inc, movestogo| SideTime {
            left: s(left),
            inc: s(inc),
            movestogo,
            byoyomi: Duration::ZERO,
        };
        assert_eq!(
            limit,
            GoLimit::Clock {
                own: side(40, 0, Some(10)),
                opponent: Some(side(30, 1, None)),
                red_to_move: false
            }
        );
        assert_eq!(wait, s(40) + Duration::from_millis(100));
        let (limit, wait) = go_limit(TimeControl::MoveTime(s(2)), &clocks, Color::Red, &rules);
        assert_eq!(limit, GoLimit::MoveTime(s(2)));
        assert_eq!(wait, s(3));
        let (_, wait) = go_limit(TimeControl::Depth(5), &clocks, Color::Red, &rules);
        assert_eq!(wait, s(60));
    }
}
