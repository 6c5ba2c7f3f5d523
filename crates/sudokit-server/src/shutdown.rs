//! Graceful shutdown: one trigger, many listeners.
//!
//! The listener and every connection hold a [`Shutdown`]. When the trigger
//! fires (SIGINT, SIGTERM, or a test dropping its handle), the listener stops
//! accepting and each connection stops reading, answers every request it has
//! already read, flushes, and closes. Each connection also holds a
//! [`DrainGuard`]; the server waits until all of them are dropped.

use tokio::sync::{mpsc, watch};

/// Fires the shutdown; firing twice is harmless.
#[derive(Clone, Debug)]
pub struct Trigger(watch::Sender<bool>);

impl Trigger {
    /// A trigger and the first listener of its shutdown.
    pub fn new() -> (Trigger, Shutdown) {
        let (tx, rx) = watch::channel(false);
        (Trigger(tx), Shutdown(rx))
    }

    /// Starts the shutdown.
    pub fn fire(&self) {
        self.0.send_replace(true);
    }

    /// Another listener of this shutdown.
    pub fn subscribe(&self) -> Shutdown {
        Shutdown(self.0.subscribe())
    }
}

/// Learns that the shutdown has started.
#[derive(Clone, Debug)]
pub struct Shutdown(watch::Receiver<bool>);

impl Shutdown {
    /// Whether the shutdown has started.
    pub fn is_started(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once the shutdown has started (at once if it already has, or
    /// if the trigger is gone).
    pub async fn wait(&mut self) {
        let _ = self.0.wait_for(|&started| started).await;
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
