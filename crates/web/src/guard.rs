//! Who may talk to the server: the `Host` and `Origin` checks.
//!
//! Two attacks reach a server on a person's own machine through their browser. A page of
//! another site can send it requests (cross-site request forgery): the browser names that
//! page's site in `Origin`, so changes must come from this server's own origin. And a page can
//! point its own domain name at this machine (DNS rebinding) to read the answers as its own
//! site: the browser then names that domain in `Host`, so only names that cannot be rebound —
//! IP addresses, `localhost` — and names the user allowed are accepted.
//!
//! A header the check cannot read (repeated, not visible ASCII) is refused, not ignored.

use axum::extract::Request;
use axum::http::{header, HeaderName, Method};
use axum::middleware::{self, Next};
use axum::response::IntoResponse;
use axum::Router;
use std::net::IpAddr;
use std::sync::Arc;
use xiangqi_play::error::ApiError;

/// The host names accepted besides IP addresses and `localhost`.
#[derive(Clone, Debug, Default)]
pub struct Guard {
    /// Lower-case names without a port (`--allow-host`).
    allowed: Vec<String>,
}

impl Guard {
    /// A guard that also accepts the host names `allowed` (any case, without a port).
    pub fn new(allowed: &[String]) -> Guard {
        Guard {
            allowed: allowed.iter().map(|n| n.to_ascii_lowercase()).collect(),
        }
    }

    /// Whether `authority` (`host[:port]`) names this server in a way that cannot be a
    /// rebound domain.
    fn accepts(&self, authority: &str) -> bool {
        let Some(host) = host_of(authority) else {
            return false;
        };
        let host = host.to_ascii_lowercase();
        host == "localhost" || ip_literal(&host) || self.allowed.contains(&host)
    }

    /// Whether `request` may go on; if not, the refusal to send.
    pub fn admit(&self, request: &Request) -> Result<(), ApiError> {
        let host = self.authority(request)?;
        if matches!(
            *request.method(),
            Method::GET | Method::HEAD | Method::OPTIONS
        ) {
            return Ok(());
        }
        // Browsers name the site a request comes from in `Sec-Fetch-Site` (and in `Origin`,
        // checked below); only this server's own page, or the person typing an address, may
        // make changes.
        let fetched_from = single(request, HeaderName::from_static("sec-fetch-site"))?;
        if fetched_from.is_some_and(|site| !matches!(site, "same-origin" | "none")) {
            return Err(cross_site());
        }
        let Some(origin) = single(request, header::ORIGIN)? else {
            // Browsers send Origin with every cross-site change; other programs are not
            // the danger here.
            return Ok(());
        };
        if origin_authority(origin).is_some_and(|authority| authority.eq_ignore_ascii_case(host)) {
            Ok(())
        } else {
            Err(cross_site())
        }
    }

    /// The `host[:port]` the request is addressed to, once it is one this server answers to:
    /// the target's own (`GET http://host/path`, which takes the place of `Host`) and the
    /// `Host` header must each be acceptable, and one of them must be there.
    fn authority<'r>(&self, request: &'r Request) -> Result<&'r str, ApiError> {
        let header = single(request, header::HOST)?;
        let target = request.uri().authority().map(|a| a.as_str());
        if target.is_none() && header.is_none() {
            return Err(ApiError::BadRequest(
                "the Host header is missing: name this server in it".into(),
            ));
        }
        for named in [target, header].into_iter().flatten() {
            if !self.accepts(named) {
                let name = xiangqi::excerpt(host_of(named).unwrap_or(named));
                return Err(ApiError::Forbidden(format!(
                    "unknown host name {name:?}: open the address the server printed, or start \
                     it with --allow-host {name} to use this name"
                )));
            }
        }
        Ok(target.or(header).unwrap_or_default())
    }
}

fn cross_site() -> ApiError {
    ApiError::Forbidden("requests from other sites are not accepted".into())
}

/// `router` refusing what `guard` does not admit.
pub fn guarded(router: Router, guard: Guard) -> Router {
    let guard = Arc::new(guard);
    router.layer(middleware::from_fn(move |request: Request, next: Next| {
        let verdict = guard.admit(&request);
        async move {
            match verdict {
                Ok(()) => next.run(request).await,
                Err(error) => error.into_response(),
            }
        }
    }))
}

/// The value of a header that may appear at most once, as visible ASCII.
fn single(request: &Request, name: HeaderName) -> Result<Option<&str>, ApiError> {
    let mut values = request.headers().get_all(&name).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(ApiError::BadRequest(format!(
            "the {name} header is given more than once"
        )));
    }
    value
        .to_str()
        .map(Some)
        .map_err(|_| ApiError::BadRequest(format!("the {name} header is not readable")))
}

/// The host of `host[:port]` (an IPv6 address keeps its brackets), if the syntax is right.
fn host_of(authority: &str) -> Option<&str> {
    if authority.is_empty() || authority.contains(['/', '@', ' ', '\t']) {
        return None;
    }
    let (host, port) = if authority.starts_with('[') {
        let end = authority.find(']')?;
        (&authority[..=end], &authority[end + 1..])
    } else {
        match authority.rsplit_once(':') {
            Some((host, _)) => (host, &authority[host.len()..]),
            None => (authority, ""),
        }
    };
    let port_ok = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.parse::<u16>().is_ok());
    (port_ok && !host.is_empty()).then_some(host)
}

/// Whether `host` is an IP address (`127.0.0.2`, `[::1]`).
fn ip_literal(host: &str) -> bool {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    bare.parse::<IpAddr>().is_ok_and(|ip| {
        // An IPv6 address must be written in brackets in a Host header.
        ip.is_ipv4() == (bare.len() == host.len())
    })
}

/// The `host[:port]` of an `http://` or `https://` origin; `None` for `null` or anything else.
fn origin_authority(origin: &str) -> Option<&str> {
    let lower = origin.get(..8).map(str::to_ascii_lowercase);
    let rest = if lower.as_deref().is_some_and(|p| p.starts_with("http://")) {
        &origin[7..]
    } else if lower.as_deref() == Some("https://") {
        &origin[8..]
    } else {
        return None;
    };
    host_of(rest).map(|_| rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn request(method: &str, headers: &[(&str, &[u8])]) -> Request {
        let mut builder = Request::builder().method(method).uri("/api/games");
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(Body::empty()).unwrap()
    }

    fn admitted(guard: &Guard, method: &str, headers: &[(&str, &[u8])]) -> bool {
        guard.admit(&request(method, headers)).is_ok()
    }

    #[test]
    fn ip_addresses_and_localhost_are_accepted_on_any_port() {
        let guard = Guard::default();
        for host in [
            "127.0.0.1:4000",
            "127.0.0.2:4000",
            "localhost:80",
            "LOCALHOST",
            "[::1]:4000",
            "192.168.1.20:8080",
        ] {
            assert!(
                admitted(&guard, "GET", &[("host", host.as_bytes())]),
                "{host}"
            );
        }
    }

    #[test]
    fn domain_names_are_refused_unless_allowed() {
        let guard = Guard::default();
        for host in [
            "evil.example:4000",
            "evil.example",
            "127.0.0.1.evil.example:4000",
        ] {
            assert!(
                !admitted(&guard, "GET", &[("host", host.as_bytes())]),
                "{host}"
            );
        }
        let guard = Guard::new(&["MyBox.local".to_owned()]);
        assert!(admitted(&guard, "GET", &[("host", b"mybox.local:8080")]));
        assert!(!admitted(&guard, "GET", &[("host", b"other.local:8080")]));
    }

    #[test]
    fn unreadable_or_repeated_headers_are_refused() {
        let guard = Guard::default();
        assert!(!admitted(&guard, "GET", &[("host", b"evil.example\xff")]));
        assert!(!admitted(&guard, "GET", &[("host", b"127.0.0.1:4000\xff")]));
        assert!(!admitted(
            &guard,
            "GET",
            &[("host", b"127.0.0.1:4000"), ("host", b"evil.example")]
        ));
        let host: (&str, &[u8]) = ("host", b"127.0.0.1:4000");
        assert!(!admitted(
            &guard,
            "POST",
            &[host, ("origin", b"http://127.0.0.1:4000\xff")]
        ));
        assert!(!admitted(
            &guard,
            "POST",
            &[
                host,
                ("origin", b"http://127.0.0.1:4000"),
                ("origin", b"http://evil.example")
            ]
        ));
        assert!(!admitted(&guard, "GET", &[("host", b"127.0.0.1:99999")]));
        assert!(!admitted(&guard, "GET", &[("host", b"user@127.0.0.1")]));
    }

    #[test]
    fn changes_must_come_from_this_servers_own_origin() {
        let guard = Guard::default();
        let host: (&str, &[u8]) = ("host", b"127.0.0.2:4000");
        assert!(admitted(
            &guard,
            "POST",
            &[host, ("origin", b"http://127.0.0.2:4000")]
        ));
        assert!(admitted(&guard, "DELETE", &[host]));
        for origin in [
            "http://evil.example",
            "http://127.0.0.1:4000",
            "http://127.0.0.2:4001",
            "null",
            "file://",
            "http://127.0.0.2:4000/path",
        ] {
            assert!(
                !admitted(&guard, "POST", &[host, ("origin", origin.as_bytes())]),
                "{origin}"
            );
        }
        // Reading is not a change; a foreign page cannot read the answer anyway.
        assert!(admitted(
            &guard,
            "GET",
            &[host, ("origin", b"http://evil.example")]
        ));
    }

    /// Without an Origin, a browser's `Sec-Fetch-Site` still says where a change comes from.
    #[test]
    fn changes_fetched_from_another_site_are_refused_without_an_origin() {
        let guard = Guard::default();
        let host: (&str, &[u8]) = ("host", b"127.0.0.1:4000");
        for site in ["cross-site", "same-site", "anything"] {
            let fetched = ("sec-fetch-site", site.as_bytes());
            assert!(!admitted(&guard, "POST", &[host, fetched]), "{site}");
            assert!(admitted(&guard, "GET", &[host, fetched]), "{site}");
        }
        for site in ["same-origin", "none"] {
            let fetched = ("sec-fetch-site", site.as_bytes());
            assert!(admitted(&guard, "POST", &[host, fetched]), "{site}");
        }
    }

    /// The host a request names is judged wherever it is named: in `Host`, or in the target
    /// itself (`GET http://host/path`); naming it nowhere is refused.
    #[test]
    fn the_targets_own_host_and_a_missing_host_are_judged() {
        let guard = Guard::default();
        let with_target = |target: &str, headers: &[(&str, &[u8])]| {
            let mut builder = Request::builder().method("GET").uri(target);
            for (name, value) in headers {
                builder = builder.header(*name, *value);
            }
            guard.admit(&builder.body(Body::empty()).unwrap())
        };
        let host: (&str, &[u8]) = ("host", b"127.0.0.1:4000");
        assert!(with_target("http://evil.example/api/games", &[host]).is_err());
        assert!(with_target("http://evil.example/api/games", &[]).is_err());
        assert!(with_target("http://127.0.0.1:4000/api/games", &[]).is_ok());
        assert!(with_target("http://127.0.0.1:4000/api/games", &[host]).is_ok());
        assert!(with_target("http://127.0.0.1:4000/", &[("host", b"evil.example")]).is_err());
        let missing = with_target("/api/games", &[]).unwrap_err();
        assert!(
            missing.to_string().contains("Host header is missing"),
            "{missing}"
        );
        // A change addressed by its target is compared with its origin like a Host.
        let post = Request::builder()
            .method("POST")
            .uri("http://localhost:4000/api/games")
            .header("origin", "http://localhost:4000")
            .body(Body::empty())
            .unwrap();
        assert!(guard.admit(&post).is_ok());
    }
}
