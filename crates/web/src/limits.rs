//! The limits every request body is held to, in size and in time (the request head's are the
//! server's, in `super::server` and `super::stream`).

use std::time::Duration;

pub use xiangqi_play::error::BODY_LIMIT;
/// How long a client has to send a request's body once its head has arrived.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(20);
