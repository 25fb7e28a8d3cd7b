//! The player's puzzle record as the server keeps it: `puzzles.json` in the data directory,
//! written whole and durably after each result (see [`super::puzzles`] for the routes).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use xiangqi_files::disk;
use xiangqi_play::error::ApiError;
use xiangqi_play::puzzle_requests::PuzzleRecord;

/// The record's file in the data directory.
const RECORD_FILE: &str = "puzzles.json";
/// The largest record file read (5,000 attempts take well under a megabyte).
const MAX_RECORD_LEN: u64 = 16 << 20;

/// The player's puzzle record and where it is kept.
pub struct PuzzleBook {
    path: PathBuf,
    record: Mutex<PuzzleRecord>,
    /// Why results cannot be kept: a file that could not be read could not be moved aside
    /// either, and writing would replace it.
    blocked: Option<String>,
}

impl PuzzleBook {
    /// The record kept in `data_dir`. A file that cannot be read is moved aside (to
    /// `puzzles.json.unreadable`), never overwritten, and a new record starts; if it cannot
    /// be moved either, results are refused rather than written over it.
    pub fn open(data_dir: &Path) -> PuzzleBook {
        let path = data_dir.join(RECORD_FILE);
        let reason = match xiangqi_files::reading::read(&path, MAX_RECORD_LEN) {
            Ok(bytes) => match PuzzleRecord::from_json(&String::from_utf8_lossy(&bytes)) {
                Ok(record) => return PuzzleBook::new(path, record, None),
                Err(reason) => reason,
            },
            Err(e) if e.is_not_found() => {
                return PuzzleBook::new(path, PuzzleRecord::default(), None)
            }
            Err(e) => e.to_string(),
        };
        let aside = data_dir.join(format!("{RECORD_FILE}.unreadable"));
        let blocked = match std::fs::rename(&path, &aside) {
            Ok(()) => {
                eprintln!(
                    "xiangqi: the puzzle record {} cannot be read ({reason}); it is kept as {} and a new one starts",
                    path.display(),
                    aside.display()
                );
                None
            }
            Err(e) => Some(format!(
                "the puzzle record {} cannot be read ({reason}) nor moved aside ({e}): results are not kept until it is fixed or removed",
                path.display()
            )),
        };
        if let Some(why) = &blocked {
            eprintln!("xiangqi: {why}");
        }
        PuzzleBook::new(path, PuzzleRecord::default(), blocked)
    }

    fn new(path: PathBuf, record: PuzzleRecord, blocked: Option<String>) -> PuzzleBook {
        PuzzleBook {
            path,
            record: Mutex::new(record),
            blocked,
        }
    }

    /// The record as it is now.
    pub fn record(&self) -> MutexGuard<'_, PuzzleRecord> {
        self.record.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the record with `change` and writes it; the change is kept in memory only once
    /// it is on disk, so a full disk loses no earlier result.
    pub fn change<T>(
        &self,
        change: impl FnOnce(&mut PuzzleRecord) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        if let Some(why) = &self.blocked {
            return Err(ApiError::Internal(why.clone()));
        }
        let mut record = self.record();
        let mut changed = record.clone();
        let out = change(&mut changed)?;
        disk::replace(&self.path, changed.to_json().as_bytes())?;
        *record = changed;
        Ok(out)
    }
}
