//! Alternating inference chains over the layout's links: X-Chains (one
//! digit), XY-Chains (bivalue cells) and AICs.
//!
//! A strong link joins two candidates of which one at least is true: the
//! two digits of a bivalue cell, or the two places of a digit in a
//! complete house (any region, diagonal, window …). A weak link joins two
//! that cannot both be true: two digits of one cell, or one digit in two
//! cells that see each other (relations such as anti-knight included). A
//! chain alternates them, starting and ending with a strong link, so one of
//! its two ends is true and a candidate weakly linked to both is false; a
//! chain that comes back to its start proves the start true.
//!
//! The search is breadth-first from every candidate, so each end is
//! reached by a shortest chain; the steps are reported shortest first
//! (then by start and end), as Sudoku Explainer's length rating wants.

use std::ops::ControlFlow;

use super::grid::{digits, VariantGrid};
use super::step;
use crate::budget::Budget;
use crate::logic::{cell_name, chain_difficulty, Candidate, Sink, Step, Technique};

/// Longest chain searched, in links.
const MAX_LINKS: u8 = 15;
/// Shortest chain reported: one link is a strong link, which alone
/// eliminates nothing a subset or intersection would not.
const MIN_LINKS: u8 = 3;
/// Depth of a state not reached.
const UNREACHED: u8 = u8::MAX;

/// A chain found: its links, start and end candidates, and its candidates
/// in order (the start first).
struct Chain {
    links: u8,
    start: u32,
    end: u32,
    path: Vec<u32>,
}

/// The AICs of `grid`, shortest first; gives up (reporting nothing more)
/// once `budget` is spent.
pub(super) fn find(grid: &VariantGrid, budget: &Budget, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let n = grid.side();
    let nodes = grid.tables().cell_count() * n;
    let strong = strong_links(grid);
    let mut search = Search {
        depth: vec![UNREACHED; nodes * 2],
        parent: vec![0; nodes * 2],
        queue: Vec::new(),
    };
    let mut chains = Vec::new();
    for start in 0..nodes as u32 {
        if strong[start as usize].is_empty() {
            continue;
        }
        if budget.is_spent() {
            return ControlFlow::Continue(());
        }
        search.run(grid, &strong, start);
        for &state in &search.queue {
            let (end, links) = (state >> 1, search.depth[state as usize]);
            if state & 1 == 0 || links < MIN_LINKS || end < start {
                continue;
            }
            let closes = end == start;
            if !closes && eliminations(grid, start, end).is_empty() {
                continue;
            }
            let path = search.path(state);
            let mut sorted = path.clone();
            sorted.sort_unstable();
            sorted.dedup();
            // A chain through one candidate twice is not one players write
            // (when it closes, the start is there twice by design).
            if sorted.len() + usize::from(closes) == path.len() {
                chains.push(Chain {
                    links,
                    start,
                    end,
                    path,
                });
            }
        }
    }
    chains.sort_unstable_by_key(|c| (c.links, c.start, c.end));
    for chain in chains {
        sink(chain_step(grid, &chain))?;
    }
    ControlFlow::Continue(())
}

/// The candidate of node `node` (cell × N + digit − 1).
fn candidate(n: usize, node: u32) -> Candidate {
    Candidate::new(node as usize / n, (node as usize % n) as u8 + 1)
}

/// Each candidate's strong links (the other digit of a bivalue cell, the
/// other place of a digit with two in a complete house).
fn strong_links(grid: &VariantGrid) -> Vec<Vec<u32>> {
    let n = grid.side();
    let tables = grid.tables();
    let mut strong = vec![Vec::new(); tables.cell_count() * n];
    for cell in grid.empty_cells() {
        let mask = grid.mask(cell);
        if mask.count_ones() == 2 {
            let [a, b]: [u8; 2] = [
                mask.trailing_zeros() as u8 + 1,
                64 - mask.leading_zeros() as u8,
            ];
            strong[cell * n + usize::from(a) - 1].push((cell * n + usize::from(b) - 1) as u32);
            strong[cell * n + usize::from(b) - 1].push((cell * n + usize::from(a) - 1) as u32);
        }
    }
    for h in 0..tables.complete_count() {
        for digit in 1..=n as u8 {
            let mut places = grid.places(h, digit);
            if let (Some(a), Some(b), None) = (places.next(), places.next(), places.next()) {
                let (na, nb) = (
                    (a * n + usize::from(digit) - 1) as u32,
                    (b * n + usize::from(digit) - 1) as u32,
                );
                if !strong[na as usize].contains(&nb) {
                    strong[na as usize].push(nb);
                    strong[nb as usize].push(na);
                }
            }
        }
    }
    strong
}

/// The breadth-first search's state: for each (candidate, true?) state
/// its depth in links and the state it came from.
struct Search {
    depth: Vec<u8>,
    parent: Vec<u32>,
    /// States reached, in order.
    queue: Vec<u32>,
}

impl Search {
    /// Reaches every state from "`start` is false", alternating strong
    /// links (false → true) and weak ones (true → false).
    fn run(&mut self, grid: &VariantGrid, strong: &[Vec<u32>], start: u32) {
        for &s in &self.queue {
            self.depth[s as usize] = UNREACHED;
        }
        self.queue.clear();
        let n = grid.side();
        let first = start << 1;
        self.depth[first as usize] = 0;
        self.queue.push(first);
        let mut next = 0;
        while next < self.queue.len() {
            let state = self.queue[next];
            next += 1;
            let depth = self.depth[state as usize];
            if depth == MAX_LINKS {
                continue;
            }
            let node = state >> 1;
            let mut visit = |to: u32, on: u32| {
                let s = to << 1 | on;
                if self.depth[s as usize] == UNREACHED {
                    self.depth[s as usize] = depth + 1;
                    self.parent[s as usize] = state;
                    self.queue.push(s);
                }
            };
            if state & 1 == 0 {
                for &to in &strong[node as usize] {
                    visit(to, 1);
                }
                continue;
            }
            let Candidate { cell, digit } = candidate(n, node);
            for other in digits(grid.mask(cell)) {
                if other != digit {
                    visit((cell * n + usize::from(other) - 1) as u32, 0);
                }
            }
            for &peer in grid.tables().peers(cell) {
                if grid.has(usize::from(peer), digit) {
                    visit((usize::from(peer) * n + usize::from(digit) - 1) as u32, 0);
                }
            }
        }
    }

    /// The candidates from the start to `state`'s, in chain order.
    fn path(&self, mut state: u32) -> Vec<u32> {
        let mut path = vec![state >> 1];
        while self.depth[state as usize] > 0 {
            state = self.parent[state as usize];
            path.push(state >> 1);
        }
        path.reverse();
        path
    }
}

/// The candidates weakly linked to both `start` and `end` (one of which is
/// true), other than themselves.
fn eliminations(grid: &VariantGrid, start: u32, end: u32) -> Vec<Candidate> {
    let n = grid.side();
    let (s, e) = (candidate(n, start), candidate(n, end));
    if s.cell == e.cell {
        return digits(grid.mask(s.cell))
            .filter(|&d| d != s.digit && d != e.digit)
            .map(|d| Candidate::new(s.cell, d))
            .collect();
    }
    if s.digit == e.digit {
        return grid
            .tables()
            .peers(s.cell)
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| c != e.cell && grid.has(c, s.digit) && grid.sees(c, e.cell))
            .map(|c| Candidate::new(c, s.digit))
            .collect();
    }
    let mut out = Vec::new();
    if grid.sees(s.cell, e.cell) {
        if grid.has(e.cell, s.digit) {
            out.push(Candidate::new(e.cell, s.digit));
        }
        if grid.has(s.cell, e.digit) {
            out.push(Candidate::new(s.cell, e.digit));
        }
        out.sort_unstable();
    }
    out
}

/// The step of `chain`: its eliminations, or the start placed when the
/// chain closes on it.
fn chain_step(grid: &VariantGrid, chain: &Chain) -> Step {
    let n = grid.side();
    let nodes: Vec<Candidate> = chain.path.iter().map(|&p| candidate(n, p)).collect();
    let one_digit = nodes.iter().all(|c| c.digit == nodes[0].digit);
    // Strong links are the odd-numbered ones (first, third …).
    let bivalue = nodes
        .chunks(2)
        .all(|pair| pair.len() < 2 || pair[0].cell == pair[1].cell);
    let closes = chain.start == chain.end;
    let name = match (closes, one_digit, bivalue) {
        (true, _, _) => "Discontinuous Nice Loop",
        (false, true, _) => "X-Chain",
        (false, false, true) => "XY-Chain",
        (false, false, false) => "AIC",
    };
    let mut s = step(
        grid,
        Technique::Aic,
        name,
        chain_difficulty(usize::from(chain.links)),
    );
    let mut text = String::new();
    for (i, c) in nodes.iter().enumerate() {
        if i > 0 {
            text.push(if i % 2 == 1 { '=' } else { '-' });
        }
        text.push_str(&format!("({}){}", c.digit, cell_name(n, c.cell)));
    }
    let (first, last) = (nodes[0], nodes[nodes.len() - 1]);
    let name_of = |c: Candidate| format!("{}={}", cell_name(n, c.cell), c.digit);
    if closes {
        s.placements.push(first);
        s.reason = format!("{text}: if {} were false it would be true", name_of(first));
    } else {
        s.eliminations = eliminations(grid, chain.start, chain.end);
        s.reason = format!("{text}: {} or {} is true", name_of(first), name_of(last));
    }
    let mut cells: Vec<usize> = nodes.iter().map(|c| c.cell).collect();
    cells.sort_unstable();
    cells.dedup();
    s.cells = cells;
    s
}
