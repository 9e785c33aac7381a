//! The type of a Grundy value, in a file of its own so that every part of the engine names it
//! from here rather than from the module that declares and re-exports the parts.

/// A Grundy value. Octal games studied so far stay far below 2^16 for the heaps one can compute.
pub type Grundy = u32;
