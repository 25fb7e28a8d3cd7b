//! `cargo xtask site --out DIR`: the whole static site, plain files any static host serves.
//!
//! The pages are the server's own (`xiangqi_web::page_files`), marked as the site's
//! (`<html data-backend="worker">`, which makes the page talk to a worker instead of a server)
//! and given the web app manifest; beside them the engine in WebAssembly, the worker that
//! answers the page's API with it, the service worker that keeps every file for offline use
//! (its cache named after a hash of them all, so a new version replaces the old one whole), the
//! manifest and the home-screen icons.

use crate::{icons, wasm};
use anyhow::{bail, Context, Result};
use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::Path;

/// The site's own files in `crates/web/page/site/`, copied as they are.
const SITE_FILES: [&str; 6] = [
    "worker.js",
    "engine-worker.js",
    "helper-worker.js",
    "game-storage.js",
    "xiangqi-module.js",
    "manifest.webmanifest",
];
/// The home-screen icons: (file, pixels).
const ICONS: [(&str, u32); 3] = [
    ("icons/icon-192.png", 192),
    ("icons/icon-512.png", 512),
    ("icons/apple-touch-icon.png", 180),
];
/// What the site's pages get in their head: the manifest, the phone's icon, its bar colour.
const HEAD: &str = "<link rel=\"manifest\" href=\"manifest.webmanifest\">\n\
<link rel=\"apple-touch-icon\" href=\"icons/apple-touch-icon.png\">\n\
<meta name=\"theme-color\" content=\"#7a4a1c\">\n";

/// Writes the site into `out` (made if missing; files of an older site there are replaced, and
/// those the new site no longer has are removed; files the site never wrote, such as a host's
/// `CNAME` or `_headers`, are left alone).
pub fn build(out: &Path) -> Result<()> {
    let source = wasm::workspace().join("crates/web/page/site");
    fs::create_dir_all(out).with_context(|| format!("cannot make {}", out.display()))?;
    if fs::read_dir(out)?.next().is_some() && !out.join("sw.js").is_file() {
        bail!(
            "{} is not empty and holds no site: choose an empty folder or an older site's",
            out.display()
        );
    }
    // Every file but the service worker, which lists them: (path in the site, bytes).
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let module = wasm::build_dir().join("xiangqi.wasm");
    wasm::build(&module, wasm::Kind::Simd)?;
    files.push(("xiangqi.wasm".into(), fs::read(&module)?));
    // For cross-origin isolated pages (the service worker makes them so): the engine on threads.
    let module = wasm::build_dir().join("xiangqi-threads.wasm");
    wasm::build(&module, wasm::Kind::Threads)?;
    files.push(("xiangqi-threads.wasm".into(), fs::read(&module)?));
    for (path, content_type, body) in xiangqi_web::page_files() {
        let body = if content_type == "text/html" {
            site_page(body).with_context(|| format!("marking {path} as the site's"))?
        } else {
            body.to_owned()
        };
        files.push((path, body.into_bytes()));
    }
    for name in SITE_FILES {
        let path = source.join(name);
        files.push((
            name.into(),
            fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?,
        ));
    }
    let favicon = xiangqi_web::page_files()
        .into_iter()
        .find(|(path, _, _)| path == "assets/favicon.svg")
        .context("the page has no favicon")?
        .2;
    for (name, size) in ICONS {
        files.push((
            name.into(),
            icons::png(favicon, size).context("drawing the icons")?,
        ));
    }
    let older = fs::read_to_string(out.join("sw.js"))
        .map(|text| listed_files(&text))
        .unwrap_or_default();
    let worker = fs::read_to_string(source.join("sw.js")).context("cannot read sw.js")?;
    let worker = service_worker(&worker, &files)?;
    files.push(("sw.js".into(), worker.into_bytes()));
    for (path, bytes) in &files {
        let target = out.join(path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(&target, bytes).with_context(|| format!("cannot write {}", target.display()))?;
    }
    let kept: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
    for stale in older.iter().filter(|path| !kept.contains(&path.as_str())) {
        remove_stale(out, stale)?;
    }
    Ok(())
}

/// The files a site's service worker lists (its `FILES`), but `./`, the site itself; only
/// plain relative paths, so that a damaged list names nothing outside the site.
fn listed_files(service_worker: &str) -> Vec<String> {
    const START: &str = "const FILES = [";
    let Some(at) = service_worker.find(START) else {
        return Vec::new();
    };
    let rest = &service_worker[at + START.len()..];
    let Some(end) = rest.find(']') else {
        return Vec::new();
    };
    rest[..end]
        .split(',')
        .filter_map(|item| item.trim().strip_prefix('"')?.strip_suffix('"'))
        .filter(|path| {
            *path != "./"
                && !path.is_empty()
                && !path.starts_with('/')
                && !path.contains('\\')
                && path
                    .split('/')
                    .all(|part| !part.is_empty() && part != "." && part != "..")
        })
        .map(str::to_owned)
        .collect()
}

/// Removes `path`, a file of an older site in `out` that the new one has not, and the folders
/// it leaves empty.
fn remove_stale(out: &Path, path: &str) -> Result<()> {
    let target = out.join(path);
    match fs::remove_file(&target) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot remove {}", target.display())),
    }
    let mut folder = target.parent();
    while let Some(dir) = folder.filter(|dir| *dir != out) {
        // A folder that still holds something stays; that ends the climb.
        if fs::remove_dir(dir).is_err() {
            break;
        }
        folder = dir.parent();
    }
    Ok(())
}

/// A page of the server made the site's: its `<html>` names the worker as the back end, and
/// its head gets the manifest and icons.
fn site_page(html: &str) -> Result<String> {
    let Some(at) = html.find("<html") else {
        bail!("no <html> tag");
    };
    let mut page = html.to_owned();
    page.insert_str(at + "<html".len(), " data-backend=\"worker\"");
    let Some(head_end) = page.find("</head>") else {
        bail!("no </head>");
    };
    page.insert_str(head_end, HEAD);
    Ok(page)
}

/// The service worker with the site's version (a hash of every file) and the list of files to
/// keep (`./`, the address of the site itself, first).
fn service_worker(template: &str, files: &[(String, Vec<u8>)]) -> Result<String> {
    let mut hasher = DefaultHasher::new();
    for (path, bytes) in files {
        path.hash(&mut hasher);
        bytes.hash(&mut hasher);
    }
    let version = format!("{:016x}", hasher.finish());
    let mut list = vec!["\"./\"".to_owned()];
    list.extend(files.iter().map(|(path, _)| format!("{path:?}")));
    let list = format!("[\n  {},\n]", list.join(",\n  "));
    if !template.contains("'__VERSION__'") || !template.contains("__FILES__") {
        bail!("sw.js lacks the placeholders '__VERSION__' and __FILES__");
    }
    Ok(template
        .replace("__VERSION__", &version)
        .replace("__FILES__", &list))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_sites_list_is_read_and_nothing_outside_the_site_is_named() {
        let files = vec![
            ("assets/js/old.js".to_owned(), Vec::new()),
            ("xiangqi.wasm".to_owned(), Vec::new()),
        ];
        let template = "const VERSION = '__VERSION__';\nconst FILES = __FILES__;\n";
        let worker = service_worker(template, &files).unwrap();
        assert_eq!(listed_files(&worker), ["assets/js/old.js", "xiangqi.wasm"]);
        let damaged =
            "const FILES = [\n  \"../up.txt\",\n  \"/etc/x\",\n  \"a//b\",\n  \"ok.js\",\n];";
        assert_eq!(listed_files(damaged), ["ok.js"]);
        assert!(listed_files("no list here").is_empty());
    }

    #[test]
    fn a_stale_file_goes_with_the_folders_it_leaves_empty_and_the_rest_stays() {
        let out = std::env::temp_dir().join(format!("xtask-site-{}", std::process::id()));
        fs::create_dir_all(out.join("assets/js/old")).unwrap();
        fs::write(out.join("assets/js/old/gone.js"), "x").unwrap();
        fs::write(out.join("assets/js/kept.js"), "x").unwrap();
        fs::write(out.join("CNAME"), "example.org").unwrap();
        remove_stale(&out, "assets/js/old/gone.js").unwrap();
        remove_stale(&out, "assets/js/never-there.js").unwrap();
        assert!(!out.join("assets/js/old").exists());
        assert!(out.join("assets/js/kept.js").is_file());
        assert!(out.join("CNAME").is_file());
        fs::remove_dir_all(&out).unwrap();
    }
}
