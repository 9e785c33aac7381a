//! Temporary folders, and a folder's files.

use std::path::{Path, PathBuf};

pub use tempfile::{tempdir, TempDir};

/// A fresh folder path under the system's temporary folder, named after the test process and
/// `name` (removed first if a previous run left it; not created): for a folder that must
/// outlive a [`TempDir`] handle, as when several processes share it.
pub fn fresh(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A path as an argument (test paths are UTF-8).
pub fn arg(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Every file in `dir`, sorted by name, with its bytes: to compare two runs' folders.
pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}
