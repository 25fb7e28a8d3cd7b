//! Finding the shared test files (real PGN and XQF games), which live outside the repository.
//!
//! They sit in `shared/testdata/pgn` beside the checkout: for the crate at `X/main/crates/xiangqi`
//! that is `X/shared/testdata/pgn`. Without the folder, tests that need it print a note and pass,
//! except on CI (the `CI` environment variable set), where a missing folder is a failure.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Once;

/// The folder of shared PGN/XQF files, or `None` (after printing a note) when it is absent.
///
/// # Panics
/// When the folder is missing and `CI` is set.
pub(crate) fn pgn_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/testdata/pgn"
    ));
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the shared test data folder {} is missing (required when CI is set)",
        dir.display()
    );
    // Once per test run, and past the test harness's output capture so that it shows.
    static NOTE: Once = Once::new();
    NOTE.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "note: {} not found; skipping the tests that need the shared PGN/XQF files",
            dir.display()
        );
    });
    None
}

/// The bytes of the shared file `name`, or `None` when the folder is absent (see [`pgn_dir`]).
///
/// # Panics
/// When the folder exists but the file cannot be read.
pub(crate) fn read(name: &str) -> Option<Vec<u8>> {
    let path = pgn_dir()?.join(name);
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) => panic!("cannot read {}: {e}", path.display()),
    }
}
