//! Builds `crates/wasm` for `wasm32-unknown-unknown` with Debian's packaged Rust.
//!
//! rustup here cannot fetch the wasm32 target, but Debian's `rustc-web` compiler targets it and
//! `rust-web-src` brings the standard library's source, which cargo's `-Zbuild-std` compiles
//! for the target (`RUSTC_BOOTSTRAP` lets the stable compiler take the unstable flag). The
//! module is built with wasm SIMD (every current browser has it: Chrome and Edge 91, Firefox 89,
//! Safari 16.4); docs/SITE.md measures the speed with and without it.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian's packages that make the toolchain; `.ci/wasm-toolchain` installs them.
pub const TOOLCHAIN: &str = "rustc-web cargo-web rust-web-src rust-web-llvm lld-22";
/// Debian's cargo and rustc (the `rustc-web` packages install them here).
const DEBIAN_BIN: &str = "/usr/bin";
/// The standard library's source, from `rust-web-src`.
const STD_SOURCE: &str = "/usr/lib/rustlib/src/rust/library";
/// Memory of the module built for threads, which its host makes (shared between the instances
/// in the page's workers) and so must know: 32 MiB at first, growing to at most 1 GiB. The site's
/// `xiangqi-module.js` makes it with these sizes (`THREADS_MEMORY`).
const THREADS_INITIAL_BYTES: u32 = 32 << 20;
const THREADS_MAXIMUM_BYTES: u32 = 1 << 30;

/// Which module to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// With wasm SIMD, one thread: the site's module for every page.
    Simd,
    /// Without SIMD (to measure what it brings).
    Plain,
    /// With SIMD and threads: its memory is shared with helper instances in other workers
    /// (`xiangqi_engine::helpers`); only a cross-origin isolated page can use it.
    Threads,
}

impl Kind {
    /// The build folder's name: each kind has its own, since the standard library differs.
    fn folder(self) -> &'static str {
        match self {
            Kind::Simd => "simd",
            Kind::Plain => "plain",
            Kind::Threads => "threads",
        }
    }

    /// The compiler's and linker's flags.
    fn rustflags(self) -> String {
        let stack = format!("-C link-arg=-zstack-size={STACK_BYTES}");
        match self {
            Kind::Simd => format!("-C target-feature=+simd128 {stack}"),
            Kind::Plain => stack,
            // The host gives each helper instance a stack and thread-local storage of its own
            // before it runs anything: hence the exported stack pointer and TLS setup.
            Kind::Threads => format!(
                "-C target-feature=+simd128,+atomics,+bulk-memory,+mutable-globals {stack} \
                 -C link-arg=--shared-memory -C link-arg=--import-memory \
                 -C link-arg=--initial-memory={THREADS_INITIAL_BYTES} \
                 -C link-arg=--max-memory={THREADS_MAXIMUM_BYTES} \
                 -C link-arg=--export=__stack_pointer -C link-arg=--export=__wasm_init_tls \
                 -C link-arg=--export=__tls_size -C link-arg=--export=__tls_align"
            ),
        }
    }
}

/// Stack of the module's one thread. Native searches run on a 16 MiB thread; a search's
/// recursion needs far less, but 1 MiB (the linker's default) is too tight for the deepest.
const STACK_BYTES: u32 = 8 << 20;

/// The workspace's root (xtask lives one folder below it).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}

/// Where the module's build lives: its own folder, since another compiler builds it.
pub fn build_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"));
    target.join("wasm")
}

/// Builds the module of `kind` and copies it to `out`.
pub fn build(out: &Path, kind: Kind) -> Result<()> {
    let cargo = Path::new(DEBIAN_BIN).join("cargo");
    if !Path::new(STD_SOURCE).is_dir() || !cargo.is_file() {
        bail!(
            "the WebAssembly toolchain is missing: install Debian's packages with\n  \
             apt-get install {TOOLCHAIN}\n(or run .ci/wasm-toolchain)"
        );
    }
    let path = std::env::var("PATH").unwrap_or_default();
    let status = Command::new(&cargo)
        .current_dir(workspace())
        // Debian's compiler first, and none of the calling (rustup) cargo's settings.
        .env("PATH", format!("{DEBIAN_BIN}:{path}"))
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC")
        .env_remove("CARGO")
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", build_dir().join(kind.folder()))
        .env("RUSTFLAGS", kind.rustflags())
        .args([
            "build",
            "--release",
            "--target",
            "wasm32-unknown-unknown",
            "-Zbuild-std=std,panic_abort",
            "--package",
            "xiangqi-wasm",
            // Unwinding needs the browser's exception handling; a panic ends the worker.
            "--config",
            "profile.release.panic=\"abort\"",
            // Function names are for debuggers: a sixth of the module, and no use to a player.
            "--config",
            "profile.release.strip=\"symbols\"",
        ])
        .status()
        .with_context(|| format!("cannot run {}", cargo.display()))?;
    if !status.success() {
        bail!("building the WebAssembly module failed ({status})");
    }
    let built = build_dir()
        .join(kind.folder())
        .join("wasm32-unknown-unknown/release/xiangqi_wasm.wasm");
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot make {}", parent.display()))?;
    }
    std::fs::copy(&built, out)
        .with_context(|| format!("cannot copy {} to {}", built.display(), out.display()))?;
    Ok(())
}
