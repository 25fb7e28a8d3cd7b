//! The engine's speed in Chromium: `bench` in the WebAssembly module, run in the page as the
//! static site runs it, against the native binary. A measurement, not a test: it is ignored by
//! default, prints its numbers and asserts only that the node counts match. Run it on an idle
//! machine (docs/SITE.md):
//!
//! ```sh
//! cargo build --release && cargo xtask wasm
//! cargo xtask wasm --no-simd --out target/wasm/xiangqi-plain.wasm
//! cargo test -p xiangqi-app --profile ci --test browser speed -- --ignored --nocapture --test-threads 1
//! ```
//!
//! The second measurement, [`threads_in_chromium_against_native`], needs the module built for
//! threads (`cargo xtask wasm --threads`): the time to depth on one thread and on two (a helper
//! worker beside the searching one, as the site's engine worker has them), in Chromium on a
//! cross-origin isolated page and natively.

use super::site::serve;
use super::{
    browser_or_skip, connect, expect, free_port, runtime, start_driver, wait_for_port, Process,
    TempDir,
};
use anyhow::Context;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

/// How many times each bench runs (after one untimed round, while the browser compiles), unless
/// `XIANGQI_ROUNDS` says.
const ROUNDS: u32 = 3;

/// How many rounds to time: `XIANGQI_ROUNDS`, or [`ROUNDS`].
fn rounds() -> u32 {
    std::env::var("XIANGQI_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(ROUNDS)
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

#[test]
#[ignore = "a measurement: run it by hand on an idle machine"]
fn bench_in_chromium_against_native() {
    let (driver, chrome) = browser_or_skip().expect("Chromium and chromedriver");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let wasm = root.join("target/wasm");
    let dir = TempDir::new("speed");
    for (name, file) in [("simd", "xiangqi.wasm"), ("plain", "xiangqi-plain.wasm")] {
        let from = wasm.join(file);
        if from.is_file() {
            std::fs::copy(&from, dir.0.join(format!("{name}.wasm"))).unwrap();
        }
    }
    std::fs::copy(
        root.join("crates/web/page/site/xiangqi-module.js"),
        dir.0.join("xiangqi-module.js"),
    )
    .unwrap();
    std::fs::write(
        dir.0.join("index.html"),
        "<!doctype html><title>speed</title>",
    )
    .unwrap();
    // The release build (`cargo build --release`) is the one to compare with; this test's own
    // build is not optimised across crates.
    let release = root.join("target/release/xiangqi");
    let binary = if release.is_file() {
        release
    } else {
        Path::new(env!("CARGO_BIN_EXE_xiangqi")).to_path_buf()
    };
    println!("native: {}", binary.display());
    let native = |extra: &[&str]| -> String {
        let output = Command::new(&binary)
            .arg("bench")
            .args(extra)
            .output()
            .expect("xiangqi bench");
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .last()
            .unwrap_or_default()
            .to_owned()
    };
    let rounds = rounds();
    let run = async {
        let port = free_port();
        let _server = serve(&dir.0, port)?;
        let (_driver, driver_port) = start_driver(&driver)?;
        let profile = TempDir::new("speed-profile");
        let client = connect(driver_port, &chrome, &profile.0).await?;
        client.goto(&format!("http://127.0.0.1:{port}/")).await?;
        // Each module once, kept in the page (and warmed up by one untimed bench each).
        let setup = "const done = arguments[0];
             import('./xiangqi-module.js').then(async ({ instantiate }) => {
               window.engines = {};
               for (const name of ['simd', 'plain']) {
                 const response = await fetch(`${name}.wasm`);
                 if (!response.ok) continue;
                 const call = await instantiate(await response.arrayBuffer());
                 call({ cmd: 'bench', network: true });
                 call({ cmd: 'bench', network: false });
                 window.engines[name] = call;
               }
               done(Object.keys(window.engines));
             }).catch((e) => done(String(e)));";
        let names = client.execute_async(setup, vec![]).await?;
        let names: Vec<String> = serde_json::from_value(names).context("the modules")?;
        for (label, network) in [("network", true), ("hand-made", false)] {
            let flag: &[&str] = if network { &[] } else { &["--hand-made"] };
            let mut speeds: Vec<(String, Vec<f64>)> = vec![("native".into(), Vec::new())];
            speeds.extend(names.iter().map(|n| (format!("chromium {n}"), Vec::new())));
            // Interleaved, so that a machine that slows down slows each kind alike.
            for _ in 0..rounds {
                let line = native(flag);
                let mut words = line.split_whitespace();
                let nodes: u64 = words.next().unwrap_or("0").parse()?;
                let nps: f64 = words.nth(1).unwrap_or("0").parse()?;
                speeds[0].1.push(nps);
                for (i, name) in names.iter().enumerate() {
                    let script = format!(
                        "return window.engines['{name}']({{ cmd: 'bench', network: {network} }});"
                    );
                    let result: Value = client.execute(&script, vec![]).await?;
                    expect(
                        "the module's node count",
                        result["nodes"].as_u64(),
                        Some(nodes),
                    )?;
                    speeds[i + 1].1.push(result["nps"].as_f64().context("nps")?);
                }
            }
            let native_median = median(&speeds[0].1);
            for (name, values) in &speeds {
                println!(
                    "{label} {name}: median {:.0} nps ({:.0}–{:.0}), {:.0} % of native",
                    median(values),
                    values.iter().cloned().fold(f64::INFINITY, f64::min),
                    values.iter().cloned().fold(0.0, f64::max),
                    100.0 * median(values) / native_median
                );
            }
        }
        let _ = client.close().await;
        Ok::<(), anyhow::Error>(())
    };
    runtime().block_on(run).unwrap_or_else(|e| panic!("{e:#}"));
}

/// The bench's depth for the threads measurement: deep enough that a helper's start costs
/// nothing beside a position's search (about a second in all, natively, on one thread).
const THREADS_DEPTH: u32 = 12;

/// A static file server on `port` serving `dir` with the headers that make its pages
/// cross-origin isolated (as the site's service worker adds them).
fn serve_isolated(dir: &Path, port: u16) -> anyhow::Result<Process> {
    let script = "
import functools, http.server, sys
class Isolated(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header('Cross-Origin-Opener-Policy', 'same-origin')
        self.send_header('Cross-Origin-Embedder-Policy', 'require-corp')
        super().end_headers()
handler = functools.partial(Isolated, directory=sys.argv[2])
http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), handler).serve_forever()
";
    let child = Command::new("python3")
        .args(["-c", script, &port.to_string()])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting python3")?;
    let process = Process(child);
    wait_for_port(port, "the isolating file server")?;
    Ok(process)
}

/// The worker that runs the bench in the page: the threads module with `helpers` helper workers
/// (helper-worker.js, the site's own), answering `{depth, threads}` with the bench's result.
const BENCH_WORKER: &str = "import { instantiate, lendHelpers } from './xiangqi-module.js';
let engine = null;
self.onmessage = async ({ data }) => {
  if (!engine) {
    engine = await instantiate(await (await fetch('threads.wasm')).arrayBuffer());
    const spawn = (start) => new Promise((resolve, reject) => {
      const helper = new Worker('helper-worker.js', { type: 'module' });
      helper.onmessage = () => resolve();
      helper.onerror = (e) => reject(new Error(e.message));
      helper.postMessage({ ...start, channel: 'speed' });
    });
    self.postMessage({ lent: await lendHelpers(engine, spawn, data.helpers) });
    return;
  }
  self.postMessage(engine({ cmd: 'bench', network: true, depth: data.depth, threads: data.threads }));
};
";

#[test]
#[ignore = "a measurement: run it by hand on an idle machine"]
fn threads_in_chromium_against_native() {
    let (driver, chrome) = browser_or_skip().expect("Chromium and chromedriver");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = TempDir::new("speed-threads");
    std::fs::copy(
        root.join("target/wasm/xiangqi-threads.wasm"),
        dir.0.join("threads.wasm"),
    )
    .expect("target/wasm/xiangqi-threads.wasm (cargo xtask wasm --threads)");
    for file in ["xiangqi-module.js", "helper-worker.js"] {
        std::fs::copy(
            root.join("crates/web/page/site").join(file),
            dir.0.join(file),
        )
        .unwrap();
    }
    std::fs::write(dir.0.join("bench-worker.js"), BENCH_WORKER).unwrap();
    std::fs::write(
        dir.0.join("index.html"),
        "<!doctype html><title>threads</title>",
    )
    .unwrap();
    let binary = root.join("target/release/xiangqi");
    assert!(binary.is_file(), "cargo build --release first");
    // Native: the time to depth that `bench` prints on stderr, in milliseconds.
    let native = |threads: usize| -> anyhow::Result<f64> {
        let output = Command::new(&binary)
            .args(["bench", &THREADS_DEPTH.to_string(), "--threads"])
            .arg(threads.to_string())
            .output()?;
        let text = String::from_utf8_lossy(&output.stderr);
        let seconds: f64 = text
            .lines()
            .find_map(|l| l.strip_prefix("time ")?.strip_suffix(" s"))
            .context("bench's time")?
            .parse()?;
        Ok(seconds * 1000.0)
    };
    let rounds = rounds();
    let run = async {
        let port = free_port();
        let _server = serve_isolated(&dir.0, port)?;
        let (_driver, driver_port) = start_driver(&driver)?;
        let profile = TempDir::new("speed-threads-profile");
        let client = connect(driver_port, &chrome, &profile.0).await?;
        client.goto(&format!("http://127.0.0.1:{port}/")).await?;
        let setup = "const done = arguments[0];
             if (!self.crossOriginIsolated) { done('not isolated'); return; }
             window.bench = new Worker('bench-worker.js', { type: 'module' });
             window.ask = (message) => new Promise((resolve) => {
               window.bench.onmessage = (e) => resolve(e.data);
               window.bench.postMessage(message);
             });
             window.ask({ helpers: 1 }).then((r) => done(r.lent), (e) => done(String(e)));";
        let lent = client.execute_async(setup, vec![]).await?;
        expect("helper workers lent", lent, serde_json::json!(1))?;
        let wasm = async |threads: usize| -> anyhow::Result<(f64, f64, u64)> {
            let script = format!(
                "window.ask({{ depth: {THREADS_DEPTH}, threads: {threads} }}).then(arguments[0]);"
            );
            let result: Value = client.execute_async(&script, vec![]).await?;
            Ok((
                result["ms"].as_f64().context("ms")?,
                result["nps"].as_f64().context("nps")?,
                result["helper_searches"]
                    .as_u64()
                    .context("helper searches")?,
            ))
        };
        // Warm-up: the browser compiles the hot code while it runs.
        wasm(1).await?;
        wasm(2).await?;
        let mut times: [Vec<f64>; 4] = Default::default();
        let mut speeds: [Vec<f64>; 2] = Default::default();
        for _ in 0..rounds {
            times[0].push(native(1)?);
            times[1].push(native(2)?);
            for (i, threads) in [(2, 1), (3, 2)] {
                let (ms, nps, helpers) = wasm(threads).await?;
                expect("helper searches", helpers, 30 * (threads as u64 - 1))?;
                times[i].push(ms);
                speeds[i - 2].push(nps);
            }
        }
        let names = [
            "native, 1 thread",
            "native, 2 threads",
            "chromium, 1 thread",
            "chromium, 2 threads",
        ];
        for (name, values) in names.iter().zip(&times) {
            println!(
                "{name}: median {:.0} ms to depth {THREADS_DEPTH}",
                median(values)
            );
        }
        println!(
            "time to depth, 1 thread / 2 threads: native {:.2}, chromium {:.2}; chromium's nps {:.0} → {:.0}",
            median(&times[0]) / median(&times[1]),
            median(&times[2]) / median(&times[3]),
            median(&speeds[0]),
            median(&speeds[1]),
        );
        let _ = client.close().await;
        Ok::<(), anyhow::Error>(())
    };
    runtime().block_on(run).unwrap_or_else(|e| panic!("{e:#}"));
}
