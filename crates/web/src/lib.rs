//! The web GUI: a local axum server with a JSON API and the page that plays against the engine.
//!
//! [`app`] builds the whole router (tests drive it without a socket); [`serve`] binds it, prints
//! the URL and opens the browser. Games live in `store::GameStore`, engine work in `search`;
//! `server` runs the connections and `guard` decides who may talk to it; `tablebases` loads the
//! endgame tables of the data directory for the engines and the API; the page itself is in
//! `crates/web/page/` and embedded by `assets`.
//!
//! It serves the player and the student of the game and of search. The games themselves (their
//! players, clocks, variations, files and views) are `xiangqi_play`'s; here `search` and `pool`
//! run engine work on them, `store` keeps them on disk, and the routes (`api`, `lab`) sit on
//! top. It stands on the rules, the engine, the file rules and the games, and on nothing of the
//! protocol front end or the developer's tools.

mod api;
mod assets;
mod guard;
mod lab;
mod lab_runs;
mod limits;
mod pool;
mod puzzle_book;
mod puzzles;
mod search;
mod server;
mod state;
mod store;
mod stream;
mod tablebases;
#[cfg(test)]
mod tests;

use anyhow::{Context, Result};
pub use assets::page_files;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use clap::Args;
use guard::{guarded, Guard};
use http_body_util::BodyExt as _;
use limits::{BODY_LIMIT, BODY_TIMEOUT};
pub use state::AppState;
use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use xiangqi_play::error::ApiError;

/// The whole application: the page, its assets and the API under `/api`.
pub fn app(state: Arc<AppState>) -> Router {
    app_with_body_timeout(state, BODY_TIMEOUT)
}

/// [`app`] giving request bodies `body_timeout` to arrive (tests shorten it).
fn app_with_body_timeout(state: Arc<AppState>, body_timeout: Duration) -> Router {
    let api = api::routes()
        .merge(lab::routes())
        .merge(puzzles::routes())
        .fallback(|| async { ApiError::NotFound("no such API route".into()) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed });
    #[cfg(test)]
    let api = api.route(
        "/test/panic",
        axum::routing::get(|| async {
            if std::hint::black_box(true) {
                panic!("a handler panicked on purpose");
            }
        }),
    );
    Router::new()
        .nest("/api", api)
        .merge(assets::routes())
        .fallback(|| async { ApiError::NotFound("no such page".into()) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn(move |request, next| {
            body_in_time(body_timeout, request, next)
        }))
        .layer(middleware::from_fn(catch_panics))
        .with_state(state)
}

/// Reads the whole request body before the handler runs, within `timeout` and [`BODY_LIMIT`]:
/// a client that sends a request head and then stops, or sends without end, is answered and
/// let go instead of holding its connection and a handler.
async fn body_in_time(timeout: Duration, request: Request, next: Next) -> Response {
    let (parts, mut body) = request.into_parts();
    let read = async {
        let mut bytes = Vec::new();
        while let Some(frame) = body.frame().await {
            let frame =
                frame.map_err(|_| ApiError::BadRequest("the request body broke off".into()))?;
            if let Ok(data) = frame.into_data() {
                if bytes.len() + data.len() > BODY_LIMIT {
                    return Err(ApiError::TooLarge(BODY_LIMIT));
                }
                bytes.extend_from_slice(&data);
            }
        }
        Ok(bytes)
    };
    match tokio::time::timeout(timeout, read).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(error)) => error.into_response(),
        Err(_) => ApiError::TimedOut(timeout).into_response(),
    }
}

/// Runs each request in its own task, so that a panic in a handler becomes a JSON 500 for that
/// request alone. The task is aborted when the request is dropped (its client went away), so
/// that the handler's work stops with it.
async fn catch_panics(request: Request, next: Next) -> Response {
    let mut task = AbortOnDrop(tokio::spawn(next.run(request)));
    match (&mut task.0).await {
        Ok(response) => response,
        Err(error) => ApiError::from(error).into_response(),
    }
}

/// A task aborted when this is dropped before it finished.
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Arguments of `serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Port to listen on (default: any free port).
    #[arg(long)]
    pub port: Option<u16>,
    /// Address to listen on. Anything but the loopback address lets other machines in.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Do not open a browser.
    #[arg(long)]
    pub no_open: bool,
    /// Where games are saved (default: $XDG_DATA_HOME/xiangqi or ~/.local/share/xiangqi).
    /// Endgame tables put in its folder `tablebases/` (`xiangqi tb generate --dir
    /// DIR/tablebases KRK …`) are loaded at start: the analysis, hints and reviews use them,
    /// and the page shows a position's value from them.
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// A host name the page may be opened under besides IP addresses and localhost (say
    /// `mybox.local` with --host 0.0.0.0); may be given several times.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            port: None,
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            no_open: false,
            data_dir: None,
            allow_host: Vec::new(),
        }
    }
}

/// The default data directory: `$XDG_DATA_HOME/xiangqi`, else `~/.local/share/xiangqi`
/// (`%APPDATA%\xiangqi` on Windows), else `./xiangqi-data`.
pub fn default_data_dir() -> PathBuf {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = env("XDG_DATA_HOME") {
        return dir.join("xiangqi");
    }
    if cfg!(windows) {
        if let Some(dir) = env("APPDATA") {
            return dir.join("xiangqi");
        }
    }
    if let Some(home) = env("HOME") {
        return home.join(".local").join("share").join("xiangqi");
    }
    PathBuf::from("xiangqi-data")
}

/// Serves the GUI until Ctrl-C.
pub fn serve(args: &ServeArgs) -> Result<()> {
    let data_dir = args.data_dir.clone().unwrap_or_else(default_data_dir);
    let searches = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4));
    let state = AppState::new(&data_dir, searches)?;
    let host = args.host;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let address = SocketAddr::new(host, args.port.unwrap_or(0));
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .with_context(|| format!("cannot listen on {address}"))?;
        let bound = listener.local_addr()?;
        if !host.is_loopback() {
            eprintln!(
                "warning: listening on {host}: other machines that reach this one can play \
                 and read your games"
            );
        }
        let shown = if host.is_unspecified() {
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), bound.port())
        } else {
            bound
        };
        let url = format!("http://{shown}/");
        // Whoever started us may have stopped reading: printing must not fail the server.
        let _ = writeln!(
            std::io::stdout(),
            "xiangqi: playing at {url}\ngames are saved in {}\npress Ctrl-C to stop",
            state.games.dir().display()
        );
        if !args.no_open {
            open_browser(&url);
        }
        let router = guarded(app(Arc::clone(&state)), Guard::new(&args.allow_host));
        let stopping = Arc::clone(&state);
        let shutdown = async move {
            shutdown_signal().await;
            // Every acknowledged change is on disk already; only the searches need stopping,
            // and at once, so that the requests waiting on them end within the grace.
            stopping.lab.cancel_all();
            for game in stopping.games.loaded() {
                xiangqi_play::entry::lock(&game).cancel_job();
            }
        };
        server::serve(listener, router, server::Limits::default(), shutdown).await;
        Ok::<(), anyhow::Error>(())
    })?;
    // Searches still finishing on blocking threads (told to stop above) are waited for a
    // moment, not more: the shutdown grace and this stay within SHUTDOWN_BOUND.
    runtime.shutdown_timeout(SHUTDOWN_BOUND.saturating_sub(server::SHUTDOWN_GRACE));
    Ok(())
}

/// Longest the server takes to stop after Ctrl-C or SIGTERM, whatever it is doing.
pub const SHUTDOWN_BOUND: Duration = Duration::from_secs(2);

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Tries to open `url` in the desktop's browser; a failure only prints a note.
fn open_browser(url: &str) {
    let mut candidates: Vec<Vec<String>> = Vec::new();
    if let Ok(browser) = std::env::var("BROWSER") {
        if !browser.trim().is_empty() {
            candidates.push(vec![browser]);
        }
    }
    if cfg!(target_os = "macos") {
        candidates.push(vec!["open".into()]);
    } else if cfg!(windows) {
        candidates.push(vec![
            "cmd".into(),
            "/C".into(),
            "start".into(),
            String::new(),
        ]);
    } else {
        candidates.push(vec!["xdg-open".into()]);
    }
    for command in candidates {
        let spawned = std::process::Command::new(&command[0])
            .args(&command[1..])
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if let Ok(mut child) = spawned {
            // Reap it in the background; whether it worked is the desktop's business.
            std::thread::spawn(move || child.wait());
            return;
        }
    }
    let _ = writeln!(
        std::io::stdout(),
        "(could not open a browser: open the address above yourself)"
    );
}
