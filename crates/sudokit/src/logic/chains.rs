//! Chains as Sudoku Explainer builds them: from one assumed candidate,
//! follow the implications (a digit on turns its peers off; a candidate off
//! turns on the last digit of a bivalue cell or the last place of a digit in
//! a unit). Bidirectional cycles (the implications come back to the start)
//! and forcing chains (the start implies its own opposite) are SE's "Forcing
//! Chains & Cycles" producer (6.5 and up).
//!
//! Every hint is collected, then sorted as SE sorts them (difficulty,
//! chain length, kind) so that the first reported is the one SE applies.

use std::ops::ControlFlow;

use super::forcing::NestedHint;
use super::reach::Reach;
use super::step::cell_name;
use super::{Candidate, Candidates, Difficulty, Sink, Step, Technique};
use crate::budget::Budget;

/// No parent: the node is the chain's start.
const ROOT: u32 = u32::MAX;

/// Which links a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Links {
    /// Links inside a cell (Y-links: bivalue cells).
    y: bool,
    /// Links inside a unit (X-links: a digit's last two places).
    x: bool,
}

impl Links {
    /// SE's base difficulty of a cycle over these links.
    fn cycle_base(self) -> f64 {
        if self.x && self.y {
            7.0
        } else {
            6.5
        }
    }

    /// SE's base difficulty of a forcing chain over these links.
    fn forcing_base(self) -> f64 {
        if self.x && self.y {
            7.0
        } else {
            6.6
        }
    }

    /// SE's rank of the kind in its sort: X 2, Y 3, both 4.
    fn sort_key(self) -> u8 {
        match (self.x, self.y) {
            (true, true) => 4,
            (false, true) => 3,
            _ => 2,
        }
    }
}

/// One implication of a search: a candidate on or off, and the node that
/// implied it.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The candidate's cell.
    cell: u16,
    /// The candidate's digit.
    digit: u8,
    /// Whether the candidate is on (true) or off.
    on: bool,
    /// The implying node's index in the arena, [`ROOT`] for the start.
    parent: u32,
}

/// A hint found, before SE's sort.
struct Hint {
    /// SE's difficulty as a double, with its rounding.
    difficulty: f64,
    /// Distinct candidates of the chain (SE's complexity).
    complexity: usize,
    /// SE's kind rank among equal difficulties and lengths.
    key: u8,
    /// The candidates removed, sorted (SE's equality of hints).
    removable: Vec<Candidate>,
    /// The chain, from its start (a cycle ends back at it).
    path: Vec<Node>,
    /// The pattern's name.
    name: &'static str,
    /// Whether the chain is a cycle (else a forcing chain).
    cycle: bool,
    /// The digit placed, for a forcing chain ending "on".
    placement: Option<Candidate>,
}

impl Hint {
    /// Where the hint comes in SE's sort.
    fn rank(&self) -> Rank {
        Rank {
            difficulty: self.difficulty,
            complexity: self.complexity,
            key: self.key,
        }
    }

    /// The step reported for the hint.
    fn step(self, side: usize) -> Step {
        let cells: Vec<usize> = if self.cycle {
            let mut cells = Vec::new();
            for n in self.path[1..].iter().rev() {
                if !cells.contains(&usize::from(n.cell)) {
                    cells.push(usize::from(n.cell));
                }
            }
            cells
        } else {
            let mut cells: Vec<usize> = self.path.iter().map(|n| usize::from(n.cell)).collect();
            cells.sort_unstable();
            cells.dedup();
            cells
        };
        let mut step = Step {
            technique: Technique::ForcingChain,
            name: self.name.to_string(),
            difficulty: tenths(self.difficulty),
            placements: self.placement.into_iter().collect(),
            eliminations: if self.placement.is_some() {
                Vec::new()
            } else {
                self.removable
            },
            cells,
            reason: String::new(),
            side,
        };
        step.reason = reason(&step, &self.path);
        step
    }
}

/// The search state: an arena of nodes and stamped flags over candidates
/// (index `(cell * side + digit - 1) * 2 + on`).
struct Search<'g> {
    /// The grid searched.
    grid: &'g Candidates,
    /// Nodes of the current start.
    nodes: Vec<Node>,
    /// Stamp of candidates already reached as "on".
    seen_on: Vec<u32>,
    /// Stamp of candidates already reached as "off".
    seen_off: Vec<u32>,
    /// Stamp of the ancestors of the node being expanded.
    ancestors: Vec<u32>,
    /// The current stamp of `seen_on` and `seen_off`.
    generation: u32,
    /// The current stamp of `ancestors`.
    expansion: u32,
    /// The implications between the grid's candidates.
    adjacency: Adjacency,
    /// Scratch: candidates seen by a cycle's "on" (bit 1) and "off" (bit
    /// 2) nodes.
    sides: Vec<(Candidate, u8)>,
    /// Whether only the first hint in SE's order is kept.
    best_only: bool,
    /// With `best_only`, the rank of the best hint found so far.
    best: Option<Rank>,
    /// Scratch: the pending layers of a breadth-first search.
    layers: [Vec<u32>; 3],
    /// Scratch: the implications of one node.
    out: Vec<(u16, u8)>,
    /// The grid's candidates `(cell, digit)`, numbered for [`Reach`].
    candidates: Vec<(u16, u8)>,
    /// For each candidate index (`cell * side + digit - 1`), its number in
    /// `candidates`.
    numbers: Vec<u32>,
    /// Which candidates on and off imply which others through the current
    /// link kind (`None`: unknown); node `2n + on` is candidate `n` on or
    /// off.
    reach: Option<Reach>,
}

/// SE's "Forcing Chains & Cycles": X-cycles, Y-cycles, XY-cycles and
/// forcing X- and XY-chains, reported easiest first in SE's order.
/// Gives up (with the hints found so far) once `budget` is spent.
pub(super) fn cycles_and_chains(
    grid: &Candidates,
    budget: &Budget,
    sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    // The first hint (the one SE applies) comes from a search that drops
    // every branch unable to beat the best so far; the rest, wanted only
    // when the sink goes on, from the full search.
    let Some(best) = collect(grid, budget, true).pop() else {
        return ControlFlow::Continue(());
    };
    sink(best.step(grid.side()))?;
    for hint in sorted_hints(grid, budget).into_iter().skip(1) {
        sink(hint.step(grid.side()))?;
    }
    ControlFlow::Continue(())
}

/// The conclusions of SE's "Forcing Chains & Cycles" on `grid`, a grid
/// reduced by an outer dynamic chain that started from the candidates
/// `initial`, in SE's order (for SE's nested chains).
pub(super) fn nested_hints(grid: &Candidates, initial: &[u64], budget: &Budget) -> Vec<NestedHint> {
    sorted_hints(grid, budget)
        .into_iter()
        .map(|hint| {
            let chains = nested_chains(grid, &hint.path, hint.cycle);
            let mut parents: Vec<(usize, u8)> = Vec::new();
            let mut fingerprint = 0xcbf2_9ce4_8422_2325u64;
            for chain in &chains {
                for &(cell, digit, on, cause) in chain {
                    let key = (cell * grid.side() + usize::from(digit) - 1) * 2 + usize::from(on);
                    fingerprint = (fingerprint ^ key as u64).wrapping_mul(0x0100_0000_01b3);
                    if on {
                        rule_parents(grid, initial, cell, digit, cause, &mut parents);
                    }
                }
                fingerprint = (fingerprint ^ u64::MAX).wrapping_mul(0x0100_0000_01b3);
            }
            NestedHint {
                removable: hint.removable,
                parents,
                complexity: hint.complexity,
                fingerprint,
            }
        })
        .collect()
}

/// Every hint of the producer, sorted as SE sorts them, each removal once.
fn sorted_hints(grid: &Candidates, budget: &Budget) -> Vec<Hint> {
    let mut hints = collect(grid, budget, false);
    hints.sort_by(|a, b| a.rank().cmp(&b.rank()));
    let mut reported = std::collections::HashSet::new();
    hints.retain(|h| reported.insert(h.removable.clone()));
    hints
}

/// The producer's hints in SE's order of search, or with `best_only` the
/// one SE applies alone (the first of the sorted hints): then every search
/// stops at the depth where no chain it could still find would come first.
fn collect(grid: &Candidates, budget: &Budget, best_only: bool) -> Vec<Hint> {
    let mut search = Search::new(grid, best_only);
    let mut hints = Vec::new();
    for links in [
        Links { y: false, x: true },
        Links { y: true, x: false },
        Links { y: true, x: true },
    ] {
        // No chain is shorter than four candidates.
        if search.hopeless(links.cycle_base().min(links.forcing_base()), 4, links) {
            continue;
        }
        search.reach = search.reach(links);
        for cell in grid.empty_cells().filter(|&c| grid.count(c) > 1) {
            if budget.is_spent() {
                break;
            }
            for digit in 1..=grid.side() as u8 {
                if grid.has(cell, digit) {
                    search.unary(cell, digit, links, &mut hints);
                }
            }
        }
    }
    hints
}

/// Where a hint comes in SE's sort: difficulty, then complexity, then
/// kind (the search order decides among equals).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rank {
    difficulty: f64,
    complexity: usize,
    key: u8,
}

impl Rank {
    fn cmp(&self, other: &Rank) -> std::cmp::Ordering {
        self.difficulty
            .total_cmp(&other.difficulty)
            .then(self.complexity.cmp(&other.complexity))
            .then(self.key.cmp(&other.key))
    }
}

/// Why a link holds, as SE records it: inside the cell, or inside a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LinkCause {
    /// The chain's start.
    Start,
    /// The cell's digits.
    Cell,
    /// A unit's places of the digit.
    Unit(u16),
}

/// The chains SE lists for a hint (`getChainsTargets`, then `getChain`):
/// a forcing chain from its end back to its start; a cycle once from its
/// closing node back, once reversed (every state flipped, causes kept).
/// Each node as (cell, digit, on, cause).
fn nested_chains(
    grid: &Candidates,
    path: &[Node],
    cycle: bool,
) -> Vec<Vec<(usize, u8, bool, LinkCause)>> {
    let causes: Vec<LinkCause> = path
        .iter()
        .enumerate()
        .map(|(i, n)| match i {
            0 => LinkCause::Start,
            _ => link_cause(grid, &path[i - 1], n),
        })
        .collect();
    let node = |i: usize, flip: bool| {
        let n = path[i];
        (usize::from(n.cell), n.digit, n.on != flip, causes[i])
    };
    if !cycle {
        return vec![(0..path.len()).rev().map(|i| node(i, false)).collect()];
    }
    // The closing node has the start's candidate: each listing stops
    // before repeating it.
    let last = path.len() - 1;
    let forward: Vec<_> = (1..=last).rev().map(|i| node(i, false)).collect();
    let reversed: Vec<_> = (0..last).map(|i| node(i, true)).collect();
    vec![forward, reversed]
}

/// The cause of the link from `from` to `to` in a static chain: the same
/// cell, or the first of box, row, column holding both (for an "on" node,
/// the first where the digit has just these two places).
fn link_cause(grid: &Candidates, from: &Node, to: &Node) -> LinkCause {
    if from.cell == to.cell {
        return LinkCause::Cell;
    }
    let geometry = grid.geometry();
    let [r1, c1, b1] = geometry.units_of(usize::from(from.cell));
    let [r2, c2, b2] = geometry.units_of(usize::from(to.cell));
    for (u1, u2) in [(b1, b2), (r1, r2), (c1, c2)] {
        if u1 == u2 && (!to.on || grid.positions(usize::from(u1), to.digit).count_ones() == 2) {
            return LinkCause::Unit(u1);
        }
    }
    LinkCause::Start
}

/// Adds SE's rule parents of an "on" node: the candidates of its cell
/// (cell cause) or of its digit in its unit (unit cause) that the outer
/// chain removed (in `initial`, not in `grid`).
fn rule_parents(
    grid: &Candidates,
    initial: &[u64],
    cell: usize,
    digit: u8,
    cause: LinkCause,
    parents: &mut Vec<(usize, u8)>,
) {
    let mut add = |c: usize, d: u8| {
        if !parents.contains(&(c, d)) {
            parents.push((c, d));
        }
    };
    match cause {
        LinkCause::Cell => {
            for d in super::candidates::bits(initial[cell] & !grid.mask(cell)) {
                add(cell, d as u8 + 1);
            }
        }
        LinkCause::Unit(unit) => {
            let bit = 1u64 << (digit - 1);
            for &c in grid.geometry().unit(usize::from(unit)) {
                let c = usize::from(c);
                if initial[c] & bit != 0 && grid.mask(c) & bit == 0 {
                    add(c, digit);
                }
            }
        }
        LinkCause::Start => {}
    }
}

/// A grid's implications between candidates, which stay the same for the
/// whole search (the grid does not change): for each candidate (index
/// `cell * side + digit - 1`), the peers holding its digit in SE's house
/// order, and the other places of its digit in its box, row and column
/// where it has only two (each once).
struct Adjacency {
    /// Where each candidate's peers start in `peers` (one more entry at
    /// the end).
    peer_start: Vec<u32>,
    /// Peer cells holding the digit, per candidate.
    peers: Vec<u16>,
    /// Where each candidate's conjugates start in `conjugates`.
    conjugate_start: Vec<u32>,
    /// Conjugate cells, per candidate.
    conjugates: Vec<u16>,
}

impl Adjacency {
    fn new(grid: &Candidates) -> Adjacency {
        let side = grid.side();
        let geometry = grid.geometry();
        let mut table = Adjacency {
            peer_start: vec![0],
            peers: Vec::new(),
            conjugate_start: vec![0],
            conjugates: Vec::new(),
        };
        for cell in 0..grid.cell_count() {
            for digit in 1..=side as u8 {
                let bit = 1u64 << (digit - 1);
                if grid.mask(cell) & bit != 0 {
                    let peers = geometry.house(cell).iter();
                    table
                        .peers
                        .extend(peers.filter(|&&o| grid.mask(usize::from(o)) & bit != 0));
                    let [row, col, bx] = geometry.units_of(cell);
                    let first = table.conjugates.len();
                    for unit in [bx, row, col] {
                        let mut places = grid.cells_for(usize::from(unit), digit);
                        if let (Some(a), Some(b), None) =
                            (places.next(), places.next(), places.next())
                        {
                            let other = if a == cell { b } else { a } as u16;
                            if !table.conjugates[first..].contains(&other) {
                                table.conjugates.push(other);
                            }
                        }
                    }
                }
                table.peer_start.push(table.peers.len() as u32);
                table.conjugate_start.push(table.conjugates.len() as u32);
            }
        }
        table
    }

    /// The cells where candidate `index`'s digit is turned off when it is
    /// on (its peers holding it).
    fn peers(&self, index: usize) -> &[u16] {
        &self.peers[self.peer_start[index] as usize..self.peer_start[index + 1] as usize]
    }

    /// The cells where candidate `index`'s digit is turned on when it is
    /// off (the other place in a unit where it has two).
    fn conjugates(&self, index: usize) -> &[u16] {
        let (a, b) = (self.conjugate_start[index], self.conjugate_start[index + 1]);
        &self.conjugates[a as usize..b as usize]
    }
}

/// SE's length increment for a chain of `complexity` candidates, summed by
/// repeated `+= 0.1` as SE does (the doubles matter in its sort).
pub(super) fn length_added(complexity: usize) -> f64 {
    let length = complexity.saturating_sub(2);
    let (mut added, mut ceil, mut odd) = (0.0f64, 4usize, false);
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// A difficulty double printed as SE prints it, in tenths.
pub(super) fn tenths(difficulty: f64) -> Difficulty {
    Difficulty(((difficulty + 0.05) * 10.0) as u16)
}

/// Why a step holds: its chain written out (`r1c2=5 -> r1c7<>5 -> …`).
fn reason(step: &Step, path: &[Node]) -> String {
    let chain = path
        .iter()
        .map(|n| node_name(step.side, n))
        .collect::<Vec<_>>()
        .join(" -> ");
    if step.name.contains("Cycle") || step.name == "Generalized X-Wing" {
        format!("the cycle {chain} is true one way or the other")
    } else {
        format!(
            "{} leads to its opposite: {chain}",
            node_name(step.side, &path[0])
        )
    }
}

/// A candidate's name: `r1c2=5` when on, `r1c2<>5` when off.
fn node_name(side: usize, node: &Node) -> String {
    let op = if node.on { "=" } else { "<>" };
    format!("{}{op}{}", cell_name(side, node.cell as usize), node.digit)
}

impl<'g> Search<'g> {
    /// A search over `grid`.
    fn new(grid: &'g Candidates, best_only: bool) -> Search<'g> {
        let size = grid.cell_count() * grid.side() * 2;
        let mut candidates = Vec::new();
        let mut numbers = vec![u32::MAX; size / 2];
        for cell in grid.empty_cells() {
            for digit in crate::logic::subsets::digits_of(grid.mask(cell)) {
                numbers[cell * grid.side() + usize::from(digit) - 1] = candidates.len() as u32;
                candidates.push((cell as u16, digit));
            }
        }
        Search {
            grid,
            nodes: Vec::new(),
            seen_on: vec![0; size],
            seen_off: vec![0; size],
            ancestors: vec![0; size],
            generation: 0,
            expansion: 0,
            adjacency: Adjacency::new(grid),
            sides: Vec::new(),
            best_only,
            best: None,
            layers: Default::default(),
            out: Vec::new(),
            candidates,
            numbers,
            reach: None,
        }
    }

    /// Whether no chain of at least `complexity` candidates over `links`
    /// with base difficulty `base` can come before the best hint kept
    /// (always false unless only the best is kept). The search order puts
    /// a later hint after an equal one.
    fn hopeless(&self, base: f64, complexity: usize, links: Links) -> bool {
        let rank = Rank {
            difficulty: base + length_added(complexity),
            complexity,
            key: links.sort_key(),
        };
        self.best.is_some_and(|best| rank.cmp(&best).is_ge())
    }

    /// Keeps `hint`: all of them, or with `best_only` the best so far.
    fn keep(&mut self, hint: Hint, hints: &mut Vec<Hint>) {
        if !self.best_only {
            hints.push(hint);
        } else if self.best.is_none_or(|best| hint.rank().cmp(&best).is_lt()) {
            self.best = Some(hint.rank());
            hints.clear();
            hints.push(hint);
        }
    }

    /// The flag index of a candidate.
    fn index(&self, cell: u16, digit: u8, on: bool) -> usize {
        (cell as usize * self.grid.side() + digit as usize - 1) * 2 + on as usize
    }

    /// Adds a node to the arena; its index.
    fn push(&mut self, cell: u16, digit: u8, on: bool, parent: u32) -> u32 {
        self.nodes.push(Node {
            cell,
            digit,
            on,
            parent,
        });
        (self.nodes.len() - 1) as u32
    }

    /// Starts a fresh set of "reached" flags.
    fn reset(&mut self) {
        self.nodes.clear();
        self.generation += 1;
    }

    /// Marks the strict ancestors of `node`, for [`Search::is_ancestor`].
    fn mark_ancestors(&mut self, node: u32) {
        self.expansion += 1;
        let mut at = self.nodes[node as usize].parent;
        while at != ROOT {
            let n = self.nodes[at as usize];
            let i = self.index(n.cell, n.digit, n.on);
            self.ancestors[i] = self.expansion;
            at = n.parent;
        }
    }

    /// Whether the candidate is among the ancestors last marked.
    fn is_ancestor(&self, cell: u16, digit: u8, on: bool) -> bool {
        self.ancestors[self.index(cell, digit, on)] == self.expansion
    }

    /// The candidates an "on" candidate turns off, in SE's order: the
    /// cell's other digits (with Y-links), then the digit's other places in
    /// the box, the row and the column.
    fn on_to_off(&self, cell: usize, digit: u8, y: bool, out: &mut Vec<(u16, u8)>) {
        out.clear();
        let grid = self.grid;
        if y {
            for d in 1..=grid.side() as u8 {
                if d != digit && grid.has(cell, d) {
                    out.push((cell as u16, d));
                }
            }
        }
        let index = cell * grid.side() + usize::from(digit) - 1;
        out.extend(self.adjacency.peers(index).iter().map(|&o| (o, digit)));
    }

    /// The candidates an "off" candidate turns on, in SE's order: the other
    /// digit of a bivalue cell (with Y-links), then the other place of the
    /// digit in the box, the row and the column when it has two (with
    /// X-links).
    fn off_to_on(&self, cell: usize, digit: u8, links: Links, out: &mut Vec<(u16, u8)>) {
        out.clear();
        let grid = self.grid;
        if links.y && grid.count(cell) == 2 {
            let other = grid.mask(cell) & !(1u64 << (digit - 1));
            out.push((cell as u16, other.trailing_zeros() as u8 + 1));
        }
        if links.x {
            let index = cell * grid.side() + usize::from(digit) - 1;
            out.extend(self.adjacency.conjugates(index).iter().map(|&o| (o, digit)));
        }
    }

    /// SE's unary chaining from `cell = digit`: cycles, then (with X-links)
    /// forcing chains from the candidate on and from it off.
    fn unary(&mut self, cell: usize, digit: u8, links: Links, hints: &mut Vec<Hint>) {
        if !links.x && self.grid.count(cell) > 2 {
            return;
        }
        self.reset();
        let start = self.push(cell as u16, digit, true, ROOT);
        for end in self.cycles(start, links) {
            if let Some(hint) = self.cycle_hint(end, links) {
                self.keep(hint, hints);
            }
        }
        let (from_on, from_off) = self.may_force(cell, digit);
        if links.x && (from_on || from_off) {
            let mut targets = Vec::new();
            self.reset();
            if from_on {
                let start = self.push(cell as u16, digit, true, ROOT);
                self.forcing(start, links, &mut targets);
                self.reset_flags_only();
            }
            if from_off {
                let start = self.push(cell as u16, digit, false, ROOT);
                self.forcing(start, links, &mut targets);
            }
            for target in targets {
                if let Some(hint) = self.forcing_hint(target, links) {
                    self.keep(hint, hints);
                }
            }
        }
    }

    /// The reachability between the grid's candidates on and off through
    /// `links` (the cycles' links, and the forcing chains' when X-links are
    /// in).
    fn reach(&self, links: Links) -> Option<Reach> {
        let mut out = Vec::new();
        Reach::new(self.candidates.len() * 2, |node, edges| {
            let (cell, digit) = self.candidates[node / 2];
            let on = node % 2 == 1;
            if on {
                self.on_to_off(cell as usize, digit, links.y, &mut out);
            } else {
                self.off_to_on(cell as usize, digit, links, &mut out);
            }
            for &(c, d) in &out {
                let number = self.numbers[c as usize * self.grid.side() + usize::from(d) - 1];
                edges.push(number * 2 + u32::from(!on));
            }
        })
    }

    /// Whether a forcing chain from `cell = digit` on, and from it off, can
    /// reach the opposite assumption (true when unknown).
    fn may_force(&self, cell: usize, digit: u8) -> (bool, bool) {
        let Some(reach) = &self.reach else {
            return (true, true);
        };
        let (on, off) = (
            self.node(cell as u16, digit, true),
            self.node(cell as u16, digit, false),
        );
        (reach.reaches(on, off), reach.reaches(off, on))
    }

    /// The node of candidate `cell = digit` on or off in [`Search::reach`].
    fn node(&self, cell: u16, digit: u8, on: bool) -> usize {
        let number = self.numbers[usize::from(cell) * self.grid.side() + usize::from(digit) - 1];
        number as usize * 2 + usize::from(on)
    }

    /// Whether the node `cell = digit` (on or off) may lie on a cycle
    /// through `home` (a node): it is in the same strongly connected
    /// component, or that is unknown. No path from the start to a node
    /// of this component passes through another, so leaving the others
    /// out changes nothing the cycle search finds.
    fn on_cycle_with(&self, home: usize, cell: u16, digit: u8, on: bool) -> bool {
        self.reach
            .as_ref()
            .is_none_or(|reach| reach.same_component(home, self.node(cell, digit, on)))
    }

    /// New "reached" flags, keeping the arena (its nodes stay referenced).
    fn reset_flags_only(&mut self) {
        self.generation += 1;
    }

    /// SE's cycle search from the "on" node `start`: breadth first, layer by
    /// layer; an "off" layer's implication back to the start (after at least
    /// four links) closes a cycle. The closing nodes, in order found.
    fn cycles(&mut self, start: u32, links: Links) -> Vec<u32> {
        let s = self.nodes[start as usize];
        let i = self.index(s.cell, s.digit, true);
        self.seen_on[i] = self.generation;
        let [mut pending_on, mut pending_off, mut current] = self.take_layers();
        let mut out = std::mem::take(&mut self.out);
        pending_on.push(start);
        let home = self.node(s.cell, s.digit, true);
        let mut found = Vec::new();
        let mut length = 0;
        while !pending_on.is_empty() {
            length += 2;
            // A cycle closed in this round has `length` distinct candidates.
            if self.hopeless(links.cycle_base(), length, links) {
                break;
            }
            pending_off.clear();
            std::mem::swap(&mut current, &mut pending_on);
            pending_on.clear();
            for &p in &current {
                let n = self.nodes[p as usize];
                self.on_to_off(n.cell as usize, n.digit, links.y, &mut out);
                self.mark_ancestors(p);
                for &(cell, digit) in &out {
                    if !self.is_ancestor(cell, digit, false)
                        && self.on_cycle_with(home, cell, digit, false)
                    {
                        pending_off.push(self.push(cell, digit, false, p));
                    }
                }
            }
            for &p in &pending_off {
                let n = self.nodes[p as usize];
                self.off_to_on(n.cell as usize, n.digit, links, &mut out);
                for &(cell, digit) in &out {
                    let closes = length >= 4 && cell == s.cell && digit == s.digit;
                    let i = self.index(cell, digit, true);
                    if closes {
                        found.push(self.push(cell, digit, true, p));
                    }
                    if self.seen_on[i] != self.generation
                        && self.on_cycle_with(home, cell, digit, true)
                    {
                        self.seen_on[i] = self.generation;
                        pending_on.push(self.push(cell, digit, true, p));
                    }
                }
            }
        }
        self.layers = [pending_on, pending_off, current];
        self.out = out;
        found
    }

    /// The three layer buffers, emptied, for a search to use and give
    /// back (so that no search allocates once they have grown).
    fn take_layers(&mut self) -> [Vec<u32>; 3] {
        let mut layers = std::mem::take(&mut self.layers);
        for layer in &mut layers {
            layer.clear();
        }
        layers
    }

    /// SE's forcing chain search from `start` (on or off): the first node
    /// found that is the start's opposite is pushed to `targets`, unless
    /// that candidate is there already.
    fn forcing(&mut self, start: u32, links: Links, targets: &mut Vec<u32>) {
        let s = self.nodes[start as usize];
        let i = self.index(s.cell, s.digit, s.on);
        let [mut pending_on, mut pending_off, mut current] = self.take_layers();
        let mut out = std::mem::take(&mut self.out);
        if s.on {
            self.seen_on[i] = self.generation;
            pending_on.push(start);
        } else {
            self.seen_off[i] = self.generation;
            pending_off.push(start);
        }
        // Forcing chains run with X-links only (alone or with Y-links).
        debug_assert!(links.x, "forcing chains need X-links");
        // The depth of the pending nodes (the start's is 0); a target found
        // from a node at depth d ends a chain of d + 2 candidates.
        let (mut depth_on, mut depth_off) = (0, 0);
        while !pending_on.is_empty() || !pending_off.is_empty() {
            if !pending_on.is_empty() {
                if self.hopeless(links.forcing_base(), depth_on + 2, links) {
                    break;
                }
                depth_off = depth_on + 1;
            }
            std::mem::swap(&mut current, &mut pending_on);
            pending_on.clear();
            for &p in &current {
                let n = self.nodes[p as usize];
                self.on_to_off(n.cell as usize, n.digit, links.y, &mut out);
                self.mark_ancestors(p);
                for &(cell, digit) in &out {
                    let opposite = s.on && cell == s.cell && digit == s.digit;
                    let ancestor = self.is_ancestor(cell, digit, false);
                    let i = self.index(cell, digit, false);
                    let fresh = !ancestor && self.seen_off[i] != self.generation;
                    if opposite || fresh {
                        let node = self.push(cell, digit, false, p);
                        if opposite {
                            self.add_target(targets, node);
                        }
                        if fresh {
                            self.seen_off[i] = self.generation;
                            pending_off.push(node);
                        }
                    }
                }
            }
            if !pending_off.is_empty() {
                if self.hopeless(links.forcing_base(), depth_off + 2, links) {
                    break;
                }
                depth_on = depth_off + 1;
            }
            std::mem::swap(&mut current, &mut pending_off);
            pending_off.clear();
            for &p in &current {
                let n = self.nodes[p as usize];
                self.off_to_on(n.cell as usize, n.digit, links, &mut out);
                for &(cell, digit) in &out {
                    let opposite = !s.on && cell == s.cell && digit == s.digit;
                    let i = self.index(cell, digit, true);
                    let fresh = self.seen_on[i] != self.generation;
                    if opposite || fresh {
                        let node = self.push(cell, digit, true, p);
                        if opposite {
                            self.add_target(targets, node);
                        }
                        if fresh {
                            self.seen_on[i] = self.generation;
                            pending_on.push(node);
                        }
                    }
                }
            }
        }
        self.layers = [pending_on, pending_off, current];
        self.out = out;
    }

    /// Pushes `node` to `targets` unless the same candidate is there.
    fn add_target(&self, targets: &mut Vec<u32>, node: u32) {
        let n = self.nodes[node as usize];
        let same = |&t: &u32| {
            let m = self.nodes[t as usize];
            (m.cell, m.digit, m.on) == (n.cell, n.digit, n.on)
        };
        if !targets.iter().any(same) {
            targets.push(node);
        }
    }

    /// The chain ending at `end`, from its start.
    fn path(&self, end: u32) -> Vec<Node> {
        let mut path = Vec::new();
        let mut at = end;
        while at != ROOT {
            let n = self.nodes[at as usize];
            path.push(n);
            at = n.parent;
        }
        path.reverse();
        path
    }

    /// The number of distinct candidates of a chain (SE's complexity).
    fn complexity(&mut self, path: &[Node]) -> usize {
        self.expansion += 1;
        let mut count = 0;
        for n in path {
            let i = self.index(n.cell, n.digit, n.on);
            if self.ancestors[i] != self.expansion {
                self.ancestors[i] = self.expansion;
                count += 1;
            }
        }
        count
    }

    /// The hint of the cycle closed at `end`: a digit is removed from a cell
    /// outside the cycle that sees both an "on" and an "off" node of that
    /// digit (whichever way the cycle goes, one of them is true). None
    /// when nothing is removed.
    fn cycle_hint(&mut self, end: u32, links: Links) -> Option<Hint> {
        let grid = self.grid;
        let path = self.path(end);
        let body = &path[1..];
        let in_cycle = |c: usize| body.iter().any(|n| usize::from(n.cell) == c);
        let mut cell_count = 0;
        for (i, n) in body.iter().enumerate() {
            if !body[..i].iter().any(|m| m.cell == n.cell) {
                cell_count += 1;
            }
        }
        self.sides.clear();
        for n in body {
            for &peer in grid.geometry().peers(usize::from(n.cell)) {
                let peer = usize::from(peer);
                if !in_cycle(peer) && grid.has(peer, n.digit) {
                    let side_bit = if n.on { 1 } else { 2 };
                    let c = Candidate::new(peer, n.digit);
                    match self.sides.iter_mut().find(|(d, _)| *d == c) {
                        Some((_, bits)) => *bits |= side_bit,
                        None => self.sides.push((c, side_bit)),
                    }
                }
            }
        }
        let mut removable: Vec<Candidate> = self
            .sides
            .iter()
            .filter(|&&(_, bits)| bits == 3)
            .map(|&(c, _)| c)
            .collect();
        if removable.is_empty() {
            return None;
        }
        removable.sort_unstable();
        let complexity = self.complexity(&path);
        // Every candidate of a cycle is distinct but the closing one (the
        // best-only search prunes on it).
        debug_assert_eq!(complexity, path.len() - 1);
        let difficulty = links.cycle_base() + length_added(complexity);
        let name = match (links.x, links.y) {
            (true, true) => "Bidirectional Cycle",
            (false, true) => "Bidirectional Y-Cycle",
            _ if cell_count == 4 => "Generalized X-Wing",
            _ => "Bidirectional X-Cycle",
        };
        Some(Hint {
            difficulty,
            complexity,
            key: links.sort_key(),
            removable,
            path,
            name,
            cycle: true,
            placement: None,
        })
    }

    /// The hint of the forcing chain ending at `target`: the start implies
    /// its own opposite, so the opposite holds. None when it removes
    /// nothing.
    fn forcing_hint(&mut self, target: u32, links: Links) -> Option<Hint> {
        let grid = self.grid;
        let side = grid.side();
        let t = self.nodes[target as usize];
        let cell = usize::from(t.cell);
        let (placement, removable) = if t.on {
            let others: Vec<Candidate> = (1..=side as u8)
                .filter(|&d| d != t.digit && grid.has(cell, d))
                .map(|d| Candidate::new(cell, d))
                .collect();
            (Some(Candidate::new(cell, t.digit)), others)
        } else {
            (None, vec![Candidate::new(cell, t.digit)])
        };
        if removable.is_empty() {
            return None;
        }
        let path = self.path(target);
        let complexity = self.complexity(&path);
        debug_assert_eq!(complexity, path.len());
        let difficulty = links.forcing_base() + length_added(complexity);
        let name = match (links.x, links.y) {
            (true, true) => "Forcing Chain",
            (false, true) => "Forcing Y-Chain",
            _ if complexity == 6 => "Turbot Fish",
            _ => "Forcing X-Chain",
        };
        Some(Hint {
            difficulty,
            complexity,
            key: links.sort_key(),
            removable,
            path,
            name,
            cycle: false,
            placement,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;

    /// Positions where SE applies a chain or cycle (puzzle, SE's earlier
    /// effects, SE's difficulty in tenths, SE's effects).
    const SE_STEPS: [(&str, &str, u16, &str); 7] = [
        (
            ".3.85.1..7..3..2....5..4.6..........284.....7...9..........6.1.6....5......48.3..",
            "r2c5=6 r1c3=6 r3c2=2 r1c6=2 r3c9=3 r9c9=6 r1c8=7 r4c5<>3 r5c5<>3 r6c5<>3 r5c5=1 r5c6=3 r4c7<>9 r4c8<>9 r4c9<>9 r4c4<>7 r4c5<>7 r6c5<>7 r9c6<>7 r7c2<>7 r7c3<>7 r8c2<>7 r8c3<>7 r4c4<>2 r7c5<>2 r8c5<>2 r2c3<>9 r9c1<>1",
            71,
            "r2c8<>9 r2c9<>9",
        ), // Bidirectional Cycle: A1,I1,G3,A3,A7
        (
            "................12..3.45........1..6..7...8...2..5........7.3.8.15......6........",
            "r7c4=1 r1c5=1 r3c1=1 r6c3=1 r5c2=6 r5c9=1 r9c4=5 r9c7=1 r7c8=5 r4c7=5 r1c9=5 r1c8=3 r3c8=8 r5c1=5 r2c2=5 r6c9=3 r8c7=2 r8c8=6 r7c6=6 r6c4=6 r2c5=6 r1c3=6 r1c1=2 r3c4=2 r3c7=6 r7c3=2 r9c3=8 r6c7<>4 r9c8<>4 r4c4<>3 r4c5<>3 r8c1<>4 r9c2<>4 r8c1<>9 r9c2<>9 r1c6<>8 r2c1<>7 r8c1=7 r9c2=3 r4c1=3 r1c2<>8 r6c1<>8 r2c1=8 r1c4=8 r4c2=8 r6c6=8 r4c4=7 r8c5=8 r5c5=3 r5c8<>4 r9c9<>9",
            66,
            "r1c2<>9 r4c8<>9 r9c6<>9",
        ), // Bidirectional X-Cycle: B3,I3,I8,H9,E9,E4,C4,C2
        (
            "..7...4....61......23.5...7..2.....581....2.....6...1....4...........34...8.327..",
            "r6c5=2 r1c4=2 r7c1<>1 r8c1<>1 r9c1<>1 r9c9=1 r3c7=1 r1c1=1 r4c6<>3 r5c6<>3 r6c6<>3 r4c7<>6 r4c8<>6 r7c7=6 r2c7=5 r1c2=5 r2c2=8 r9c2=4 r9c1=6 r4c2=6 r4c1<>4 r6c1<>4 r4c1<>9 r6c1<>9 r7c1<>9 r8c1<>9 r4c8<>8 r6c9<>8 r4c8<>9 r5c8<>9 r5c9<>9 r6c9<>9 r5c5<>4 r5c6<>4 r6c6<>4 r4c4<>3 r4c4<>7 r4c5<>7 r4c6<>7 r5c4=3 r8c4=7 r9c4=5 r9c8=9 r7c8=5 r2c8=2 r8c1=2 r8c3=5 r6c1=5 r5c6=5 r7c3=1 r7c9=2 r8c9=8 r8c2=9 r4c5<>8 r4c5<>9 r4c6<>8 r4c6<>9",
            69,
            "r1c9<>3 r2c5<>9 r2c6<>9 r3c6<>9 r6c6<>9",
        ), // Bidirectional Y-Cycle: A3,D3,D4,E5,H5,I5,I6,I2,A2
        (
            "......52....3.1..4.4..57.8.286................3.8..91...1....5..9.7..16..5.....7.",
            "r8c6=5 r2c8=9 r4c9=5 r5c4=5 r4c7=7 r1c9=7 r3c9=1 r3c7=3 r2c7=6 r5c7<>4 r5c9<>3 r5c5<>1 r5c5<>9 r5c6<>9 r7c4<>2 r7c4<>6 r1c1<>6 r1c1<>9 r1c3<>9 r2c3<>2 r3c4<>9 r7c2<>7 r7c1=7",
            71,
            "r1c1=1",
        ), // Forcing Chain: A1.1 on
        (
            "........1.....2....13....4.....4...32........5....6......6..5....731....8.....2..",
            "r2c4=1 r7c5=2 r8c2=2 r1c3=2 r3c9=2 r7c1=3 r9c8=3 r7c8=1 r9c3=1 r4c1=1 r5c6=1 r6c7=1 r9c2=5 r2c3=5 r1c8=5 r5c9=5 r8c1=6 r8c6=5 r4c4=5 r3c5=5 r6c4=2 r4c8=2 r7c6=8 r9c9=6 r7c9=7 r1c6=3 r1c4=4 r2c7=3 r9c6=4 r2c1=4 r3c7=6 r5c8=6 r4c3=6 r3c4=8 r4c2<>8 r5c2<>8 r6c2<>8 r4c7=8 r1c2=8 r2c2=6 r1c5=6 r5c5<>7 r5c5<>9 r6c5<>7 r6c5<>9",
            67,
            "r1c1<>7",
        ), // Forcing X-Chain: A1.7 off
        (
            "..874.9..1..5....7....2...5...8..49.....7....62.93......3......78....1.9.....2...",
            "r5c1=8 r5c4=2 r4c9=2 r7c6=7 r7c8<>4 r8c8<>4 r9c8<>4 r8c6<>4 r2c5<>8 r2c5<>9 r4c5=1 r4c6=6 r8c5=5 r2c5=6 r1c6=1 r3c8=1 r2c8=4 r3c4=3 r8c6=3 r6c7<>8 r7c7<>8 r9c7<>8 r5c2<>3 r6c3<>7 r5c2<>5 r5c3<>5 r6c3<>5",
            66,
            "r1c1=2",
        ), // Turbot Fish: A1.2 on
        (
            "....4...1...2.9..3.731.........8.62..6....83.8.......4.5..1..9.7.16....23.2......",
            "r7c6=2 r1c2<>9 r4c2<>9 r6c2<>9 r6c2<>1 r6c6<>1 r7c9<>6",
            72,
            "r8c2<>8",
        ), // Forcing Chain: B8.8 off
    ];

    /// A cell name `r3c5` as a 9×9 cell index.
    fn cell(name: &str) -> usize {
        let (row, col) = name[1..].split_once('c').unwrap();
        (row.parse::<usize>().unwrap() - 1) * 9 + col.parse::<usize>().unwrap() - 1
    }

    /// The grid after replaying SE's effects (`r1c2=5`, `r1c3<>4`).
    fn replay(puzzle: &str, effects: &str) -> Candidates {
        let mut grid = Candidates::new(&puzzle.parse::<Puzzle>().unwrap()).unwrap();
        for effect in effects.split_whitespace() {
            if let Some((name, digit)) = effect.split_once("<>") {
                grid.eliminate(cell(name), digit.parse().unwrap());
            } else if let Some((name, digit)) = effect.split_once('=') {
                if grid.value(cell(name)) == 0 {
                    grid.place(cell(name), digit.parse().unwrap());
                }
            }
        }
        grid
    }

    /// The first step reported, as SE would apply it.
    fn first(grid: &Candidates) -> Step {
        let mut found = None;
        let _ = cycles_and_chains(grid, &Budget::unlimited(), &mut |step| {
            found = Some(step);
            ControlFlow::Break(())
        });
        found.expect("a chain step")
    }

    #[test]
    fn first_step_is_se_s() {
        for (puzzle, before, tenths, effects) in SE_STEPS {
            let step = first(&replay(puzzle, before));
            assert_eq!(step.difficulty, Difficulty(tenths), "{puzzle}: {step}");
            assert_eq!(step.outcome().replace(',', ""), effects, "{puzzle}: {step}");
        }
    }

    /// The best-only search, which stops each chain search where it can
    /// no longer come first, reports the first of the full sorted search
    /// on every grid where SE reaches this producer, along the rating
    /// walks of the SE sample's puzzles rated 6.5 to 9.4.
    #[test]
    fn best_only_search_finds_the_first_sorted_hint() {
        use crate::logic::{Solver, TechniqueSet};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/se_sample.tsv");
        let sample = std::fs::read_to_string(path).expect("the SE sample ships with the crate");
        let puzzles: Vec<Puzzle> = sample
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .filter_map(|l| {
                let fields: Vec<&str> = l.split('\t').collect();
                let er: f64 = fields[1].parse().ok()?;
                (6.5..9.45)
                    .contains(&er)
                    .then(|| fields[0].parse().unwrap())
            })
            .step_by(3)
            .collect();
        assert!(puzzles.len() > 40, "{} puzzles", puzzles.len());
        let solver = Solver::new(TechniqueSet::Explainer);
        let mut compared = 0;
        for puzzle in &puzzles {
            let _ = solver.walk(puzzle, &Budget::unlimited(), |grid, step| {
                if step.difficulty < Difficulty(65) {
                    return;
                }
                let side = grid.side();
                let best = collect(grid, &Budget::unlimited(), true).pop();
                let first = sorted_hints(grid, &Budget::unlimited()).into_iter().next();
                assert_eq!(
                    best.map(|h| h.step(side)),
                    first.map(|h| h.step(side)),
                    "{puzzle}"
                );
                compared += 1;
            });
        }
        assert!(compared > 200, "{compared} grids compared");
    }

    #[test]
    fn length_increments_are_se_s_doubles() {
        assert_eq!(length_added(6), 0.0);
        assert_eq!(length_added(7), 0.1);
        assert_eq!(6.6 + length_added(7), 6.699999999999999);
        assert_eq!(6.5 + length_added(10), 6.7);
        assert_eq!(tenths(6.6 + length_added(7)), Difficulty(67));
        assert_eq!(tenths(7.0 + length_added(14)), Difficulty(73));
    }
}
