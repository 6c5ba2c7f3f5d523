//! Sudoku Explainer's forcing chains with several branches: Nishio (7.5),
//! multiple — cell and region — forcing chains (8.0), dynamic forcing
//! chains (8.5), dynamic chains that also use locked candidates, pairs and
//! X-Wings (9.0, "dynamic plus"), and dynamic chains nested over other
//! chains (9.5 to 11.0).
//!
//! Each starts from a candidate assumed on and off and follows every
//! implication breadth first (a digit on turns its peers off; an off
//! candidate turns on the last digit of a cell or the last place of a
//! digit in a unit). Dynamic chains also remove what they turn off, so a
//! cell or unit reduced by the chain yields new singles; when nothing
//! follows any more, "plus" and nested chains look for patterns — and
//! nested chains for whole forcing chains — in the grid as the chain has
//! reduced it. A conclusion holds when:
//! - an assumption leads to a contradiction (a candidate both on and off:
//!   the assumption is false),
//! - both states of a candidate imply the same thing (double forcing),
//! - every digit of a cell, or every place of a digit in a unit, implies
//!   the same thing (cell and region forcing chains).
//!
//! All conclusions are collected, then sorted as SE sorts them
//! (difficulty, number of candidates involved, kind), so the first
//! reported is the one SE applies.

mod advanced;
mod engine;
mod outcome;
mod reuse;

use std::ops::ControlFlow;

use super::chains::tenths;
use super::step::{cell_name, unit_name};
use super::{Candidate, Candidates, Sink, Step, Technique};
use crate::budget::Budget;
use engine::Engine;
use outcome::Node;

/// Which of SE's chaining producers runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Nishio: contradictions, dynamic, from X-links only (7.5).
    Nishio,
    /// Cell and region forcing chains on the unchanged grid (8.0).
    Multiple,
    /// Dynamic forcing chains; level 1 and up also use patterns in the
    /// reduced grid: 1 locked candidates, pairs and X-Wings (9.0), 2 also
    /// forcing chains and cycles (9.5), 3 also multiple forcing chains
    /// (10.0), 4 dynamic forcing chains (10.5), 5 dynamic forcing chains
    /// of level 2 (11.0).
    Dynamic(u8),
}

impl Mode {
    /// Whether chains remove what they turn off (Nishio does too).
    fn dynamic(self) -> bool {
        self != Mode::Multiple
    }

    fn nishio(self) -> bool {
        self == Mode::Nishio
    }

    fn multiple(self) -> bool {
        self != Mode::Nishio
    }

    /// The nesting level (0 for Nishio and multiple chains).
    fn level(self) -> u8 {
        match self {
            Mode::Dynamic(level) => level,
            _ => 0,
        }
    }

    /// SE's base difficulty, before the length increment.
    fn base(self) -> f64 {
        match self {
            Mode::Nishio => 7.5,
            Mode::Multiple => 8.0,
            Mode::Dynamic(0) => 8.5,
            Mode::Dynamic(1) => 9.0,
            Mode::Dynamic(level) => 9.5 + 0.5 * f64::from(level - 2),
        }
    }

    fn technique(self) -> Technique {
        match self {
            Mode::Nishio => Technique::Nishio,
            Mode::Multiple => Technique::MultipleForcingChain,
            Mode::Dynamic(0) => Technique::DynamicForcingChain,
            Mode::Dynamic(1) => Technique::DynamicForcingChainPlus,
            Mode::Dynamic(2) => Technique::NestedForcingChain,
            Mode::Dynamic(3) => Technique::NestedMultipleChain,
            Mode::Dynamic(4) => Technique::NestedDynamicChain,
            Mode::Dynamic(_) => Technique::NestedPlusChain,
        }
    }

    /// SE's hint name for a conclusion of `kind`.
    fn name(self, kind: Kind) -> String {
        let prefix = match self {
            Mode::Nishio => "Nishio ",
            Mode::Multiple => "",
            Mode::Dynamic(_) => "Dynamic ",
        };
        let body = match kind {
            Kind::Contradiction if self.nishio() => "Forcing",
            Kind::Contradiction => "Contradiction Forcing",
            Kind::Double => "Double Forcing",
            Kind::Cell => "Cell Forcing",
            Kind::Region => "Region Forcing",
        };
        format!("{prefix}{body} Chains{}", nested_suffix(self.level()))
    }
}

/// SE's name suffix for a nesting level.
fn nested_suffix(level: u8) -> String {
    match level {
        0 => String::new(),
        1 => " (+)".to_string(),
        2 => " (+ Forcing Chains)".to_string(),
        3 => " (+ Multiple Forcing Chains)".to_string(),
        4 => " (+ Dynamic Forcing Chains)".to_string(),
        _ => format!(" (+ Dynamic Forcing Chains{})", nested_suffix(level - 3)),
    }
}

/// What kind of conclusion, with SE's rank among equal difficulty and
/// length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Both states of a candidate imply the same (rank 1).
    Double,
    /// Every digit of a cell implies the same (rank 5).
    Cell,
    /// Every place of a digit in a unit implies the same (rank 6).
    Region,
    /// An assumption implies a contradiction (rank 7).
    Contradiction,
}

impl Kind {
    fn rank(self) -> u8 {
        match self {
            Kind::Double => 1,
            Kind::Cell => 5,
            Kind::Region => 6,
            Kind::Contradiction => 7,
        }
    }
}

/// What a conclusion's branches start from.
#[derive(Clone, Copy, Debug)]
enum Premise {
    /// The assumption `cell = digit` (on) or `cell <> digit` (off) is
    /// absurd.
    Contradiction { cell: usize, digit: u8, on: bool },
    /// `cell = digit` and `cell <> digit` imply the same.
    Double { cell: usize, digit: u8 },
    /// Every digit of `cell` implies the same.
    Cell { cell: usize },
    /// Every place of `digit` in `unit` implies the same.
    Region { unit: usize, digit: u8 },
}

/// A conclusion found, before SE's sort.
struct Hint {
    /// SE's difficulty as a double, with its rounding.
    difficulty: f64,
    /// Candidates involved, nested chains included (SE's complexity).
    complexity: usize,
    /// The kind.
    kind: Kind,
    /// The digit placed, when the conclusion is a candidate on.
    placement: Option<Candidate>,
    /// The candidates removed, sorted.
    removable: Vec<Candidate>,
    /// What the branches start from.
    premise: Premise,
    /// Each branch's main path, to explain the step (empty in a nested
    /// search, which explains nothing).
    branches: Vec<Vec<Node>>,
    /// In a nested search, what the conclusion relies on that the outer
    /// chain removed.
    parents: Vec<(usize, u8)>,
    /// In a nested search, the identity of the chains (SE counts each
    /// distinct nested chain once).
    fingerprint: u64,
}

/// A conclusion of a chain search run inside another chain: what it
/// removes, what it relies on that the outer chain removed, how complex
/// it is and which chain it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct NestedHint {
    /// The candidates removed.
    pub removable: Vec<Candidate>,
    /// The candidates `(cell, digit)` the outer chain removed that the
    /// conclusion relies on (SE's rule parents).
    pub parents: Vec<(usize, u8)>,
    /// SE's complexity of the conclusion.
    pub complexity: usize,
    /// Equal for equal chains.
    pub fingerprint: u64,
}

/// Sorts hints as SE does (difficulty, complexity, kind; stable) and
/// drops those removing the same as an earlier one.
fn sort_and_dedup(hints: &mut Vec<Hint>) {
    hints.sort_by(|a, b| {
        a.difficulty
            .total_cmp(&b.difficulty)
            .then(a.complexity.cmp(&b.complexity))
            .then(a.kind.rank().cmp(&b.kind.rank()))
    });
    let mut seen: std::collections::HashSet<Vec<Candidate>> = std::collections::HashSet::new();
    hints.retain(|h| seen.insert(h.removable.clone()));
}

/// SE's chaining producer `mode` on `grid`: every conclusion, easiest
/// first, each once.
/// Gives up (with the conclusions found so far) once `budget` is spent.
pub(super) fn find(
    grid: &Candidates,
    mode: Mode,
    budget: &Budget,
    sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    let mut hints = Engine::new(grid, mode, None, budget).hints();
    sort_and_dedup(&mut hints);
    for hint in hints {
        sink(step(grid.side(), mode, hint))?;
    }
    ControlFlow::Continue(())
}

/// The conclusions of producer `mode` on `grid`, a grid reduced by an
/// outer chain that started from the candidates `initial`, in SE's order.
pub(super) fn nested_hints(
    grid: &Candidates,
    mode: Mode,
    initial: &[u64],
    budget: &Budget,
) -> Vec<NestedHint> {
    let mut hints = Engine::new(grid, mode, Some(initial), budget).hints();
    sort_and_dedup(&mut hints);
    hints
        .into_iter()
        .map(|h| NestedHint {
            removable: h.removable,
            parents: h.parents,
            complexity: h.complexity,
            fingerprint: h.fingerprint,
        })
        .collect()
}

/// The step reported for `hint`.
fn step(side: usize, mode: Mode, hint: Hint) -> Step {
    let mut cells: Vec<usize> = hint
        .branches
        .iter()
        .flat_map(|path| path.iter().map(|n| usize::from(n.cell)))
        .collect();
    cells.sort_unstable();
    cells.dedup();
    let chain = |path: &[Node]| {
        path.iter()
            .map(|n| node_name(side, n))
            .collect::<Vec<_>>()
            .join(" -> ")
    };
    let (premise, labels): (String, Vec<String>) = match hint.premise {
        Premise::Contradiction { cell, digit, on } => {
            let op = if on { "=" } else { "<>" };
            let target = hint.branches[0].last().map(|n| usize::from(n.cell));
            (
                format!(
                    "assuming {}{op}{digit} makes {} both true and false",
                    cell_name(side, cell),
                    target.map_or(String::new(), |c| cell_name(side, c))
                ),
                vec!["on".to_string(), "off".to_string()],
            )
        }
        Premise::Double { cell, digit } => {
            let name = cell_name(side, cell);
            (
                format!("whether {name} is {digit} or not"),
                vec![format!("{name}={digit}"), format!("{name}<>{digit}")],
            )
        }
        Premise::Cell { cell } => (
            format!("{} holds one of its digits", cell_name(side, cell)),
            hint.branches
                .iter()
                .map(|p| format!("{}={}", cell_name(side, cell), p[0].digit))
                .collect(),
        ),
        Premise::Region { unit, digit } => (
            format!("{digit} goes somewhere in {}", unit_name(side, unit)),
            hint.branches
                .iter()
                .map(|p| cell_name(side, usize::from(p[0].cell)))
                .collect(),
        ),
    };
    let branches: Vec<String> = labels
        .iter()
        .zip(&hint.branches)
        .map(|(label, path)| format!("{label}: {}", chain(path)))
        .collect();
    let (placements, eliminations) = match hint.placement {
        Some(p) => (vec![p], Vec::new()),
        None => (Vec::new(), hint.removable),
    };
    Step {
        technique: mode.technique(),
        name: mode.name(hint.kind),
        difficulty: tenths(hint.difficulty),
        placements,
        eliminations,
        cells,
        reason: format!("{premise}; {}", branches.join("; ")),
        side,
    }
}

/// A node's name: `r1c2=5` when on, `r1c2<>5` when off.
fn node_name(side: usize, node: &Node) -> String {
    let op = if node.on { "=" } else { "<>" };
    format!(
        "{}{op}{}",
        cell_name(side, usize::from(node.cell)),
        node.digit
    )
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::test_support::replay;

    /// Positions where SE applies one of these producers: (puzzle, SE's
    /// earlier effects, producer, SE's difficulty in tenths, SE's
    /// effects).
    const SE_STEPS: &[(&str, &str, Mode, u16, &str)] = &[
        (
            "....4...1...2.9..3.731.........8.62..6....83.8.......4.5..1..9.7.16....23.2......",
            "r7c6=2 r1c2<>9 r4c2<>9 r6c2<>9 r6c2<>1 r6c6<>1 r7c9<>6 r8c2<>8 r7c7<>7",
            Mode::Nishio,
            76,
            "r1c8<>8",
        ),
        (
            ".2...6.....758......5....34..8.....3..1735.8....9........8..........175.2....3.1.",
            "r1c4=3 r6c3=2 r6c6=8 r7c7=3 r8c3=3 r2c9=1 r1c5<>7 r4c7<>2 r4c8<>2 r7c1<>6 r7c2<>6 \
             r8c1<>6 r8c2<>6 r9c2<>6 r1c9<>8 r1c9<>9 r6c9<>6 r9c7<>8 r9c9=8 r9c2<>4 r9c2<>9 \
             r9c5<>4 r9c5<>6 r9c5<>9 r7c1<>4 r7c1<>9 r7c2<>4 r7c2<>9 r7c3<>4 r7c6<>4 r2c6<>2 \
             r3c7<>2 r5c7<>4 r4c1<>4 r4c2<>4 r6c1<>4 r6c2<>4 r7c8<>6 r4c8<>4",
            Mode::Multiple,
            82,
            "r9c7<>6",
        ), // Region Forcing Chains: 6 in box 9
        (
            ".....8.294..7.........2.1..85.3..7..6......91.1......85.....4...9...3.....765....",
            "r9c7=9 r3c4<>4 r3c6<>4 r3c1<>7 r3c2<>7 r3c8<>3 r3c8<>5 r3c8<>6 r3c8<>8 r3c9<>3 \
             r3c9<>5 r3c9<>6 r2c2<>8 r2c3<>8 r1c1<>3 r1c2<>3 r1c3<>3 r2c2<>3 r2c3<>3 r9c2<>2 \
             r7c2<>2 r5c4<>4 r5c5<>4 r9c2<>3 r9c8<>3 r3c6<>9 r1c5<>6 r3c2<>6 r3c3<>6 r3c6=6 r6c4<>5",
            Mode::Dynamic(0),
            89,
            "r8c3<>1",
        ), // Dynamic Region Forcing Chains: 1 in row 8
        (
            "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
            "r9c8=3 r7c1<>4 r7c2<>4 r7c3<>4 r5c1<>4 r2c6<>6 r5c4<>4 r6c5<>8 r2c4<>6 r5c3<>8 \
             r4c6<>9 r7c6<>6",
            Mode::Dynamic(1),
            97,
            "r1c3<>5",
        ), // Dynamic Region Forcing Chains (+): 5 in column 3
        (
            "........91......35..9.3.8....3.5...67....2......4.......6.8..9..2.7..6..4.....1..",
            "",
            Mode::Dynamic(2),
            102,
            "r3c9<>2",
        ), // Dynamic Contradiction Forcing Chains (+ Forcing Chains): r3c9=2 => r3c2=7 and r3c2<>7
    ];

    /// The first step `mode` reports.
    fn first(grid: &Candidates, mode: Mode) -> Option<Step> {
        let mut found = None;
        let _ = find(grid, mode, &Budget::unlimited(), &mut |step| {
            found = Some(step);
            ControlFlow::Break(())
        });
        found
    }

    #[test]
    fn first_steps_are_se_s() {
        for &(puzzle, before, mode, tenths, effects) in SE_STEPS {
            let grid = replay(puzzle, before);
            let step =
                first(&grid, mode).unwrap_or_else(|| panic!("{mode:?} finds nothing in {puzzle}"));
            assert_eq!(step.outcome().replace(',', ""), effects, "{step}");
            assert_eq!(step.difficulty.0, tenths, "{step}");
        }
    }

    #[test]
    fn names_and_base_difficulties_are_se_s() {
        let bases: Vec<f64> = [Mode::Nishio, Mode::Multiple]
            .into_iter()
            .chain((0..=5).map(Mode::Dynamic))
            .map(Mode::base)
            .collect();
        assert_eq!(bases, [7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0]);
        assert_eq!(
            Mode::Nishio.name(Kind::Contradiction),
            "Nishio Forcing Chains"
        );
        assert_eq!(Mode::Multiple.name(Kind::Region), "Region Forcing Chains");
        assert_eq!(
            Mode::Dynamic(1).name(Kind::Double),
            "Dynamic Double Forcing Chains (+)"
        );
        assert_eq!(
            Mode::Dynamic(5).name(Kind::Cell),
            "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))"
        );
    }
}
