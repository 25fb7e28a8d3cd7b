//! The rules and the engine for the browser: a WebAssembly module with a plain interface, no
//! bindings generator.
//!
//! The page's worker talks to it in JSON. It asks for an input buffer ([`xq_input`]), writes a
//! request there, calls [`xq_call`], and reads the answer from [`xq_output`]; while a search
//! runs, each progress report is handed to the host's `xiangqi.emit` import as it happens. The
//! host also gives the clock (`xiangqi.now`, milliseconds), which the standard library lacks in
//! a browser. The commands themselves ([`commands`]) are plain Rust and tested natively.
//!
//! It serves the player in a browser with no server behind the page, and stands on the rules and
//! the engine only. Built with `cargo xtask wasm` (see `xtask`); natively it is an ordinary
//! library, so the workspace's checks and tests cover it.

pub mod commands;
pub mod wire;

use std::cell::RefCell;

thread_local! {
    /// The request the host writes before [`xq_call`].
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The answer of the last [`xq_call`].
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The engine, kept between calls (its hash table and move-ordering memory with it).
    static SESSION: RefCell<commands::Session> = RefCell::new(commands::Session::default());
}

/// Makes room for a request of `len` bytes and returns where the host writes it in the
/// module's memory.
// SAFETY: exported under its own name so the host can call it; no unsafe code runs.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn xq_input(len: usize) -> usize {
    INPUT.with_borrow_mut(|input| {
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr() as usize
    })
}

/// Runs the request in the input buffer (JSON, see [`commands::Request`]) and returns the
/// length of the answer (JSON), which [`xq_output`] locates.
// SAFETY: as for `xq_input`.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn xq_call() -> usize {
    host::install_clock();
    report_panics();
    let request = INPUT.with_borrow(|input| input.clone());
    let answer = SESSION.with_borrow_mut(|session| session.answer(&request, host::emit));
    OUTPUT.with_borrow_mut(|output| {
        *output = answer.into_bytes();
        output.len()
    })
}

/// Lends the calling worker's thread to the engine's helper searches, for good (the module built
/// for threads, `cargo xtask wasm --threads`). The host calls it in a worker of its own, on an
/// instance sharing the searching instance's memory, after giving that instance a stack and
/// thread-local storage of its own ([`xq_reserve`]). It never returns: the worker ends with the
/// page's engine worker.
// SAFETY: as for `xq_input`.
#[cfg(target_feature = "atomics")]
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn xq_serve_helper() {
    host::install_clock();
    report_panics();
    xiangqi_engine::helpers::LENT.serve()
}

/// How many helper workers the engine can use at most: the host lends no more.
// SAFETY: as for `xq_input`.
#[cfg(target_feature = "atomics")]
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn xq_max_helpers() -> usize {
    commands::MAX_THREADS - 1
}

/// How many helper workers serve ([`xq_serve_helper`]).
// SAFETY: as for `xq_input`.
#[cfg(target_feature = "atomics")]
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn xq_helpers() -> usize {
    xiangqi_engine::helpers::LENT.lent()
}

/// Where the flag that stops the running search is in the module's memory (one byte,
/// `xiangqi_engine::helpers::HOST_STOP`): another worker sharing the memory sets it, since this
/// one is busy searching; the host clears it before the next search.
// SAFETY: as for `xq_input`.
#[cfg(target_feature = "atomics")]
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn xq_stop_flag() -> usize {
    std::ptr::from_ref(&xiangqi_engine::helpers::HOST_STOP) as usize
}

/// Where the flag that pauses the running search is in the module's memory (one byte,
/// `xiangqi_engine::helpers::HOST_PAUSE`): another worker sharing the memory sets it while the
/// game's clock is paused and clears it on Resume; the host clears it before the next search.
// SAFETY: as for `xq_input`.
#[cfg(target_feature = "atomics")]
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn xq_pause_flag() -> usize {
    std::ptr::from_ref(&xiangqi_engine::helpers::HOST_PAUSE) as usize
}

/// Reserves `len` bytes of the module's memory for good, aligned to 16, and returns where they
/// start: a helper instance's stack and thread-local storage (the host ends the whole memory
/// with its workers).
// SAFETY: as for `xq_input`.
#[cfg(target_feature = "atomics")]
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn xq_reserve(len: usize) -> usize {
    let block: &'static mut [u128] = vec![0u128; len.div_ceil(16)].leak();
    block.as_mut_ptr() as usize
}

/// Hands a panic's message to the host as a report `{"panic": "…"}` before the module stops
/// (a browser build aborts on a panic), so that the worker can say what went wrong.
fn report_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            host::emit(&serde_json::json!({ "panic": info.to_string() }).to_string());
        }));
    });
}

/// Where the answer of the last [`xq_call`] starts in the module's memory.
// SAFETY: as for `xq_input`.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn xq_output() -> usize {
    OUTPUT.with_borrow(|output| output.as_ptr() as usize)
}

/// What the module asks of its host: a clock and a way to report progress.
#[cfg(target_arch = "wasm32")]
mod host {
    #[link(wasm_import_module = "xiangqi")]
    // SAFETY: both imports take plain numbers and read nothing the module does not own: `emit`
    // copies `len` bytes starting at `ptr` out of the module's memory before it returns.
    #[allow(unsafe_code)]
    unsafe extern "C" {
        /// Milliseconds since a fixed moment (the worker's `performance.now()`).
        #[link_name = "now"]
        safe fn host_now() -> f64;
        /// Hands the host one progress report, UTF-8 JSON, at `ptr`, `len` bytes long.
        #[link_name = "emit"]
        safe fn host_emit(ptr: usize, len: usize);
    }

    /// Names the host's clock as the engine's (once; later calls change nothing).
    pub fn install_clock() {
        xiangqi_engine::instant::set_source(|| host_now());
    }

    /// Hands one progress report to the host.
    pub fn emit(report: &str) {
        host_emit(report.as_ptr() as usize, report.len());
    }
}

/// Natively (the tests) the clock is the system's and reports go nowhere.
#[cfg(not(target_arch = "wasm32"))]
mod host {
    /// Nothing to do: native code has a clock.
    pub fn install_clock() {}

    /// Drops the report.
    pub fn emit(_report: &str) {}
}
