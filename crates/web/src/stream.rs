//! A client's connection as the server uses it: each request head is checked before hyper reads
//! it, and writes must make progress.
//!
//! hyper answers a request head it cannot parse (a garbled request line, a bad Content-Length,
//! a head or target too long) by itself, with an empty body, before any of our code runs; but
//! every error of this server is JSON. So the bytes a client sends pass through
//! [`ClientStream`], which parses each head with httparse (the parser hyper uses) before
//! handing it on, and answers a bad one itself with the API's JSON error, then ends the
//! connection. Bodies pass through as they come: their Content-Length says where the next head
//! starts. A request body in chunks (`Transfer-Encoding`) is refused: the page never sends one,
//! and its end could only be found by decoding it.
//!
//! A client that stops reading its answer would hold the connection, and the answer's memory,
//! for as long as it likes: a write that makes no progress for the write timeout fails, and
//! hyper drops the connection with the answer.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;
use xiangqi_play::error::ApiError;

/// Longest request head (request line and headers) accepted, in bytes: browsers send well under
/// 8 KiB, cookies of other programs on `localhost` included.
pub const MAX_HEAD: usize = 64 * 1024;
/// Longest request target (path and query) accepted, in bytes; the API's are under 200.
pub const MAX_TARGET: usize = 8 * 1024;
/// Most headers in one request (hyper's own limit).
const MAX_HEADERS: usize = 100;
/// Bytes read from the client at a time while looking for a head's end.
const READ_CHUNK: usize = 8 * 1024;

/// What the bytes at the start of a request say.
#[derive(Debug)]
enum Head {
    /// A whole, acceptable head of `len` bytes, followed by a body of `body` bytes.
    Complete { len: usize, body: u64 },
    /// Not all of the head has arrived.
    Partial,
    /// A head this server refuses; the error is the answer.
    Refused(ApiError),
}

/// Checks the request head at the start of `bytes`.
fn check_head(bytes: &[u8]) -> Head {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let len = match request.parse(bytes) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return partial(bytes),
        Err(httparse::Error::TooManyHeaders) => {
            return Head::Refused(ApiError::HeadTooLarge(format!(
                "more than {MAX_HEADERS} headers"
            )))
        }
        Err(e) => {
            return Head::Refused(ApiError::BadRequest(format!(
                "the request line or a header cannot be read ({e})"
            )))
        }
    };
    if len > MAX_HEAD {
        return Head::Refused(too_large_head());
    }
    if request.path.is_some_and(|p| p.len() > MAX_TARGET) {
        return Head::Refused(ApiError::TargetTooLong(MAX_TARGET));
    }
    let mut length: Option<u64> = None;
    for header in request.headers.iter() {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            return Head::Refused(ApiError::LengthRequired);
        }
        if header.name.eq_ignore_ascii_case("content-length") {
            // Several values (in one header or several) must all be the same number.
            for value in header.value.split(|&b| b == b',') {
                let value = value.trim_ascii();
                let parsed = std::str::from_utf8(value)
                    .ok()
                    .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|v| v.parse::<u64>().ok());
                match (parsed, length) {
                    (Some(n), None) => length = Some(n),
                    (Some(n), Some(seen)) if n == seen => {}
                    _ => {
                        return Head::Refused(ApiError::BadRequest(
                            "the Content-Length header is not one number".into(),
                        ))
                    }
                }
            }
        }
    }
    Head::Complete {
        len,
        body: length.unwrap_or(0),
    }
}

/// A head not yet complete: fine while it fits, refused once it cannot.
fn partial(bytes: &[u8]) -> Head {
    if bytes.len() <= MAX_HEAD {
        return Head::Partial;
    }
    // A first line that fills the whole allowance is a target too long.
    if !bytes[..MAX_HEAD].contains(&b'\n') {
        return Head::Refused(ApiError::TargetTooLong(MAX_TARGET));
    }
    Head::Refused(too_large_head())
}

fn too_large_head() -> ApiError {
    ApiError::HeadTooLarge(format!("longer than {MAX_HEAD} bytes"))
}

/// A refusal being written to the client; the connection ends after it.
struct Refusal {
    bytes: Vec<u8>,
    written: usize,
}

/// A connection whose request heads are checked before hyper reads them and whose writes must
/// make progress within a time limit (see the module's documentation).
pub struct ClientStream<S> {
    inner: S,
    /// Bytes read from the client and not yet handed on: the start of a head, or more.
    unread: Vec<u8>,
    /// Checked bytes waiting to be handed to hyper, from `handed` on.
    checked: Vec<u8>,
    handed: usize,
    /// Bytes of the current request's body still to pass through.
    body_left: u64,
    /// The answer to a refused head, while it is written.
    refusal: Option<Refusal>,
    /// Whether hyper is told the input has ended (after the client's end or a refusal).
    ended: bool,
    write_timeout: Duration,
    /// Running while a write waits for the client to read.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> ClientStream<S> {
    /// `inner` with its heads checked and writes that fail after `write_timeout` without
    /// progress.
    pub fn new(inner: S, write_timeout: Duration) -> ClientStream<S> {
        ClientStream {
            inner,
            unread: Vec::new(),
            checked: Vec::new(),
            handed: 0,
            body_left: 0,
            refusal: None,
            ended: false,
            write_timeout,
            stalled: None,
        }
    }

    /// Moves `n` bytes from the front of `unread` to the checked ones.
    fn pass_on(&mut self, n: usize) {
        if self.handed == self.checked.len() {
            self.checked.clear();
            self.handed = 0;
        }
        self.checked.extend(self.unread.drain(..n));
    }

    /// A write's outcome through the write timeout: progress stops the timer; waiting starts
    /// it, and fails once it has run out.
    fn timed<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let timeout = self.write_timeout;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(timer.as_mut().poll(cx));
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client did not read its answer in time",
        )))
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> ClientStream<S> {
    /// Writes `bytes` through the write timeout.
    fn poll_write_timed(&mut self, cx: &mut Context<'_>, bytes: &[u8]) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, bytes);
        self.timed(cx, polled)
    }

    /// Writes the refusal; once it is written, or cannot be, the input ends.
    fn poll_refuse(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        while let Some(refusal) = self.refusal.take() {
            let rest = refusal.bytes[refusal.written..].to_vec();
            match self.poll_write_timed(cx, &rest) {
                Poll::Pending => {
                    self.refusal = Some(refusal);
                    return Poll::Pending;
                }
                Poll::Ready(Ok(n)) if n > 0 && n < rest.len() => {
                    self.refusal = Some(Refusal {
                        written: refusal.written + n,
                        ..refusal
                    });
                }
                // Written whole, or the client is gone: either way this connection is over.
                Poll::Ready(_) => {}
            }
        }
        self.ended = true;
        Poll::Ready(())
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for ClientStream<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.refusal.is_some() {
                ready!(this.poll_refuse(cx));
            }
            if this.handed < this.checked.len() {
                let n = buf.remaining().min(this.checked.len() - this.handed);
                buf.put_slice(&this.checked[this.handed..this.handed + n]);
                this.handed += n;
                return Poll::Ready(Ok(()));
            }
            if this.ended {
                return Poll::Ready(Ok(()));
            }
            if this.body_left > 0 && !this.unread.is_empty() {
                let left = usize::try_from(this.body_left).unwrap_or(usize::MAX);
                let n = this.unread.len().min(left);
                this.body_left -= n as u64;
                this.pass_on(n);
                continue;
            }
            if this.body_left == 0 && !this.unread.is_empty() {
                match check_head(&this.unread) {
                    Head::Complete { len, body } => {
                        this.body_left = body;
                        this.pass_on(len);
                        continue;
                    }
                    Head::Refused(error) => {
                        this.unread.clear();
                        this.refusal = Some(Refusal {
                            bytes: error.http1_response(),
                            written: 0,
                        });
                        continue;
                    }
                    Head::Partial => {}
                }
            }
            // More bytes are needed: a body's, or the rest of a head.
            let mut chunk = [0u8; READ_CHUNK];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                // The client has finished sending; a head it left unfinished has nobody to
                // answer to.
                this.unread.clear();
                this.ended = true;
                continue;
            }
            this.unread.extend_from_slice(read.filled());
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for ClientStream<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().poll_write_timed(cx, bytes)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.timed(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.timed(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[test]
    fn heads_are_checked_like_hyper_would() {
        let complete = |bytes: &[u8]| match check_head(bytes) {
            Head::Complete { len, body } => (len, body),
            other => panic!("{other:?} for {:?}", String::from_utf8_lossy(bytes)),
        };
        let head = b"POST /api/games HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello";
        assert_eq!(complete(head), (head.len() - 5, 5));
        assert_eq!(complete(b"GET / HTTP/1.1\r\n\r\n").1, 0);
        let same = b"POST / HTTP/1.1\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\n";
        assert_eq!(complete(same).1, 3);
        assert!(matches!(
            check_head(b"GET / HTTP/1.1\r\nHost"),
            Head::Partial
        ));
        let status = |bytes: &[u8]| match check_head(bytes) {
            Head::Refused(e) => e.status().as_u16(),
            other => panic!("{other:?} for {:?}", String::from_utf8_lossy(bytes)),
        };
        assert_eq!(status(b"GARBAGE\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/9.9\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/1.1\r\nBad Header: x\r\n\r\n"), 400);
        for length in ["abc", "-1", "", "3, 4", "99999999999999999999999"] {
            let head = format!("POST / HTTP/1.1\r\nContent-Length: {length}\r\n\r\n");
            assert_eq!(status(head.as_bytes()), 400, "{length}");
        }
        let chunked = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
        assert_eq!(status(chunked), 411);
        let target = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_TARGET));
        assert_eq!(status(target.as_bytes()), 414);
        let endless_target = format!("GET /{}", "a".repeat(MAX_HEAD));
        assert_eq!(status(endless_target.as_bytes()), 414);
        let big = format!("GET / HTTP/1.1\r\nCookie: {}\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(status(big.as_bytes()), 431);
        let many: String = (0..=MAX_HEADERS).map(|i| format!("X-{i}: 1\r\n")).collect();
        assert_eq!(
            status(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()),
            431
        );
    }

    /// What a client sending `input` and then closing reads from a stream that echoes what it
    /// is handed, and what reached the reader.
    async fn through(input: &[u8]) -> (String, Vec<u8>) {
        let (mut client, server) = tokio::io::duplex(1 << 20);
        let mut stream = ClientStream::new(server, Duration::from_secs(5));
        client.write_all(input).await.unwrap();
        client.shutdown().await.unwrap();
        let mut handed = Vec::new();
        stream.read_to_end(&mut handed).await.unwrap();
        drop(stream);
        let mut answer = Vec::new();
        client.read_to_end(&mut answer).await.unwrap();
        (String::from_utf8_lossy(&answer).into_owned(), handed)
    }

    #[tokio::test]
    async fn good_requests_pass_whole_and_a_bad_one_is_answered_in_json() {
        let first = "POST /a HTTP/1.1\r\nContent-Length: 11\r\n\r\nGET / HTTP/";
        let second = "GET /b HTTP/1.1\r\n\r\n";
        let bad = "GET /c HTTP/1.1\r\nContent-Length: x\r\n\r\n";
        let (answer, handed) = through(format!("{first}{second}{bad}").as_bytes()).await;
        // The body that looks like a head is passed as a body.
        assert_eq!(handed, format!("{first}{second}").as_bytes());
        assert!(
            answer.starts_with("HTTP/1.1 400 Bad Request\r\n"),
            "{answer}"
        );
        assert!(
            answer.contains("content-type: application/json\r\n"),
            "{answer}"
        );
        assert!(answer.contains("connection: close\r\n"), "{answer}");
        let body = answer.split("\r\n\r\n").nth(1).unwrap();
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["error"], "bad_request");
        assert!(json["message"].as_str().unwrap().contains("Content-Length"));
    }

    #[tokio::test]
    async fn a_write_the_client_never_reads_fails_after_the_timeout() {
        let (_client, server) = tokio::io::duplex(64);
        let mut stream = ClientStream::new(server, Duration::from_millis(200));
        let big = vec![b'x'; 1 << 16];
        let error = stream.write_all(&big).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
    }
}
