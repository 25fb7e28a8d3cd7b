//! Marks the build `browser_missing` when Chromium or chromedriver cannot be found (and CI is
//! not set), so the browser test (`tests/browser.rs`) is reported as ignored, with the reason,
//! instead of passing without having run. It looks where the test looks: `CHROMEDRIVER` and
//! `CHROME`, else the PATH.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(browser_missing)");
    for name in ["PATH", "CHROMEDRIVER", "CHROME", "CI"] {
        println!("cargo::rerun-if-env-changed={name}");
    }
    let driver = tool("CHROMEDRIVER", &["chromedriver"]);
    let chrome = tool(
        "CHROME",
        &["chromium", "chromium-browser", "google-chrome", "chrome"],
    );
    match (driver, chrome) {
        (Some(driver), Some(chrome)) => {
            // Uninstalling either makes the test ignored again.
            println!("cargo::rerun-if-changed={}", driver.display());
            println!("cargo::rerun-if-changed={}", chrome.display());
        }
        _ => {
            // Installing them later (into a PATH folder) makes the test run again.
            for dir in path_dirs() {
                println!("cargo::rerun-if-changed={}", dir.display());
            }
            if std::env::var_os("CI").is_none() {
                println!("cargo::rustc-cfg=browser_missing");
            }
        }
    }
}

fn path_dirs() -> Vec<PathBuf> {
    std::env::var_os("PATH")
        .map(|path| {
            std::env::split_paths(&path)
                .filter(|d| d.is_dir())
                .collect()
        })
        .unwrap_or_default()
}

fn tool(variable: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    path_dirs()
        .into_iter()
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}
