//! Careful writes: the one way the program writes a file, whether the web store saves a game
//! or a tool writes its output (`datagen`, `train`, `tune`, `book build`, `match --pgn`).
//!
//! A file is replaced by writing a temporary file beside it ([`NewFile`]), syncing it, renaming
//! it over the old one and syncing the folder, so that after a crash or a power cut the file is
//! either the old one or the new one, never half of one, and a rename that was acknowledged is
//! not undone. Only a regular file, or nothing, is replaced: a FIFO, a device, a directory or a
//! symbolic link at the path is refused, never renamed over. A write that fails removes its
//! temporary file. Every failure is a [`DiskError`] that says in words a person understands
//! why, naming the file. (Reading has its own owner, [`crate::reading`].)

use crate::reading;
use std::fs::{File, OpenOptions};
use std::io::{self, Seek as _, Write};
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
    /// The folder is on a read-only file system, or may not be written.
    ReadOnly,
    /// Any other failure (an input/output error, a path that is not a regular file).
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
            DiskFailure::Full => "the disk is full",
            DiskFailure::ReadOnly => "its folder cannot be written",
            // A tool's output named in a folder that is not there.
            DiskFailure::Other if error.kind() == io::ErrorKind::NotFound => {
                "its folder does not exist"
            }
            DiskFailure::Other => "the disk reported an error",
        };
        DiskError {
            kind,
            message: format!("could not {action} {}: {why} ({error})", path.display()),
        }
    }

    /// The error of a new file at `path` whose name was taken every time it was tried.
    pub fn exists(path: &Path) -> DiskError {
        DiskError {
            kind: DiskFailure::Other,
            message: format!("could not save {}: the name is taken", path.display()),
        }
    }

    /// The error of a save refused for `problem` with what is at `path` (not a regular file).
    fn refused(path: &Path, problem: &reading::Problem) -> DiskError {
        DiskError {
            kind: DiskFailure::Other,
            message: format!("could not save {}: {problem}", path.display()),
        }
    }
}

impl std::fmt::Display for DiskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DiskError {}

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
#[cfg(any(test, feature = "faults"))]
pub mod faults {
    use std::io;
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    /// An injected failure: operations under `dir` fail with `kind` once `spared` more have
    /// succeeded; a `filled` disk fails writes of bytes instead.
    struct Fault {
        dir: PathBuf,
        kind: io::ErrorKind,
        spared: usize,
        filled: bool,
    }

    static FAULTS: Mutex<Vec<Fault>> = Mutex::new(Vec::new());

    fn faults() -> std::sync::MutexGuard<'static, Vec<Fault>> {
        FAULTS.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn add(fault: Fault) {
        let mut faults = faults();
        faults.retain(|f| f.dir != fault.dir);
        faults.push(fault);
    }

    /// Makes every write and delete under `dir` fail with `kind` until [`clear`].
    pub fn inject(dir: &Path, kind: io::ErrorKind) {
        inject_after(dir, kind, 0);
    }

    /// Like [`inject`], once `spared` more operations under `dir` have succeeded.
    pub fn inject_after(dir: &Path, kind: io::ErrorKind, spared: usize) {
        add(Fault {
            dir: dir.to_owned(),
            kind,
            spared,
            filled: false,
        });
    }

    /// Fills the disk under `dir` as a real full disk is, until [`clear`]: files can still be
    /// created (that takes no room), but not one byte written to them.
    pub fn fill(dir: &Path) {
        add(Fault {
            dir: dir.to_owned(),
            kind: io::ErrorKind::StorageFull,
            spared: 0,
            filled: true,
        });
    }

    /// Lets operations under `dir` succeed again.
    pub fn clear(dir: &Path) {
        faults().retain(|f| f.dir != dir);
    }

    /// The failure injected for an operation in `dir` (`bytes` says whether it writes
    /// bytes), if any.
    pub(super) fn check(dir: &Path, bytes: bool) -> io::Result<()> {
        let mut faults = faults();
        let Some(fault) = faults.iter_mut().find(|f| dir.starts_with(&f.dir)) else {
            return Ok(());
        };
        if fault.filled != bytes {
            return Ok(());
        }
        if fault.spared > 0 {
            fault.spared -= 1;
            return Ok(());
        }
        Err(io::Error::new(fault.kind, "injected by a test"))
    }
}

/// The failure a test injected for creating or deleting a file in `dir`, if any.
#[cfg(any(test, feature = "faults"))]
fn injected(dir: &Path) -> io::Result<()> {
    faults::check(dir, false)
}

/// The failure a test injected for writing bytes to a file in `dir`, if any.
#[cfg(any(test, feature = "faults"))]
fn injected_write(dir: &Path) -> io::Result<()> {
    faults::check(dir, true)
}

#[cfg(not(any(test, feature = "faults")))]
fn injected(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(not(any(test, feature = "faults")))]
fn injected_write(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// A temporary file beside `path` for a [`NewFile`] to write before it becomes `path`. Each
/// call gives another name, so that two writers never share one.
pub fn temp_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

/// Whether `name` is a temporary file that a [`NewFile`] leaves only when it is interrupted.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

/// Checks that a save may put a file at `path`: nothing is there, or a regular file (which the
/// save replaces). A tool checks its outputs with it before long work, so that a FIFO or a
/// device given as an output is refused at once.
pub fn check_target(path: &Path) -> Result<(), DiskError> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) => match reading::not_regular(metadata.file_type()) {
            Some(what) => Err(DiskError::refused(path, &reading::Problem::NotAFile(what))),
            None => Ok(()),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(DiskError::new("save", path, &e)),
    }
}

/// A file being written beside `path`, which it replaces only when [`NewFile::commit`] is
/// called; dropped without a commit, it removes itself and `path` stays as it was.
///
/// Its write errors name `path` and say why, as a [`DiskError`] does.
pub struct NewFile {
    path: PathBuf,
    temp: PathBuf,
    file: File,
    committed: bool,
}

impl NewFile {
    /// Starts a new version of `path` (a regular file or nothing, see [`check_target`]).
    pub fn create(path: &Path) -> Result<NewFile, DiskError> {
        check_target(path)?;
        let error = |e: &io::Error| DiskError::new("save", path, e);
        injected(parent(path)).map_err(|e| error(&e))?;
        // A new name, never an existing file's (a stale one of a killed run may have it).
        let mut tries = 0;
        loop {
            let temp = temp_path(path);
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    return Ok(NewFile {
                        path: path.to_owned(),
                        temp,
                        file,
                        committed: false,
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 8 => tries += 1,
                Err(e) => return Err(error(&e)),
            }
        }
    }

    /// The [`DiskError`] of `error`, met while writing this file (the errors of its `Write`
    /// side carry theirs already).
    fn error(&self, error: &io::Error) -> DiskError {
        match error.get_ref().and_then(|e| e.downcast_ref::<DiskError>()) {
            Some(disk) => disk.clone(),
            None => DiskError::new("save", &self.path, error),
        }
    }

    /// Takes `len` bytes of disk for the file now, so that a full disk is found before long
    /// work rather than after it: writes that many zeros and syncs them, then starts writing
    /// again from the beginning, over them.
    pub fn reserve(&mut self, len: u64) -> Result<(), DiskError> {
        let zeros = [0u8; 1 << 16];
        let mut left = len;
        let reserved = (|| {
            while left > 0 {
                let n = left.min(zeros.len() as u64) as usize;
                self.write_all(&zeros[..n])?;
                left -= n as u64;
            }
            self.file.sync_all()?;
            self.file.rewind()
        })();
        reserved.map_err(|e| self.error(&e))
    }

    /// Syncs the file and its length: what was written up to now is on disk.
    fn sync(&mut self) -> io::Result<()> {
        // A reservation longer than what was written is cut off.
        let written = self.file.stream_position()?;
        self.file.set_len(written)?;
        self.file.sync_all()
    }

    /// Puts the written file in place of `path`, durably. On `Err` `path` is as it was and the
    /// temporary file is gone.
    pub fn commit(mut self) -> Result<(), DiskError> {
        self.sync().map_err(|e| self.error(&e))?;
        // Again: hours may have passed since `create`.
        check_target(&self.path)?;
        std::fs::rename(&self.temp, &self.path).map_err(|e| self.error(&e))?;
        self.committed = true;
        sync_dir(parent(&self.path)).map_err(|e| self.error(&e))
    }
}

impl Write for NewFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        injected_write(parent(&self.path))
            .and_then(|()| self.file.write(buf))
            .map_err(|e| io::Error::new(e.kind(), DiskError::new("save", &self.path, &e)))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        if !self.committed {
            // A full disk leaves an empty or partial temporary file: it must not pile up.
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Replaces the file at `path` with `bytes`, durably: once this returns `Ok`, the new content
/// survives a crash; on `Err` the old file is untouched and no temporary file is left.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), DiskError> {
    let mut new = NewFile::create(path)?;
    new.write_all(bytes).map_err(|e| new.error(&e))?;
    new.commit()
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
    let mut new = NewFile::create(path).map_err(CreateError::Disk)?;
    let written = new.write_all(bytes).and_then(|()| new.sync());
    written.map_err(|e| CreateError::Disk(new.error(&e)))?;
    // Dropping `new` afterwards removes the temporary name, linked or not.
    match std::fs::hard_link(&new.temp, path) {
        Ok(()) => sync_dir(parent(path)).map_err(|e| CreateError::Disk(new.error(&e))),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(CreateError::Exists),
        Err(e) => Err(CreateError::Disk(new.error(&e))),
    }
}

/// Appends `bytes` to the regular file at `path` (created if missing) and syncs it. On `Err`
/// the file is cut back to its old length, so a full disk never leaves half of `bytes` in it.
pub fn append(path: &Path, bytes: &[u8]) -> Result<(), DiskError> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    let error = |e: &io::Error| DiskError::new("save", path, e);
    injected(parent(path)).map_err(|e| error(&e))?;
    let mut file = match reading::open_regular(path, options) {
        Ok(file) => file,
        Err(reading::Problem::Io(e)) => return Err(error(&e)),
        Err(problem) => return Err(DiskError::refused(path, &problem)),
    };
    let before = file.metadata().map_err(|e| error(&e))?.len();
    let appended = injected_write(parent(path))
        .and_then(|()| file.write_all(bytes))
        .and_then(|()| file.sync_data());
    appended.map_err(|e| {
        let _ = file.set_len(before);
        error(&e)
    })
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

/// Removes the temporary files interrupted writes left in `dir` (a folder the program owns,
/// such as the store's); returns how many.
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
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
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

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|item| item.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let made = std::process::Command::new("mkfifo").arg(path).status();
        assert!(made.unwrap().success());
    }

    /// A FIFO, a directory or a symbolic link is never renamed over (nor a device: as root,
    /// `/dev/null` would have become a file).
    #[test]
    #[cfg(unix)]
    fn only_a_regular_file_or_nothing_is_replaced() {
        let dir = temp_dir("kinds");
        let fifo = dir.join("fifo");
        mkfifo(&fifo);
        let error = replace(&fifo, b"x").unwrap_err();
        assert_eq!(
            error.message,
            format!(
                "could not save {}: it is a FIFO, not a regular file",
                fifo.display()
            )
        );
        let sub = dir.join("sub");
        std::fs::create_dir(&sub).unwrap();
        let error = replace(&sub, b"x").unwrap_err().message;
        assert!(
            error.ends_with("it is a directory, not a regular file"),
            "{error}"
        );
        let link = dir.join("link");
        std::os::unix::fs::symlink(dir.join("elsewhere"), &link).unwrap();
        let error = NewFile::create(&link).err().unwrap().message;
        assert!(
            error.ends_with("it is a symbolic link, not a regular file"),
            "{error}"
        );
        let error = check_target(Path::new("/dev/null")).unwrap_err().message;
        assert_eq!(
            error,
            "could not save /dev/null: it is a character device, not a regular file"
        );
        use std::os::unix::fs::FileTypeExt as _;
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
        assert_eq!(
            names(&dir),
            ["fifo", "link", "sub"],
            "no temporary file is left"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A real full disk lets a file be created but not written: the old file stays whole and
    /// the partial temporary file goes.
    #[test]
    fn a_filled_disk_keeps_the_old_file_and_leaves_no_temporary_file() {
        let dir = temp_dir("filled");
        let path = dir.join("out.txt");
        replace(&path, b"the old complete file").unwrap();
        faults::fill(&dir);
        let error = replace(&path, b"new").unwrap_err();
        let mut streamed = NewFile::create(&path).unwrap();
        let write = streamed.write_all(b"a first game").unwrap_err();
        drop(streamed);
        let mut reserved = NewFile::create(&path).unwrap();
        let reserve = reserved.reserve(100_000).unwrap_err();
        drop(reserved);
        faults::clear(&dir);
        assert_eq!(error.kind, DiskFailure::Full);
        assert_eq!(write.kind(), io::ErrorKind::StorageFull);
        assert!(
            write.to_string().starts_with(&format!(
                "could not save {}: the disk is full",
                path.display()
            )),
            "{write}"
        );
        assert_eq!(reserve.kind, DiskFailure::Full);
        assert_eq!(std::fs::read(&path).unwrap(), b"the old complete file");
        assert_eq!(names(&dir), ["out.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// What is written over a reservation replaces it: the file is what was written, not the
    /// reservation's length.
    #[test]
    fn a_reservation_is_written_over_and_cut_to_what_was_written() {
        let dir = temp_dir("reserve");
        let path = dir.join("net.nnue");
        let mut new = NewFile::create(&path).unwrap();
        new.reserve(10_000).unwrap();
        assert_eq!(std::fs::metadata(&new.temp).unwrap().len(), 10_000);
        assert!(!path.exists(), "nothing is in place before the commit");
        new.write_all(b"network").unwrap();
        new.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"network");
        assert_eq!(names(&dir), ["net.nnue"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_append_that_fails_leaves_the_file_as_it_was() {
        let dir = temp_dir("append");
        let path = dir.join("games.pgn");
        append(&path, b"game 1\n").unwrap();
        append(&path, b"game 2\n").unwrap();
        faults::fill(&dir);
        let error = append(&path, b"game 3\n").unwrap_err();
        faults::clear(&dir);
        assert_eq!(error.kind, DiskFailure::Full);
        assert_eq!(std::fs::read(&path).unwrap(), b"game 1\ngame 2\n");
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo");
            mkfifo(&fifo);
            let error = append(&fifo, b"game").unwrap_err().message;
            assert!(
                error.ends_with("it is a FIFO, not a regular file"),
                "{error}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
