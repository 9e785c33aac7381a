//! The web page, embedded in the binary: one self-contained HTML file (its script and style
//! inline), so the page needs nothing but this server.

use axum::http::header;
use axum::response::IntoResponse;

/// The page's bytes.
pub const INDEX: &str = include_str!("../page/index.html");

/// `GET /`: the page.
pub async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:",
            ),
        ],
        INDEX,
    )
}
