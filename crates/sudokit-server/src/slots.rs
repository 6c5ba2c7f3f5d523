//! Connection slots: the server-wide and per-peer-address limits, and
//! making room by closing idle connections first.
//!
//! Every connection holds a [`Slot`] while it is open. When a new client
//! arrives and the server (or the client's address) is at its limit, the
//! connection that has been idle longest — no request in flight, no complete
//! request line and no reply written for at least [`Slots::min_idle`] — is
//! closed to make room; only when no connection is idle is the newcomer
//! refused. A byte of a line that never ends is not activity, so a
//! slowloris client is idle however often it sends. Candidates are sampled
//! (up to [`SAMPLE`] per admission), so admitting costs the same with ten or
//! ten thousand connections open.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// How many open connections an admission at a limit looks at for one to
/// close.
pub const SAMPLE: usize = 64;

/// What a connection's handler tells the slots about itself.
#[derive(Debug)]
pub struct Activity {
    /// When it last read a complete request or wrote a reply, in
    /// milliseconds since the slots were made.
    last_ms: AtomicU64,
    /// Whether it has requests in flight (never closed to make room then).
    busy: AtomicBool,
    /// Set when it was chosen to make room.
    evicted: AtomicBool,
    /// Wakes its handler when evicted.
    wake: Notify,
}

impl Activity {
    /// Resolves once this connection has been chosen to make room.
    pub async fn evicted(&self) {
        loop {
            let notified = self.wake.notified();
            if self.evicted.load(Ordering::Acquire) {
                return;
            }
            notified.await;
        }
    }
}

/// A connection's place among the open ones; dropping it frees the place.
pub struct Slot {
    /// Where it was taken.
    slots: Arc<Slots>,
    /// Its key there.
    key: u64,
    /// What the handler reports.
    activity: Arc<Activity>,
}

impl Slot {
    /// The handler's report to the slots.
    pub fn activity(&self) -> &Arc<Activity> {
        &self.activity
    }

    /// Records the connection's latest activity (`at`) and whether it has
    /// requests in flight.
    pub fn report(&self, at: Instant, busy: bool) {
        let ms = self.slots.millis(at);
        self.activity.last_ms.store(ms, Ordering::Relaxed);
        self.activity.busy.store(busy, Ordering::Relaxed);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut inner = self.slots.lock();
        if let Some(entry) = inner.entries.remove(&self.key) {
            inner.leave(entry.peer);
        }
    }
}

/// Why a connection was not admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server is at `--max-connections` and none is idle.
    Full,
    /// The client's address is at `--max-connections-per-peer` and none of
    /// its connections is idle.
    PeerFull,
}

/// One open connection, as the slots see it.
struct Entry {
    /// The client's address.
    peer: IpAddr,
    /// Its handler's report.
    activity: Arc<Activity>,
}

/// The slots under the lock.
struct Inner {
    /// Open connections by key.
    entries: HashMap<u64, Entry>,
    /// Open connections per client address.
    per_peer: HashMap<IpAddr, usize>,
    /// The next key.
    next: u64,
}

impl Inner {
    /// Forgets one connection of `peer`.
    fn leave(&mut self, peer: IpAddr) {
        if let Some(count) = self.per_peer.get_mut(&peer) {
            *count -= 1;
            if *count == 0 {
                self.per_peer.remove(&peer);
            }
        }
    }
}

/// The open connections and their limits.
pub struct Slots {
    /// The connections.
    inner: Mutex<Inner>,
    /// Zero of the activity clock.
    epoch: Instant,
    /// Connections open at once.
    max_total: usize,
    /// Connections open at once from one address.
    max_per_peer: usize,
    /// How long a connection must have been idle to be closed for room.
    min_idle: Duration,
}

impl Slots {
    /// Slots for `max_total` connections, at most `max_per_peer` from one
    /// address; connections idle for `min_idle` may be closed to make room.
    pub fn new(max_total: usize, max_per_peer: usize, min_idle: Duration) -> Arc<Slots> {
        Arc::new(Slots {
            inner: Mutex::new(Inner {
                entries: HashMap::new(),
                per_peer: HashMap::new(),
                next: 0,
            }),
            // An hour back, so that activity reported at earlier instants
            // still orders correctly.
            epoch: Instant::now()
                .checked_sub(Duration::from_secs(3600))
                .unwrap_or_else(Instant::now),
            max_total: max_total.max(1),
            max_per_peer: max_per_peer.max(1),
            min_idle,
        })
    }

    /// How long a connection must have been idle to be closed for room.
    pub fn min_idle(&self) -> Duration {
        self.min_idle
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().entries.len()
    }

    /// A slot for a client at `peer`, closing the idlest connection (of that
    /// address when the address is at its limit) if the limit is reached;
    /// returns the slot and whether a connection was evicted for it.
    pub fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<(Slot, bool), Refusal> {
        let now = self.millis(Instant::now());
        let mut inner = self.lock();
        let mut evicted = false;
        let of_peer = inner.per_peer.get(&peer).copied().unwrap_or(0);
        if of_peer >= self.max_per_peer {
            if !self.evict(&mut inner, now, Some(peer)) {
                return Err(Refusal::PeerFull);
            }
            evicted = true;
        }
        if inner.entries.len() >= self.max_total {
            if !self.evict(&mut inner, now, None) {
                return Err(Refusal::Full);
            }
            evicted = true;
        }
        let key = inner.next;
        inner.next += 1;
        let activity = Arc::new(Activity {
            last_ms: AtomicU64::new(now),
            busy: AtomicBool::new(false),
            evicted: AtomicBool::new(false),
            wake: Notify::new(),
        });
        inner.entries.insert(
            key,
            Entry {
                peer,
                activity: Arc::clone(&activity),
            },
        );
        *inner.per_peer.entry(peer).or_insert(0) += 1;
        let slot = Slot {
            slots: Arc::clone(self),
            key,
            activity,
        };
        Ok((slot, evicted))
    }

    /// Closes the idlest of up to [`SAMPLE`] connections (of `peer`, if
    /// given) that have been idle for [`Slots::min_idle`]; `false` if none
    /// has.
    fn evict(&self, inner: &mut Inner, now: u64, peer: Option<IpAddr>) -> bool {
        let min_idle = u64::try_from(self.min_idle.as_millis()).unwrap_or(u64::MAX);
        let victim = inner
            .entries
            .iter()
            .filter(|(_, e)| peer.is_none_or(|p| e.peer == p))
            .take(SAMPLE)
            .filter(|(_, e)| !e.activity.busy.load(Ordering::Relaxed))
            .map(|(&key, e)| (e.activity.last_ms.load(Ordering::Relaxed), key))
            .filter(|&(last, _)| now.saturating_sub(last) >= min_idle)
            .min();
        let Some((_, key)) = victim else {
            return false;
        };
        let entry = inner.entries.remove(&key).expect("sampled from the map");
        inner.leave(entry.peer);
        entry.activity.evicted.store(true, Ordering::Release);
        entry.activity.wake.notify_one();
        true
    }

    /// `at` on the activity clock.
    fn millis(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.epoch).as_millis()).unwrap_or(u64::MAX)
    }

    /// Locks the slots; nothing under the lock panics.
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A warning logged at most once per interval, with how many times it
/// happened since the last one (refused connections, failed accepts: one
/// line each would let a flood fill the log).
pub struct RateLimited {
    /// What happened, for the log line.
    what: &'static str,
    /// When the last line was logged, and occurrences since.
    state: Mutex<(Option<Instant>, u64)>,
    /// The interval.
    every: Duration,
}

impl RateLimited {
    /// A warning about `what`, logged at most once per `every`.
    pub fn new(what: &'static str, every: Duration) -> RateLimited {
        RateLimited {
            what,
            state: Mutex::new((None, 0)),
            every,
        }
    }

    /// Counts one occurrence (with `detail`), logging if the interval has
    /// passed since the last line.
    pub fn note(&self, detail: &dyn std::fmt::Display) {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state.1 += 1;
        let now = Instant::now();
        if state
            .0
            .is_none_or(|last| now.duration_since(last) >= self.every)
        {
            tracing::warn!(count = state.1, last = %detail, "{}", self.what);
            *state = (Some(now), 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[test]
    fn makes_room_by_closing_the_idlest_connection() {
        let slots = Slots::new(2, 10, Duration::ZERO);
        let (old, _) = slots.admit(ip(1)).unwrap();
        let (recent, _) = slots.admit(ip(1)).unwrap();
        old.report(Instant::now() - Duration::from_secs(5), false);
        recent.report(Instant::now(), false);
        let (_new, evicted) = slots.admit(ip(2)).unwrap();
        assert!(evicted);
        assert!(old.activity().evicted.load(Ordering::Relaxed));
        assert!(!recent.activity().evicted.load(Ordering::Relaxed));
        assert_eq!(slots.open(), 2);
    }

    #[test]
    fn refuses_when_no_connection_is_idle() {
        let slots = Slots::new(1, 10, Duration::from_secs(60));
        let (busy, _) = slots.admit(ip(1)).unwrap();
        busy.report(Instant::now() - Duration::from_secs(600), true);
        assert_eq!(slots.admit(ip(2)).err(), Some(Refusal::Full));
        busy.report(Instant::now(), false);
        assert_eq!(slots.admit(ip(2)).err(), Some(Refusal::Full));
        drop(busy);
        assert!(slots.admit(ip(2)).is_ok());
    }

    #[test]
    fn one_address_makes_room_among_its_own_connections() {
        let slots = Slots::new(10, 2, Duration::from_secs(1));
        let (other, _) = slots.admit(ip(9)).unwrap();
        other.report(Instant::now() - Duration::from_secs(60), false);
        let (a, _) = slots.admit(ip(1)).unwrap();
        let (b, _) = slots.admit(ip(1)).unwrap();
        a.report(Instant::now() - Duration::from_secs(5), true);
        b.report(Instant::now() - Duration::from_secs(2), false);
        let (_c, evicted) = slots.admit(ip(1)).unwrap();
        assert!(evicted);
        assert!(b.activity().evicted.load(Ordering::Relaxed));
        assert!(!other.activity().evicted.load(Ordering::Relaxed));
        a.report(Instant::now(), true);
        assert_eq!(slots.admit(ip(1)).err(), Some(Refusal::PeerFull));
    }
}
