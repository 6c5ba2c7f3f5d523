//! [`Outcome`]: everything one assumption implies — Sudoku Explainer's
//! pair of sets "potentials on" and "potentials off", each implication
//! kept with the implications that caused it.

use std::cell::RefCell;

/// The most candidate keys (their index slots) a thread keeps in cleared
/// outcomes for later searches: 32 MiB of indexes, thousands of 9×9
/// outcomes, a few hundred 25×25 ones.
const MAX_SPARE_KEYS: usize = 8 << 20;

thread_local! {
    /// Cleared outcomes kept between searches on this thread: the rating
    /// runs thousands of searches, each needing hundreds of outcomes, and
    /// would otherwise allocate and grow every one afresh.
    static SPARE: RefCell<Vec<Outcome>> = const { RefCell::new(Vec::new()) };
}

/// No node: the slot of a candidate not (yet) implied.
pub(super) const NONE: u32 = u32::MAX;

/// Why a candidate is implied on or off. SE uses it to find what a chain
/// relies on when it is nested in another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The assumption a chain starts from.
    Assumed,
    /// The cell's other digits are off (on), or another digit is on (off).
    Cell,
    /// The digit's other places in the unit are off (on), or it is placed
    /// elsewhere in the unit (off).
    Unit(u16),
    /// A pattern in the grid as the chain has reduced it; the index of
    /// the nested chain in the engine's table, [`NONE`] for locked
    /// candidates, pairs and X-Wings.
    Advanced(u32),
}

/// One implication: a candidate on or off, why, and what implied it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// The candidate's cell.
    pub cell: u16,
    /// The candidate's digit.
    pub digit: u8,
    /// Whether the candidate is implied on (true) or off.
    pub on: bool,
    /// Why.
    pub cause: Cause,
    /// Where the node's parents start in [`Outcome::parents`].
    first_parent: u32,
    /// How many parents (the first is the main one).
    parent_count: u32,
}

/// The implications of one assumption, in the order found.
#[derive(Debug)]
pub(super) struct Outcome {
    /// Every node created, including the last one of a contradiction
    /// (which is not in the sets).
    nodes: Vec<Node>,
    /// The parents of all nodes, contiguous per node.
    parents: Vec<u32>,
    /// Candidates implied on, in order (SE's `toOn`).
    pub on: Vec<u32>,
    /// Candidates implied off, in order (SE's `toOff`).
    pub off: Vec<u32>,
    /// For each candidate key (see [`key`]), its node in the sets.
    index: Vec<u32>,
}

/// The key of a candidate on or off: `(cell × side + digit − 1) × 2 + on`.
pub(super) fn key(side: usize, cell: usize, digit: u8, on: bool) -> usize {
    (cell * side + usize::from(digit) - 1) * 2 + usize::from(on)
}

impl Outcome {
    /// Empty sets for a grid with `keys` candidate keys: one the thread
    /// kept (see [`Outcome::give_back`]) when it has one of that size.
    pub fn take(keys: usize) -> Outcome {
        let spare = SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            while let Some(outcome) = spare.pop() {
                if outcome.index.len() == keys {
                    return Some(outcome);
                }
            }
            None
        });
        spare.unwrap_or_else(|| Outcome::new(keys))
    }

    /// Keeps this outcome, cleared, for a later search on this thread.
    pub fn give_back(mut self, side: usize) {
        self.clear(side);
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            if (spare.len() + 1) * self.index.len() <= MAX_SPARE_KEYS {
                spare.push(self);
            }
        });
    }

    /// Empty sets for a grid with `keys` candidate keys.
    fn new(keys: usize) -> Outcome {
        Outcome {
            nodes: Vec::new(),
            parents: Vec::new(),
            on: Vec::new(),
            off: Vec::new(),
            index: vec![NONE; keys],
        }
    }

    /// Empties the sets, keeping the memory.
    pub fn clear(&mut self, side: usize) {
        for n in &self.nodes {
            self.index[key(side, usize::from(n.cell), n.digit, n.on)] = NONE;
        }
        self.nodes.clear();
        self.parents.clear();
        self.on.clear();
        self.off.clear();
    }

    /// The node of candidate `key` in the sets.
    pub fn get(&self, key: usize) -> Option<u32> {
        let id = self.index[key];
        (id != NONE).then_some(id)
    }

    /// Node `id`.
    pub fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    /// The parents of node `id`, the main one first.
    pub fn parents(&self, id: u32) -> &[u32] {
        let n = &self.nodes[id as usize];
        let start = n.first_parent as usize;
        &self.parents[start..start + n.parent_count as usize]
    }

    /// Creates a node (not yet in the sets); its id.
    pub fn create(
        &mut self,
        cell: usize,
        digit: u8,
        on: bool,
        cause: Cause,
        parents: &[u32],
    ) -> u32 {
        self.nodes.push(Node {
            cell: cell as u16,
            digit,
            on,
            cause,
            first_parent: self.parents.len() as u32,
            parent_count: parents.len() as u32,
        });
        self.parents.extend_from_slice(parents);
        (self.nodes.len() - 1) as u32
    }

    /// Puts node `id` in its set (on or off).
    pub fn insert(&mut self, side: usize, id: u32) {
        let n = self.nodes[id as usize];
        self.index[key(side, usize::from(n.cell), n.digit, n.on)] = id;
        if n.on {
            self.on.push(id);
        } else {
            self.off.push(id);
        }
    }

    /// The main path from the assumption to node `id`: each node's first
    /// parent, as SE draws a chain.
    pub fn path(&self, id: u32) -> Vec<Node> {
        let mut path = Vec::new();
        let mut at = id;
        loop {
            path.push(self.nodes[at as usize]);
            match self.parents(at).first() {
                Some(&p) => at = p,
                None => break,
            }
        }
        path.reverse();
        path
    }
}

/// Walks a node's distinct ancestors breadth first, as SE lists a chain
/// (`getChain`: the node, its parents, theirs …, each candidate once), with
/// reusable stamps. SE's complexity is the number of candidates walked.
#[derive(Debug, Default)]
pub(super) struct AncestorWalk {
    /// Stamp per candidate key.
    stamps: Vec<u32>,
    /// The current stamp.
    stamp: u32,
    /// The walk's queue.
    queue: Vec<u32>,
}

impl AncestorWalk {
    /// A walker for `keys` candidate keys.
    pub fn new(keys: usize) -> AncestorWalk {
        AncestorWalk {
            stamps: vec![0; keys],
            stamp: 0,
            queue: Vec::new(),
        }
    }

    /// Walks the distinct ancestors of node `id` (itself first), calling
    /// `each` once per candidate; their number.
    pub fn visit(
        &mut self,
        side: usize,
        outcome: &Outcome,
        id: u32,
        mut each: impl FnMut(u32),
    ) -> usize {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
        let mut count = 0;
        self.queue.clear();
        self.queue.push(id);
        let mut head = 0;
        while head < self.queue.len() {
            let at = self.queue[head];
            head += 1;
            let n = outcome.node(at);
            let k = key(side, usize::from(n.cell), n.digit, n.on);
            if self.stamps[k] == self.stamp {
                continue;
            }
            self.stamps[k] = self.stamp;
            count += 1;
            each(at);
            self.queue.extend_from_slice(outcome.parents(at));
        }
        count
    }
}
