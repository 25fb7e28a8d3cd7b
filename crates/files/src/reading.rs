//! Opening the files a person names: only regular files, opened without blocking, and never
//! read past a stated number of bytes. The engine's network and book files are read here, and
//! every tool and the web GUI read (and append to) theirs through the same functions, so the
//! rule has this one owner.
//!
//! Why each part: a FIFO with no writer makes a plain `open` wait for ever (an engine that no
//! longer answers `isready` or `quit`); a device such as `/dev/zero` never ends; a regular file
//! can still be far larger than anything the program means to hold. So a path that is not a
//! regular file is refused by its metadata before it is opened (opening a device can have
//! effects of its own), it is opened with `O_NONBLOCK` on unix so that even a FIFO swapped in
//! meanwhile cannot block, and the opened handle is checked again, so what was checked is what
//! is read. Reading stops one byte past the bound.

use std::fmt;
use std::fs::{File, FileType, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Why a file was not opened or read.
#[derive(Debug)]
pub enum Problem {
    /// The system refused (no such file, no permission, …).
    Io(io::Error),
    /// It is not a regular file: the words say what it is ("a FIFO", "a directory", …).
    NotAFile(&'static str),
    /// It holds more bytes than the bound, which is given.
    TooLarge(u64),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Io(e) => write!(f, "{e}"),
            Problem::NotAFile(what) => write!(f, "it is {what}, not a regular file"),
            Problem::TooLarge(limit) => write!(f, "it is larger than {limit} bytes"),
        }
    }
}

impl From<io::Error> for Problem {
    fn from(e: io::Error) -> Problem {
        Problem::Io(e)
    }
}

/// A file that could not be read, in one line naming it: `cannot read PATH: REASON`.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {problem}", path.display())]
pub struct ReadError {
    /// The path given.
    pub path: PathBuf,
    /// What went wrong.
    pub problem: Problem,
}

impl ReadError {
    /// Whether the file is simply not there (which some callers accept).
    pub fn is_not_found(&self) -> bool {
        matches!(&self.problem, Problem::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// What a file of this type is, in words, when it is not a regular file; `None` for a regular
/// file.
pub fn not_regular(file_type: FileType) -> Option<&'static str> {
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a directory");
    }
    if file_type.is_symlink() {
        return Some("a symbolic link");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a FIFO");
        }
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

fn check(file_type: FileType) -> Result<(), Problem> {
    not_regular(file_type).map_or(Ok(()), |what| Err(Problem::NotAFile(what)))
}

/// Opens `path` with `options` if it is a regular file (or, when `options` may create it,
/// does not exist yet), without ever blocking on a FIFO; see the [module](self) documentation.
pub fn open_regular(path: &Path, options: OpenOptions) -> Result<File, Problem> {
    // A path without metadata may be a file still to create; if not, `open` says why.
    if let Ok(metadata) = std::fs::metadata(path) {
        check(metadata.file_type())?;
    }
    #[cfg(unix)]
    let options = {
        use std::os::unix::fs::OpenOptionsExt;
        let mut options = options;
        // Without it, opening a FIFO waits for the other end. A regular file ignores it.
        options.custom_flags(libc::O_NONBLOCK);
        options
    };
    let file = options.open(path)?;
    check(file.metadata()?.file_type())?;
    Ok(file)
}

/// Opens the regular file at `path` for reading (to read it in pieces, with a bound of the
/// caller's).
pub fn open(path: &Path) -> Result<File, ReadError> {
    let mut options = OpenOptions::new();
    options.read(true);
    open_regular(path, options).map_err(|problem| ReadError {
        path: path.to_owned(),
        problem,
    })
}

/// The bytes of the regular file at `path`, refusing one of more than `limit` bytes.
///
/// The file's length refuses a big file without reading it; the read itself stops after
/// `limit + 1` bytes, so a file that grows while it is read is refused too.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let error = |problem| ReadError {
        path: path.to_owned(),
        problem,
    };
    let file = open(path)?;
    let length = file.metadata().map_err(|e| error(e.into()))?.len();
    if length > limit {
        return Err(error(Problem::TooLarge(limit)));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| error(e.into()))?;
    if bytes.len() as u64 > limit {
        return Err(error(Problem::TooLarge(limit)));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xq-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_regular_file_is_read_up_to_the_bound() {
        let dir = temp_dir("bound");
        let path = dir.join("a.bin");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read(&path, 10).unwrap(), b"0123456789");
        let err = read(&path, 9).unwrap_err();
        assert!(matches!(err.problem, Problem::TooLarge(9)), "{err}");
        assert_eq!(
            err.to_string(),
            format!("cannot read {}: it is larger than 9 bytes", path.display())
        );
        let missing = read(&dir.join("missing"), 9).unwrap_err();
        assert!(missing.is_not_found(), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A sparse file of 10 GB says so in its length and is refused before a byte is read.
    #[test]
    fn a_huge_file_is_refused_by_its_length() {
        let dir = temp_dir("huge");
        let path = dir.join("huge.bin");
        File::create(&path)
            .unwrap()
            .set_len(10_000_000_000)
            .unwrap();
        let err = read(&path, 1 << 20).unwrap_err();
        assert!(matches!(err.problem, Problem::TooLarge(_)), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = temp_dir("dir");
        let err = read(&dir, 100).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot read {}: it is a directory, not a regular file",
                dir.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn devices_are_refused_without_reading() {
        for (path, what) in [
            ("/dev/zero", "a character device"),
            ("/dev/null", "a character device"),
        ] {
            let err = read(Path::new(path), 1 << 30).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("cannot read {path}: it is {what}, not a regular file")
            );
        }
    }

    /// A FIFO nobody writes to would block a plain `open` for ever: it is refused at once. (The
    /// read runs on a thread so that a reader that does wait fails the test instead of hanging
    /// it; opening the FIFO's other end then lets that reader go.)
    #[test]
    #[cfg(unix)]
    fn a_fifo_is_refused_at_once() {
        let dir = temp_dir("fifo");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || tx.send(read(&path, 100).map_err(|e| e.to_string())));
        let answer = rx.recv_timeout(std::time::Duration::from_secs(20));
        if answer.is_err() {
            drop(OpenOptions::new().write(true).open(&fifo));
        }
        assert_eq!(
            answer,
            Ok(Err(format!(
                "cannot read {}: it is a FIFO, not a regular file",
                fifo.display()
            )))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
