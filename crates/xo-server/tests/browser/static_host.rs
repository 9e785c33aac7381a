//! A plain static file host, for the copy of the page `xo page --out DIR` writes: no server,
//! no API.

use std::net::TcpListener;
use std::path::PathBuf;

/// A static file host for `dir` (what `xo page --out DIR` writes): GET of a file by name, 404
/// for anything else, such as the API. One thread per connection; lives as long as the test.
pub fn static_host(dir: PathBuf) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let dir = dir.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut first = String::new();
                if reader.read_line(&mut first).is_err() {
                    return;
                }
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                }
                let path = first.split_whitespace().nth(1).unwrap_or("/");
                let path = path.split(['?', '#']).next().unwrap_or("/");
                let name = if path == "/" { "index.html" } else { path.trim_start_matches('/') };
                let kind = match name.rsplit('.').next() {
                    Some("html") => "text/html; charset=utf-8",
                    Some("js") => "text/javascript",
                    Some("wasm") => "application/wasm",
                    _ => "application/octet-stream",
                };
                let file = (!name.contains('/') && !name.contains(".."))
                    .then(|| std::fs::read(dir.join(name)).ok())
                    .flatten();
                let (status, body) = match file {
                    Some(bytes) => ("200 OK", bytes),
                    None => ("404 Not Found", b"not found".to_vec()),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            });
        }
    });
    format!("http://{addr}")
}
