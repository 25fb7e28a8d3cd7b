//! A request's JSON body or query read, and an answer written as JSON, with the errors the
//! server gives for bodies and queries it cannot read.

use crate::error::ApiError;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// A JSON body, or the error the server gives for one it cannot read.
pub fn read_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("invalid JSON body: {e}")))
}

/// A query (what follows `?`), or the error the server gives for one it cannot read.
pub fn read_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    serde_urlencoded::from_str(query)
        .map_err(|e| ApiError::BadRequest(format!("invalid query: {e}")))
}

/// `value` as JSON text.
pub fn to_json(value: &impl Serialize) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::Internal(e.to_string()))
}
