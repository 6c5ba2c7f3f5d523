//! Helpers shared by integration tests (and `#[path]`-included by benches).

#[cfg(feature = "sat")]
pub mod sat;
