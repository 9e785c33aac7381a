//! The integration tests of xo-store, one module per file, built as one test binary (compiled
//! and linked once). Run one module's tests with `cargo test -p xo-store --test all MODULE::`.

mod decoders_never_panic;
mod shipped_book;
mod shipped_sequence;
