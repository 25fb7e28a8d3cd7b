//! The engine's speed in Chromium: `bench` in the WebAssembly module, run in the page as the
//! static site runs it, against the native binary. A measurement, not a test: it is ignored by
//! default, prints its numbers and asserts only that the node counts match. Run it on an idle
//! machine (docs/SITE.md):
//!
//! ```sh
//! cargo build --release && cargo xtask wasm
//! cargo xtask wasm --no-simd --out target/wasm/xiangqi-plain.wasm
//! cargo test -p xiangqi-app --profile ci --test browser speed -- --ignored --nocapture
//! ```

use super::site::serve;
use super::{browser_or_skip, connect, expect, free_port, runtime, start_driver, TempDir};
use anyhow::Context;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// How many times each bench runs (after one untimed round, while the browser compiles), unless
/// `XIANGQI_ROUNDS` says.
const ROUNDS: u32 = 3;

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
    let rounds: u32 = std::env::var("XIANGQI_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(ROUNDS);
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
