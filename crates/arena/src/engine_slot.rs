//! [`EngineSlot`]: one engine as a worker keeps it between games, restarted when it died.

use super::config::EngineSpec;
use super::engine_process::{EngineError, EngineProcess, ProcessSettings};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One engine as a worker uses it: its specification and, once started, its process. A process
/// that died, stopped answering or misbehaved is replaced by a fresh one before the next game.
pub struct EngineSlot<'a> {
    /// The engine's specification.
    pub spec: &'a EngineSpec,
    settings: ProcessSettings,
    process: Option<EngineProcess>,
}

impl<'a> EngineSlot<'a> {
    /// A slot with no process yet.
    pub fn new(spec: &'a EngineSpec, settings: ProcessSettings) -> Self {
        EngineSlot {
            spec,
            settings,
            process: None,
        }
    }

    /// The process, ready for a new game: the old one if it still answers, else a new one.
    pub fn prepare(&mut self) -> Result<&mut EngineProcess, EngineError> {
        let timeout = self.settings.startup_timeout;
        let healthy = match self.process.as_mut() {
            Some(p) => p.is_alive() && p.new_game(timeout).is_ok(),
            None => false,
        };
        if !healthy {
            // Drop the old one first (killing it) so two never run at once.
            self.process = None;
            let mut fresh = EngineProcess::start(self.spec, self.settings)?;
            fresh.new_game(timeout)?;
            self.process = Some(fresh);
        }
        self.process.as_mut().ok_or(EngineError::Crashed(None))
    }

    /// The running process, if any.
    pub fn process(&mut self) -> Option<&mut EngineProcess> {
        self.process.as_mut()
    }

    /// Ends a ponder search that is still running (the game is over); a process that does not
    /// answer the `stop` is discarded.
    pub fn stop_pondering(&mut self, timeout: Duration, abort: &AtomicBool) {
        if let Some(process) = self.process.as_mut() {
            if process.stop_pondering(timeout, abort).is_err() {
                self.discard();
            }
        }
    }

    /// Kills the process (after a crash, a hang or a timeout); the next game starts a new one.
    pub fn discard(&mut self) {
        self.process = None;
    }
}
