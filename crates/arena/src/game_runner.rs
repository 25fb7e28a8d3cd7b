//! Plays one game between two engine slots: book moves, then ask the side to move, check its
//! answer, keep the clocks, and stop on the first reason to stop.
//!
//! The rules library ([`Game::outcome`]) ends a game after every move (mate, stalemate,
//! perpetual check or chase, repetition, 120 plies without capture, no attacking material).
//! Everything an engine can do wrong loses for it: no answer in time, a crash, an empty or
//! malformed `bestmove`, an illegal move, a claim to have no move. Optional score adjudication
//! and a ply cap end the rest.

use super::adjudication::{Adjudicator, Verdict};
use super::clock::GameClock;
use super::engine_process::EngineError;
use super::engine_slot::EngineSlot;
use super::game_rules::GameRules;
use super::openings::Opening;
use super::ponder::{self, expected_reply};
use super::wire::{notation, BestMove, Score};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use xiangqi::{parse_move_as, Color, Game, Move, Notation, NotationError, Outcome, Position};
use xiangqi::{DrawReason, WinReason};

/// How a game ended, in the categories of PGN's `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game (or an engine resigned).
    Normal,
    /// By the engines' scores or the ply cap.
    Adjudication,
    /// A clock ran out.
    TimeForfeit,
    /// An illegal, malformed or missing move.
    RulesInfraction,
    /// An engine crashed, hung or could not be started.
    Abandoned,
}

impl Termination {
    /// The value of the PGN `Termination` tag.
    pub fn pgn_name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
        }
    }

    /// The termination whose [`Termination::pgn_name`] is `name`.
    pub fn from_pgn_name(name: &str) -> Option<Termination> {
        [
            Termination::Normal,
            Termination::Adjudication,
            Termination::TimeForfeit,
            Termination::RulesInfraction,
            Termination::Abandoned,
        ]
        .into_iter()
        .find(|t| t.pgn_name() == name)
    }
}

/// The result of a game and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// The kind of ending.
    pub termination: Termination,
    /// The reason in words: `checkmate`, `B played an illegal move e3e5`, …
    pub reason: String,
}

impl GameEnd {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// One move of a finished game with what its engine said about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// The move.
    pub mv: Move,
    /// The engine's last score, from its own point of view.
    pub score: Option<Score>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// Thinking time; `None` for a book move.
    pub time: Option<Duration>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The start position.
    pub start: Position,
    /// Book and engine moves.
    pub moves: Vec<MoveNote>,
    /// The result.
    pub end: GameEnd,
}

fn loss(loser: Color, termination: Termination, reason: String) -> GameEnd {
    GameEnd {
        winner: Some(loser.other()),
        termination,
        reason,
    }
}

fn draw(termination: Termination, reason: String) -> GameEnd {
    GameEnd {
        winner: None,
        termination,
        reason,
    }
}

/// The end the rules gave, in words naming the culprit of a perpetual.
fn rules_end(outcome: Outcome, names: [&str; 2]) -> GameEnd {
    match outcome {
        Outcome::Win { winner, reason } => {
            let loser = names[winner.other().index()];
            let text = match reason {
                WinReason::PerpetualCheck | WinReason::PerpetualChase => {
                    format!("{} by {loser}", reason.describe())
                }
                WinReason::Stalemate => "stalemate (no legal move)".to_string(),
                other => other.describe().to_string(),
            };
            GameEnd {
                winner: Some(winner),
                termination: Termination::Normal,
                reason: text,
            }
        }
        Outcome::Draw(DrawReason::Repetition) => {
            draw(Termination::Normal, "repetition".to_string())
        }
        Outcome::Draw(reason) => draw(Termination::Normal, reason.describe().to_string()),
    }
}

/// Plays `opening` with `players[0]` as Red and `players[1]` as Black. `None` if the match was
/// stopped (`abort`) before the game ended.
pub fn play_game(
    opening: &Opening,
    mut players: [&mut EngineSlot<'_>; 2],
    rules: &GameRules,
    abort: &AtomicBool,
) -> Option<PlayedGame> {
    let played = play_moves(opening, &mut players, rules, abort);
    // The engine that did not make the last move may still be pondering on it.
    for slot in players {
        slot.stop_pondering(rules.sync_timeout, abort);
    }
    played
}

/// [`play_game`] up to the end of the game.
fn play_moves(
    opening: &Opening,
    players: &mut [&mut EngineSlot<'_>; 2],
    rules: &GameRules,
    abort: &AtomicBool,
) -> Option<PlayedGame> {
    let mut game = Game::new(opening.start.clone());
    let mut moves = Vec::new();
    for &mv in &opening.moves {
        // The openings were checked when the file was read.
        game.play(mv).ok()?;
        moves.push(MoveNote {
            mv,
            score: None,
            depth: None,
            time: None,
        });
    }
    let start = opening.start.clone();
    let finish = |moves, end| {
        Some(PlayedGame {
            start: start.clone(),
            moves,
            end,
        })
    };
    let names = [players[0].spec.name.clone(), players[1].spec.name.clone()];
    let slots = players;
    for color in Color::ALL {
        match slots[color.index()].prepare() {
            Ok(_) => {}
            Err(EngineError::Aborted) => return None,
            Err(e) => {
                let reason = format!("{} {e}", names[color.index()]);
                return finish(moves, loss(color, Termination::Abandoned, reason));
            }
        }
    }
    let mut clocks = slots.each_ref().map(|s| GameClock::new(s.spec.tc));
    let mut adjudicator = Adjudicator::new(rules.resign, rules.draw);
    let names_ref = [names[0].as_str(), names[1].as_str()];
    // Who will ponder on which reply once the game is known to go on; who is pondering on what.
    let mut ponder_next: Option<(Color, Move)> = None;
    let mut pondering_on: [Option<Move>; 2] = [None; 2];
    loop {
        if let Some(outcome) = game.outcome() {
            return finish(moves, rules_end(outcome, names_ref));
        }
        if game.len() >= rules.max_plies {
            let reason = format!("ply limit ({}) reached", rules.max_plies);
            return finish(moves, draw(Termination::Adjudication, reason));
        }
        let side = game.position().side_to_move();
        let name = names_ref[side.index()];
        // The side that just moved ponders on its expected reply now that the game goes on.
        if let Some((ponderer, expected)) = ponder_next.take() {
            let slot = &mut *slots[ponderer.index()];
            if ponder::start(slot, ponderer, &game, expected, &clocks, rules) {
                pondering_on[ponderer.index()] = Some(expected);
            }
        }
        let slot = &mut *slots[side.index()];
        let spec = slot.spec;
        let expected = pondering_on[side.index()].take();
        let reply = match ponder::ask(slot, side, &game, expected, &clocks, rules, abort) {
            Ok(reply) => reply,
            Err(EngineError::Aborted) => return None,
            Err(e) => {
                // A hung or dead engine cannot be trusted with the next game.
                slot.discard();
                let left = clocks[side.index()].map(|c| c.left());
                return finish(moves, failed_search(&e, side, name, left));
            }
        };
        let notation = notation(spec.uci_variant);
        if let Some(clock) = clocks[side.index()].as_mut() {
            let left = clock.allowed();
            if reply.elapsed > left + rules.time_margin {
                let reason = format!(
                    "{name} lost on time (took {} ms with {} ms left)",
                    reply.elapsed.as_millis(),
                    left.as_millis()
                );
                return finish(moves, loss(side, Termination::TimeForfeit, reason));
            }
            clock.punch(reply.elapsed);
        }
        let mv = match read_move(game.position(), &reply.best, notation, name) {
            Ok(Some(mv)) => mv,
            Ok(None) => {
                let reason = format!("{name} resigned");
                return finish(moves, loss(side, Termination::Normal, reason));
            }
            Err(reason) => {
                return finish(moves, loss(side, Termination::RulesInfraction, reason));
            }
        };
        let before = game.position().clone();
        if let Err(e) = game.play(mv) {
            let reason = format!("{name} played an illegal move ({e})");
            return finish(moves, loss(side, Termination::RulesInfraction, reason));
        }
        if spec.ponder {
            ponder_next = expected_reply(&before, mv, &reply.best, notation).map(|p| (side, p));
        }
        let score = reply.info.and_then(|i| i.score);
        moves.push(MoveNote {
            mv,
            score,
            depth: reply.info.and_then(|i| i.depth),
            time: Some(reply.elapsed),
        });
        match adjudicator.after_move(side, score, game.len()) {
            None => {}
            Some(Verdict::Resign(loser)) => {
                let cp = rules.resign.map_or(0, |r| r.cp);
                let n = rules.resign.map_or(0, |r| r.moves);
                let reason = format!(
                    "{}'s score was -{cp} cp or worse for {n} moves",
                    names_ref[loser.index()]
                );
                return finish(moves, loss(loser, Termination::Adjudication, reason));
            }
            Some(Verdict::Draw) => {
                let cp = rules.draw.map_or(0, |r| r.cp);
                let n = rules.draw.map_or(0, |r| r.moves);
                let reason = format!("scores within ±{cp} cp for {n} moves each");
                return finish(moves, draw(Termination::Adjudication, reason));
            }
        }
    }
}

/// The end of a game whose `side` (engine `name`, `left` on its clock if it has one) did not
/// answer: a time forfeit or a hang when its move did not come, else whatever went wrong
/// (a crash, no answer to `isready` or `stop`).
fn failed_search(e: &EngineError, side: Color, name: &str, left: Option<Duration>) -> GameEnd {
    let move_wait = match e {
        EngineError::NoAnswer {
            command, waited, ..
        } if is_search(command) => Some(*waited),
        _ => None,
    };
    match (move_wait, left) {
        (Some(waited), Some(left)) => loss(
            side,
            Termination::TimeForfeit,
            format!(
                "{name} lost on time (no move after {} ms with {} ms left)",
                waited.as_millis(),
                left.as_millis()
            ),
        ),
        (Some(waited), None) => loss(
            side,
            Termination::Abandoned,
            format!("{name} hung (no bestmove within {} ms)", waited.as_millis()),
        ),
        (None, _) => loss(side, Termination::Abandoned, format!("{name} {e}")),
    }
}

/// Whether `command` asked for a move (so running out of time on it is a forfeit or a hang),
/// rather than for `readyok` or the answer to `stop`.
fn is_search(command: &str) -> bool {
    command.starts_with("go") || command == "ponderhit"
}

/// The move of a `bestmove` reply: `Ok(None)` when the engine resigned (UCCI), `Err` with the
/// reason when the reply loses the game.
fn read_move(
    pos: &Position,
    best: &BestMove,
    notation: Notation,
    name: &str,
) -> Result<Option<Move>, String> {
    match best {
        BestMove::Empty => Err(format!("{name} sent a bestmove without a move")),
        BestMove::NoMove => Err(format!(
            "{name} claimed to have no move ({} legal moves)",
            pos.legal_moves().len()
        )),
        BestMove::Move { resign: true, .. } => Ok(None),
        BestMove::Move { text, .. } => match parse_move_as(pos, text, notation) {
            Ok(mv) => Ok(Some(mv)),
            Err(NotationError::Malformed { .. }) => {
                Err(format!("{name} sent a malformed bestmove {text:?}"))
            }
            Err(_) => Err(format!("{name} played an illegal move {text}")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_that_lose() {
        let pos = Position::startpos();
        let mv = |t: &str| BestMove::Move {
            text: t.to_string(),
            ponder: None,
            resign: false,
        };
        let read = |b: &BestMove| read_move(&pos, b, Notation::Iccs, "X");
        assert_eq!(read(&mv("h2e2")).unwrap().unwrap().to_string(), "h2e2");
        assert_eq!(
            read(&mv("e3e5")).unwrap_err(),
            "X played an illegal move e3e5"
        );
        assert_eq!(
            read(&mv("xyzzy")).unwrap_err(),
            "X sent a malformed bestmove \"xyzzy\""
        );
        assert!(read(&BestMove::NoMove)
            .unwrap_err()
            .contains("44 legal moves"));
        assert!(read(&BestMove::Empty).is_err());
        let resign = BestMove::Move {
            text: "h2e2".into(),
            ponder: None,
            resign: true,
        };
        assert_eq!(read(&resign), Ok(None));
        // Ranks 1-10: h3e3 is the central cannon.
        let m = read_move(&pos, &mv("h3e3"), Notation::UciRanks1To10, "X");
        assert_eq!(m.unwrap().unwrap().to_string(), "h2e2");
    }

    #[test]
    fn failed_searches() {
        let no_answer = |command: &str| EngineError::NoAnswer {
            command: command.to_string(),
            expected: "bestmove",
            waited: Duration::from_millis(1500),
        };
        let left = Some(Duration::from_millis(1000));
        let end = failed_search(&no_answer("go wtime 1000"), Color::Red, "A", left);
        assert_eq!(end.termination, Termination::TimeForfeit);
        assert_eq!(end.winner, Some(Color::Black));
        assert_eq!(
            end.reason,
            "A lost on time (no move after 1500 ms with 1000 ms left)"
        );
        let end = failed_search(&no_answer("ponderhit"), Color::Black, "B", left);
        assert_eq!(end.termination, Termination::TimeForfeit);
        let end = failed_search(&no_answer("go depth 5"), Color::Red, "A", None);
        assert_eq!(end.reason, "A hung (no bestmove within 1500 ms)");
        let end = failed_search(&no_answer("stop"), Color::Red, "A", left);
        assert_eq!(end.termination, Termination::Abandoned);
        assert_eq!(end.reason, "A sent no bestmove within 1500 ms of `stop`");
        let crash = EngineError::Crashed(Some("exit status: 3".to_string()));
        let end = failed_search(&crash, Color::Red, "A", left);
        assert_eq!(end.reason, "A crashed (exit status: 3)");
    }

    #[test]
    fn termination_names_read_back() {
        for t in [
            Termination::Normal,
            Termination::TimeForfeit,
            Termination::Abandoned,
        ] {
            assert_eq!(Termination::from_pgn_name(t.pgn_name()), Some(t));
        }
        assert_eq!(Termination::from_pgn_name("Normal"), None);
    }

    #[test]
    fn rule_endings_name_the_culprit() {
        let names = ["A", "B"];
        let end = rules_end(
            Outcome::Win {
                winner: Color::Red,
                reason: WinReason::PerpetualCheck,
            },
            names,
        );
        assert_eq!(end.reason, "perpetual check by B");
        assert_eq!(end.result(), "1-0");
        let end = rules_end(Outcome::Draw(DrawReason::NoCaptureLimit), names);
        assert_eq!(end.result(), "1/2-1/2");
        assert_eq!(end.termination, Termination::Normal);
    }
}
