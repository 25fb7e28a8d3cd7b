//! The game store: every game saved as a PGN file in the data directory, a bounded number of
//! them in memory.
//!
//! A change is acknowledged only once it is on disk ([`GameStore::update`]): if it cannot be
//! written, the game is put back as it was and the caller gets the reason. A game's life is
//! decided under its own lock: once [`GameStore::remove`] has marked it removed, no request or
//! search can change or save it again. Games not used for a while are unloaded (their file is
//! the whole game) and read back when asked for; the list keeps a summary of each.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Instant, UNIX_EPOCH};
use xiangqi::pgn::{read_pgn, GameRecord, NotationCodec};
use xiangqi::Notation;
use xiangqi_files::disk::{self, CreateError, DiskError};
use xiangqi_play::entry::{lock, GameEntry, SharedGame};
use xiangqi_play::game::WebGame;
use xiangqi_play::game_file::import_hash;
use xiangqi_play::game_file::{self, Origin};
use xiangqi_play::keep::{self, Keep};
use xiangqi_play::summary::{summary, Summary};

/// How many games are kept in memory at most; the least recently used idle ones beyond this
/// are unloaded (a long game with its positions takes up to a few hundred KiB).
pub const MAX_LOADED_GAMES: usize = 64;

pub use xiangqi_play::keep::StoreError;

/// A game in the index: in memory, or only on disk with the summary the list shows.
struct Slot {
    loaded: Option<SharedGame>,
    summary: Summary,
    /// When it was last asked for, on the store's own clock (for unloading the least used).
    used: u64,
}

struct Index {
    slots: HashMap<String, Slot>,
    clock: u64,
}

/// All games, and the folder they are saved in.
pub struct GameStore {
    dir: PathBuf,
    index: Mutex<Index>,
    /// Held while a loaded file is matched against the games and added, so that the same file
    /// loaded twice at once still makes one game.
    imports: Mutex<()>,
}

impl GameStore {
    /// A store saving into `dir/games`, with the games found there indexed (the most recently
    /// changed ones loaded) and temporary files of interrupted saves removed. Files that cannot
    /// be read are reported on stderr and left alone.
    pub fn open(dir: &Path) -> std::io::Result<GameStore> {
        let dir = dir.join("games");
        std::fs::create_dir_all(&dir)?;
        let stale = disk::remove_stale_temps(&dir);
        if stale > 0 {
            eprintln!(
                "note: removed {stale} unfinished save(s) from {}",
                dir.display()
            );
        }
        let mut found = Vec::new();
        for item in std::fs::read_dir(&dir)? {
            let path = item?.path();
            let Some(id) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".pgn"))
            else {
                continue;
            };
            if !is_valid_id(id) {
                continue;
            }
            match load(&path, id) {
                Ok(entry) => found.push(entry),
                Err(e) => eprintln!("warning: skipping {}: {e}", path.display()),
            }
        }
        // The most recently changed games stay in memory.
        found.sort_by_key(|entry| std::cmp::Reverse(entry.record().updated));
        let mut slots = HashMap::new();
        for (rank, entry) in found.into_iter().enumerate() {
            let id = entry.id().to_owned();
            let summary = summary(&entry);
            let loaded =
                (rank < MAX_LOADED_GAMES).then(|| Arc::new(Mutex::new(GameEntry::new(entry))));
            slots.insert(
                id,
                Slot {
                    loaded,
                    summary,
                    used: 0,
                },
            );
        }
        Ok(GameStore {
            dir,
            index: Mutex::new(Index { slots, clock: 0 }),
            imports: Mutex::new(()),
        })
    }

    /// The folder the game files are in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.pgn"))
    }

    /// Saves a new game and adds it; nothing is added if it cannot be saved. The game's file
    /// is created, never written over another: should its id be taken (by a file of another
    /// server on the same folder, or of an earlier run), it gets a new one.
    pub fn insert(&self, mut entry: WebGame) -> Result<SharedGame, DiskError> {
        let mut attempts = 0;
        loop {
            let text = game_file::pgn(&entry, Notation::Chinese, Instant::now());
            match disk::create_new(&self.path(entry.id()), text.as_bytes()) {
                Ok(()) => break,
                Err(CreateError::Exists) if attempts < 100 => {
                    attempts += 1;
                    entry.set_id(new_id());
                }
                Err(CreateError::Exists) => {
                    return Err(DiskError::exists(&self.path(entry.id())));
                }
                Err(CreateError::Disk(e)) => return Err(e),
            }
        }
        let id = entry.id().to_owned();
        let summary = summary(&entry);
        let shared = Arc::new(Mutex::new(GameEntry::new(entry)));
        let mut index = lock(&self.index);
        index.clock += 1;
        let used = index.clock;
        index.slots.insert(
            id,
            Slot {
                loaded: Some(Arc::clone(&shared)),
                summary,
                used,
            },
        );
        unload_beyond_cap(&mut index);
        Ok(shared)
    }

    /// Adds a game loaded from a file, unless a game made from the same file (the same
    /// `ImportHash` tag, which `entry` carries) is still here: then that game, and `false`.
    pub fn insert_import(&self, entry: WebGame) -> Result<(SharedGame, bool), DiskError> {
        let _one = lock(&self.imports);
        let hash = import_hash(&entry);
        let first = self
            .summaries()
            .into_iter()
            .find(|s| hash.is_some() && s.import_hash == hash);
        if let Some(shared) = first.and_then(|s| self.get(&s.id)) {
            return Ok((shared, false));
        }
        Ok((self.insert(entry)?, true))
    }

    /// The game with this id, read from its file if it was unloaded.
    pub fn get(&self, id: &str) -> Option<SharedGame> {
        let mut index = lock(&self.index);
        index.clock += 1;
        let now = index.clock;
        let slot = index.slots.get_mut(id)?;
        slot.used = now;
        if let Some(shared) = &slot.loaded {
            return Some(Arc::clone(shared));
        }
        // Read under the index lock, so that two requests cannot load two copies of a game.
        // The file is small (a game has at most MAX_PLIES plies).
        match load(&self.path(id), id) {
            Ok(game) => {
                let shared = Arc::new(Mutex::new(GameEntry::new(game)));
                slot.loaded = Some(Arc::clone(&shared));
                unload_beyond_cap(&mut index);
                Some(shared)
            }
            Err(e) => {
                eprintln!("warning: game {id} cannot be read back: {e}");
                index.slots.remove(id);
                None
            }
        }
    }

    /// The list's line of every game, loaded or not.
    pub fn summaries(&self) -> Vec<Summary> {
        let (mut list, loaded): (Vec<Summary>, Vec<SharedGame>) = {
            let index = lock(&self.index);
            let mut list = Vec::new();
            let mut loaded = Vec::new();
            for slot in index.slots.values() {
                match &slot.loaded {
                    Some(shared) => loaded.push(Arc::clone(shared)),
                    None => list.push(slot.summary.clone()),
                }
            }
            (list, loaded)
        };
        // Game locks are taken after the index lock is released: a game's lock is never
        // awaited while holding the index.
        list.extend(
            loaded
                .iter()
                .map(|shared| lock(shared))
                .filter(|entry| !entry.is_removed())
                .map(|entry| summary(entry.game())),
        );
        list
    }

    /// Every game in memory.
    pub fn loaded(&self) -> Vec<SharedGame> {
        lock(&self.index)
            .slots
            .values()
            .filter_map(|slot| slot.loaded.clone())
            .collect()
    }

    /// Deletes the game `shared` (named `id`) and its file. Under the game's lock: if the file
    /// cannot be deleted the game stays as it was; else it is marked removed, so a request or
    /// search that still holds it can change nothing. `false` if it was already gone.
    pub fn remove(&self, id: &str, shared: &SharedGame) -> Result<bool, DiskError> {
        let mut entry = lock(shared);
        if entry.is_removed() {
            return Ok(false);
        }
        disk::delete(&self.path(id))?;
        entry.mark_removed();
        lock(&self.index).slots.remove(id);
        Ok(true)
    }

    /// Writes the game's file durably.
    fn write(&self, game: &WebGame) -> Result<(), DiskError> {
        let text = game_file::pgn(game, Notation::Chinese, Instant::now());
        disk::replace(&self.path(game.id()), text.as_bytes())
    }
}

/// A change is kept once the game's file is written.
impl Keep for GameStore {
    fn update<T, E: From<StoreError>>(
        &self,
        entry: &mut GameEntry,
        change: impl FnOnce(&mut GameEntry) -> Result<(T, bool), E>,
    ) -> Result<T, E> {
        keep::undoable(entry, change, |entry, before| {
            match self.write(entry.game()) {
                Ok(()) => {
                    entry.set_save_error(None);
                    Ok(())
                }
                Err(e) => {
                    entry.restore(before);
                    Err(StoreError::Disk(e))
                }
            }
        })
    }
}

/// Unloads the least recently used games beyond [`MAX_LOADED_GAMES`] that nobody holds (no
/// request, no search): a game held elsewhere would otherwise come back as a second copy.
fn unload_beyond_cap(index: &mut Index) {
    let loaded = index.slots.values().filter(|s| s.loaded.is_some()).count();
    if loaded <= MAX_LOADED_GAMES {
        return;
    }
    let mut idle: Vec<(u64, String)> = index
        .slots
        .iter()
        .filter(|(_, slot)| {
            // Only the index holds it, and the index is locked: nobody can take it meanwhile.
            slot.loaded
                .as_ref()
                .is_some_and(|shared| Arc::strong_count(shared) == 1)
        })
        .map(|(id, slot)| (slot.used, id.clone()))
        .collect();
    idle.sort();
    for (_, id) in idle.into_iter().take(loaded - MAX_LOADED_GAMES) {
        if let Some(slot) = index.slots.get_mut(&id) {
            if let Some(shared) = slot.loaded.take() {
                slot.summary = summary(lock(&shared).game());
            }
        }
    }
}

/// The largest game file read: 16 MiB, far more than a game of the most plies the server keeps
/// (4,000) takes.
const MAX_GAME_FILE_LEN: u64 = 16 << 20;

/// Reads a saved game (a regular file); its last change is the file's modification time.
fn load(path: &Path, id: &str) -> Result<WebGame, String> {
    let bytes =
        xiangqi_files::reading::read(path, MAX_GAME_FILE_LEN).map_err(|e| e.problem.to_string())?;
    let record = first_record(&bytes)?;
    let mut entry =
        game_file::from_record(id.to_owned(), &record, Origin::Saved, None, Instant::now());
    let modified = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok());
    if let Some(modified) = modified {
        entry.set_updated(modified.as_secs());
    }
    Ok(entry)
}

fn first_record(bytes: &[u8]) -> Result<GameRecord, String> {
    let mut records =
        read_pgn(bytes, &NotationCodec(Notation::Chinese)).map_err(|e| e.to_string())?;
    if records.is_empty() {
        return Err("no game in the file".into());
    }
    Ok(records.swap_remove(0))
}

pub use xiangqi_play::game_requests::{is_valid_id, new_id};

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids made at once on many threads all differ (the clock's nanoseconds did not: a
    /// hundred thousand ids within a second shared thousands).
    #[test]
    fn ids_made_at_once_differ() {
        let ids: Vec<String> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..8)
                .map(|_| scope.spawn(|| (0..12_500).map(|_| new_id()).collect::<Vec<_>>()))
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap())
                .collect()
        });
        let distinct: std::collections::HashSet<&str> = ids.iter().map(|id| &id[16..]).collect();
        assert_eq!(distinct.len(), ids.len());
        assert!(ids.iter().all(|id| is_valid_id(id)));
    }
}
