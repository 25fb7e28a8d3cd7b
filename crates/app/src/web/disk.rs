//! Durable file operations for the game store: a change is on disk before it is acknowledged.
//!
//! A file is replaced by writing a temporary file beside it, syncing it, renaming it over the
//! old one and syncing the directory, so that after a crash or a power cut the file is either
//! the old one or the new one, never half of one, and a rename that was acknowledged is not
//! undone. Every failure is a [`DiskError`] that says in words a person understands why.

use std::fs::File;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a change could not be written; the change was not made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiskError {
    /// What kind of failure it is.
    pub kind: DiskFailure,
    /// The failure in words, naming the file.
    pub message: String,
}

/// The failures a person can do something about, told apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskFailure {
    /// No space left on the device, or the user's quota is used up.
    Full,
    /// The data directory is on a read-only file system, or may not be written.
    ReadOnly,
    /// Any other input/output error.
    Other,
}

impl DiskFailure {
    /// The reason code the API and the page use for it.
    pub fn code(self) -> &'static str {
        match self {
            DiskFailure::Full => "disk_full",
            DiskFailure::ReadOnly => "disk_read_only",
            DiskFailure::Other => "disk_error",
        }
    }
}

impl DiskError {
    /// The error of `action` (`"save"`, `"delete"`) on `path`.
    fn new(action: &str, path: &Path, error: &io::Error) -> DiskError {
        let kind = classify(error);
        let why = match kind {
            DiskFailure::Full => "the disk is full".to_owned(),
            DiskFailure::ReadOnly => "the data folder cannot be written".to_owned(),
            DiskFailure::Other => "the disk reported an error".to_owned(),
        };
        DiskError {
            kind,
            message: format!("could not {action} {}: {why} ({error})", path.display()),
        }
    }
}

impl DiskError {
    /// The error of a new file at `path` whose name was taken every time it was tried.
    pub fn exists(path: &Path) -> DiskError {
        DiskError {
            kind: DiskFailure::Other,
            message: format!("could not save {}: the name is taken", path.display()),
        }
    }
}

impl std::fmt::Display for DiskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn classify(error: &io::Error) -> DiskFailure {
    match error.kind() {
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => DiskFailure::Full,
        io::ErrorKind::ReadOnlyFilesystem | io::ErrorKind::PermissionDenied => {
            DiskFailure::ReadOnly
        }
        _ => DiskFailure::Other,
    }
}

/// Injected failures, for tests that need a full or read-only disk (root ignores file modes,
/// and a test cannot fill a real disk).
#[cfg(test)]
pub mod faults {
    use std::io;
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    /// An injected failure: operations under `dir` fail with `kind` once `spared` more have
    /// succeeded.
    struct Fault {
        dir: PathBuf,
        kind: io::ErrorKind,
        spared: usize,
    }

    static FAULTS: Mutex<Vec<Fault>> = Mutex::new(Vec::new());

    fn faults() -> std::sync::MutexGuard<'static, Vec<Fault>> {
        FAULTS.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes every write and delete under `dir` fail with `kind` until [`clear`].
    pub fn inject(dir: &Path, kind: io::ErrorKind) {
        inject_after(dir, kind, 0);
    }

    /// Like [`inject`], once `spared` more operations under `dir` have succeeded.
    pub fn inject_after(dir: &Path, kind: io::ErrorKind, spared: usize) {
        let mut faults = faults();
        faults.retain(|f| f.dir != dir);
        faults.push(Fault {
            dir: dir.to_owned(),
            kind,
            spared,
        });
    }

    /// Lets operations under `dir` succeed again.
    pub fn clear(dir: &Path) {
        faults().retain(|f| f.dir != dir);
    }

    /// The failure injected for an operation in `dir`, if any.
    pub(super) fn check(dir: &Path) -> io::Result<()> {
        let mut faults = faults();
        let Some(fault) = faults.iter_mut().find(|f| dir.starts_with(&f.dir)) else {
            return Ok(());
        };
        if fault.spared > 0 {
            fault.spared -= 1;
            return Ok(());
        }
        Err(io::Error::new(fault.kind, "injected by a test"))
    }
}

#[cfg(test)]
fn injected(dir: &Path) -> io::Result<()> {
    faults::check(dir)
}

#[cfg(not(test))]
fn injected(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// A temporary file beside `path` for [`replace`] or [`create_new`] to write before it becomes
/// `path`. Each call gives another name, so that two writers never share one.
pub fn temp_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

/// Whether `name` is a temporary file that [`replace`] leaves only when it is interrupted.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

/// Writes `bytes` to a new temporary file beside `path` and syncs it; on failure nothing is
/// left behind.
fn write_temp(path: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let tmp = temp_path(path);
    let written = (|| {
        injected(parent(path))?;
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            // A full disk leaves an empty or partial temporary file: it must not pile up.
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Replaces the file at `path` with `bytes`, durably: once this returns `Ok`, the new content
/// survives a crash; on `Err` the old file is untouched and no temporary file is left.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), DiskError> {
    let dir = parent(path);
    let replaced = write_temp(path, bytes).and_then(|tmp| {
        std::fs::rename(&tmp, path).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })?;
        sync_dir(dir)
    });
    replaced.map_err(|e| DiskError::new("save", path, &e))
}

/// Why [`create_new`] did not create a file.
#[derive(Debug)]
pub enum CreateError {
    /// A file of that name is already there (it was not touched).
    Exists,
    /// The file could not be written.
    Disk(DiskError),
}

/// Creates the file at `path` with `bytes`, durably as [`replace`] does, but never over an
/// existing file: the name is taken in one step (a hard link of the written temporary file),
/// so two writers of one name cannot both succeed.
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<(), CreateError> {
    let dir = parent(path);
    let tmp =
        write_temp(path, bytes).map_err(|e| CreateError::Disk(DiskError::new("save", path, &e)))?;
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => sync_dir(dir).map_err(|e| CreateError::Disk(DiskError::new("save", path, &e))),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(CreateError::Exists),
        Err(e) => Err(CreateError::Disk(DiskError::new("save", path, &e))),
    }
}

/// Deletes the file at `path` durably; a file that is already gone counts as deleted.
pub fn delete(path: &Path) -> Result<(), DiskError> {
    let dir = parent(path);
    let removed = (|| {
        injected(dir)?;
        match std::fs::remove_file(path) {
            Ok(()) => sync_dir(dir),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        }
    })();
    removed.map_err(|e| DiskError::new("delete", path, &e))
}

/// Removes the temporary files an interrupted [`replace`] left in `dir`; returns how many.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let Ok(items) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for item in items.flatten() {
        let name = item.file_name();
        if name.to_str().is_some_and(is_temp_name) && std::fs::remove_file(item.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

fn parent(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new("."))
}

/// Makes a rename or delete in `dir` durable (the directory entry itself is synced).
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Windows has no directory handles to sync; its renames are journaled by NTFS.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xiangqi-disk-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn replace_writes_the_new_content_and_leaves_no_temporary_file() {
        let dir = temp_dir("replace");
        let path = dir.join("a.pgn");
        replace(&path, b"one").unwrap();
        replace(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_replace_keeps_the_old_file_and_says_why() {
        let dir = temp_dir("full");
        let path = dir.join("a.pgn");
        replace(&path, b"old").unwrap();
        faults::inject(&dir, io::ErrorKind::StorageFull);
        let error = replace(&path, b"new").unwrap_err();
        faults::clear(&dir);
        assert_eq!(error.kind, DiskFailure::Full);
        assert!(
            error.message.contains("the disk is full"),
            "{}",
            error.message
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn create_new_never_replaces_a_file() {
        let dir = temp_dir("create");
        let path = dir.join("a.pgn");
        create_new(&path, b"first").unwrap();
        assert!(matches!(
            create_new(&path, b"second"),
            Err(CreateError::Exists)
        ));
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
        faults::inject(&dir, io::ErrorKind::StorageFull);
        let full = create_new(&dir.join("b.pgn"), b"x");
        faults::clear(&dir);
        assert!(matches!(full, Err(CreateError::Disk(e)) if e.kind == DiskFailure::Full));
        assert!(!dir.join("b.pgn").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn delete_is_idempotent_and_reports_a_read_only_directory() {
        let dir = temp_dir("delete");
        let path = dir.join("a.pgn");
        replace(&path, b"x").unwrap();
        faults::inject(&dir, io::ErrorKind::ReadOnlyFilesystem);
        assert_eq!(delete(&path).unwrap_err().kind, DiskFailure::ReadOnly);
        faults::clear(&dir);
        assert!(path.exists());
        delete(&path).unwrap();
        assert!(!path.exists());
        delete(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stale_temporary_files_are_removed_and_nothing_else() {
        let dir = temp_dir("stale");
        std::fs::write(dir.join(".a.pgn.tmp"), b"").unwrap();
        std::fs::write(dir.join("a.pgn"), b"x").unwrap();
        assert_eq!(remove_stale_temps(&dir), 1);
        assert!(dir.join("a.pgn").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
