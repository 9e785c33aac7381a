//! The helpers the API tests share: one request compared with the command's output, and one
//! request refused with a status and a message.

use crate::serving::{encode, xo, Server};
use serde_json::Value as Json;

/// The API's answer to `endpoint` with `params` must equal `xo ARGS --json`'s output.
pub fn same_as_cli(server: &Server, endpoint: &str, params: &[(&str, &str)], cli: &[&str]) {
    let query: Vec<String> = params.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect();
    let target = format!("/api/{endpoint}?{}", query.join("&"));
    let (status, body) = server.get(&target);
    let (printed, code) = xo(cli);
    assert!(code == 0 || code == 1, "xo {cli:?} exited {code}");
    assert_eq!(status, 200, "{target}: {body}");
    assert_eq!(body, printed, "{target} differs from xo {cli:?}");
}

/// `target` gets `status` and `{"error": ...}` containing `words`.
pub fn refused(server: &Server, target: &str, status: u16, words: &str) {
    let (got, body) = server.get(target);
    assert_eq!(got, status, "{target}: {body}");
    let json: Json =
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("{target}: not JSON: {body}"));
    let error = json["error"].as_str().unwrap_or_else(|| panic!("{target}: no error: {body}"));
    assert!(error.contains(words), "{target}: {error:?} lacks {words:?}");
}
