//! A request as the server receives it: a URL query string (GET, split into name=value pairs and
//! percent-decoded as a form) or a JSON body (POST), the first byte chooses; read, prepared and
//! answered under a small budget. Refused or answered, never a panic or a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::time::Duration;
use xo_core::budget::{Budget, Meter};
use xo_core::query::answer;
use xo_core::request::Request;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else { return };
    let request = if pick % 2 == 0 {
        let Ok(text) = std::str::from_utf8(body) else { return };
        let pairs = text.split('&').filter(|p| !p.is_empty()).map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name), decode(value))
        });
        Request::from_pairs(pairs.collect::<Vec<_>>())
    } else {
        serde_json::from_slice::<Request>(body)
            .map_err(|e| xo_core::query::InputError::Request(e.to_string()))
    };
    let Ok(mut request) = request else { return };
    // The server's own cap on what a request may ask for.
    request.threads = Some(1);
    let budget = Budget::default()
        .with_max_nodes(200_000)
        .with_timeout(Duration::from_secs(2))
        .with_memory(64 << 20);
    let Ok(budget) = request.budget(budget) else { return };
    let capped = Budget {
        max_nodes: budget.max_nodes.min(200_000),
        timeout: budget.timeout.min(Duration::from_secs(2)),
        memory_bytes: budget.memory_bytes.min(64 << 20),
    };
    if let Ok(query) = request.prepare(&[], xo_core::threads::Runner::Pool) {
        let _ = answer(&query, &Meter::new(capped));
    }
});

/// A form value's text: `+` is a space, `%XX` a byte (kept as is when malformed).
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz");
                match u8::from_str_radix(hex, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
