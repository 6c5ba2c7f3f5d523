//! When a long computation must give up: a deadline, a cancel flag, or both.
//!
//! Most puzzles take microseconds, but a sparse 36×36 grid or an 80-move
//! 15-puzzle can take minutes. A service that runs them on a shared pool
//! bounds each one by a [`Budget`]: the engines check it now and then (every
//! few dozen guesses, every few thousand nodes) and give up once it is spent,
//! either because the time is up or because whoever asked has gone (its
//! connection closed, the server is shutting down).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A limit on one computation: it is spent once the deadline (if any) has
/// passed or the cancel flag (if any) has been raised.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Give up once this instant has passed.
    deadline: Option<Instant>,
    /// Give up once this flag is set (by another thread).
    cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// A budget that is never spent.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// A budget spent at `deadline`.
    pub fn until(deadline: Instant) -> Budget {
        Budget {
            deadline: Some(deadline),
            cancel: None,
        }
    }

    /// This budget, also spent once `flag` is set.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel = Some(flag);
        self
    }

    /// This budget, spent by `deadline` at the latest (the same cancel
    /// flag): a slice of a longer computation.
    pub fn sooner(&self, deadline: Instant) -> Budget {
        Budget {
            deadline: Some(self.deadline.map_or(deadline, |d| d.min(deadline))),
            cancel: self.cancel.clone(),
        }
    }

    /// The deadline, if there is one.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the computation should give up now. Reading the clock costs
    /// tens of nanoseconds, so callers check every so many steps, not every
    /// step.
    pub fn is_spent(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn spent_by_its_deadline_or_its_flag() {
        assert!(!Budget::unlimited().is_spent());
        assert!(Budget::until(Instant::now()).is_spent());
        let later = Budget::until(Instant::now() + Duration::from_secs(3600));
        assert!(!later.is_spent());
        // A slice ends at the earlier deadline and keeps the flag.
        let flag = Arc::new(AtomicBool::new(false));
        let long =
            Budget::until(Instant::now() + Duration::from_secs(3600)).with_cancel(flag.clone());
        let slice = long.sooner(Instant::now() + Duration::from_secs(60));
        assert!(slice.deadline() < long.deadline());
        assert_eq!(
            long.sooner(Instant::now() + Duration::from_secs(7200))
                .deadline(),
            long.deadline()
        );
        assert!(!slice.is_spent());
        flag.store(true, Ordering::Relaxed);
        assert!(slice.is_spent());
        assert!(Budget::unlimited().sooner(Instant::now()).is_spent());
        let flag = Arc::new(AtomicBool::new(false));
        let cancellable = later.with_cancel(Arc::clone(&flag));
        assert!(!cancellable.is_spent());
        flag.store(true, Ordering::Relaxed);
        assert!(cancellable.is_spent());
    }
}
