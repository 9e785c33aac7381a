//! The one shape of every refusal: a status and `{"error": "..."}` naming what is wrong.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A request the server refuses, with the status to send and a message naming the problem.
///
/// ```
/// use axum::http::StatusCode;
/// let e = xo_server::ApiError::bad_request("missing parameter: game");
/// assert_eq!(e.status, StatusCode::BAD_REQUEST);
/// assert_eq!(e.body(), r#"{"error":"missing parameter: game"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    /// The HTTP status (4xx for anything the client sent).
    pub status: StatusCode,
    /// What is wrong, for a person.
    pub message: String,
}

impl ApiError {
    /// An error with `status`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: clip(message.into()) }
    }

    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// The JSON body.
    pub fn body(&self) -> String {
        serde_json::json!({ "error": self.message }).to_string()
    }
}

/// Messages quote the input; keep them short whatever the client sent.
fn clip(message: String) -> String {
    match message.char_indices().nth(600) {
        Some((at, _)) => format!("{}... (cut)", &message[..at]),
        None => message,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = self.body();
        body.push('\n');
        (self.status, [(axum::http::header::CONTENT_TYPE, "application/json")], body)
            .into_response()
    }
}
