//! The web GUI in a real Chromium, driven through chromedriver: a person's games from start to
//! end, as they click, and (in `browser/promises.rs`) one promise of the page per test, each in
//! a browser and on a server of its own. Needs `chromium` and `chromedriver` (Debian: `chromium`,
//! `chromium-driver`, and `fonts-wqy-microhei` for the Chinese glyphs). Without them the test
//! is reported as ignored, with the reason (`build.rs` looks for them), except under CI (env
//! `CI` set), where it fails.
//!
//! With `XIANGQI_SCREENSHOTS` set, the screenshots go to `docs/screenshots/` (for the README);
//! otherwise to a temporary folder.

use anyhow::{anyhow, bail, Context, Result};
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A browser test of its own: `fn name(page) { … }` or `fn name(page, url) { … }`, run by
/// [`in_browser`] with `page: &Page` and the server's address `url: &String`.
macro_rules! browser_test {
    ($(#[$attr:meta])* fn $name:ident($page:ident $(, $url:ident)?) $body:block) => {
        $(#[$attr])*
        #[test]
        #[cfg_attr(
            browser_missing,
            ignore = "Chromium or chromedriver not found (apt-get install chromium \
                      chromium-driver fonts-wqy-microhei)"
        )]
        fn $name() {
            $crate::in_browser(stringify!($name), |page: $crate::Page, url: String| async move {
                let $page = &page;
                $(let $url = &url;)?
                let _ = &url;
                $body
            });
        }
    };
}

#[path = "browser/promises.rs"]
mod promises;

#[path = "browser/study.rs"]
mod study;

#[path = "browser/site.rs"]
mod site;

#[path = "browser/speed.rs"]
mod speed;

#[path = "browser/pieces.rs"]
mod pieces;

#[path = "browser/puzzles.rs"]
mod puzzles;

/// Fails the scenario (closing the browser properly) unless `got == want`.
fn expect<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<()> {
    if got != want {
        bail!("{what}: got {got:?}, want {want:?}");
    }
    Ok(())
}

/// Waits are generous: CI machines are shared, and the engine thinks on the same cores.
const WAIT: Duration = Duration::from_secs(30);

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn which(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// chromedriver and the browser, from `CHROMEDRIVER` / `CHROME` or the PATH.
fn find_browser() -> Option<(PathBuf, PathBuf)> {
    let driver = std::env::var_os("CHROMEDRIVER")
        .map(PathBuf::from)
        .or_else(|| which(&["chromedriver"]))?;
    let chrome = std::env::var_os("CHROME")
        .map(PathBuf::from)
        .or_else(|| which(&["chromium", "chromium-browser", "google-chrome", "chrome"]))?;
    Some((driver, chrome))
}

/// A child process killed when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `xiangqi serve` on a port, with a data directory.
fn start_server(data_dir: &Path, port: Option<u16>) -> Result<(Process, String)> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_xiangqi"));
    command
        .args(["serve", "--no-open", "--data-dir"])
        .arg(data_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if let Some(port) = port {
        command.args(["--port", &port.to_string()]);
    }
    let mut child = command.spawn().context("starting xiangqi serve")?;
    let stdout = child.stdout.take().context("server stdout")?;
    let process = Process(child);
    let mut line = String::new();
    let mut reader = BufReader::new(stdout);
    reader.read_line(&mut line)?;
    // Keep reading, so that the server never writes into a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| anyhow!("no URL in the server's first line {line:?}"))?
        .to_owned();
    Ok((process, url))
}

/// Waits until something listens on `port` (`what`, for the error).
fn wait_for_port(port: u16, what: &str) -> Result<()> {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(20) {
            bail!("{what} did not start listening");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

fn start_driver(driver: &Path) -> Result<(Process, u16)> {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting chromedriver")?;
    let process = Process(child);
    wait_for_port(port, "chromedriver")?;
    Ok((process, port))
}

async fn connect(port: u16, chrome: &Path, profile: &Path) -> Result<Client> {
    connect_as(port, chrome, profile, None).await
}

/// A browser session; with `phone` (width and height), Chromium emulates a phone of that size
/// with a touch screen.
async fn connect_as(
    port: u16,
    chrome: &Path,
    profile: &Path,
    phone: Option<(u32, u32)>,
) -> Result<Client> {
    let mut caps = serde_json::Map::new();
    let mut options = json!({
        "binary": chrome,
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
            format!("--user-data-dir={}", profile.display()),
        ],
    });
    if let Some((width, height)) = phone {
        options["mobileEmulation"] = json!({
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0, "touch": true},
        });
    }
    caps.insert("goog:chromeOptions".into(), options);
    // Extra switches for a measurement (`XIANGQI_CHROME_ARGS="--js-flags=…"`).
    if let Some(extra) = std::env::var_os("XIANGQI_CHROME_ARGS") {
        let args = caps["goog:chromeOptions"]["args"]
            .as_array_mut()
            .expect("args");
        for arg in extra.to_string_lossy().split_whitespace() {
            args.push(json!(arg));
        }
    }
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    Ok(ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await?)
}

#[derive(Clone)]
struct Page {
    client: Client,
    shots: PathBuf,
}

impl Page {
    async fn js(&self, script: &str) -> Result<Value> {
        Ok(self.client.execute(script, vec![]).await?)
    }

    /// Waits until the JavaScript expression is true.
    async fn until(&self, what: &str, expr: &str) -> Result<()> {
        let start = Instant::now();
        let script = format!("return Boolean({expr});");
        loop {
            if self.js(&script).await.ok() == Some(Value::Bool(true)) {
                return Ok(());
            }
            if start.elapsed() > WAIT {
                let status = self.text("#status").await.unwrap_or_default();
                let shot = self.shots.join("failure.png");
                if let Ok(png) = self.client.screenshot().await {
                    let _ = std::fs::write(&shot, png);
                }
                bail!(
                    "timed out waiting for {what} ({expr}); status: {status:?}; screenshot {}",
                    shot.display()
                );
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    async fn click(&self, css: &str) -> Result<()> {
        // The page redraws parts of itself as the engine reports; try again if the element
        // was replaced between finding and clicking it.
        let mut tries = 0;
        loop {
            let clicked = async {
                self.client.find(Locator::Css(css)).await?.click().await?;
                Ok::<(), fantoccini::error::CmdError>(())
            }
            .await;
            match clicked {
                Ok(()) => return Ok(()),
                Err(e) if tries < 3 && e.to_string().contains("stale") => tries += 1,
                Err(e) => return Err(e).with_context(|| format!("clicking {css}")),
            }
        }
    }

    async fn point(&self, square: &str) -> Result<()> {
        self.click(&format!("[data-square='{square}']")).await
    }

    async fn play(&self, mv: &str) -> Result<()> {
        self.point(&mv[..2]).await?;
        self.point(&mv[2..]).await
    }

    /// Drags the piece on `from` to `to` with the mouse.
    async fn drag(&self, from: &str, to: &str) -> Result<()> {
        let find = |sq: String| async move {
            self.client
                .find(Locator::Css(&format!("#board [data-square='{sq}']")))
                .await
        };
        let (a, b) = (find(from.to_owned()).await?, find(to.to_owned()).await?);
        let step = Some(Duration::from_millis(150));
        let mouse = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement {
                element: a,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveBy {
                duration: step,
                x: 10.0,
                y: 10.0,
            })
            .then(PointerAction::MoveToElement {
                element: b,
                duration: step,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client.perform_actions(mouse).await?;
        self.client.release_actions().await?;
        Ok(())
    }

    /// A screenshot for the README: written to `docs/screenshots/` only when
    /// `XIANGQI_SCREENSHOTS` is set (as the main scenario's are).
    async fn readme_shot(&self, name: &str) -> Result<()> {
        if std::env::var_os("XIANGQI_SCREENSHOTS").is_some() {
            self.until(
                "the notice to go",
                "document.querySelector('#notice').hidden",
            )
            .await?;
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
            std::fs::write(dir.join(name), self.client.screenshot().await?)?;
        }
        Ok(())
    }

    /// A screenshot for looking at, written only when `XIANGQI_DEBUG_SHOTS` names a folder.
    async fn debug_shot(&self, name: &str) -> Result<()> {
        if let Some(dir) = std::env::var_os("XIANGQI_DEBUG_SHOTS") {
            std::fs::write(Path::new(&dir).join(name), self.client.screenshot().await?)?;
        }
        Ok(())
    }

    /// Chooses `value` in the `<select>` at `css`.
    async fn select(&self, css: &str, value: &str) -> Result<()> {
        self.client
            .find(Locator::Css(css))
            .await?
            .select_by_value(value)
            .await
            .with_context(|| format!("choosing {value} in {css}"))
    }

    /// Replaces the text of the field at `css` with `text`.
    async fn type_into(&self, css: &str, text: &str) -> Result<()> {
        let field = self.client.find(Locator::Css(css)).await?;
        field.clear().await?;
        field.send_keys(text).await?;
        Ok(())
    }

    async fn text(&self, css: &str) -> Result<String> {
        Ok(self.client.find(Locator::Css(css)).await?.text().await?)
    }

    async fn plies(&self) -> Result<u64> {
        Ok(self
            .js("return document.querySelectorAll('#moves > li[data-ply]').length;")
            .await?
            .as_u64()
            .unwrap_or(0))
    }

    async fn wait_plies(&self, n: u64) -> Result<()> {
        self.until(
            &format!("{n} moves in the list"),
            &format!("document.querySelectorAll('#moves > li[data-ply]').length === {n} && document.body.dataset.job !== 'computer'"),
        )
        .await
    }

    async fn game_id(&self) -> Result<String> {
        Ok(self
            .js("return document.body.dataset.gameId || '';")
            .await?
            .as_str()
            .unwrap_or("")
            .to_owned())
    }

    /// The person's legal moves, as the server lists them.
    async fn legal(&self) -> Result<Vec<String>> {
        let value = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 fetch('/api/games/' + document.body.dataset.gameId)
                   .then(r => r.json()).then(g => done(g.legal), e => done([]));",
                vec![],
            )
            .await?;
        Ok(serde_json::from_value(value)?)
    }

    /// Plays the first of `preferred` that is legal, else the first legal move.
    async fn play_any(&self, preferred: &[&str]) -> Result<String> {
        let legal = self.legal().await?;
        let mv = preferred
            .iter()
            .map(|m| m.to_string())
            .find(|m| legal.contains(m))
            .or_else(|| legal.first().cloned())
            .ok_or_else(|| anyhow!("no legal move"))?;
        self.play(&mv).await?;
        Ok(mv)
    }

    async fn screenshot(&self, name: &str) -> Result<()> {
        self.until(
            "the notice to go",
            "document.querySelector('#notice').hidden",
        )
        .await?;
        let png = self.client.screenshot().await?;
        std::fs::write(self.shots.join(name), png)?;
        Ok(())
    }

    async fn new_game(&self, side: &str, level: u8) -> Result<()> {
        self.new_game_on_clock(side, level, None).await
    }

    /// A new game; on a custom clock of `minutes` of game time each when given.
    async fn new_game_on_clock(&self, side: &str, level: u8, minutes: Option<&str>) -> Result<()> {
        let before = self.game_id().await?;
        self.click("#new-game").await?;
        let preset = if minutes.is_some() { "custom" } else { "none" };
        self.select("#tc-preset", preset).await?;
        if let Some(minutes) = minutes {
            self.type_into("#tc-minutes", minutes).await?;
        }
        self.click(&format!("input[name=side][value={side}]"))
            .await?;
        self.select("#new-level", &level.to_string()).await?;
        self.click("#start-game").await?;
        self.until(
            "a new game",
            &format!("document.body.dataset.gameId && document.body.dataset.gameId !== '{before}'"),
        )
        .await
    }
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("xiangqi-browser-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// chromedriver and the browser; `None` (with a note) when they are missing, a failure under CI.
fn browser_or_skip() -> Option<(PathBuf, PathBuf)> {
    let found = find_browser();
    if found.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("CI is set but chromium/chromedriver were not found: install chromium and chromium-driver");
        }
        eprintln!("note: skipping the browser test: chromium or chromedriver not found");
    }
    found
}

/// Browser tests run one at a time: each drives its own Chromium and server, and the engine
/// shares the same cores.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
#[cfg_attr(
    browser_missing,
    ignore = "Chromium or chromedriver not found (apt-get install chromium chromium-driver \
              fonts-wqy-microhei)"
)]
fn a_person_plays_in_the_browser() {
    let Some((driver, chrome)) = browser_or_skip() else {
        return;
    };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    runtime()
        .block_on(session(&driver, &chrome))
        .unwrap_or_else(|e| panic!("{e:#}"));
    eprintln!("browser test took {:.1} s", started.elapsed().as_secs_f64());
}

/// Runs `scenario` with the page open in English on a server of its own (a fresh data folder),
/// its first game shown. The scenario gets the page and the server's address.
fn in_browser<F, Fut>(name: &str, scenario: F)
where
    F: FnOnce(Page, String) -> Fut,
    Fut: std::future::Future<Output = Result<()>>,
{
    in_browser_with_data(name, |_| {}, scenario);
}

/// [`in_browser`], with `prepare` filling the server's data directory before it starts.
fn in_browser_with_data<P, F, Fut>(name: &str, prepare: P, scenario: F)
where
    P: FnOnce(&Path),
    F: FnOnce(Page, String) -> Fut,
    Fut: std::future::Future<Output = Result<()>>,
{
    let Some((driver, chrome)) = browser_or_skip() else {
        return;
    };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let run = async {
        let data = TempDir::new(&format!("{name}-data"));
        prepare(&data.0);
        let profile = TempDir::new(&format!("{name}-profile"));
        let files = TempDir::new(&format!("{name}-files"));
        let (_server, url) = start_server(&data.0, None)?;
        let (_driver, port) = start_driver(&driver)?;
        let client = connect(port, &chrome, &profile.0).await?;
        let page = Page {
            client: client.clone(),
            shots: files.0.clone(),
        };
        let result = async {
            page.client.set_window_size(1280, 900).await?;
            page.client.goto(&format!("{url}?lang=en")).await?;
            page.until(
                "the first game",
                "document.body.dataset.gameId && document.querySelectorAll('#board [data-piece]').length === 32",
            )
            .await?;
            scenario(page.clone(), url).await?;
            let errors = page.js("return window.xiangqiErrors || [];").await?;
            expect("script errors on the page", errors, json!([]))
        }
        .await;
        let _ = client.close().await;
        result
    };
    runtime()
        .block_on(run)
        .unwrap_or_else(|e| panic!("{name}: {e:#}"));
}

async fn session(driver: &Path, chrome: &Path) -> Result<()> {
    let data = TempDir::new("data");
    let profile = TempDir::new("profile");
    let tmp = TempDir::new("files");
    let shots = match std::env::var_os("XIANGQI_SCREENSHOTS") {
        Some(_) => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots"),
        None => tmp.0.clone(),
    };
    std::fs::create_dir_all(&shots)?;
    let (server, url) = start_server(&data.0, None)?;
    let (_driver, driver_port) = start_driver(driver)?;
    let client = connect(driver_port, chrome, &profile.0).await?;
    let page = Page { client, shots };
    let result = scenario(&page, server, &url, &data.0, &tmp.0).await;
    let _ = page.client.clone().close().await;
    result
}

async fn scenario(page: &Page, server: Process, url: &str, data: &Path, tmp: &Path) -> Result<()> {
    page.client.set_window_size(1280, 900).await?;
    page.client.goto(&format!("{url}?lang=en")).await?;
    page.until(
        "the first game",
        "document.body.dataset.gameId && document.querySelectorAll('[data-square]').length === 90",
    )
    .await?;
    page.until(
        "32 pieces",
        "document.querySelectorAll('#board [data-piece]').length === 32",
    )
    .await?;
    page.screenshot("start.png").await?;

    // A game as Red at level 1: move by clicks, the computer answers.
    page.new_game("red", 1).await?;
    page.wait_plies(0).await?;
    page.play("h2e2").await?;
    page.wait_plies(2).await?;
    let first = page.text("#moves > li[data-ply='1'] .mv").await?;
    expect("the first move", first.as_str(), "炮二平五")?;
    page.until(
        "the player's turn",
        "document.querySelector('#status').dataset.turn === 'red'",
    )
    .await?;

    // An illegal move is refused with a reason.
    page.play("a0a5").await?;
    page.until("a refusal", "!document.querySelector('#notice').hidden && /blocked/.test(document.querySelector('#notice').textContent)").await?;
    expect("moves after a refused one", page.plies().await?, 2)?;

    // Undo takes back both moves.
    page.click("#undo").await?;
    page.wait_plies(0).await?;

    // Flip turns the board round.
    let y = |sq: &str| {
        format!("document.querySelector(\"[data-square='{sq}']\").getBoundingClientRect().y")
    };
    page.until("Red at the bottom", &format!("{} > {}", y("e0"), y("e9")))
        .await?;
    page.click("#flip").await?;
    page.until(
        "Red at the top",
        &format!(
            "{} < {} && document.querySelector('#board').dataset.flipped === 'true'",
            y("e0"),
            y("e9")
        ),
    )
    .await?;
    page.click("#flip").await?;

    // The opening book's moves for the start position, with their shares; clickable on the
    // person's turn.
    page.until(
        "the opening book",
        "document.querySelectorAll('#book-moves .book-move.playable').length >= 3 \
         && !document.querySelector('#book-panel').hidden \
         && [...document.querySelectorAll('#book-moves .mv')].some((m) => m.textContent === '炮二平五')",
    )
    .await?;

    // A hint is drawn as an arrow, and named in the notation chosen (WXF here, `C2.5`).
    page.select("#notation", "wxf").await?;
    page.click("#hint").await?;
    page.until(
        "the hint arrow",
        "document.querySelector('#board .hint-arrow') !== null",
    )
    .await?;
    page.until(
        "the hint named in WXF",
        "/[A-Z][1-9][.+-][1-9]$/.test(document.querySelector('#notice').textContent)",
    )
    .await?;
    page.select("#notation", "chinese").await?;

    // The keyboard: Tab to the board, arrows move the cursor from e0, Enter picks up and puts
    // down (h2e2).
    let board = page.client.find(Locator::Css("#board")).await?;
    board
        .send_keys(
            "\u{E014}\u{E014}\u{E014}\u{E013}\u{E013}\u{E007}\u{E012}\u{E012}\u{E012}\u{E007}",
        )
        .await?;
    page.wait_plies(2).await?;
    expect(
        "the keyboard move",
        page.text("#moves > li[data-ply='1'] .mv").await?.as_str(),
        "炮二平五",
    )?;

    // A few more moves with the engine's thinking shown.
    page.click("#analysis-toggle").await?;
    let mut plies = 2;
    for prefs in [["h0g2", "b0c2"], ["i0h0", "a0b0"]] {
        page.play_any(&prefs).await?;
        plies += 2;
        page.wait_plies(plies).await?;
    }
    page.until("analysis to depth 6", "parseInt((document.querySelector('#an-depth').textContent.match(/\\d+/) || ['0'])[0]) >= 6 && document.querySelector('#pv').textContent.length > 0").await?;
    page.screenshot("game.png").await?;
    // Three lines: listed under the first, and three arrows on the board.
    page.select("#analysis-lines", "3").await?;
    page.until(
        "three lines and their arrows",
        "document.querySelectorAll('#pv-lines .pv-line').length === 2 \
         && document.querySelectorAll('.marks-over .line-arrow').length === 3",
    )
    .await?;
    page.screenshot("lines.png").await?;
    page.select("#analysis-lines", "1").await?;
    page.until(
        "one line again",
        "document.querySelectorAll('.marks-over .line-arrow').length <= 1",
    )
    .await?;
    page.click("#analysis-toggle").await?;

    // Browsing: clicking a move shows that position, the game stays where it is.
    page.click("#moves > li[data-ply='1']").await?;
    page.until(
        "the first position",
        "/Viewing 1\\. of/.test(document.querySelector('#status').textContent)",
    )
    .await?;
    page.click("#last").await?;
    page.until(
        "the current position",
        "!/Viewing/.test(document.querySelector('#status').textContent)",
    )
    .await?;

    // Save: the PGN link serves the game.
    let id = page.game_id().await?;
    let pgn = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(document.querySelector('#save-pgn').href).then(r => r.text()).then(done);",
            vec![],
        )
        .await?;
    let pgn = pgn.as_str().unwrap_or("");
    if !(pgn.contains("[Game \"Chinese Chess\"]") && pgn.contains("炮二平五")) {
        bail!("the saved PGN lacks the game: {pgn}");
    }

    // Reload: the same game comes back.
    page.client.refresh().await?;
    page.until(
        "the game after a reload",
        &format!("document.body.dataset.gameId === '{id}'"),
    )
    .await?;
    page.wait_plies(plies).await?;

    // Server restart on the same port and data: the same game comes back.
    let port: u16 = url
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap_or("")
        .parse()?;
    drop(server);
    let (server, _) = start_server(data, Some(port))?;
    page.client.refresh().await?;
    page.until(
        "the game after a restart",
        &format!("document.body.dataset.gameId === '{id}'"),
    )
    .await?;
    page.wait_plies(plies).await?;

    // Load a GBK PGN file.
    let text = "[Game \"Chinese Chess\"]\r\n[Red \"许银川\"]\r\n[Black \"吕钦\"]\r\n\r\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\r\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(text);
    let file = tmp.join("game.pgn");
    std::fs::write(&file, &gbk)?;
    page.client
        .find(Locator::Css("#pgn-file"))
        .await?
        .send_keys(&file.display().to_string())
        .await?;
    page.until("the loaded game", &format!("document.body.dataset.gameId !== '{id}' && document.querySelectorAll('#moves > li[data-ply]').length === 4")).await?;
    expect(
        "the loaded game's 4th move",
        page.text("#moves > li[data-ply='4'] .mv").await?.as_str(),
        "车９平８",
    )?;

    // The position editor: an impossible position is refused with a reason, then a legal one
    // is analysed with both sides moved by hand: a check, then mate.
    page.click("#editor-btn").await?;
    page.click("#editor-clear").await?;
    // Clear leaves the two generals, not facing each other: a legal position, but a game
    // from it would be drawn at once.
    page.until(
        "the bare generals after Clear",
        "/no attacking pieces/.test(document.querySelector('#editor-status').textContent)",
    )
    .await?;
    page.click("#palette [data-tool='']").await?;
    page.click("#editor-board [data-point='d9']").await?;
    page.click("#palette [data-tool='k']").await?;
    page.click("#editor-board [data-point='e9']").await?;
    page.until(
        "a reason for the impossible position",
        "/face/.test(document.querySelector('#editor-status').textContent)",
    )
    .await?;
    page.click("#palette [data-tool='']").await?;
    page.click("#editor-board [data-point='e9']").await?;
    page.click("#palette [data-tool='k']").await?;
    page.click("#editor-board [data-point='d9']").await?;
    page.click("#palette [data-tool='R']").await?;
    page.click("#editor-board [data-point='a8']").await?;
    page.click("#editor-board [data-point='b0']").await?;
    page.until(
        "a legal position",
        "document.querySelector('#editor-status').classList.contains('ok')",
    )
    .await?;
    page.click("#editor-analyse").await?;
    page.until("the edited game", "document.querySelectorAll('#board [data-piece]').length === 4 && document.querySelectorAll('#moves > li[data-ply]').length === 0").await?;
    let shown = "Number(document.querySelector('#check-banner').dataset.shown || 0)";
    let before = page.js(&format!("return {shown};")).await?;
    page.play("a8a9").await?;
    page.until("the check notice", &format!("document.querySelector('#status').dataset.check === 'true' && /Check/.test(document.querySelector('#status').textContent) && {shown} > {before}")).await?;
    page.click("#undo").await?;
    page.wait_plies(0).await?;
    page.play("b0b9").await?;
    page.until("the end dialog", "document.querySelector('#end-dialog').open && /checkmate/.test(document.querySelector('#end-reason').textContent)").await?;
    expect(
        "the end title",
        page.text("#end-title").await?.as_str(),
        "Red wins",
    )?;
    page.until(
        "the result in the status",
        "document.querySelector('#status').dataset.result === '1-0'",
    )
    .await?;
    page.click("#end-review").await?;
    page.until("the review", "!document.querySelector('#review-panel').hidden && /done/.test(document.querySelector('#review-progress').textContent)").await?;
    page.debug_shot("review.png").await?;

    // Playing Black against the computer, which opens.
    page.new_game("black", 1).await?;
    page.wait_plies(1).await?;
    page.until(
        "Black at the bottom",
        "document.querySelector('#board').dataset.flipped === 'true'",
    )
    .await?;
    // This time by dragging the piece.
    let legal = page.legal().await?;
    let mv = ["h7e7", "b7e7", "h9g7", "b9c7"]
        .into_iter()
        .find(|m| legal.iter().any(|l| l == m))
        .ok_or_else(|| anyhow!("none of the usual answers is legal: {legal:?}"))?;
    page.drag(&mv[..2], &mv[2..]).await?;
    page.wait_plies(3).await?;
    expect(
        "the second move's ply",
        page.js("return document.querySelector('#moves > li:nth-child(2)').dataset.ply;")
            .await?,
        json!("2"),
    )?;

    // A whole game pasted as PGN, finished by the player's mating move: the end dialog, then
    // the review.
    page.click("#fen-pgn").await?;
    page.client
        .find(Locator::Css("#paste-in"))
        .await?
        .send_keys(&game_pgn())
        .await?;
    page.click("#paste-go").await?;
    page.until("the pasted game", "document.querySelectorAll('#moves > li[data-ply]').length === 94 && !document.querySelector('#fen-dialog').open").await?;
    page.play("e6f6").await?;
    page.until(
        "the end dialog",
        "document.querySelector('#end-dialog').open",
    )
    .await?;
    page.screenshot("end.png").await?;
    expect(
        "the end title",
        page.text("#end-title").await?.as_str(),
        "You win!",
    )?;
    page.click("#end-close").await?;

    // The dialogs, for a look.
    page.click("#games-btn").await?;
    page.until(
        "the games list",
        "document.querySelectorAll('#games-list li').length >= 5",
    )
    .await?;
    page.debug_shot("games.png").await?;
    page.click("#games-dialog button[value=close]").await?;
    page.click("#fen-pgn").await?;
    page.until(
        "the PGN",
        "document.querySelector('#pgn-out').value.includes('1-0')",
    )
    .await?;
    page.debug_shot("fen.png").await?;
    page.click("#fen-dialog button[value=close]").await?;
    page.click("#new-game").await?;
    page.debug_shot("new-game.png").await?;
    page.click("#new-game-dialog button[value=cancel]").await?;

    // Two people at one board on a half-minute clock: the clocks tick, survive a reload, and the
    // side that does not move loses on time.
    page.new_game_on_clock("both", 1, Some("0.5")).await?;
    page.until(
        "the clocks",
        "!document.querySelector('#clock-red').hidden && document.querySelector('#clock-red').classList.contains('running')",
    )
    .await?;
    page.play_any(&["h2e2"]).await?;
    page.wait_plies(1).await?;
    page.play_any(&["h9g7"]).await?;
    page.wait_plies(2).await?;
    let ms =
        |side: &str| format!("return Number(document.querySelector('#clock-{side}').dataset.ms);");
    let (red, black) = (page.js(&ms("red")).await?, page.js(&ms("black")).await?);
    let reloading = Instant::now();
    page.client.refresh().await?;
    page.until(
        "the clocks after a reload",
        "!document.querySelector('#clock-red').hidden && document.querySelectorAll('#moves > li[data-ply]').length === 2",
    )
    .await?;
    let waited = reloading.elapsed().as_millis() as i64;
    let (red_after, black_after) = (page.js(&ms("red")).await?, page.js(&ms("black")).await?);
    let (red, black, red_after, black_after) = (
        red.as_i64().unwrap_or(0),
        black.as_i64().unwrap_or(0),
        red_after.as_i64().unwrap_or(0),
        black_after.as_i64().unwrap_or(0),
    );
    // Black is not to move: its time is what it was. Red's ran on while the page reloaded.
    if (black - black_after).abs() > 1000
        || red_after > red + 100
        || red - red_after > waited + 1000
    {
        bail!("the clocks moved over a reload: red {red} -> {red_after}, black {black} -> {black_after}, {waited} ms");
    }
    page.debug_shot("clock.png").await?;
    let flag = Instant::now();
    while !page
        .js("return document.querySelector('#end-dialog').open;")
        .await?
        .as_bool()
        .unwrap_or(false)
    {
        if flag.elapsed() > Duration::from_secs(75) {
            bail!("no flag within 75 s of a half-minute clock");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let reason = page.text("#end-reason").await?;
    if !reason.contains("time") {
        bail!("the end dialog does not say the game was lost on time: {reason:?}");
    }
    page.click("#end-close").await?;

    let errors = page.js("return window.xiangqiErrors;").await?;
    expect("script errors on the page", errors, json!([]))?;

    // A phone, in Chinese, dark.
    page.client.set_window_size(390, 844).await?;
    page.click("#theme").await?;
    page.click("#lang").await?;
    page.until(
        "Chinese",
        "document.querySelector('#new-game').textContent === '新局'",
    )
    .await?;
    page.click("#first").await?;
    page.click("#last").await?;
    page.js("window.scrollTo(0, 0); return true;").await?;
    page.screenshot("phone.png").await?;
    page.click("#editor-btn").await?;
    page.debug_shot("editor.png").await?;
    lab(page, url).await?;
    drop(server);
    Ok(())
}

/// The search laboratory: reached from the main page, a run at depth 2 fills the table and the
/// charts, the trees of minimax and alpha-beta open, the evaluation is taken apart.
async fn lab(page: &Page, url: &str) -> Result<()> {
    let href = page
        .js("return document.getElementById('lab-link').getAttribute('href');")
        .await?;
    expect("the lab link", href.as_str().unwrap_or(""), "lab.html")?;
    page.client.set_window_size(1280, 900).await?;
    let base = url.trim_end_matches('/');
    page.client.goto(&format!("{base}/lab?lang=en")).await?;
    page.until("the lab page", "document.body.dataset.ready === '1'")
        .await?;
    page.js("document.getElementById('lab-depth').value = '2'; return true;")
        .await?;
    page.click("#lab-run").await?;
    page.until(
        "the lab's rows",
        "document.querySelectorAll('#lab-table tbody tr').length === 8",
    )
    .await?;
    let minimax = page
        .text("#lab-table tbody tr[data-algorithm='minimax'] td:nth-child(2)")
        .await?;
    expect(
        "minimax's nodes",
        minimax.replace([',', '.', ' '], ""),
        "1965".into(),
    )?;
    page.until(
        "the bar charts",
        "document.querySelectorAll('#lab-chart rect').length === 16",
    )
    .await?;
    page.until(
        "the evaluation's terms",
        "document.querySelectorAll('#lab-eval-engine tbody tr').length > 5",
    )
    .await?;
    // The rows and the trees name their moves in the notation chosen on the game page (WXF
    // here: letters and digits, no Chinese, no ICCS squares).
    let wxf = "(t) => /^[RHEACKP+-][1-9+-.]/.test(t) && !/[\\u4e00-\\u9fff]/.test(t) \
               && !/[a-i][0-9][a-i][0-9]/.test(t)";
    page.js("localStorage.setItem('xiangqi.notation', 'wxf'); return true;")
        .await?;
    page.click("#lab-run").await?;
    page.until(
        "the lab's lines in WXF",
        &format!(
            "({wxf})(document.querySelector(\"#lab-table tbody tr[data-algorithm='minimax'] \
             .lab-pv\")?.textContent || '')"
        ),
    )
    .await?;
    page.click("#lab-tree-run").await?;
    page.until(
        "both trees",
        "document.querySelectorAll('#lab-tree-a > .lab-tree > li').length === 44 \
         && document.querySelectorAll('#lab-tree-b > .lab-tree > li').length > 40",
    )
    .await?;
    page.until(
        "the trees' moves in WXF",
        &format!(
            "[...document.querySelectorAll('#lab-tree-b > .lab-tree > li > .lab-node .lab-move')]\
             .every((e) => ({wxf})(e.textContent))"
        ),
    )
    .await?;
    page.js("localStorage.setItem('xiangqi.notation', 'chinese'); return true;")
        .await?;
    page.click("#lab-tree-b > .lab-tree > li[data-cut] > .lab-node")
        .await?;
    page.until(
        "alpha-beta's replies, a cutoff among them and pruned moves",
        "document.querySelectorAll('#lab-tree-b .lab-tree .lab-tree .lab-node').length > 0 \
         && document.querySelector('#lab-tree-b .lab-cut') \
         && document.querySelector('#lab-tree-b .lab-pruned')",
    )
    .await?;
    page.until(
        "the node's position on the small board",
        "document.querySelectorAll('#lab-board [data-piece]').length >= 31",
    )
    .await?;
    let described = page
        .js(
            "const dd = [...document.querySelectorAll('#lab-about-list dd')]; \
             return dd.length === document.querySelectorAll('#lab-algos input').length \
               && dd.every((d) => d.textContent.length > 20) \
               && document.querySelector('#lab-algos input[value=minimax]').parentElement.title \
                  .startsWith('Minimax:');",
        )
        .await?;
    expect("a word on every algorithm", described, Value::Bool(true))?;
    let note = page.text("#lab-eval-simple .lab-note-row td").await?;
    expect(
        "the simple evaluation's word on its attack term",
        note.starts_with("attack: a tenth"),
        true,
    )?;
    page.debug_shot("lab.png").await?;
    site::stopped_run_keeps_its_rows(page).await?;
    // On a phone the small board stays in sight when a row far down the trees is tapped.
    page.client.set_window_size(390, 844).await?;
    page.js(
        "const rows = document.querySelectorAll('#lab-tree-b > .lab-tree > li > .lab-node'); \
         rows[rows.length - 1].scrollIntoView({ block: 'center' }); return true;",
    )
    .await?;
    page.click("#lab-tree-b > .lab-tree > li:last-child > .lab-node")
        .await?;
    let seen = page
        .js(
            "const r = document.getElementById('lab-board').getBoundingClientRect(); \
             return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;",
        )
        .await?;
    expect(
        "the small board in sight on a phone",
        seen,
        Value::Bool(true),
    )?;
    page.client.set_window_size(1280, 900).await?;
    // Stopped at once, a run says so and frees the form.
    page.js("document.getElementById('lab-depth').value = '4'; return true;")
        .await?;
    page.click("#lab-run").await?;
    page.until(
        "the run going",
        "!document.getElementById('lab-cancel').disabled",
    )
    .await?;
    page.click("#lab-cancel").await?;
    page.until(
        "the run stopped, and said",
        "document.getElementById('lab-status').textContent === 'Stopped.' \
         && document.getElementById('lab-cancel').disabled",
    )
    .await?;
    // Another position: the small board and the evaluation show it, the old results go.
    page.js(
        "const source = document.getElementById('lab-source'); source.value = 'fen'; \
         source.dispatchEvent(new Event('change')); \
         const fen = document.getElementById('lab-fen'); \
         fen.value = '3k5/9/9/9/9/9/9/9/4A4/3AKR3 w - - 0 1'; \
         fen.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    page.until(
        "the new position on the small board, the old results gone",
        "document.querySelectorAll('#lab-board [data-piece]').length === 5 \
         && document.querySelectorAll('#lab-table tbody tr').length === 0",
    )
    .await?;
    let errors = page.js("return window.xiangqiErrors;").await?;
    expect(
        "script errors on the lab page",
        errors,
        Value::Array(Vec::new()),
    )?;
    Ok(())
}

/// A game between two engine settings (Red searching deeper), one move before Red mates with
/// e6f6.
const GAME: &str =
    "b2e2 b9c7 a0a1 h7e7 h0g2 a9a8 i0i1 i9i8 a1d1 a8d8 i1f1 i8f8 f1f8 d8d1 f8h8 d1b1 \
    h8h9 b1b0 h9g9 b0c0 h2h9 b7b2 g9g6 f9e8 g2e1 c0c3 g6g9 e8f9 g9g5 f9e8 g5b5 b2a2 h9h3 c6c5 b5b8 \
    a2a0 b8b0 c3a3 e2c2 c7a8 c2i2 a3a2 i2i6 a8c7 i6i9 e7h7 e1d3 c5c4 d3c1 a2h2 i9h9 a0a5 b0b7 a5e5 \
    d0e1 h7b7 h9h2 c7d5 h2c2 c9a7 c2d2 e5g5 g0e2 b7c7 g3g4 c7c1 g4g5 d5e3 h3h6 c1c2 d2d0 c2c3 g5g6 \
    c3i3 h6e6 e9f9 e6f6 i3i0 e2g0 a7c5 d0d2 f9e9 d2e2 c4c3 f6e6 c5e7 g6f6 i0h0 f6f7 h0f0 e1f0 e3c2 \
    e2e7 e9f9";

/// [`GAME`] as PGN movetext.
fn game_pgn() -> String {
    let moves: Vec<&str> = GAME.split_whitespace().collect();
    let mut text = String::from("[Event \"Engine test\"]\n\n");
    for (i, pair) in moves.chunks(2).enumerate() {
        text.push_str(&format!("{}. {} ", i + 1, pair.join(" ")));
    }
    text.push('*');
    text
}
