//! Every integration test of xo-core, one module per file, built as one test binary: the
//! engines' generic code is compiled and linked once rather than once per file (rebuilding them
//! took 125 s as 15 binaries, 28 s as one), and the tests share the cores while they run.
//! Run one file's tests with `cargo test -p xo-core --test all MODULE::`.

mod classic_reference;
mod connect4_reference;
mod count_reference;
mod foreign_positions;
mod gravity;
mod grundy;
mod heap_play;
mod import_circles;
mod line;
mod parsers_never_panic;
mod query;
mod random_rules;
mod request;
mod solve_reference;
mod strong;
