//! The web GUI: a local axum server with a JSON API and the page that plays against the engine.
//!
//! [`app`] builds the whole router (tests drive it without a socket); [`serve`] binds it, prints
//! the URL and opens the browser. Games live in [`games::GameStore`], engine work in
//! [`search`]; the page itself is in `crates/app/web/` and embedded by [`assets`].

mod api;
mod assets;
mod error;
mod games;
mod reasons;
mod search;
#[cfg(test)]
mod tests;
mod view;

use anyhow::{Context, Result};
use axum::extract::{DefaultBodyLimit, Request};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use clap::Args;
use error::ApiError;
use games::GameStore;
use search::SearchPool;
use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Largest request body accepted, in bytes (a PGN file to load is the largest thing sent).
pub const BODY_LIMIT: usize = 1 << 20;

/// Hash table of each pooled engine, in MiB.
const ENGINE_HASH_MB: usize = 32;

/// Everything the handlers share.
pub struct AppState {
    /// The games.
    pub games: GameStore,
    /// The engines.
    pub pool: Arc<SearchPool>,
}

impl AppState {
    /// State with games saved under `data_dir` and at most `searches` searches at once.
    pub fn new(data_dir: &Path, searches: usize) -> Result<Arc<AppState>> {
        let games = GameStore::open(data_dir)
            .with_context(|| format!("cannot use the data directory {}", data_dir.display()))?;
        Ok(Arc::new(AppState {
            games,
            pool: SearchPool::new(searches, ENGINE_HASH_MB),
        }))
    }
}

/// The whole application: the page, its assets and the API under `/api`.
pub fn app(state: Arc<AppState>) -> Router {
    let api = api::routes()
        .fallback(|| async { ApiError::NotFound("no such API route".into()) })
        .method_not_allowed_fallback(|| async {
            ApiError::BadRequest("this method is not allowed on this route".into())
        });
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
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn(catch_panics))
        .with_state(state)
}

/// The names this server answers to when it listens on the loopback address on `port`.
fn loopback_names(port: u16) -> Vec<String> {
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .map(|host| format!("{host}:{port}"))
        .collect()
}

/// `app` refusing requests whose `Host` is not one of `names` (a web page that rebinds its own
/// domain to 127.0.0.1 must not read the games) and changes sent from other sites' pages
/// (an `Origin` that is not this server).
pub fn guarded(app: Router, names: Vec<String>) -> Router {
    let names = Arc::new(names);
    app.layer(middleware::from_fn(move |request: Request, next: Next| {
        let verdict = admit(&request, &names);
        async move {
            match verdict {
                Ok(()) => next.run(request).await,
                Err(error) => error.into_response(),
            }
        }
    }))
}

fn admit(request: &Request, names: &[String]) -> Result<(), ApiError> {
    let header = |name| {
        request
            .headers()
            .get(name)
            .and_then(|v: &axum::http::HeaderValue| v.to_str().ok())
    };
    let host_ok =
        header(axum::http::header::HOST).is_none_or(|host| names.iter().any(|n| n == host));
    if !host_ok {
        return Err(ApiError::Forbidden(
            "unknown host name: open the address the server printed".into(),
        ));
    }
    let origin_ok = request.method() == axum::http::Method::GET
        || header(axum::http::header::ORIGIN)
            .is_none_or(|origin| names.iter().any(|n| origin == format!("http://{n}")));
    if !origin_ok {
        return Err(ApiError::Forbidden(
            "requests from other sites are not accepted".into(),
        ));
    }
    Ok(())
}

/// Runs each request in its own task, so that a panic in a handler becomes a JSON 500 for that
/// request alone.
async fn catch_panics(request: Request, next: Next) -> Response {
    match tokio::spawn(next.run(request)).await {
        Ok(response) => response,
        Err(error) => ApiError::from(error).into_response(),
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
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            port: None,
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            no_open: false,
            data_dir: None,
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
    runtime.block_on(async move {
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
        let router = if host.is_loopback() {
            guarded(app(Arc::clone(&state)), loopback_names(bound.port()))
        } else {
            app(Arc::clone(&state))
        };
        axum::serve(listener, router)
            .with_graceful_shutdown(shutdown_signal())
            .await
            .context("serving")?;
        for game in state.games.all() {
            games::lock(&game).cancel_job();
        }
        Ok(())
    })
}

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
