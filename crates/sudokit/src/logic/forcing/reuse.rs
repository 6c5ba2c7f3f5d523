//! [`OnChains`]: the chains from a candidate assumed on, kept between
//! their uses in one search.
//!
//! SE follows `cell = digit` once for the cell's own chains and again for
//! each region (box, row, column) whose forcing chains it starts; the
//! outcome is the same every time, since the grid is. Keeping it until its
//! last use saves most of the region chains.

use super::outcome::Outcome;

/// Cached outcomes beyond this many bytes (of their candidate index) are
/// recomputed instead of kept, which bounds the memory on big grids.
const MAX_BYTES: usize = 64 << 20;

/// An outcome and the contradiction its chain stopped at, if any.
pub(super) type Chained = (Outcome, Option<(u32, u32)>);

/// Chains from candidates on, by candidate (`cell × side + digit − 1`),
/// each kept until the cell of its last use is done.
pub(super) struct OnChains {
    /// The kept outcomes.
    slots: Vec<Option<Chained>>,
    /// The last cell whose search uses each candidate's chain.
    last_use: Vec<usize>,
    /// How many outcomes are kept.
    kept: usize,
    /// How many may be.
    capacity: usize,
}

impl OnChains {
    /// A cache for `candidates` candidates whose outcomes index `keys`
    /// candidate keys; nothing is kept until [`OnChains::will_use`] says
    /// when it will be used.
    pub fn new(candidates: usize, keys: usize) -> OnChains {
        OnChains {
            slots: (0..candidates).map(|_| None).collect(),
            last_use: vec![0; candidates],
            kept: 0,
            capacity: (MAX_BYTES / (keys * 4).max(1)).max(16),
        }
    }

    /// Records that the search of cell `at` uses the chain of `candidate`
    /// (calls must come in increasing `at`).
    pub fn will_use(&mut self, candidate: usize, at: usize) {
        self.last_use[candidate] = at;
    }

    /// The kept chain of `candidate`, taken out of the cache.
    pub fn take(&mut self, candidate: usize) -> Option<Chained> {
        let found = self.slots[candidate].take();
        if found.is_some() {
            self.kept -= 1;
        }
        found
    }

    /// Keeps `chained` for a later use of `candidate` in the search of
    /// cell `at` or after; gives it back when there is none or no room.
    pub fn keep(&mut self, candidate: usize, at: usize, chained: Chained) -> Option<Outcome> {
        if self.last_use[candidate] < at || self.kept == self.capacity {
            return Some(chained.0);
        }
        self.kept += 1;
        self.slots[candidate] = Some(chained);
        None
    }

    /// Gives back every outcome no search after cell `done` uses.
    pub fn release(&mut self, done: usize) -> Vec<Outcome> {
        let mut released = Vec::new();
        if self.kept == 0 {
            return released;
        }
        for (slot, &last) in self.slots.iter_mut().zip(&self.last_use) {
            if last <= done {
                if let Some((outcome, _)) = slot.take() {
                    released.push(outcome);
                }
            }
        }
        self.kept -= released.len();
        released
    }
}
