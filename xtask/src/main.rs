//! `cargo xtask …`: the build tasks cargo alone does not do.
//!
//! - `cargo xtask wasm` builds the rules and the engine for the browser (`crates/wasm`) into
//!   `target/wasm/xiangqi.wasm`.
//! - `cargo xtask site --out DIR` writes the static site: the page with the engine in a worker,
//!   offline and installable (`site`; docs/SITE.md).
//!
//! The machine's rustup has no WebAssembly target, so the module is built with Debian's
//! packaged compiler, which brings the standard library's source (installed by
//! `.ci/wasm-toolchain`; see `wasm::TOOLCHAIN`).

mod icons;
mod site;
mod wasm;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "The project's build tasks: the WebAssembly module and the static site")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Builds the rules and the engine as a WebAssembly module.
    Wasm {
        /// Where to write the module (default: target/wasm/xiangqi.wasm).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Without wasm SIMD (to measure what it brings; the site's module has it).
        #[arg(long, conflicts_with = "threads")]
        no_simd: bool,
        /// For threads: memory shared with helper workers, for cross-origin isolated pages
        /// (the site's `xiangqi-threads.wasm`).
        #[arg(long)]
        threads: bool,
    },
    /// Writes the static site (the page with the engine in the browser) into a folder.
    Site {
        /// The folder (made if missing; an older site there is replaced, its files the new
        /// site has not removed).
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> Result<()> {
    match Cli::parse().task {
        Task::Wasm {
            out,
            no_simd,
            threads,
        } => {
            let kind = match (no_simd, threads) {
                (true, _) => wasm::Kind::Plain,
                (false, true) => wasm::Kind::Threads,
                (false, false) => wasm::Kind::Simd,
            };
            let name = if threads {
                "xiangqi-threads.wasm"
            } else {
                "xiangqi.wasm"
            };
            let out = out.unwrap_or_else(|| wasm::build_dir().join(name));
            wasm::build(&out, kind)?;
            println!("{}", out.display());
            Ok(())
        }
        Task::Site { out } => {
            site::build(&out)?;
            println!("{}", out.display());
            Ok(())
        }
    }
}
