//! [`Reach`]: which nodes of a directed graph reach which others, for
//! every node at once.
//!
//! A chain search from every candidate (SE's forcing chains) asks one
//! question per start: does the assumption reach its own opposite? On a
//! grid where none does, the answer for all starts together comes from the
//! graph's strongly connected components (Tarjan), each given the set of
//! nodes it reaches, in a small fraction of the searches' time.

/// Reachability over a graph of `n` nodes.
pub(super) struct Reach {
    /// The component of each node.
    component: Vec<u32>,
    /// Per component, the nodes it reaches (itself included), as `words`
    /// words of bits.
    reached: Vec<u64>,
    /// Words per component.
    words: usize,
}

/// No index yet (Tarjan's "unvisited").
const UNSEEN: u32 = u32::MAX;

/// The largest table of reached sets built, in words (64 MiB); bigger
/// graphs get no table.
const MAX_WORDS: usize = 8 << 20;

impl Reach {
    /// The reachability of the graph of `n` nodes whose successors of node
    /// `v` `successors(v, out)` pushes to `out`; `None` when the table
    /// would exceed [`MAX_WORDS`] words.
    pub fn new(n: usize, mut successors: impl FnMut(usize, &mut Vec<u32>)) -> Option<Reach> {
        let words = n.div_ceil(64);
        if words.saturating_mul(n) > MAX_WORDS {
            return None;
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut edges = Vec::new();
        start.push(0u32);
        for v in 0..n {
            successors(v, &mut edges);
            start.push(edges.len() as u32);
        }
        let mut reach = Reach {
            component: vec![UNSEEN; n],
            reached: Vec::new(),
            words,
        };
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut stack: Vec<u32> = Vec::new();
        let mut calls: Vec<(u32, u32)> = Vec::new();
        let mut next_index = 0u32;
        for root in 0..n as u32 {
            if index[root as usize] != UNSEEN {
                continue;
            }
            let mut entering = Some(root);
            loop {
                if let Some(v) = entering.take() {
                    index[v as usize] = next_index;
                    low[v as usize] = next_index;
                    next_index += 1;
                    stack.push(v);
                    calls.push((v, start[v as usize]));
                }
                let Some(&(v, at)) = calls.last() else {
                    break;
                };
                let vi = v as usize;
                if at < start[vi + 1] {
                    calls.last_mut().expect("not empty").1 += 1;
                    let w = edges[at as usize] as usize;
                    if index[w] == UNSEEN {
                        entering = Some(w as u32);
                    } else if reach.component[w] == UNSEEN {
                        // On the stack: in the component being built.
                        low[vi] = low[vi].min(index[w]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(u, _)) = calls.last() {
                    low[u as usize] = low[u as usize].min(low[vi]);
                }
                if low[vi] == index[vi] {
                    reach.close_component(v, &mut stack, &start, &edges);
                }
            }
        }
        Some(reach)
    }

    /// Pops the component rooted at `root` off `stack` and gives it the
    /// nodes it reaches: its own and those its edges lead to (components
    /// Tarjan has closed before).
    fn close_component(&mut self, root: u32, stack: &mut Vec<u32>, start: &[u32], edges: &[u32]) {
        let id = (self.reached.len() / self.words) as u32;
        let base = self.reached.len();
        self.reached.resize(base + self.words, 0);
        let first = stack
            .iter()
            .rposition(|&v| v == root)
            .expect("the root is on the stack");
        for &v in &stack[first..] {
            self.component[v as usize] = id;
            self.reached[base + v as usize / 64] |= 1 << (v % 64);
        }
        for &v in &stack[first..] {
            for &w in &edges[start[v as usize] as usize..start[v as usize + 1] as usize] {
                let other = self.component[w as usize] as usize;
                if other != id as usize {
                    let (done, row) = self.reached.split_at_mut(base);
                    let from = &done[other * self.words..(other + 1) * self.words];
                    for (a, b) in row.iter_mut().zip(from) {
                        *a |= b;
                    }
                }
            }
        }
        stack.truncate(first);
    }

    /// Whether nodes `a` and `b` reach each other (lie in one strongly
    /// connected component).
    pub fn same_component(&self, a: usize, b: usize) -> bool {
        self.component[a] == self.component[b]
    }

    /// Whether node `from` reaches node `to` (every node reaches itself).
    pub fn reaches(&self, from: usize, to: usize) -> bool {
        let row = self.component[from] as usize * self.words;
        self.reached[row + to / 64] >> (to % 64) & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Reachability by plain breadth-first search, for comparison.
    fn by_search(n: usize, edges: &[(usize, usize)], from: usize) -> Vec<bool> {
        let mut seen = vec![false; n];
        let mut queue = vec![from];
        seen[from] = true;
        while let Some(v) = queue.pop() {
            for &(a, b) in edges {
                if a == v && !seen[b] {
                    seen[b] = true;
                    queue.push(b);
                }
            }
        }
        seen
    }

    proptest! {
        #[test]
        fn agrees_with_a_search_from_every_node(
            n in 1usize..90,
            raw in proptest::collection::vec((0usize..90, 0usize..90), 0..200),
        ) {
            let edges: Vec<(usize, usize)> =
                raw.into_iter().map(|(a, b)| (a % n, b % n)).collect();
            let reach = Reach::new(n, |v, out| {
                out.extend(edges.iter().filter(|e| e.0 == v).map(|e| e.1 as u32));
            })
            .expect("small graph");
            for from in 0..n {
                let expected = by_search(n, &edges, from);
                for (to, &yes) in expected.iter().enumerate() {
                    prop_assert_eq!(reach.reaches(from, to), yes, "{} -> {}", from, to);
                }
            }
        }
    }

    #[test]
    fn a_cycle_reaches_everything_on_it_and_a_tail_only_forward() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3.
        let edges = [(0, 1), (1, 2), (2, 0), (2, 3)];
        let reach = Reach::new(4, |v, out| {
            out.extend(edges.iter().filter(|e| e.0 == v).map(|e| e.1 as u32));
        })
        .expect("small graph");
        assert!(reach.reaches(0, 2) && reach.reaches(2, 1) && reach.reaches(1, 3));
        assert!(!reach.reaches(3, 0) && reach.reaches(3, 3));
    }
}
