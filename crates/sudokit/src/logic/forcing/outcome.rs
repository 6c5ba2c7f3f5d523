//! [`Outcome`]: everything one assumption implies — Sudoku Explainer's
//! pair of sets "potentials on" and "potentials off", each implication
//! kept with the implications that caused it.

/// No node: the slot of a candidate not (yet) implied.
pub(super) const NONE: u32 = u32::MAX;

/// One implication: a candidate on or off, why, and what implied it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// The candidate's cell.
    pub cell: u16,
    /// The candidate's digit.
    pub digit: u8,
    /// Whether the candidate is implied on (true) or off.
    pub on: bool,
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
    /// Empty sets for a grid with `keys` candidate keys.
    pub fn new(keys: usize) -> Outcome {
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
    pub fn create(&mut self, cell: usize, digit: u8, on: bool, parents: &[u32]) -> u32 {
        self.nodes.push(Node {
            cell: cell as u16,
            digit,
            on,
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

/// Counts distinct ancestors with reusable stamps (SE's complexity counts
/// every candidate a conclusion depends on, itself included).
#[derive(Debug, Default)]
pub(super) struct AncestorCounter {
    /// Stamp per candidate key.
    stamps: Vec<u32>,
    /// The current stamp.
    stamp: u32,
    /// The walk's stack.
    stack: Vec<u32>,
}

impl AncestorCounter {
    /// A counter for `keys` candidate keys.
    pub fn new(keys: usize) -> AncestorCounter {
        AncestorCounter {
            stamps: vec![0; keys],
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// The number of distinct candidates (on or off) node `id` depends on,
    /// itself included.
    pub fn count(&mut self, side: usize, outcome: &Outcome, id: u32) -> usize {
        self.visit(side, outcome, id, |_| {})
    }

    /// Walks the distinct ancestors of node `id` (itself included), calling
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
        self.stack.clear();
        self.stack.push(id);
        while let Some(at) = self.stack.pop() {
            let n = outcome.node(at);
            let k = key(side, usize::from(n.cell), n.digit, n.on);
            if self.stamps[k] == self.stamp {
                continue;
            }
            self.stamps[k] = self.stamp;
            count += 1;
            each(at);
            self.stack.extend_from_slice(outcome.parents(at));
        }
        count
    }
}
