//! The HTTP server loop: connections with time limits, a cap on how many are open, and a
//! shutdown that does not wait for clients that stopped talking.
//!
//! `axum::serve` holds a connection for as long as its client likes: a client that sends half
//! a request and stops keeps its connection (and a file descriptor) forever, and shutting down
//! waits for it. Here each connection must send its request head within [`HEADER_TIMEOUT`]
//! (the router's own middleware bounds the body, see [`super::limits::BODY_TIMEOUT`]) and read its
//! answer with no pause longer than [`WRITE_TIMEOUT`]; a head hyper could not read is answered
//! in JSON before hyper sees it (`super::stream`); at most [`MAX_CONNECTIONS`] are open, the
//! rest wait in the listen queue until one closes; and on shutdown, requests being answered get
//! [`SHUTDOWN_GRACE`] to finish, while idle connections and half-sent requests are simply
//! dropped.

use super::stream::ClientStream;
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// How long a client has to send a request's head (its first line and headers); also how long
/// an idle kept-alive connection stays open.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest a client may leave its answer unread (no byte taken) before its connection is
/// dropped, with the answer and its memory.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Most connections open at once. Well below the common limit of 1,024 file descriptors (and
/// the 256 of some systems), leaving room for game files and the browser's own connections.
pub const MAX_CONNECTIONS: usize = 128;
/// How long a shutdown waits for requests being answered before it closes their connections.
pub const SHUTDOWN_GRACE: Duration = Duration::from_millis(1500);
/// Pause after the system refused to accept a connection (out of file descriptors, say), so the
/// loop does not spin while it lasts.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Counts a request as being answered while it lives (dropped also when the client goes away
/// and the handler with it).
struct Answering(Arc<watch::Sender<usize>>);

impl Answering {
    fn new(count: &Arc<watch::Sender<usize>>) -> Answering {
        count.send_modify(|n| *n += 1);
        Answering(Arc::clone(count))
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n -= 1);
    }
}

/// The limits of [`serve`]; the defaults are the constants above (tests shorten them).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// See [`HEADER_TIMEOUT`].
    pub header_timeout: Duration,
    /// See [`WRITE_TIMEOUT`].
    pub write_timeout: Duration,
    /// See [`MAX_CONNECTIONS`].
    pub max_connections: usize,
    /// See [`SHUTDOWN_GRACE`].
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: HEADER_TIMEOUT,
            write_timeout: WRITE_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
            shutdown_grace: SHUTDOWN_GRACE,
        }
    }
}

/// Serves `router` on `listener` until `shutdown` completes; then lets the requests being
/// answered finish, for at most the shutdown grace, and returns, dropping every connection.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let (answering, answered) = watch::channel(0usize);
    let answering = Arc::new(answering);
    let counted = Arc::clone(&answering);
    let router = router.layer(middleware::from_fn(move |request: Request, next: Next| {
        let answering = Answering::new(&counted);
        async move {
            let response = next.run(request).await;
            drop(answering);
            response
        }
    }));
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (closing, closing_seen) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        // Wait for a free slot before accepting: a client beyond the cap waits in the listen
        // queue instead of taking a descriptor.
        let slot = tokio::select! {
            slot = Arc::clone(&slots).acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of file descriptors, or a client that gave up while queued: the
                    // first passes when connections close, the second costs nothing to wait.
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Small answers to a local page: send them at once.
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let mut closing_seen = closing_seen.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .serve_connection(
                    TokioIo::new(ClientStream::new(stream, limits.write_timeout)),
                    service,
                );
            tokio::pin!(connection);
            let closing = async {
                let _ = closing_seen.wait_for(|closing| *closing).await;
            };
            tokio::select! {
                _ = connection.as_mut() => return,
                () = closing => {}
            }
            // Idle connections close now; one answering a request closes after it.
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    let _ = closing.send(true);
    let mut answered = answered;
    let _ = tokio::time::timeout(limits.shutdown_grace, answered.wait_for(|n| *n == 0)).await;
    drop(answering);
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;
    use tokio::sync::oneshot;

    /// A server of one page with `limits`, stopped by sending on the returned channel; the
    /// task ends when `serve` returns.
    async fn start(limits: Limits) -> (String, oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let router = Router::new()
            .route("/", get(|| async { "ok" }))
            .route("/big", get(|| async { vec![b'x'; BIG] }));
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(serve(listener, router, limits, async {
            let _ = stopped.await;
        }));
        (address, stop, task)
    }

    /// A connection that sent half a request head and nothing more.
    async fn half_sent(address: &str) -> TcpStream {
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .await
            .unwrap();
        stream
    }

    /// Reads until the server closes; what it sent.
    async fn read_to_close(stream: &mut TcpStream) -> String {
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
            .await
            .expect("the server never closed the connection");
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// The size of `/big`: more than the socket buffers of both ends hold.
    const BIG: usize = 32 << 20;

    #[tokio::test]
    async fn a_request_head_hyper_cannot_read_is_answered_in_json() {
        let (address, _stop, _task) = start(short(8)).await;
        let heads = [
            ("GET / HTTP/1.1 extra\r\nHost: a\r\n\r\n", "400"),
            (
                "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: zz\r\n\r\n",
                "400",
            ),
            (
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
                "411",
            ),
        ];
        for (head, status) in heads {
            let mut stream = TcpStream::connect(&address).await.unwrap();
            stream.write_all(head.as_bytes()).await.unwrap();
            let answer = read_to_close(&mut stream).await;
            assert!(
                answer.starts_with(&format!("HTTP/1.1 {status} ")),
                "{answer}"
            );
            let body = answer.split("\r\n\r\n").nth(1).unwrap();
            let json: serde_json::Value = serde_json::from_str(body).unwrap();
            assert!(
                json["message"].as_str().is_some_and(|m| !m.is_empty()),
                "{answer}"
            );
        }
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(100_000));
        let mut stream = TcpStream::connect(&address).await.unwrap();
        let _ = stream.write_all(long.as_bytes()).await;
        let answer = read_to_close(&mut stream).await;
        assert!(answer.starts_with("HTTP/1.1 414 "), "{answer}");
        // A good request on a kept-alive connection after a good one is still served.
        let mut stream = TcpStream::connect(&address).await.unwrap();
        let two = "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
        stream.write_all(two.as_bytes()).await.unwrap();
        let answer = read_to_close(&mut stream).await;
        assert_eq!(answer.matches("HTTP/1.1 200 OK").count(), 2, "{answer}");
    }

    #[tokio::test]
    async fn a_client_that_does_not_read_is_dropped_after_the_write_timeout() {
        let (address, _stop, _task) = start(short(8)).await;
        let mut stream = TcpStream::connect(&address).await.unwrap();
        stream
            .write_all(b"GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
            .await
            .unwrap();
        // Far longer than the write timeout, with nothing read.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
            .await
            .expect("the server kept the connection open");
        assert!(
            answer.len() < BIG,
            "the whole answer was sent ({} bytes)",
            answer.len()
        );
    }

    fn short(max_connections: usize) -> Limits {
        Limits {
            header_timeout: Duration::from_millis(300),
            write_timeout: Duration::from_millis(300),
            max_connections,
            shutdown_grace: Duration::from_millis(300),
        }
    }

    #[tokio::test]
    async fn a_half_sent_request_is_dropped_after_the_header_timeout() {
        let (address, _stop, _task) = start(short(8)).await;
        let mut stream = half_sent(&address).await;
        let answer = read_to_close(&mut stream).await;
        assert!(!answer.contains("200 OK"), "{answer}");
    }

    #[tokio::test]
    async fn connections_beyond_the_cap_wait_for_a_free_slot() {
        let (address, _stop, _task) = start(short(2)).await;
        let _first = half_sent(&address).await;
        let _second = half_sent(&address).await;
        // The third waits in the listen queue until a half-sent one times out.
        let mut third = TcpStream::connect(&address).await.unwrap();
        third
            .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let answer = read_to_close(&mut third).await;
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
        assert!(answer.ends_with("ok"), "{answer}");
    }

    #[tokio::test]
    async fn shutdown_does_not_wait_for_clients_that_stopped_talking() {
        let limits = Limits {
            header_timeout: Duration::from_secs(600),
            ..short(8)
        };
        let (address, stop, task) = start(limits).await;
        let _stalled = half_sent(&address).await;
        let mut idle = TcpStream::connect(&address).await.unwrap();
        idle.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .await
            .unwrap();
        let mut head = [0; 15];
        idle.read_exact(&mut head).await.unwrap();
        assert_eq!(&head, b"HTTP/1.1 200 OK");
        stop.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .expect("the server waited for its clients")
            .unwrap();
    }
}
