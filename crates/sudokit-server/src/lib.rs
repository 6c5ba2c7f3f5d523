//! # sudokit-server
//!
//! The solving service of SPEC §5 and its load client, kept out of the
//! `sudokit` library so that tokio stays out of the core.
//!
//! The server speaks muduo's sudoku protocol (`[id:]puzzle\r\n` →
//! `[id:]solution\r\n`, examples/sudoku in chenshuo/muduo), extended with
//! sliding puzzles:
//!
//! - [`protocol`]: a request line to its reply, pure and synchronous;
//! - [`connection`]: one client: line framing, ordered replies, pipelining,
//!   backpressure, the idle timeout;
//! - [`outbox`]: a connection's replies in order, written by the worker that
//!   completes the front;
//! - [`pool`]: the worker threads that do the solving, one queue per
//!   connection served round-robin, heavy work in a lane of its own;
//! - [`slots`]: the connection limits (server-wide and per address), making
//!   room by closing idle connections first;
//! - [`server`]: the listener and graceful shutdown ([`shutdown`]);
//! - [`metrics`]: Prometheus counters at `/metrics`;
//! - [`load`]: the load client (`sudokit load`), closed or open loop;
//! - [`addr`]: the address forms both accept (`HOST:PORT`, `:PORT` …).

pub mod addr;
pub mod connection;
pub mod load;
pub mod metrics;
pub mod outbox;
pub mod pool;
pub mod protocol;
pub mod server;
pub mod shutdown;
pub mod slots;
