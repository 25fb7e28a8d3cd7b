//! Keeping a game's changes: the one rule, shared by the server (a file per game) and the
//! static site (the browser's storage), that a change counts only once it is kept.

use crate::entry::GameEntry;
use crate::error::ApiError;
use crate::game::Snapshot;
use xiangqi_files::disk::DiskError;

/// Why a change of a game was not kept.
#[derive(Debug)]
pub enum StoreError {
    /// The game was deleted meanwhile.
    Gone,
    /// The change could not be written (a full disk or browser quota, a read-only folder).
    Disk(DiskError),
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Gone => ApiError::NotFound("the game was deleted".into()),
            StoreError::Disk(e) => ApiError::Storage(e),
        }
    }
}

/// Where games are kept.
pub trait Keep {
    /// Makes `change` to a game durably. `change` says whether it changed what is kept of the
    /// game; if so the game is written, and if that fails the game is put back as it was. A
    /// change that fails is undone as well. Refused for a removed game.
    fn update<T, E: From<StoreError>>(
        &self,
        entry: &mut GameEntry,
        change: impl FnOnce(&mut GameEntry) -> Result<(T, bool), E>,
    ) -> Result<T, E>;
}

/// Runs `change` on the game (refused for a removed game); a change that fails is undone. When
/// it changed what is kept of the game, `keep` is given the game and its state before the
/// change, to keep it (or note it to keep); should that fail, `keep` puts the game back.
pub fn undoable<T, E: From<StoreError>>(
    entry: &mut GameEntry,
    change: impl FnOnce(&mut GameEntry) -> Result<(T, bool), E>,
    keep: impl FnOnce(&mut GameEntry, Snapshot) -> Result<(), StoreError>,
) -> Result<T, E> {
    if entry.is_removed() {
        return Err(StoreError::Gone.into());
    }
    let before = entry.snapshot();
    match change(entry) {
        Ok((value, false)) => Ok(value),
        Ok((value, true)) => keep(entry, before).map(|()| value).map_err(E::from),
        Err(e) => {
            entry.restore(before);
            Err(e)
        }
    }
}
