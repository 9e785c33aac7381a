//! The web page, embedded in the binary: the HTML file (its script and style inline), the
//! worker that runs xo's core in WebAssembly, the core itself (`xo_wasm_bg.wasm`, built from
//! `crates/xo-wasm` by `scripts/wasm.sh` and committed) and its wasm-bindgen glue. The page
//! needs nothing but this server, or nothing at all: [`write_static`] writes the same files for
//! any static file host (`xo page --out DIR`), where the page solves in the browser alone.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The page's bytes.
pub const INDEX: &str = include_str!("../page/index.html");

/// The worker script that runs the WebAssembly core.
pub const WORKER: &str = include_str!("../page/worker.js");

/// How the page asks xo's core (the server, or the WebAssembly core in its worker, with the
/// static copy's books): a classic script loaded before the page's own.
pub const CORE: &str = include_str!("../page/core.js");

/// The page's study tools (the game record, lines, count, check, nim-sequence): a classic
/// script beside the page's own.
pub const STUDY: &str = include_str!("../page/study.js");

/// The page's position editor: a classic script beside the page's own.
pub const EDITOR: &str = include_str!("../page/editor.js");

/// wasm-bindgen's glue for the WebAssembly core (a classic script, for the worker).
pub const GLUE: &str = include_str!("../page/xo_wasm.js");

/// The WebAssembly core: `crates/xo-wasm` for `wasm32-unknown-unknown`.
pub const WASM: &[u8] = include_bytes!("../page/xo_wasm_bg.wasm");

/// Every file of the page: its name (relative to the page), media type and bytes.
pub const FILES: [(&str, &str, &[u8]); 7] = [
    ("index.html", "text/html; charset=utf-8", INDEX.as_bytes()),
    ("core.js", "text/javascript; charset=utf-8", CORE.as_bytes()),
    ("study.js", "text/javascript; charset=utf-8", STUDY.as_bytes()),
    ("editor.js", "text/javascript; charset=utf-8", EDITOR.as_bytes()),
    ("worker.js", "text/javascript; charset=utf-8", WORKER.as_bytes()),
    ("xo_wasm.js", "text/javascript; charset=utf-8", GLUE.as_bytes()),
    ("xo_wasm_bg.wasm", "application/wasm", WASM),
];

/// What the page may load and run: its own files, its inline script and style, and
/// WebAssembly compiled from its own file.
const POLICY: &str = "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; \
     worker-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:";

/// Writes the page's files into `dir` (created when missing), ready for any static file host:
/// with no xo server behind it the page answers every question in the browser. Beside them go
/// the opening books xo ships ([`xo_store::book::shipped_files`]: `connect4.book`, 2.9 MB),
/// which the page fetches only when a game that consults one is opened. Each file goes
/// through the store's atomic writer: it replaces only a regular file (or none), never through a
/// symbolic link, a FIFO or a device, and every name is checked before the first is written.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("xo-page-doc-{}", std::process::id()));
/// let written = xo_server::page::write_static(&dir).unwrap();
/// assert_eq!(written.len(), 8);
/// assert!(dir.join("xo_wasm_bg.wasm").is_file());
/// assert!(dir.join("connect4.book").is_file());
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write_static(
    dir: &std::path::Path,
) -> Result<Vec<std::path::PathBuf>, xo_store::StoreError> {
    use std::io::Write;
    use xo_store::file::{check_output, AtomicFile};
    std::fs::create_dir_all(dir).map_err(|e| xo_store::StoreError::io("create", dir, e))?;
    let files: Vec<(&str, &[u8])> = FILES
        .iter()
        .map(|(name, _, bytes)| (*name, *bytes))
        .chain(xo_store::book::shipped_files())
        .collect();
    let paths: Vec<_> = files.iter().map(|(name, _)| dir.join(name)).collect();
    for path in &paths {
        check_output(path)?;
    }
    for (path, (_, bytes)) in paths.iter().zip(files) {
        let mut file = AtomicFile::create(path)?;
        file.write_all(bytes).map_err(|e| xo_store::StoreError::io("write", path, e))?;
        file.commit()?;
    }
    Ok(paths)
}

/// The page file's mark that no server serves it (a static copy answers in the browser).
pub const STATIC_MARK: &str = r#"<meta name="xo-server" content="no">"#;

/// The mark of the page as the server serves it: the page asks the server, with no probe.
pub const SERVER_MARK: &str = r#"<meta name="xo-server" content="yes">"#;

/// The page as the server serves it: [`INDEX`] with [`STATIC_MARK`] turned into
/// [`SERVER_MARK`] (the test `page_is_marked` checks the page has the mark once).
pub fn served_index() -> &'static str {
    static SERVED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SERVED.get_or_init(|| INDEX.replacen(STATIC_MARK, SERVER_MARK, 1))
}

fn file(name: &str) -> Response {
    let served = FILES.iter().find(|(n, _, _)| *n == name).map(|(n, kind, bytes)| {
        (*kind, if *n == "index.html" { served_index().as_bytes() } else { bytes })
    });
    match served {
        Some((kind, bytes)) => (
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, "no-cache"),
                (header::CONTENT_SECURITY_POLICY, POLICY),
            ],
            bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

/// `GET /`: the page.
pub async fn index() -> Response {
    file("index.html")
}

/// `GET /core.js`: how the page asks xo's core.
pub async fn core() -> Response {
    file("core.js")
}

/// `GET /study.js`: the page's study tools.
pub async fn study() -> Response {
    file("study.js")
}

/// `GET /editor.js`: the page's position editor.
pub async fn editor() -> Response {
    file("editor.js")
}

/// `GET /worker.js`: the worker that runs the WebAssembly core.
pub async fn worker() -> Response {
    file("worker.js")
}

/// `GET /xo_wasm.js`: wasm-bindgen's glue, loaded by the worker.
pub async fn glue() -> Response {
    file("xo_wasm.js")
}

/// `GET /xo_wasm_bg.wasm`: the WebAssembly core.
pub async fn wasm() -> Response {
    file("xo_wasm_bg.wasm")
}

#[cfg(test)]
mod tests {
    #[test]
    fn page_is_marked() {
        use super::*;
        assert_eq!(INDEX.matches(STATIC_MARK).count(), 1, "the page file says no server once");
        assert!(!INDEX.contains(SERVER_MARK));
        assert_eq!(served_index().matches(SERVER_MARK).count(), 1);
        assert!(!served_index().contains(STATIC_MARK));
    }
}
