//! The integration tests of the `xo` command, one module per file (the HTTP server's in
//! `serve_api` and `serve_load`, the distributed solve's in `distributed`: each needs a feature),
//! built as one test binary: compiled and linked once rather than once per file, and sharing the
//! cores while they run. Run one module's tests with `cargo test -p xo-cli --test all MODULE::`.

mod bad_input_corpus;
mod batch_cli;
mod batch_never_panics;
mod book_cli;
mod cli;
mod crash;
mod grundy;
mod said_and_done;
mod store_cli;
mod strong_cli;
