//! Graceful shutdown: one trigger, many listeners, in two phases.
//!
//! The metrics endpoint and every connection hold a [`Shutdown`]. When the
//! server's stop future resolves (SIGINT or SIGTERM in `sudokit serve`, a
//! channel in tests), the server stops accepting and fires the [`Trigger`]:
//! each connection stops taking requests (what the client still sends is
//! read and discarded, so that closing never resets the connection and
//! destroys replies in flight), answers every request it has already read,
//! shuts its write side down, and closes once the client has everything.
//! Each connection also holds a [`DrainGuard`]; the server waits until all
//! of them are dropped, but only for the shutdown grace: when it expires, or
//! a second signal comes, [`Trigger::force`] closes every connection at once
//! and the requests left unanswered are counted.

use tokio::sync::{mpsc, watch};

/// The phases of a shutdown.
const RUNNING: u8 = 0;
/// Answer what was read, then close.
const GRACEFUL: u8 = 1;
/// Close now.
const FORCED: u8 = 2;

/// Fires the shutdown; firing twice is harmless.
#[derive(Clone, Debug)]
pub struct Trigger(watch::Sender<u8>);

impl Trigger {
    /// A trigger that has not fired; listeners come from [`Trigger::subscribe`].
    pub fn new() -> Trigger {
        Trigger(watch::channel(RUNNING).0)
    }

    /// Starts the graceful shutdown.
    pub fn fire(&self) {
        self.0.send_if_modified(|phase| {
            let changed = *phase < GRACEFUL;
            *phase = (*phase).max(GRACEFUL);
            changed
        });
    }

    /// Closes every connection now, whatever it still has to answer.
    pub fn force(&self) {
        self.0.send_replace(FORCED);
    }

    /// Another listener of this shutdown.
    pub fn subscribe(&self) -> Shutdown {
        Shutdown(self.0.subscribe())
    }
}

impl Default for Trigger {
    fn default() -> Trigger {
        Trigger::new()
    }
}

/// Learns that the shutdown has started.
#[derive(Clone, Debug)]
pub struct Shutdown(watch::Receiver<u8>);

impl Shutdown {
    /// Resolves once the shutdown has started (at once if it already has, or
    /// if the trigger is gone).
    pub async fn wait(&mut self) {
        let _ = self.0.wait_for(|&phase| phase >= GRACEFUL).await;
    }

    /// Resolves once the shutdown has been forced (at once if it already
    /// has; never if the trigger is gone without forcing).
    pub async fn forced(&mut self) {
        if self.0.wait_for(|&phase| phase >= FORCED).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Held by each connection; [`Drain::wait`] returns once all are dropped.
#[derive(Clone, Debug)]
pub struct DrainGuard {
    /// Keeps the channel open while the connection lives.
    _sender: mpsc::Sender<()>,
}

/// Waits for every [`DrainGuard`] to be dropped.
#[derive(Debug)]
pub struct Drain {
    /// Cloned into each guard; dropped by [`Drain::wait`].
    sender: mpsc::Sender<()>,
    /// Closes once every sender is gone.
    done: mpsc::Receiver<()>,
}

impl Drain {
    /// A drain with no guards handed out yet.
    pub fn new() -> Drain {
        let (sender, done) = mpsc::channel(1);
        Drain { sender, done }
    }

    /// A guard to hand to a connection.
    pub fn guard(&self) -> DrainGuard {
        DrainGuard {
            _sender: self.sender.clone(),
        }
    }

    /// Resolves when every guard handed out has been dropped.
    pub async fn wait(self) {
        let Drain { sender, mut done } = self;
        drop(sender);
        let _ = done.recv().await;
    }
}

impl Default for Drain {
    fn default() -> Drain {
        Drain::new()
    }
}
