//! The static site (`cargo xtask site`): built, served by a plain static file server (Python's
//! `http.server`), loaded; the search laboratory searches in the page's worker; with the server
//! stopped the site still opens and searches (its service worker kept it); a new version is
//! announced and taken only when asked for. And a person plays there with the server gone: a
//! game on the clock against level 2, kept in the browser across reloads, on a desktop and on a
//! phone.

use super::{
    browser_or_skip, connect, connect_as, expect, free_port, runtime, start_driver, wait_for_port,
    Page, Process, TempDir, ONE_AT_A_TIME, WAIT,
};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
#[cfg_attr(
    browser_missing,
    ignore = "Chromium or chromedriver not found (apt-get install chromium chromium-driver \
              fonts-wqy-microhei)"
)]
fn the_static_site_works_offline_and_updates_when_asked() {
    on_served_site("site", "the static site", |_| {}, scenario);
}

#[test]
#[cfg_attr(
    browser_missing,
    ignore = "Chromium or chromedriver not found (apt-get install chromium chromium-driver \
              fonts-wqy-microhei)"
)]
fn a_site_the_browser_cannot_keep_says_so() {
    // A file the service worker is to keep is missing from the host: it cannot keep the site.
    let prepare = |site: &Path| std::fs::remove_file(site.join("icons/icon-512.png")).unwrap();
    on_served_site("site-unkept", "a site not kept", prepare, not_kept);
}

#[test]
#[cfg_attr(
    browser_missing,
    ignore = "Chromium or chromedriver not found (apt-get install chromium chromium-driver \
              fonts-wqy-microhei)"
)]
fn a_site_whose_threads_module_cannot_run_plays_on_one_thread() {
    // A browser that cannot run the module built for threads is taken here as one that cannot
    // compile it: the site falls back to the module for one thread.
    let prepare =
        |site: &Path| std::fs::write(site.join("xiangqi-threads.wasm"), b"not wasm").unwrap();
    on_served_site(
        "site-one-thread",
        "a site on one thread",
        prepare,
        one_thread,
    );
}

/// On an isolated page whose threads module fails, the engine answers on one thread.
async fn one_thread(page: &Page, _site: &Path, port: u16, _server: Process) -> Result<()> {
    let base = format!("http://127.0.0.1:{port}");
    page.client.goto(&format!("{base}/?lang=en")).await?;
    page.until(
        "the service worker in charge",
        "navigator.serviceWorker.controller !== null && document.body.dataset.gameId",
    )
    .await?;
    page.client.goto(&format!("{base}/?lang=en")).await?;
    page.until("the page again", "document.body.dataset.gameId")
        .await?;
    page.click("#hint").await?;
    page.until(
        "the hint arrow",
        "document.querySelector('#board .hint-arrow') !== null",
    )
    .await?;
    let state = page
        .js("return [self.crossOriginIsolated, document.documentElement.dataset.engineThreads, window.xiangqiErrors];")
        .await?;
    expect(
        "isolated, the engine's threads, script errors",
        state,
        serde_json::json!([true, "1", []]),
    )
}

/// Builds the site, lets `prepare` change its folder, serves it and runs `scenario` in Chromium
/// with a profile of its own (the page, the site's folder, the port, the server); a failure
/// panics, naming `what`.
fn on_served_site(
    name: &str,
    what: &str,
    prepare: impl FnOnce(&Path),
    scenario: impl AsyncFnOnce(&Page, &Path, u16, Process) -> Result<()>,
) {
    let Some((driver, chrome)) = browser_or_skip() else {
        return;
    };
    let site = TempDir::new(name);
    if !build_site(&site.0) {
        return;
    }
    prepare(&site.0);
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let profile = TempDir::new(&format!("{name}-profile"));
    let shots = TempDir::new(&format!("{name}-files"));
    let run = async {
        let port = free_port();
        let server = serve(&site.0, port)?;
        let (_driver, driver_port) = start_driver(&driver)?;
        let client = connect(driver_port, &chrome, &profile.0).await?;
        let page = Page {
            client: client.clone(),
            shots: shots.0.clone(),
        };
        let result = scenario(&page, &site.0, port, server).await;
        let _ = client.close().await;
        result
    };
    runtime()
        .block_on(run)
        .unwrap_or_else(|e| panic!("{what}: {e:#}"));
}

/// The page says the site is not kept for offline use.
async fn not_kept(page: &Page, _site: &Path, port: u16, _server: Process) -> Result<()> {
    page.client
        .goto(&format!("http://127.0.0.1:{port}/?lang=en"))
        .await?;
    page.until(
        "the notice that the site is not kept",
        "!document.querySelector('#notice').hidden && /will not open offline/.test(document.querySelector('#notice').textContent)",
    )
    .await?;
    let errors = page.js("return window.xiangqiErrors;").await?;
    expect(
        "what the page noted",
        errors,
        serde_json::json!(["service worker: installing failed"]),
    )
}

/// Builds the site with `cargo xtask site`; `false` (with a note) where the WebAssembly
/// toolchain is missing, a failure under CI.
fn build_site(out: &Path) -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let output = Command::new(env!("CARGO"))
        .current_dir(&root)
        .args(["xtask", "site", "--out"])
        .arg(out)
        .stdout(Stdio::null())
        .output()
        .expect("running cargo xtask site");
    if output.status.success() {
        return true;
    }
    let error = String::from_utf8_lossy(&output.stderr);
    if error.contains("toolchain is missing") && std::env::var_os("CI").is_none() {
        eprintln!(
            "note: skipping the static site's browser test: {}",
            error.trim()
        );
        return false;
    }
    panic!("cargo xtask site failed:\n{error}");
}

/// A plain static file server on `port`, serving `dir`.
pub fn serve(dir: &Path, port: u16) -> Result<Process> {
    let child = Command::new("python3")
        .args([
            "-m",
            "http.server",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--directory",
        ])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting python3 -m http.server")?;
    let process = Process(child);
    wait_for_port(port, "the static file server")?;
    Ok(process)
}

/// Runs the laboratory at depth 2 and waits for its rows: the searches ran in the worker.
async fn lab_run(page: &Page) -> Result<()> {
    page.until("the lab page", "document.body.dataset.ready === '1'")
        .await?;
    page.js("document.getElementById('lab-depth').value = '2'; return true;")
        .await?;
    page.click("#lab-run").await?;
    if let Err(e) = page
        .until(
            "the lab's rows",
            "document.querySelectorAll('#lab-table tbody tr').length === 8",
        )
        .await
    {
        let text = page
            .js("return document.body.innerText.slice(0, 2000);")
            .await?;
        bail!("{e}; the page says {text}");
    }
    let minimax = page
        .text("#lab-table tbody tr[data-algorithm='minimax'] td:nth-child(2)")
        .await?;
    // The server's count: the root, its 44 children and perft(2) = 1,920 leaves.
    expect(
        "minimax's nodes at depth 2",
        minimax.replace([',', '.', ' '], ""),
        "1965".into(),
    )
}

/// A run stopped while it searches: its progress was shown as it went, and what it did stays,
/// marked: the algorithm searching stopped, the ones after it not run. Served or on the site.
pub(super) async fn stopped_run_keeps_its_rows(page: &Page) -> Result<()> {
    page.js(
        "for (const box of document.querySelectorAll('#lab-algos input')) {
           box.checked = ['minimax', 'negamax', 'alphabeta'].includes(box.value);
           box.dispatchEvent(new Event('change'));
         }
         document.getElementById('lab-depth').value = '4';
         return true;",
    )
    .await?;
    page.click("#lab-run").await?;
    page.until(
        "the run's progress",
        "/Searching minimax \\(1 of 3, depth 4\\): [0-9,]+ nodes/.test(document.getElementById('lab-status').textContent) \
         && !/: 0 nodes/.test(document.getElementById('lab-status').textContent)",
    )
    .await?;
    page.click("#lab-cancel").await?;
    page.until(
        "the stopped run's rows",
        "document.querySelectorAll('#lab-table tbody tr').length === 3 \
         && /Stopped/.test(document.getElementById('lab-status').textContent)",
    )
    .await?;
    let values = page
        .js("return [...document.querySelectorAll('#lab-table tbody tr td:nth-child(7)')].map((c) => c.textContent);")
        .await?;
    expect(
        "the stopped run's rows",
        values,
        serde_json::json!(["unfinished", "not run", "not run"]),
    )?;
    // The default choice again.
    page.js(
        "for (const box of document.querySelectorAll('#lab-algos input')) {
           box.checked = ['minimax', 'alphabeta', 'alphabeta-mvvlva', 'alphabeta-history', 'alphabeta-tt',
             'pvs-tt-history', 'pvs-id-aspiration', 'engine'].includes(box.value);
           box.dispatchEvent(new Event('change'));
         }
         return true;",
    )
    .await?;
    Ok(())
}

/// The lesson of the horizon effect: alpha-beta's value swings from depth 3 to depth 4, the
/// quiescence search's hardly.
async fn horizon_lesson(page: &Page) -> Result<()> {
    page.click("#lab-horizon").await?;
    page.until(
        "the horizon lesson",
        "!document.querySelector('#lab-lesson-table').hidden \
         && document.querySelectorAll('#lab-lesson-table tbody tr').length === 2",
    )
    .await?;
    let values = page
        .js("return [...document.querySelectorAll('#lab-lesson-table tbody tr')].map((tr) => [...tr.cells].slice(0, 4).map((c) => c.textContent));")
        .await?;
    expect(
        "the lesson's values",
        values,
        serde_json::json!([
            ["alphabeta-mvvlva", "3.04", "-0.47", "3.51"],
            ["alphabeta-qs-mvvlva", "0.42", "0.01", "0.41"]
        ]),
    )
}

/// The reports' experiments: alpha-beta in two orders at depth 1, 2, … (nodes and time by
/// depth), the measured Elo per depth, and a row's name opening its explanation.
async fn experiments(page: &Page) -> Result<()> {
    page.click("#lab-table tbody tr[data-algorithm='alphabeta'] .lab-name a")
        .await?;
    page.until(
        "the explanations opened at the row's algorithm",
        "document.getElementById('lab-about').open && location.hash === '#about-alphabeta'",
    )
    .await?;
    page.js(
        "for (const box of document.querySelectorAll('#lab-algos input')) {
           box.checked = ['alphabeta', 'alphabeta-mvvlva'].includes(box.value);
         }
         return true;",
    )
    .await?;
    page.click("#lab-sweep").await?;
    page.until(
        "nodes and time by depth",
        "document.querySelectorAll('#lab-sweep-charts svg').length === 2 \
         && document.querySelectorAll('#lab-sweep-charts polyline').length === 4 \
         && document.getElementById('lab-cancel').disabled",
    )
    .await?;
    let depths = page
        .js("return document.querySelector('#lab-sweep-charts polyline').getAttribute('points').split(' ').length;")
        .await?;
    if depths.as_u64().is_none_or(|n| n < 4) {
        bail!("the sweep reached {depths} depths");
    }
    page.click("#lab-elo").await?;
    page.until(
        "the Elo per depth",
        "document.querySelectorAll('#lab-sweep-charts rect').length === 8",
    )
    .await?;
    // The default choice again, for the steps after.
    page.js(
        "for (const box of document.querySelectorAll('#lab-algos input')) {
           box.checked = ['minimax', 'alphabeta', 'alphabeta-mvvlva', 'alphabeta-history', 'alphabeta-tt',
             'pvs-tt-history', 'pvs-id-aspiration', 'engine'].includes(box.value);
         }
         return true;",
    )
    .await?;
    Ok(())
}

/// Minimax and alpha-beta at depth 2 stepped through together: forward moves both, the next
/// cutoff is one in alpha-beta's tree, and back returns.
async fn step_through(page: &Page) -> Result<()> {
    page.click("#lab-tree-run").await?;
    page.until(
        "the two trees with their steppers",
        "document.querySelectorAll('.lab-steps').length === 2",
    )
    .await?;
    let counts = "[...document.querySelectorAll('.lab-step-count')].map((c) => c.textContent.split(' / ')[0])";
    for _ in 0..3 {
        page.click("#lab-tree-a .lab-step-btn[data-step='forward']")
            .await?;
    }
    expect(
        "both trees three steps on",
        page.js(&format!("return {counts};")).await?,
        serde_json::json!(["4", "4"]),
    )?;
    page.js("document.getElementById('lab-step-together').checked = false; return true;")
        .await?;
    page.click("#lab-tree-b .lab-step-btn[data-step='cutoff']")
        .await?;
    let text = page.text("#lab-tree-b .lab-step-text").await?;
    if !text.starts_with("Cutoff") {
        bail!("the next cutoff says {text:?}");
    }
    page.until(
        "the cutoff's node marked in the tree",
        "document.querySelector('#lab-tree-b .lab-node.lab-step-here') !== null",
    )
    .await?;
    page.click("#lab-tree-a .lab-step-btn[data-step='back']")
        .await?;
    expect(
        "the left tree one step back, the right where it was",
        page.js(&format!("return {counts}[0];")).await?,
        serde_json::json!("3"),
    )?;

    // NegaScout with its table: stepped to its first re-search, which the tree marks.
    page.select("#lab-tree-right", "pvs-tt-history").await?;
    page.select("#lab-tree-depth", "3").await?;
    page.click("#lab-tree-run").await?;
    page.until(
        "NegaScout's tree",
        "document.querySelector('#lab-tree-b .lab-tree-head strong')?.textContent === 'pvs-tt-history' \
         && document.querySelectorAll('.lab-steps').length === 2",
    )
    .await?;
    let found = page
        .js("const text = document.querySelector('#lab-tree-b .lab-step-text');
             const forward = document.querySelector('#lab-tree-b .lab-step-btn[data-step=forward]');
             for (let i = 0; i < 20000 && !text.textContent.startsWith('Search '); i++) forward.click();
             return text.textContent;")
        .await?;
    if !found.as_str().is_some_and(|t| t.contains("full window")) {
        bail!("no re-search stepped to: {found}");
    }
    page.until(
        "the re-search marked in the tree",
        "/again/.test(document.querySelector('#lab-tree-b .lab-node.lab-step-here')?.textContent || '')",
    )
    .await?;

    // The same trees as pictures: the stepped node is marked there too, and a click on a
    // closed node opens its replies.
    page.select("#lab-tree-view", "picture").await?;
    page.until(
        "the picture with the stepped node",
        "document.querySelector('#lab-tree-b .lab-picture').offsetHeight > 0 \
         && document.querySelector('#lab-tree-b .lab-pic-node.here') !== null",
    )
    .await?;
    page.js("document.getElementById('lab-trees').scrollIntoView(); return true;")
        .await?;
    page.debug_shot("picture.png").await?;
    page.click("#lab-tree-a .lab-pic-btn:nth-child(4)").await?;
    let closed = page
        .js("const frame = document.querySelector('#lab-tree-a .lab-pic').getBoundingClientRect();
             const inside = [...document.querySelectorAll('#lab-tree-a .lab-pic-node.closed')].find((n) => {
               const r = n.getBoundingClientRect();
               return r.left >= frame.left && r.right <= frame.right && r.top >= frame.top && r.bottom <= frame.bottom;
             });
             return inside ? inside.dataset.node : null;")
        .await?;
    let Some(closed) = closed.as_str() else {
        bail!("no closed node in the picture: {closed}");
    };
    page.click(&format!("#lab-tree-a .lab-pic-node[data-node='{closed}']"))
        .await?;
    page.debug_shot("picture-open.png").await?;
    page.until(
        "a node's replies opened in the picture, beside it",
        &format!("document.querySelector(\"#lab-tree-a .lab-pic-node[data-node^='{closed}.']\") !== null"),
    )
    .await
}

async fn scenario(page: &Page, site: &Path, port: u16, server: Process) -> Result<()> {
    let base = format!("http://127.0.0.1:{port}");
    page.client.set_window_size(1280, 900).await?;
    page.client
        .goto(&format!("{base}/lab.html?lang=en"))
        .await?;
    lab_run(page).await?;
    stopped_run_keeps_its_rows(page).await?;
    lab_run(page).await?;
    horizon_lesson(page).await?;
    experiments(page).await?;
    step_through(page).await?;
    page.until(
        "the service worker in charge, the site kept",
        "navigator.serviceWorker.controller !== null",
    )
    .await?;
    // Offline: the files come from the service worker's cache.
    drop(server);
    page.client
        .goto(&format!("{base}/lab.html?lang=en"))
        .await?;
    lab_run(page).await?;
    page.client.goto(&format!("{base}/")).await?;
    page.until(
        "the main page, offline",
        "document.getElementById('board') !== null",
    )
    .await?;
    let manifest = page
        .client
        .execute_async(
            "const done = arguments[0];
             fetch('manifest.webmanifest').then((r) => r.json())
               .then(async (m) => done(await Promise.all(m.icons.map((i) => fetch(i.src).then((r) => r.status)))))
               .catch((e) => done(String(e)));",
            vec![],
        )
        .await?;
    expect(
        "the manifest's icons, offline",
        manifest,
        serde_json::json!([200, 200, 200]),
    )?;
    // A new version: the server is back with another service worker. It is announced, and
    // taken only when the person asks.
    let sw = site.join("sw.js");
    let old = std::fs::read_to_string(&sw)?;
    let Some(version) = old
        .lines()
        .find_map(|l| l.strip_prefix("const VERSION = '")?.strip_suffix("';"))
    else {
        bail!("sw.js names no version");
    };
    std::fs::write(&sw, old.replace(version, "next-version"))?;
    let _server = serve(site, port)?;
    page.client
        .goto(&format!("{base}/lab.html?lang=en"))
        .await?;
    page.until("the lab page", "document.body.dataset.ready === '1'")
        .await?;
    page.js("navigator.serviceWorker.getRegistration().then((r) => r.update()); return true;")
        .await?;
    page.until(
        "the new version announced",
        "document.getElementById('update-now') !== null",
    )
    .await?;
    let before = Instant::now();
    page.click("#update-now").await?;
    loop {
        let caches = page
            .client
            .execute_async("caches.keys().then(arguments[0]);", vec![])
            .await
            .unwrap_or_default();
        if caches == serde_json::json!(["xiangqi-next-version"]) {
            break;
        }
        if before.elapsed() > WAIT {
            bail!("after the update the caches are {caches}, not the new version's alone");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    lab_run(page).await
}

#[test]
#[cfg_attr(
    browser_missing,
    ignore = "Chromium or chromedriver not found (apt-get install chromium chromium-driver \
              fonts-wqy-microhei)"
)]
fn a_game_is_played_offline_and_kept_across_reloads() {
    let Some((driver, chrome)) = browser_or_skip() else {
        return;
    };
    let site = TempDir::new("site-play");
    if !build_site(&site.0) {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for (name, phone) in [("desktop", None), ("phone", Some((390, 844)))] {
        let profile = TempDir::new(&format!("site-play-{name}"));
        let shots = TempDir::new(&format!("site-play-files-{name}"));
        let run = async {
            let port = free_port();
            let server = serve(&site.0, port)?;
            let (_driver, driver_port) = start_driver(&driver)?;
            let client = connect_as(driver_port, &chrome, &profile.0, phone).await?;
            let page = Page {
                client: client.clone(),
                shots: shots.0.clone(),
            };
            if phone.is_none() {
                client.set_window_size(1280, 900).await?;
            }
            let result = play_offline(&page, port, server, phone.is_some()).await;
            let _ = client.close().await;
            result
        };
        runtime()
            .block_on(run)
            .unwrap_or_else(|e| panic!("playing on the static site ({name}): {e:#}"));
    }
}

/// The game the page shows, as the page's own back end (the worker) has it.
async fn site_game(page: &Page) -> Result<serde_json::Value> {
    Ok(page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             import(new URL('assets/js/api.js', location.href).href)
               .then((m) => m.api.get(document.body.dataset.gameId))
               .then(done, (e) => done({error: String(e)}));",
            vec![],
        )
        .await?)
}

/// Plays one legal move of the person's (the first of the worker's list) by tapping or
/// clicking its two points, and waits for the computer's answer.
async fn play_and_get_answer(page: &Page) -> Result<()> {
    let game = site_game(page).await?;
    let Some(mv) = game["legal"].get(0).and_then(|m| m.as_str()) else {
        bail!("no legal move for the person: {game}");
    };
    let plies = page.plies().await?;
    page.play(mv).await?;
    page.wait_plies(plies + 2).await
}

async fn play_offline(page: &Page, port: u16, server: Process, phone: bool) -> Result<()> {
    let base = format!("http://127.0.0.1:{port}");
    page.client.goto(&format!("{base}/?lang=en")).await?;
    // The page's layout asks for the pointer (coarse on a touch screen), never for the touch
    // points: Debian's Chromium 148 emulating a phone sometimes reports none
    // (navigator.maxTouchPoints 0) while its pointer is coarse.
    let screen = page
        .js("return [window.innerWidth, matchMedia('(pointer: coarse)').matches];")
        .await?;
    let want = if phone {
        serde_json::json!([390, true])
    } else {
        serde_json::json!([1280, false])
    };
    expect("the screen's width and pointer", screen, want)?;
    page.until(
        "the service worker in charge, the site kept",
        "navigator.serviceWorker.controller !== null && document.body.dataset.gameId",
    )
    .await?;
    drop(server);
    page.client.goto(&format!("{base}/?lang=en")).await?;
    page.until("the page, offline", "document.body.dataset.gameId")
        .await?;
    page.new_game_on_clock("red", 2, Some("3")).await?;
    let id = page.game_id().await?;
    for _ in 0..3 {
        play_and_get_answer(page).await?;
    }
    let game = site_game(page).await?;
    expect("the level", game["level"].clone(), serde_json::json!(2))?;
    expect("the moves", page.plies().await?, 6)?;
    // The moves (their times are kept to the second, as in a PGN's clock comments).
    let iccs = |game: &serde_json::Value| -> Vec<serde_json::Value> {
        game["moves"]
            .as_array()
            .map(|moves| moves.iter().map(|m| m["iccs"].clone()).collect())
            .unwrap_or_default()
    };
    let moves = iccs(&game);
    // Red (the person) thinks for 10 s, then the page is reloaded: the worker stores the
    // running clocks every 5 s, so at least 5 of those seconds stay used.
    let red_ms = |game: &serde_json::Value| game["clock"]["red"]["main_ms"].as_u64();
    let before = red_ms(&game);
    tokio::time::sleep(Duration::from_secs(10)).await;
    // Reloaded (offline still), the page finds the game where it was, its clock with it.
    page.client.goto(&format!("{base}/?lang=en")).await?;
    page.until(
        "the same game after a reload",
        &format!("document.body.dataset.gameId === '{id}'"),
    )
    .await?;
    page.wait_plies(6).await?;
    let again = site_game(page).await?;
    expect("the moves after a reload", iccs(&again), moves)?;
    if again["clock"].is_null() {
        bail!("the game lost its clock: {again}");
    }
    match (before, red_ms(&again)) {
        (Some(before), Some(after)) if after + 5_000 <= before => {}
        (before, after) => {
            bail!("Red's time of {before:?} ms is {after:?} ms after 10 s and a reload")
        }
    }
    play_and_get_answer(page).await?;
    if !phone {
        puzzle_offline(page, &base).await?;
        page.client.goto(&format!("{base}/?lang=en")).await?;
        page.until(
            "the game again",
            &format!("document.body.dataset.gameId === '{id}'"),
        )
        .await?;
        tour(page, &id).await?;
        pause_keeps_the_search(page).await?;
        let errors = page.js("return window.xiangqiErrors;").await?;
        expect("script errors on the page", errors, serde_json::json!([]))?;
        second_tab(page, &base).await?;
        return storage_of_the_first_version(page, &base).await;
    }
    let errors = page.js("return window.xiangqiErrors;").await?;
    expect("script errors on the page", errors, serde_json::json!([]))
}

/// A puzzle solved offline by clicking, judged by the page's own engine; the rating it gave
/// is still there after a reload.
async fn puzzle_offline(page: &Page, base: &str) -> Result<()> {
    let mate = super::puzzles::first_with(xiangqi_puzzles::Theme::MateIn(2));
    super::puzzles::open(page, base, mate).await?;
    super::puzzles::solve(page, mate).await?;
    page.until(
        "the rating after a solve",
        "Number(document.getElementById('puzzle-rating').textContent) > 1500",
    )
    .await?;
    let rating = page.text("#puzzle-rating").await?;
    page.client.refresh().await?;
    page.until("the puzzles again", "document.body.dataset.ready === '1'")
        .await?;
    expect(
        "the rating after a reload",
        page.text("#puzzle-rating").await?,
        rating,
    )
}

/// A second tab of the site leaves the games to the first, and says so; once the first is
/// closed, it takes them over.
async fn second_tab(page: &Page, base: &str) -> Result<()> {
    let first = page.client.window().await?;
    let shown = page.game_id().await?;
    let second = page.client.new_window(true).await?;
    page.client.switch_to_window(second.handle).await?;
    page.client.goto(&format!("{base}/?lang=en")).await?;
    page.until(
        "the other tab's notice",
        "!document.querySelector('#notice').hidden && /another tab/.test(document.querySelector('#notice').textContent)",
    )
    .await?;
    page.client.switch_to_window(first).await?;
    page.client.close_window().await?;
    let handles = page.client.windows().await?;
    let Some(left) = handles.into_iter().next() else {
        bail!("no window is left");
    };
    page.client.switch_to_window(left).await?;
    page.client.goto(&format!("{base}/?lang=en")).await?;
    page.until(
        "the games in the second tab",
        &format!("document.body.dataset.gameId === '{shown}'"),
    )
    .await
}

/// Runs `script` on the site's database as it stands (`db`), answering with `done(…)`.
async fn with_storage(page: &Page, script: &str) -> Result<serde_json::Value> {
    let script = format!(
        "const done = arguments[arguments.length - 1];
         const open = indexedDB.open('xiangqi');
         open.onerror = () => done(String(open.error));
         open.onsuccess = () => {{ const db = open.result; {script} }};"
    );
    Ok(page.client.execute_async(&script, vec![]).await?)
}

/// Games a browser kept in the site's first storage version (the games' store alone, before
/// the puzzles' store came in version 2) are all there when the site opens that storage: the
/// database is upgraded in place, the puzzles' store added.
async fn storage_of_the_first_version(page: &Page, base: &str) -> Result<()> {
    let shown = page.game_id().await?;
    let games = listed(page).await?;
    // The stored records, as they are.
    let records = with_storage(
        page,
        "const all = db.transaction('games').objectStore('games').getAll();
         all.onerror = () => done(String(all.error));
         all.onsuccess = () => { db.close(); done(all.result); };",
    )
    .await?;
    if records.as_array().is_none_or(Vec::is_empty) {
        bail!("no stored games to carry over: {records}");
    }
    // Away from the site's page (its workers close the database), the database is made again
    // as the first version made it, with the same records.
    page.client
        .goto(&format!("{base}/manifest.webmanifest"))
        .await?;
    let made = page
        .client
        .execute_async(
            "const [records, done] = arguments;
             const gone = indexedDB.deleteDatabase('xiangqi');
             gone.onerror = () => done(String(gone.error));
             gone.onsuccess = () => {
               const open = indexedDB.open('xiangqi', 1);
               open.onupgradeneeded = () => {
                 const store = open.result.createObjectStore('games', { keyPath: 'id' });
                 for (const record of records) store.put(record);
               };
               open.onerror = () => done(String(open.error));
               open.onsuccess = () => { open.result.close(); done('made'); };
             };",
            vec![records],
        )
        .await?;
    expect(
        "the first version's storage",
        made,
        serde_json::json!("made"),
    )?;
    page.client.goto(&format!("{base}/?lang=en")).await?;
    page.until(
        "the game, from the first version's storage",
        &format!("document.body.dataset.gameId === '{shown}'"),
    )
    .await?;
    expect("the games listed", listed(page).await?, games)?;
    let upgraded = with_storage(
        page,
        "done([db.version, Array.from(db.objectStoreNames)]); db.close();",
    )
    .await?;
    expect(
        "the storage after the upgrade",
        upgraded,
        serde_json::json!([2, ["games", "puzzles"]]),
    )
}

/// The rest of what the page does, offline on the static site: a hint, the engine's analysis,
/// undo, the PGN file, resigning and the review, a loaded PGN file, the games list.
async fn tour(page: &Page, id: &str) -> Result<()> {
    page.click("#hint").await?;
    page.until(
        "the hint arrow",
        "document.querySelector('#board .hint-arrow') !== null",
    )
    .await?;
    page.click("#analysis-toggle").await?;
    page.until(
        "analysis to depth 6",
        "parseInt((document.querySelector('#an-depth').textContent.match(/\\d+/) || ['0'])[0]) >= 6",
    )
    .await?;
    // Served by the service worker, the page is cross-origin isolated and the engine searches
    // on a thread per core (the module built for threads, with helper workers), and says so.
    let threads = page
        .js(
            "return [self.crossOriginIsolated, Math.min(navigator.hardwareConcurrency, 16), \
             Number(document.documentElement.dataset.engineThreads), \
             document.querySelector('#an-nps').textContent];",
        )
        .await?;
    let cores = threads[1].as_u64().unwrap_or(1);
    let shown = threads[3].as_str().unwrap_or("");
    if threads[0] != true
        || threads[2].as_u64() != Some(cores)
        || (cores > 1 && !shown.contains(&format!("({cores} threads)")))
    {
        bail!("isolated, cores, the engine's threads, the speed shown: {threads}");
    }
    // Stopping the analysis writes the stop into the engine's shared memory: the engine worker
    // (its table and helpers) stays for the searches after it, up to the review's (below).
    let starts = "return Number(document.documentElement.dataset.engineStarts);";
    let before = page.js(starts).await?;
    page.click("#analysis-toggle").await?;
    let plies = page.plies().await?;
    page.click("#undo").await?;
    page.wait_plies(plies - 2).await?;

    // The PGN link makes the file in the page.
    page.js(
        "window.savedFile = null;
         const make = URL.createObjectURL;
         URL.createObjectURL = (blob) => { blob.text().then((t) => { window.savedFile = t; }); return make(blob); };
         return true;",
    )
    .await?;
    page.click("#save-pgn").await?;
    page.until("the saved file", "window.savedFile !== null")
        .await?;
    let pgn = page.js("return window.savedFile;").await?;
    let pgn = pgn.as_str().unwrap_or("");
    if !(pgn.contains("[Game \"Chinese Chess\"]") && pgn.contains("TimeControl")) {
        bail!("the saved PGN lacks the game: {pgn}");
    }

    page.click("#resign").await?;
    page.click("#confirm-yes").await?;
    page.until(
        "the end dialog",
        "document.querySelector('#end-dialog').open",
    )
    .await?;
    page.click("#end-review").await?;
    page.until(
        "the review",
        "!document.querySelector('#review-panel').hidden && /done/.test(document.querySelector('#review-progress').textContent)",
    )
    .await?;
    expect(
        "engine workers started since the analysis was stopped",
        page.js(starts).await?,
        before,
    )?;

    // A loaded PGN file (GBK), then the list has both games.
    let text = "[Game \"Chinese Chess\"]\r\n\r\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\r\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(text);
    let folder = TempDir::new("site-file");
    let file = folder.0.join("game.pgn");
    std::fs::write(&file, &gbk)?;
    page.client
        .find(fantoccini::Locator::Css("#pgn-file"))
        .await?
        .send_keys(&file.display().to_string())
        .await?;
    page.until(
        "the loaded game",
        &format!(
            "document.body.dataset.gameId !== '{id}' && document.querySelectorAll('#moves > li[data-ply]').length === 4"
        ),
    )
    .await?;
    let list = listed(page).await?;
    if list.as_u64().is_none_or(|n| n < 2) {
        bail!("the games list: {list}");
    }

    // A record in storage that is no game is said, left alone, and harms nothing else.
    let shown = page.game_id().await?;
    let stored = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const open = indexedDB.open('xiangqi');
             open.onsuccess = () => {
               const tx = open.result.transaction('games', 'readwrite');
               tx.objectStore('games').put({ id: 'broken-1', pgn: 'not a game', updated: 0 });
               tx.oncomplete = () => done(true);
               tx.onerror = () => done(String(tx.error));
             };
             open.onerror = () => done(String(open.error));",
            vec![],
        )
        .await?;
    expect("a broken record stored", stored, serde_json::json!(true))?;
    page.client.refresh().await?;
    page.until(
        "the note about the broken record",
        "!document.querySelector('#notice').hidden && /1 stored game could not be read/.test(document.querySelector('#notice').textContent)",
    )
    .await?;
    page.until(
        "the game after the note",
        &format!("document.body.dataset.gameId === '{shown}'"),
    )
    .await
}

/// One request of the page's API to its worker, from the page.
async fn site_api(page: &Page, call: &str) -> Result<serde_json::Value> {
    Ok(page
        .client
        .execute_async(
            &format!(
                "const done = arguments[arguments.length - 1];
                 import(new URL('assets/js/api.js', location.href).href)
                   .then((m) => m.api.{call})
                   .then(done, (e) => done({{error: String(e)}}));"
            ),
            vec![],
        )
        .await?)
}

/// On an isolated page, pausing the clock while the computer thinks pauses its search in the
/// engine's shared memory: no move comes during the pause, nothing of the search is lost, no
/// engine worker is started again, and after Resume its move follows.
async fn pause_keeps_the_search(page: &Page) -> Result<()> {
    // Red, the computer at full strength, to move out of its book, on a one-minute clock.
    let created = site_api(
        page,
        "create({human: 'black', level: 10, \
         fen: 'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w', \
         clock: {red: {minutes: 1}, black: {minutes: 1}}})",
    )
    .await?;
    let Some(id) = created["id"].as_str() else {
        bail!("the game was not made: {created}");
    };
    let get = format!("get('{id}')");
    let depth = |game: &serde_json::Value| game["analysis"]["depth"].as_u64().unwrap_or(0);
    let started = Instant::now();
    loop {
        let game = site_api(page, &get).await?;
        if depth(&game) >= 8 {
            break;
        }
        if started.elapsed() > WAIT || game["moves"].as_array().is_some_and(|m| !m.is_empty()) {
            bail!("the computer's search at depth 8: {game}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let starts = "return Number(document.documentElement.dataset.engineStarts);";
    let before = page.js(starts).await?;
    let paused = site_api(page, &format!("action('{id}', 'pause')")).await?;
    let at_pause = depth(&paused);
    if paused["clock"]["paused"] != true || at_pause < 8 {
        bail!("paused at depth 8 or more: {paused}");
    }
    // Its optimum on a one-minute clock is under two seconds: paused for longer, it waits.
    tokio::time::sleep(Duration::from_millis(3_000)).await;
    let still = site_api(page, &get).await?;
    if still["moves"].as_array().is_none_or(|m| !m.is_empty()) {
        bail!("the computer moved while paused: {still}");
    }
    let resumed = site_api(page, &format!("action('{id}', 'resume')")).await?;
    if depth(&resumed) < at_pause {
        bail!("the search's work was thrown away (depth {at_pause} at the pause): {resumed}");
    }
    let started = Instant::now();
    loop {
        let game = site_api(page, &get).await?;
        if game["moves"].as_array().is_some_and(|m| m.len() == 1) {
            break;
        }
        if started.elapsed() > WAIT {
            bail!("no move after Resume: {game}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    expect(
        "engine workers started for the paused search",
        page.js(starts).await?,
        before,
    )?;
    site_api(page, &format!("remove('{id}')")).await?;
    Ok(())
}

/// The number of games the page's worker lists.
async fn listed(page: &Page) -> Result<serde_json::Value> {
    Ok(page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             import(new URL('assets/js/api.js', location.href).href)
               .then((m) => m.api.list()).then((l) => done(l.length), (e) => done(String(e)));",
            vec![],
        )
        .await?)
}
