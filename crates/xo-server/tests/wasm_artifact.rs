//! The page's WebAssembly core is committed prebuilt (`page/xo_wasm_bg.wasm`, `page/xo_wasm.js`,
//! built by `scripts/wasm.sh`), so that building `xo` needs no WebAssembly toolchain. This test
//! keeps it honest: `page/wasm.hash` names the sources it was built from, and must be the hash
//! of the sources in this checkout (xo-core, xo-wasm, the workspace manifest and lock file).
//! `.ci/run` also rebuilds it (`scripts/wasm.sh --check`) and compares the bytes.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir`, recursively, as paths relative to the workspace root.
fn files(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let rel = path.strip_prefix(root()).unwrap().to_path_buf();
        if path.is_dir() {
            files(&rel, out);
        } else {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// CRC-32 of each source's path, length and bytes (`path NUL length NUL bytes`), in byte
/// order of the paths: what `scripts/wasm.sh` computes with `gzip` (whose trailer holds the
/// CRC-32 of its input), so the script needs nothing but the shell to write it.
fn sources_hash() -> String {
    let mut names = vec![
        "Cargo.toml".to_string(),
        "Cargo.lock".to_string(),
        "crates/xo-core/Cargo.toml".to_string(),
        "crates/xo-wasm/Cargo.toml".to_string(),
    ];
    files(Path::new("crates/xo-core/src"), &mut names);
    files(Path::new("crates/xo-wasm/src"), &mut names);
    names.sort();
    let mut crc = crc32fast::Hasher::new();
    for name in &names {
        let bytes = std::fs::read(root().join(name)).unwrap_or_else(|e| panic!("read {name}: {e}"));
        crc.update(name.as_bytes());
        crc.update(format!("\0{}\0", bytes.len()).as_bytes());
        crc.update(&bytes);
    }
    format!("crc32 {:08x} over {} files\n", crc.finalize(), names.len())
}

#[test]
fn committed_wasm_is_built_from_these_sources() {
    let page = root().join("crates/xo-server/page");
    let recorded = std::fs::read_to_string(page.join("wasm.hash")).expect("page/wasm.hash");
    assert_eq!(
        recorded,
        sources_hash(),
        "the committed WebAssembly core is older than xo-core or xo-wasm: run scripts/wasm.sh and commit crates/xo-server/page/"
    );
    let wasm = std::fs::read(page.join("xo_wasm_bg.wasm")).unwrap();
    assert_eq!(&wasm[..4], b"\0asm", "a WebAssembly module");
    let glue = std::fs::read_to_string(page.join("xo_wasm.js")).unwrap();
    assert!(glue.contains("wasm_bindgen"), "wasm-bindgen's glue for a classic worker");
}
