//! # xo-core
//!
//! Rules and exact engines for *placement games*: two players take turns putting marks on the cells
//! of a strip or grid, and whoever first completes a pattern wins. Tic-tac-toe, the LOL letter game
//! and Treblecross are members of the family; impartial ones (Treblecross) are also octal games.
//!
//! The crate does no I/O and no printing. Data flows one way: text is parsed into an unchecked
//! setup, validated into a position, handed to an engine, and the engine returns a plain value that
//! binaries render.
//!
//! - [`budget`]: the one budget every job runs under, and how a job says it stopped.
//! - [`value`]: game-theoretic values relative to the player to move.
//! - [`game`]: the [`GameTree`](game::GameTree) trait every engine is generic over.
//! - [`games`]: fast representations of concrete games (bitboards, strips, heaps).
//! - [`request`]: the one request type every front end fills (CLI flags, HTTP parameters, JSON).
//! - [`query`]: the one entry point: a request prepared into a plan (the engine chosen, holding
//!   its checked input), an answer (or the budget reached) out.
//! - [`threads`]: the one thread policy.
//! - [`solve`]: the engines (counting, reachability, Grundy values, LOL search).
//!
//! ```
//! use xo_core::games::board::Board;
//! use xo_core::rules::parse_game;
//! use xo_core::solve::count::count_games;
//! use xo_core::game::GameTree;
//!
//! let ttt = Board::new(&parse_game("tictactoe").unwrap()).unwrap();
//! let counts = count_games(&ttt, &ttt.start());
//! assert_eq!((counts.first, counts.second, counts.draws), (131_184, 77_904, 46_080));
//! ```

pub mod budget;
pub mod game;
pub mod games;
pub mod query;
pub mod request;
pub mod rules;
pub mod solve;
pub mod threads;
pub mod value;

pub use value::Value;
