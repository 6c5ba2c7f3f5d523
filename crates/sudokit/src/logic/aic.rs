//! Alternating inference chains as players write them: X-Chains (one
//! digit), XY-Chains (bivalue cells) and general AICs.
//!
//! A chain alternates strong links (of two candidates at least one is true:
//! a conjugate pair in a unit, the two digits of a bivalue cell) and weak
//! links (at most one is true: one digit twice in a unit, two digits of a
//! cell), starting and ending with a strong link. If the first candidate is
//! false the links force the last to be true, so one of the two ends is
//! true, and a candidate that is weakly linked to both ends is false. A
//! chain that comes back to its own start (a discontinuous nice loop:
//! "if it were false it would be true") places that candidate.
//!
//! The search is breadth-first from each candidate with a strong link, so
//! every end is reached by a shortest chain; steps are reported shortest
//! chain first, then by start and end candidate (row-major), so the order is
//! deterministic.

use std::ops::ControlFlow;

use super::single_digit::chain_difficulty;
use super::step::{cell_list, cell_name};
use super::{Candidate, Candidates, Sink, Step, Technique};

/// Longest chain searched, in links (16 candidates): long enough for the
/// chains players write, short enough to stay fast on 16×16 grids.
const MAX_LINKS: usize = 15;

/// Shortest chain reported: one link is a conjugate pair or a bivalue cell
/// on its own (an intersection at most), so three.
const MIN_LINKS: usize = 3;

/// Marks a state reached from nowhere (the start).
const NO_PARENT: u32 = u32::MAX;

/// AICs of every kind, shortest first; see the module documentation.
pub(super) fn find(grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
    let links = StrongLinks::new(grid);
    let mut search = Search::new(grid.cell_count() * grid.side());
    let mut chains: Vec<(usize, u32, u32)> = Vec::new();
    for start in 0..links.has_strong.len() as u32 {
        if !links.has_strong[start as usize] {
            continue;
        }
        search.run(grid, &links, start);
        for &state in &search.queue {
            let (end, links_used) = (state >> 1, search.depth[state as usize] as usize);
            let closes = end == start;
            if state & 1 == 1
                && links_used >= MIN_LINKS
                && end >= start
                && search.is_simple(state)
                && (closes || !eliminations(grid, node(grid, start), node(grid, end)).is_empty())
            {
                chains.push((links_used, start, end));
            }
        }
    }
    chains.sort_unstable();
    for (_, start, end) in chains {
        search.run(grid, &links, start);
        let ids = search.path(end << 1 | 1);
        let nodes: Vec<Candidate> = ids.iter().map(|&id| node(grid, id)).collect();
        sink(chain_step(grid, &nodes))?;
    }
    ControlFlow::Continue(())
}

/// The candidate of index `id` (`cell · N + digit − 1`).
fn node(grid: &Candidates, id: u32) -> Candidate {
    let side = grid.side();
    Candidate::new(id as usize / side, (id as usize % side) as u8 + 1)
}

/// The index of candidate `digit` in `cell`.
fn index(side: usize, cell: usize, digit: u8) -> u32 {
    (cell * side + digit as usize - 1) as u32
}

/// The strong links of a grid: each unit's conjugate pairs, and which
/// candidates have a strong link at all (a chain can only pass through
/// those).
struct StrongLinks {
    /// For unit `u` and digit `d`, at `u · N + d − 1`: the digit's two cells
    /// when it has exactly two places in the unit.
    pairs: Vec<Option<(u16, u16)>>,
    /// For each candidate index, whether it has a strong link.
    has_strong: Vec<bool>,
}

impl StrongLinks {
    /// The strong links of `grid`.
    fn new(grid: &Candidates) -> StrongLinks {
        let side = grid.side();
        let mut pairs = Vec::with_capacity(3 * side * side);
        for unit in 0..3 * side {
            for digit in 1..=side as u8 {
                pairs.push(
                    super::single_digit::conjugate_pair(grid, unit, digit)
                        .map(|(a, b)| (a as u16, b as u16)),
                );
            }
        }
        let mut links = StrongLinks {
            pairs,
            has_strong: vec![false; grid.cell_count() * side],
        };
        for cell in grid.empty_cells() {
            for digit in 1..=side as u8 {
                if grid.has(cell, digit) {
                    let (_, count) = links.partners(grid, cell, digit);
                    links.has_strong[index(side, cell, digit) as usize] = count > 0;
                }
            }
        }
        links
    }

    /// The candidates strongly linked to `digit` in `cell` (at most one per
    /// unit and one in the cell), as indexes, with their count.
    fn partners(&self, grid: &Candidates, cell: usize, digit: u8) -> ([u32; 4], usize) {
        let side = grid.side();
        let mut found = [0u32; 4];
        let mut count = 0;
        for unit in grid.geometry().units_of(cell) {
            if let Some((a, b)) = self.pairs[unit as usize * side + digit as usize - 1] {
                let other = if a as usize == cell { b } else { a };
                found[count] = index(side, other as usize, digit);
                count += 1;
            }
        }
        let mask = grid.mask(cell);
        if mask.count_ones() == 2 {
            let other = (mask & !(1u64 << (digit - 1))).trailing_zeros() as u8 + 1;
            found[count] = index(side, cell, other);
            count += 1;
        }
        (found, count)
    }
}

/// A breadth-first search over (candidate, truth) states: from a false
/// candidate a strong link makes its partner true, from a true candidate a
/// weak link makes its partner false. State `2 · id + 1` is candidate `id`
/// true. The arrays are stamped with a generation so that each search
/// starts afresh without clearing them.
struct Search {
    /// The generation that last reached each state.
    stamp: Vec<u32>,
    /// The current generation.
    generation: u32,
    /// The state each state was reached from.
    parent: Vec<u32>,
    /// Links from the start to each state.
    depth: Vec<u8>,
    /// The states reached, in breadth-first order.
    queue: Vec<u32>,
}

impl Search {
    /// A search over `candidates` candidate indexes.
    fn new(candidates: usize) -> Search {
        Search {
            stamp: vec![0; 2 * candidates],
            generation: 0,
            parent: vec![NO_PARENT; 2 * candidates],
            depth: vec![0; 2 * candidates],
            queue: Vec::new(),
        }
    }

    /// Reaches `state` from `parent` when it was not reached yet.
    fn visit(&mut self, state: u32, parent: u32, depth: u8) {
        let s = state as usize;
        if self.stamp[s] != self.generation {
            self.stamp[s] = self.generation;
            self.parent[s] = parent;
            self.depth[s] = depth;
            self.queue.push(state);
        }
    }

    /// Every state reachable from candidate `start` assumed false, within
    /// [`MAX_LINKS`] links.
    fn run(&mut self, grid: &Candidates, links: &StrongLinks, start: u32) {
        let side = grid.side();
        self.generation += 1;
        self.queue.clear();
        self.visit(start << 1, NO_PARENT, 0);
        let mut head = 0;
        while head < self.queue.len() {
            let state = self.queue[head];
            head += 1;
            let depth = self.depth[state as usize];
            if depth as usize >= MAX_LINKS {
                continue;
            }
            let Candidate { cell, digit } = node(grid, state >> 1);
            if state & 1 == 0 {
                let (partners, count) = links.partners(grid, cell, digit);
                for &partner in &partners[..count] {
                    self.visit(partner << 1 | 1, state, depth + 1);
                }
                continue;
            }
            for &peer in grid.geometry().peers(cell) {
                let id = index(side, peer as usize, digit);
                if grid.has(peer as usize, digit) && links.has_strong[id as usize] {
                    self.visit(id << 1, state, depth + 1);
                }
            }
            let mut others = grid.mask(cell) & !(1u64 << (digit - 1));
            while others != 0 {
                let id = index(side, cell, others.trailing_zeros() as u8 + 1);
                others &= others - 1;
                if links.has_strong[id as usize] {
                    self.visit(id << 1, state, depth + 1);
                }
            }
        }
    }

    /// The candidate indexes of the chain to `state`, start first.
    fn path(&self, state: u32) -> Vec<u32> {
        let mut ids = Vec::with_capacity(MAX_LINKS + 1);
        let mut at = state;
        while at != NO_PARENT {
            ids.push(at >> 1);
            at = self.parent[at as usize];
        }
        ids.reverse();
        ids
    }

    /// Whether the chain to `state` uses each candidate once, but for an
    /// end that comes back to the start (a discontinuous loop). A chain
    /// that passes a candidate twice is still sound, but not one players
    /// write.
    fn is_simple(&self, state: u32) -> bool {
        let mut ids = [0u32; MAX_LINKS + 1];
        let mut len = 0;
        let mut at = self.parent[state as usize];
        while at != NO_PARENT {
            let id = at >> 1;
            if ids[..len].contains(&id) {
                return false;
            }
            ids[len] = id;
            len += 1;
            at = self.parent[at as usize];
        }
        let end = state >> 1;
        !ids[..len.saturating_sub(1)].contains(&end)
    }
}

/// What a chain with ends `first` and `last` (one of them true) removes:
/// with one digit, that digit from every cell seeing both ends; with two
/// digits in one cell, the cell's other digits; with two digits in cells
/// that see each other, each end's digit from the other end's cell.
fn eliminations(grid: &Candidates, first: Candidate, last: Candidate) -> Vec<Candidate> {
    if first.digit == last.digit {
        if first.cell == last.cell {
            return Vec::new();
        }
        return super::single_digit::seeing_both(grid, first.digit, first.cell, last.cell, &[]);
    }
    if first.cell == last.cell {
        let keep = 1u64 << (first.digit - 1) | 1u64 << (last.digit - 1);
        let mut others = grid.mask(first.cell) & !keep;
        let mut removed = Vec::new();
        while others != 0 {
            removed.push(Candidate::new(
                first.cell,
                others.trailing_zeros() as u8 + 1,
            ));
            others &= others - 1;
        }
        return removed;
    }
    if !grid.sees(first.cell, last.cell) {
        return Vec::new();
    }
    [
        Candidate::new(first.cell, last.digit),
        Candidate::new(last.cell, first.digit),
    ]
    .into_iter()
    .filter(|c| grid.has(c.cell, c.digit))
    .collect()
}

/// The step of the chain `nodes` (strong link first, alternating).
fn chain_step(grid: &Candidates, nodes: &[Candidate]) -> Step {
    let side = grid.side();
    let (first, last) = (nodes[0], nodes[nodes.len() - 1]);
    if first == last {
        return loop_step(grid, nodes);
    }
    let removed = eliminations(grid, first, last);
    let name = chain_name(nodes);
    let ends = if first.digit == last.digit {
        format!(
            "{} or {} is {}",
            cell_name(side, first.cell),
            cell_name(side, last.cell),
            first.digit
        )
    } else {
        format!(
            "{} is {} or {} is {}",
            cell_name(side, first.cell),
            first.digit,
            cell_name(side, last.cell),
            last.digit
        )
    };
    let reason = format!(
        "{}; {ends}, so {}",
        eureka(side, nodes),
        cannot_be(side, &removed)
    );
    Step {
        technique: Technique::Aic,
        name: name.to_string(),
        difficulty: chain_difficulty(nodes.len() - 1),
        placements: Vec::new(),
        eliminations: removed,
        cells: pattern_cells(nodes),
        reason,
        side,
    }
}

/// The step of a chain that comes back to its start (a discontinuous nice
/// loop): if the start were false it would be true, so it is true.
fn loop_step(grid: &Candidates, nodes: &[Candidate]) -> Step {
    let side = grid.side();
    let start = nodes[0];
    let cell = cell_name(side, start.cell);
    let reason = format!(
        "{}; if {cell} were not {d}, the chain would make it {d}, so {cell} is {d}",
        eureka(side, nodes),
        d = start.digit
    );
    Step {
        technique: Technique::Aic,
        name: "Discontinuous Nice Loop".to_string(),
        difficulty: chain_difficulty(nodes.len() - 1),
        placements: vec![start],
        eliminations: Vec::new(),
        cells: pattern_cells(nodes),
        reason,
        side,
    }
}

/// The chain's cells, each once, in row-major order.
fn pattern_cells(nodes: &[Candidate]) -> Vec<usize> {
    let mut cells: Vec<usize> = nodes.iter().map(|c| c.cell).collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// "X-Chain" when the chain has one digit, "XY-Chain" when every strong
/// link is a bivalue cell and every weak link joins two cells, "AIC"
/// otherwise.
fn chain_name(nodes: &[Candidate]) -> &'static str {
    if nodes.iter().all(|c| c.digit == nodes[0].digit) {
        return "X-Chain";
    }
    let xy = nodes
        .windows(2)
        .enumerate()
        .all(|(i, pair)| (pair[0].cell == pair[1].cell) == i.is_multiple_of(2));
    if xy {
        "XY-Chain"
    } else {
        "AIC"
    }
}

/// The chain in Eureka notation: `(4)r1c2=r1c7-(4=7)r3c8-(7)r5c8=r5c1`.
/// Consecutive candidates of one cell share a group `(4=7)r3c8`; a
/// single-candidate group drops its digit when the previous group ended
/// with the same one.
fn eureka(side: usize, nodes: &[Candidate]) -> String {
    let mut text = String::new();
    let mut previous_digit = None;
    let mut i = 0;
    while i < nodes.len() {
        let cell = nodes[i].cell;
        let mut j = i + 1;
        while j < nodes.len() && nodes[j].cell == cell {
            j += 1;
        }
        if i > 0 {
            text.push(link_symbol(i - 1));
        }
        if j - i > 1 || previous_digit != Some(nodes[i].digit) {
            text.push('(');
            for (k, c) in nodes[i..j].iter().enumerate() {
                if k > 0 {
                    text.push(link_symbol(i + k - 1));
                }
                text.push_str(&c.digit.to_string());
            }
            text.push(')');
        }
        text.push_str(&cell_name(side, cell));
        previous_digit = Some(nodes[j - 1].digit);
        i = j;
    }
    text
}

/// The symbol of link `link` (0 = the first, strong): `=` strong, `-` weak.
fn link_symbol(link: usize) -> char {
    if link.is_multiple_of(2) {
        '='
    } else {
        '-'
    }
}

/// "r1c5, r3c5 cannot be 4; r2c2 cannot be 7", digit by digit.
fn cannot_be(side: usize, removed: &[Candidate]) -> String {
    let mut digits: Vec<u8> = removed.iter().map(|c| c.digit).collect();
    digits.sort_unstable();
    digits.dedup();
    digits
        .iter()
        .map(|&d| {
            let cells: Vec<usize> = removed
                .iter()
                .filter(|c| c.digit == d)
                .map(|c| c.cell)
                .collect();
            format!("{} cannot be {d}", cell_list(side, &cells))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::test_support::{empty, only, rc, steps};
    use crate::logic::Difficulty;

    /// Leaves only `digits` in `cell`.
    fn keep_digits(grid: &mut Candidates, cell: usize, digits: &[u8]) {
        for d in 1..=9 {
            if !digits.contains(&d) {
                grid.eliminate(cell, d);
            }
        }
    }

    #[test]
    fn x_chain_with_a_weak_link_in_a_box() {
        // 6s: r1c1 = r1c5 (row 1), r1c5 - r3c6 (box 2, three 6s), r3c6 =
        // r8c6 (column 6): r1c1 or r8c6 is 6, so r8c1 is not.
        let keep = [
            rc(1, 1),
            rc(1, 5),
            rc(3, 6),
            rc(8, 6),
            rc(8, 1),
            rc(5, 1),
            rc(8, 9),
            rc(2, 4),
        ];
        let found = steps(&only(6, &keep), find);
        let step = &found[0];
        assert_eq!(step.name, "X-Chain");
        assert_eq!(step.eliminations, [Candidate::new(rc(8, 1), 6)]);
        assert_eq!(step.difficulty, Difficulty(66));
        assert_eq!(
            step.reason,
            "(6)r1c1=r1c5-r3c6=r8c6; r1c1 or r8c6 is 6, so r8c1 cannot be 6"
        );
    }

    #[test]
    fn xy_chain_through_three_bivalue_cells() {
        let mut grid = empty();
        keep_digits(&mut grid, rc(1, 1), &[1, 2]);
        keep_digits(&mut grid, rc(1, 5), &[2, 3]);
        keep_digits(&mut grid, rc(5, 5), &[1, 3]);
        let found = steps(&grid, find);
        let step = &found[0];
        assert_eq!(step.name, "XY-Chain");
        assert_eq!(step.eliminations, [Candidate::new(rc(5, 1), 1)]);
        assert_eq!(step.difficulty, Difficulty(67));
        assert_eq!(
            step.reason,
            "(1=2)r1c1-(2=3)r1c5-(3=1)r5c5; r1c1 or r5c5 is 1, so r5c1 cannot be 1"
        );
    }

    #[test]
    fn aic_with_different_end_digits_in_one_row() {
        // r1c1 holds 4 or 5; box 2's 5s are r1c5 and r1c6 only:
        // (4=5)r1c1-(5)r1c6=(5)r1c5, so r1c1 is 4 or r1c5 is 5.
        let mut grid = empty();
        keep_digits(&mut grid, rc(1, 1), &[4, 5]);
        for cell in [
            rc(1, 4),
            rc(2, 4),
            rc(2, 5),
            rc(2, 6),
            rc(3, 4),
            rc(3, 5),
            rc(3, 6),
        ] {
            grid.eliminate(cell, 5);
        }
        let found = steps(&grid, find);
        let step = &found[0];
        assert_eq!(step.name, "AIC");
        assert_eq!(
            step.eliminations,
            [Candidate::new(rc(1, 1), 5), Candidate::new(rc(1, 5), 4)]
        );
        assert_eq!(step.difficulty, Difficulty(66));
        assert_eq!(
            step.reason,
            "(4=5)r1c1-r1c6=r1c5; r1c1 is 4 or r1c5 is 5, so r1c5 cannot be 4; r1c1 cannot be 5"
        );
    }

    #[test]
    fn discontinuous_loop_places() {
        // 4s only in r1c1, r1c2, r2c1 (and far away in r5c5, r9c9): if
        // r1c1 were not 4, r1c2 (row 1) would be, r2c1 (box 1) would not,
        // and r1c1 (column 1) would be.
        let keep = [rc(1, 1), rc(1, 2), rc(2, 1), rc(5, 5), rc(9, 9)];
        let found = steps(&only(4, &keep), find);
        let step = &found[0];
        assert_eq!(step.name, "Discontinuous Nice Loop");
        assert_eq!(step.placements, [Candidate::new(rc(1, 1), 4)]);
        assert!(step.eliminations.is_empty());
        assert_eq!(step.difficulty, Difficulty(66));
        assert_eq!(
            step.reason,
            "(4)r1c1=r1c2-r2c1=r1c1; if r1c1 were not 4, the chain would make it 4, so r1c1 is 4"
        );
    }

    #[test]
    fn nothing_without_strong_links() {
        assert!(steps(&empty(), find).is_empty());
    }
}
