//! Tables in a folder: one file per material set, named after it (`KRKAABB.xqtb`). The
//! generator reads what is already there, and the engine and the GUI load a whole folder.

use crate::file::{check, file_name, FileError};
use crate::material::{Material, MaterialError};
use crate::table::Table;
use crate::tables::Tables;
use std::path::{Path, PathBuf};
use xiangqi_files::reading::{self, ReadError};

/// The extension of a table file.
pub const EXTENSION: &str = "xqtb";

pub use crate::file::MAX_TABLE_FILE_LEN;

/// Why a table (or the folder) was not read.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// The file could not be read at all.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The file was read and is no sound table.
    #[error("{}: refused: {error}", path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: FileError,
    },
    /// A table file whose name is no material set.
    #[error("{}: the name is no material set: {error}", path.display())]
    Name {
        /// The file.
        path: PathBuf,
        /// Why the name does not read.
        error: MaterialError,
    },
    /// The folder could not be listed.
    #[error("cannot list {}: {error}", path.display())]
    List {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
}

/// The table of `material` in `dir`: `None` when the folder has no file for it, an error when
/// the file is there but cannot be read or is no sound table.
pub fn read_table(dir: &Path, material: Material) -> Result<Option<Table>, FolderError> {
    read_file(&dir.join(file_name(material)), material)
}

/// The table of `material` in the file at `path`: `None` when there is no such file.
fn read_file(path: &Path, material: Material) -> Result<Option<Table>, FolderError> {
    let bytes = match reading::read(path, MAX_TABLE_FILE_LEN) {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    Table::from_bytes(material, &bytes)
        .map(Some)
        .map_err(|error| FolderError::Refused {
            path: path.to_owned(),
            error,
        })
}

/// Every table of a folder, and the files that were refused (each a whole table left out;
/// the others are still used).
pub struct Folder {
    /// The sound tables.
    pub tables: Tables,
    /// What was wrong with the rest, one per file.
    pub refused: Vec<FolderError>,
}

/// Checks every `*.xqtb` file of `dir` (its header and checksum) and holds the sound ones, to
/// be read into memory when first probed (two bytes a position and side to move). A folder
/// that cannot be listed is an error, a bad file only a refusal.
pub fn read_folder(dir: &Path) -> Result<Folder, FolderError> {
    let list = |error| FolderError::List {
        path: dir.to_owned(),
        error,
    };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(list)? {
        let path = entry.map_err(list)?.path();
        if path.extension().is_some_and(|e| e == EXTENSION) {
            paths.push(path);
        }
    }
    // The same order on every system, so that the same refusals come out the same way.
    paths.sort();
    let mut folder = Folder {
        tables: Tables::new(),
        refused: Vec::new(),
    };
    for path in paths {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        let material = match stem.unwrap_or_default().parse::<Material>() {
            Ok(material) => material,
            Err(error) => {
                folder.refused.push(FolderError::Name { path, error });
                continue;
            }
        };
        let checked = reading::read(&path, MAX_TABLE_FILE_LEN)
            .map_err(FolderError::from)
            .and_then(|bytes| {
                check(material, &bytes).map_err(|error| FolderError::Refused {
                    path: path.clone(),
                    error,
                })
            });
        match checked {
            Ok(()) => folder.tables.insert_on_disk(material, path),
            Err(e) => folder.refused.push(e),
        }
    }
    Ok(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xq-tb-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_folder_gives_its_sound_tables_and_names_the_rest() {
        let dir = temp_dir("folder");
        let mut tables = Tables::with_threads(1);
        tables.generate("KRK".parse().unwrap(), &mut |table| {
            std::fs::write(dir.join(file_name(table.material())), table.to_bytes()).unwrap();
        });
        // A damaged table, a name that is no material set, and a file of another kind.
        let mut krk = std::fs::read(dir.join("KRK.xqtb")).unwrap();
        krk[40] ^= 1;
        std::fs::write(dir.join("KRK.xqtb"), krk).unwrap();
        std::fs::write(dir.join("KXK.xqtb"), b"XQTB").unwrap();
        std::fs::write(dir.join("notes.txt"), b"not a table").unwrap();

        let folder = read_folder(&dir).unwrap();
        let held: Vec<String> = folder.tables.materials().map(|m| m.to_string()).collect();
        assert_eq!(held, ["KK"]);
        // Read from its file only when first asked for.
        let kk: Material = "KK".parse().unwrap();
        assert!(!folder.tables.is_loaded(kk));
        assert!(folder.tables.get(kk).is_some());
        assert!(folder.tables.is_loaded(kk));
        assert_eq!(folder.tables.most_men(), 2);
        let refused: Vec<String> = folder.refused.iter().map(|e| e.to_string()).collect();
        assert_eq!(refused.len(), 2, "{refused:?}");
        assert!(
            refused[0].contains("KRK.xqtb: refused: the checksum"),
            "{refused:?}"
        );
        assert!(
            refused[1].contains("KXK.xqtb: the name is no material set"),
            "{refused:?}"
        );

        assert!(read_table(&dir, "KRK".parse().unwrap()).is_err());
        assert!(read_table(&dir, "KHK".parse().unwrap()).unwrap().is_none());
        assert!(read_folder(&dir.join("missing")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
