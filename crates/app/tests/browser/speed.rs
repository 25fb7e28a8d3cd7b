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

/// How many times each bench runs (after one untimed round, while the browser compiles).
const ROUNDS: u32 = 3;

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
    let run = async {
        let port = free_port();
        let _server = serve(&dir.0, port)?;
        let (_driver, driver_port) = start_driver(&driver)?;
        let profile = TempDir::new("speed-profile");
        let client = connect(driver_port, &chrome, &profile.0).await?;
        client.goto(&format!("http://127.0.0.1:{port}/")).await?;
        for (label, network) in [("network", true), ("hand-made", false)] {
            for _ in 0..ROUNDS {
                let flag: &[&str] = if network { &[] } else { &["--hand-made"] };
                println!("native {label}: {}", native(flag));
            }
            for name in ["simd", "plain"] {
                if !dir.0.join(format!("{name}.wasm")).is_file() {
                    continue;
                }
                let script = format!(
                    "const done = arguments[0];
                     import('./xiangqi-module.js').then(async ({{ instantiate }}) => {{
                       const bytes = await (await fetch('{name}.wasm')).arrayBuffer();
                       const call = await instantiate(bytes);
                       const request = {{ cmd: 'bench', network: {network} }};
                       call(request);
                       const runs = [];
                       for (let i = 0; i < {ROUNDS}; i++) runs.push(call(request));
                       done(runs);
                     }}).catch((e) => done(String(e)));"
                );
                let runs = client.execute_async(&script, vec![]).await?;
                let runs = runs.as_array().context("bench answers")?.clone();
                for r in &runs {
                    println!(
                        "chromium {name} {label}: {} nodes {} nps",
                        r["nodes"], r["nps"]
                    );
                }
                let nodes: Vec<Value> = runs.iter().map(|r| r["nodes"].clone()).collect();
                let want = native(if network { &[] } else { &["--hand-made"] });
                let want: u64 = want.split_whitespace().next().unwrap_or("0").parse()?;
                expect(
                    "the module's node counts",
                    nodes,
                    vec![Value::from(want); runs.len()],
                )?;
            }
        }
        let _ = client.close().await;
        Ok::<(), anyhow::Error>(())
    };
    runtime().block_on(run).unwrap_or_else(|e| panic!("{e:#}"));
}
