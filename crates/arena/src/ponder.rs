//! Pondering in a game (`ponder=true`): after `bestmove M ponder P` the engine goes on thinking
//! on the position after P while its opponent thinks. If the opponent plays P it gets
//! `ponderhit` and its clock runs from then on; otherwise `stop`, its answer is thrown away, and
//! it searches the real position as usual. Time spent pondering is not charged.
//!
//! [`ask`] is how a game asks an engine for its move, pondering or not.

use super::clock::GameClock;
use super::engine_process::{EngineError, SearchReply};
use super::engine_slot::EngineSlot;
use super::game_rules::{go_limit, GameRules};
use super::wire::{go_command, go_ponder_command, notation, position_command, BestMove};
use std::sync::atomic::AtomicBool;
use xiangqi::{parse_move_as, Color, Game, Move, Notation, Position};

/// The reply an engine expects after its own move `mv` (played from `before`), if it named a
/// legal one.
pub fn expected_reply(
    before: &Position,
    mv: Move,
    best: &BestMove,
    notation: Notation,
) -> Option<Move> {
    let BestMove::Move {
        ponder: Some(text), ..
    } = best
    else {
        return None;
    };
    let mut after = before.clone();
    after.make_move(mv);
    parse_move_as(&after, text, notation).ok()
}

/// Starts `slot`'s engine (playing `side`) pondering on `game` followed by `expected`, with
/// the clocks as they stand. Whether it started: an engine that fails here is found out when
/// it is next asked for a move.
pub fn start(
    slot: &mut EngineSlot<'_>,
    side: Color,
    game: &Game,
    expected: Move,
    clocks: &[Option<GameClock>; 2],
    rules: &GameRules,
) -> bool {
    let spec = slot.spec;
    let Some(engine) = slot.process() else {
        return false;
    };
    let mut moves: Vec<Move> = game.moves().collect();
    moves.push(expected);
    let position = position_command(
        spec.protocol,
        notation(spec.uci_variant),
        game.start(),
        &moves,
    );
    let (limit, _) = go_limit(spec.tc, clocks, side, rules);
    let go = go_ponder_command(spec.protocol, limit, engine.millis());
    engine.ponder(&position, &go, rules.sync_timeout).is_ok()
}

/// Asks `slot`'s engine (playing `side`) for its move in `game`, waiting `wait` at most.
/// `pondering_on` is the reply it has been pondering on, if any: a hit turns the ponder search
/// into the answer, a miss stops it first.
pub fn ask(
    slot: &mut EngineSlot<'_>,
    side: Color,
    game: &Game,
    pondering_on: Option<Move>,
    clocks: &[Option<GameClock>; 2],
    rules: &GameRules,
    abort: &AtomicBool,
) -> Result<SearchReply, EngineError> {
    let spec = slot.spec;
    let Some(engine) = slot.process() else {
        return Err(EngineError::Crashed(None));
    };
    let (limit, wait) = go_limit(spec.tc, clocks, side, rules);
    if let Some(expected) = pondering_on {
        if game.moves().last() == Some(expected) {
            return engine.ponderhit(wait, abort);
        }
        engine.stop_pondering(rules.sync_timeout, abort)?;
    }
    let played: Vec<Move> = game.moves().collect();
    let position = position_command(
        spec.protocol,
        notation(spec.uci_variant),
        game.start(),
        &played,
    );
    let go = go_command(spec.protocol, limit, engine.millis());
    engine.search(&position, &go, wait, rules.sync_timeout, abort)
}
