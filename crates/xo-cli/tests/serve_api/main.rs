//! The HTTP API over a real socket: every endpoint with good, bad and over-budget requests,
//! statuses and bodies asserted, and every answer equal, byte for byte, to what `xo ... --json`
//! prints for the same question.
//!
//! One test binary, by concern: [`harness`] (asking the server and the command, and comparing),
//! [`answers`] (each endpoint and `/api/ask` answer as the command does), [`refusals`] (bad and
//! over-budget requests), [`stores`] (a loaded database and opening book) and [`connections`]
//! (slow, departed, trickling and stalled clients).

#[path = "../serving/mod.rs"]
mod serving;

mod answers;
mod connections;
mod harness;
mod refusals;
mod stores;
