//! Helpers shared by integration tests (and `#[path]`-included by benches).

pub mod sat;
