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

/// Writes the site into `out` (made if missing; files of an older site there are replaced).
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
