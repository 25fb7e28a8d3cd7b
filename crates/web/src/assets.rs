//! The page's files, embedded in the binary: no build step, nothing fetched at run time.

use super::state::AppState;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

/// `(path under /assets/, content type, content)`.
const FILES: [(&str, &str, &str); 45] = [
    ("js/clock.js", JS, include_str!("../page/js/clock.js")),
    ("style.css", "text/css", include_str!("../page/style.css")),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../page/favicon.svg"),
    ),
    ("js/main.js", JS, include_str!("../page/js/main.js")),
    ("js/state.js", JS, include_str!("../page/js/state.js")),
    ("js/render.js", JS, include_str!("../page/js/render.js")),
    ("js/game.js", JS, include_str!("../page/js/game.js")),
    ("js/controls.js", JS, include_str!("../page/js/controls.js")),
    ("js/keyboard.js", JS, include_str!("../page/js/keyboard.js")),
    ("js/api.js", JS, include_str!("../page/js/api.js")),
    ("js/board.js", JS, include_str!("../page/js/board.js")),
    (
        "js/glyph-paths.js",
        JS,
        include_str!("../page/js/glyph-paths.js"),
    ),
    ("js/glyphs.js", JS, include_str!("../page/js/glyphs.js")),
    (
        "js/pictograms.js",
        JS,
        include_str!("../page/js/pictograms.js"),
    ),
    (
        "js/piece-set.js",
        JS,
        include_str!("../page/js/piece-set.js"),
    ),
    ("js/fen.js", JS, include_str!("../page/js/fen.js")),
    ("js/i18n.js", JS, include_str!("../page/js/i18n.js")),
    ("js/sound.js", JS, include_str!("../page/js/sound.js")),
    ("js/editor.js", JS, include_str!("../page/js/editor.js")),
    ("js/new-game.js", JS, include_str!("../page/js/new-game.js")),
    (
        "js/clock-choice.js",
        JS,
        include_str!("../page/js/clock-choice.js"),
    ),
    ("js/review.js", JS, include_str!("../page/js/review.js")),
    ("js/book.js", JS, include_str!("../page/js/book.js")),
    (
        "js/tablebase.js",
        JS,
        include_str!("../page/js/tablebase.js"),
    ),
    ("js/study.js", JS, include_str!("../page/js/study.js")),
    ("js/movelist.js", JS, include_str!("../page/js/movelist.js")),
    ("js/dialogs.js", JS, include_str!("../page/js/dialogs.js")),
    ("js/files.js", JS, include_str!("../page/js/files.js")),
    ("js/unsaved.js", JS, include_str!("../page/js/unsaved.js")),
    ("js/dom.js", JS, include_str!("../page/js/dom.js")),
    ("js/settings.js", JS, include_str!("../page/js/settings.js")),
    ("js/site.js", JS, include_str!("../page/js/site.js")),
    ("js/backend.js", JS, include_str!("../page/js/backend.js")),
    ("lab.css", "text/css", include_str!("../page/lab.css")),
    (
        "puzzles.css",
        "text/css",
        include_str!("../page/puzzles.css"),
    ),
    ("js/puzzles.js", JS, include_str!("../page/js/puzzles.js")),
    ("js/lab.js", JS, include_str!("../page/js/lab.js")),
    ("js/lab-tree.js", JS, include_str!("../page/js/lab-tree.js")),
    (
        "js/lab-lesson.js",
        JS,
        include_str!("../page/js/lab-lesson.js"),
    ),
    (
        "js/lab-steps.js",
        JS,
        include_str!("../page/js/lab-steps.js"),
    ),
    (
        "js/lab-sweep.js",
        JS,
        include_str!("../page/js/lab-sweep.js"),
    ),
    (
        "js/lab-progress.js",
        JS,
        include_str!("../page/js/lab-progress.js"),
    ),
    (
        "js/lab-picture.js",
        JS,
        include_str!("../page/js/lab-picture.js"),
    ),
    (
        "js/lab-stepper.js",
        JS,
        include_str!("../page/js/lab-stepper.js"),
    ),
    (
        "js/lab-chart.js",
        JS,
        include_str!("../page/js/lab-chart.js"),
    ),
];

const JS: &str = "text/javascript";
const INDEX: &str = include_str!("../page/index.html");
const LAB: &str = include_str!("../page/lab.html");
const PUZZLES: &str = include_str!("../page/puzzles.html");

/// Every file of the page as a static site holds it: `index.html`, `lab.html`,
/// `puzzles.html` and `assets/…`, with its content type (`cargo xtask site` writes them out).
pub fn page_files() -> Vec<(String, &'static str, &'static str)> {
    let pages = [
        ("index.html".to_owned(), "text/html", INDEX),
        ("lab.html".to_owned(), "text/html", LAB),
        ("puzzles.html".to_owned(), "text/html", PUZZLES),
    ];
    pages
        .into_iter()
        .chain(
            FILES
                .iter()
                .map(|(path, content_type, body)| (format!("assets/{path}"), *content_type, *body)),
        )
        .collect()
}

/// `/`, `/index.html`, the search laboratory's `/lab`, the puzzles' `/puzzles` and
/// `/assets/…`.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/lab", get(lab))
        .route("/lab.html", get(lab))
        .route("/puzzles", get(puzzles))
        .route("/puzzles.html", get(puzzles))
        .route("/favicon.ico", get(favicon))
        .route("/assets/{*path}", get(asset))
}

fn page(content_type: &str, body: &'static str) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                format!("{content_type}; charset=utf-8"),
            ),
            // The files change only with the binary; always check, it costs nothing locally.
            (header::CACHE_CONTROL, "no-cache".to_owned()),
        ],
        body,
    )
        .into_response()
}

async fn index() -> Response {
    page("text/html", INDEX)
}

async fn lab() -> Response {
    page("text/html", LAB)
}

async fn puzzles() -> Response {
    page("text/html", PUZZLES)
}

async fn favicon() -> Response {
    page("image/svg+xml", FILES[1].2)
}

async fn asset(Path(path): Path<String>) -> Response {
    match FILES.iter().find(|(name, _, _)| *name == path) {
        Some((_, content_type, body)) => page(content_type, body),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

#[cfg(test)]
mod tests {
    /// The codes the server sends that are its own (the rules library's come from it).
    const WEB_CODES: [&str; 27] = [
        "lab_depth",
        "cancelled",
        "not_your_turn",
        "game_over",
        "stale",
        "nothing_to_undo",
        "nothing_to_redo",
        "busy",
        "not_over",
        "nothing_to_review",
        "no_opponent",
        "unreadable",
        "too_long",
        "paused",
        "no_clock",
        "no_offer",
        "engine_failed",
        "disk_full",
        "disk_read_only",
        "disk_error",
        "fen_no_general",
        "fen_too_many",
        "fen_general_palace",
        "fen_unreachable",
        "fen_generals_facing",
        "fen_game_over",
        "handicap_side",
    ];

    /// The part of i18n.js with one language's texts.
    fn language(name: &str) -> &'static str {
        let text = super::FILES
            .iter()
            .find(|f| f.0 == "js/i18n.js")
            .map(|f| f.2)
            .unwrap();
        let start = text.find(&format!("\n  {name}: {{")).unwrap();
        let end = text[start + 1..]
            .find("\n  },")
            .map_or(text.len(), |e| start + 1 + e);
        &text[start..end]
    }

    fn has_key(section: &str, key: &str) -> bool {
        [format!(" {key}:"), format!("'{key}':"), format!("{{{key}:")]
            .iter()
            .any(|k| section.contains(k.as_str()))
    }

    #[test]
    fn every_reason_code_has_a_translation_in_both_languages() {
        let rules = xiangqi::IllegalMove::CODES
            .into_iter()
            .chain(xiangqi::WinReason::ALL.map(xiangqi::WinReason::code))
            .chain(xiangqi::DrawReason::ALL.map(xiangqi::DrawReason::code));
        for code in rules.chain(WEB_CODES) {
            for name in ["zh", "en"] {
                assert!(
                    has_key(language(name), code),
                    "no {name} text for the code {code}"
                );
            }
        }
    }

    /// Every key the laboratory's page names (`data-i18n…="key"` in lab.html, `t('key'` in
    /// its scripts).
    fn lab_keys() -> Vec<String> {
        let mut keys = Vec::new();
        for marker in ["data-i18n=\"", "data-i18n-aria=\"", "data-i18n-title=\""] {
            for part in super::LAB.split(marker).skip(1) {
                keys.push(part.split('"').next().unwrap_or("").to_owned());
            }
        }
        for (name, _, body) in super::FILES.iter() {
            if name.starts_with("js/lab") {
                // Calls of `t` itself, not of `createElement('label')`.
                for (at, _) in body.match_indices("t('lab") {
                    let before = body[..at].chars().next_back().unwrap_or(' ');
                    if !before.is_alphanumeric() {
                        let rest = &body[at + 3..];
                        keys.push(rest.split('\'').next().unwrap_or("").to_owned());
                    }
                }
            }
        }
        keys.extend(["labTerm", "labDiff"].map(String::from));
        keys
    }

    #[test]
    fn every_text_of_the_lab_page_is_in_both_languages() {
        let keys = lab_keys();
        assert!(keys.len() > 30, "{keys:?}");
        for key in keys {
            for name in ["zh", "en"] {
                assert!(has_key(language(name), &key), "no {name} text for {key}");
            }
        }
    }

    /// Every key the game's page names: `data-i18n…="key"` in index.html and in the scripts'
    /// templates, `t('key'` in its scripts (keys chosen by an expression are not found).
    fn page_keys() -> Vec<String> {
        let scripts = super::FILES
            .iter()
            .filter(|f| f.0.ends_with(".js") && !f.0.starts_with("js/lab"));
        let mut keys = Vec::new();
        let pages = [super::INDEX, super::PUZZLES];
        for body in pages.into_iter().chain(scripts.map(|f| f.2)) {
            for marker in ["data-i18n=\"", "data-i18n-aria=\"", "data-i18n-title=\""] {
                for part in body.split(marker).skip(1) {
                    keys.push(part.split('"').next().unwrap_or("").to_owned());
                }
            }
            for (at, _) in body.match_indices("t('") {
                // Calls of `t` itself, not of `select('…` or `createElement('…`.
                if !body[..at].ends_with(|c: char| c.is_alphanumeric() || c == '.') {
                    keys.push(body[at + 3..].split('\'').next().unwrap_or("").to_owned());
                }
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }

    #[test]
    fn every_text_of_the_game_page_is_in_both_languages() {
        let keys = page_keys();
        assert!(keys.len() > 80, "{keys:?}");
        for key in keys {
            for name in ["zh", "en"] {
                assert!(has_key(language(name), &key), "no {name} text for {key}");
            }
        }
    }

    #[test]
    fn every_puzzle_theme_has_a_name_in_both_languages() {
        for theme in xiangqi_puzzles::Theme::FIXED {
            for name in ["zh", "en"] {
                let key = format!("theme_{}", theme.name());
                assert!(has_key(language(name), &key), "no {name} text for {key}");
            }
        }
    }

    #[test]
    fn every_script_in_the_folder_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("page/js");
        for item in std::fs::read_dir(dir).unwrap() {
            let name = item.unwrap().file_name().to_string_lossy().into_owned();
            let path = format!("js/{name}");
            assert!(
                super::FILES.iter().any(|f| f.0 == path),
                "{path} is in page/js but not embedded"
            );
        }
    }

    #[test]
    fn modules_import_only_embedded_files() {
        // Every `./x.js` a module imports must be served.
        for (name, _, body) in super::FILES.iter().filter(|f| f.0.ends_with(".js")) {
            for part in body.split("from './").skip(1) {
                let file = part.split('\'').next().unwrap_or("");
                let path = format!("js/{file}");
                assert!(
                    super::FILES.iter().any(|f| f.0 == path),
                    "{name} imports {path}, which is not embedded"
                );
            }
        }
    }
}
