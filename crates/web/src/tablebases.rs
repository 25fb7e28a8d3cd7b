//! The endgame tables the server's engines probe and `POST /api/tablebase` answers from: every
//! table file of `<data dir>/tablebases/` (`xiangqi tb generate --dir` builds them there).

use std::path::{Path, PathBuf};
use xiangqi_engine::Tablebases;

/// The folder of the data directory that holds the table files.
pub const FOLDER: &str = "tablebases";

/// Where the tables of `data_dir` are.
pub fn folder(data_dir: &Path) -> PathBuf {
    data_dir.join(FOLDER)
}

/// The tables of `data_dir`'s folder, `None` when it is missing or holds none. What the person
/// should know goes to `note`, a line each: every file refused (the others are still used), a
/// folder that cannot be listed, and how many tables were loaded. A missing folder says nothing:
/// no tables is the usual case. Nothing here stops the server; it plays without the tables.
pub fn load(data_dir: &Path, note: &mut dyn FnMut(&str)) -> Option<Tablebases> {
    let dir = folder(data_dir);
    if !dir.is_dir() {
        return None;
    }
    let (tables, refused) = match Tablebases::read(&dir) {
        Ok(read) => read,
        Err(e) => {
            note(&format!("endgame tables not loaded: {e}"));
            return None;
        }
    };
    for refusal in &refused {
        note(&format!("endgame table left out: {refusal}"));
    }
    let count = tables.tables().len();
    if count == 0 {
        note(&format!("no endgame tables in {}", dir.display()));
        return None;
    }
    note(&format!(
        "endgame tables: {count} loaded from {}, up to {} men",
        dir.display(),
        tables.tables().most_men()
    ));
    Some(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_tablebase::file::file_name;
    use xiangqi_tablebase::Tables;

    fn notes(data_dir: &Path) -> (Option<Tablebases>, Vec<String>) {
        let mut lines = Vec::new();
        let tables = load(data_dir, &mut |line| lines.push(line.to_owned()));
        (tables, lines)
    }

    #[test]
    fn a_folder_s_tables_are_loaded_and_its_bad_files_named() {
        let data = std::env::temp_dir().join(format!("xiangqi-web-tb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        std::fs::create_dir_all(&data).unwrap();
        // No folder: no tables, and nothing to say.
        let (tables, lines) = notes(&data);
        assert!(tables.is_none() && lines.is_empty(), "{lines:?}");

        let dir = folder(&data);
        std::fs::create_dir_all(&dir).unwrap();
        let (tables, lines) = notes(&data);
        assert!(tables.is_none());
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("no endgame tables in"), "{lines:?}");

        let mut built = Tables::with_threads(1);
        built.generate("KRK".parse().unwrap(), &mut |table| {
            let path = dir.join(file_name(table.material()));
            std::fs::write(path, table.to_bytes()).unwrap();
        });
        std::fs::write(dir.join("KHK.xqtb"), b"XQTB but no table").unwrap();
        let (tables, lines) = notes(&data);
        assert_eq!(tables.map(|t| t.tables().len()), Some(2), "{lines:?}");
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("endgame table left out: ") && lines[0].contains("KHK.xqtb"),
            "{lines:?}"
        );
        assert!(
            lines[1].starts_with("endgame tables: 2 loaded from ")
                && lines[1].ends_with("up to 3 men"),
            "{lines:?}"
        );
        let _ = std::fs::remove_dir_all(&data);
    }
}
