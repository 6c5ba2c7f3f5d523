//! The logic engine: solving as a person does, one explained step at a time,
//! and the Sudoku Explainer rating.
//!
//! A [`Candidates`] grid holds the pencil marks; each [`Technique`] is a
//! small unit that looks at the grid and reports [`Step`]s (what it places
//! or eliminates, and why). A [`Solver`] tries its techniques in a fixed
//! order and applies the first step found, which is how Sudoku Explainer
//! (SE) rates puzzles: a puzzle's **ER** is the difficulty of its hardest
//! step, **EP** the hardest step up to the first placement after an
//! elimination-only step, **ED** the first step's.
//!
//! ```
//! use sudokit::logic::{Solver, TechniqueSet};
//! use sudokit::Puzzle;
//!
//! let p: Puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......".parse()?;
//! let rating = Solver::new(TechniqueSet::Explainer).rate(&p)?;
//! assert!(rating.solved);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Techniques work on every box shape where they are meaningful: units come
//! from the [`Geometry`](crate::grid::Geometry) tables.

mod aic;
mod aligned;
mod candidates;
mod chains;
mod coloring;
mod fish;
mod floor;
mod forcing;
mod intersections;
pub(crate) mod pencil;
mod puzzle;
mod rate;
mod reach;
mod single_digit;
mod singles;
mod step;
mod subsets;
#[cfg(test)]
mod test_support;
mod uniqueness;
mod wings;

pub use candidates::{Candidates, Contradiction};
pub(crate) use rate::{walk_grid, RatingTally, StepGrid};
pub use rate::{LogicError, Rating, Solver, TechniqueSet};
pub(crate) use single_digit::chain_difficulty;
pub(crate) use step::cell_list;
pub use step::{cell_name, unit_name, Candidate, Difficulty, DifficultyError, Step};

use std::ops::ControlFlow;

use crate::budget::Budget;

/// Where a technique reports the steps it finds; returning
/// [`ControlFlow::Break`] stops the search (the caller has what it needs).
pub type Sink<'a> = dyn FnMut(Step) -> ControlFlow<()> + 'a;

/// A technique (a hint producer): one family of patterns, searched as a
/// unit. Sudoku Explainer's producers come first, in SE's order; the ones
/// after them are techniques players use that SE lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// Full house and hidden single: the last place of a digit in a unit.
    HiddenSingle,
    /// Pointing or claiming whose eliminations leave a hidden single (SE only).
    DirectPointing,
    /// Hidden pair whose eliminations leave a hidden single (SE only).
    DirectHiddenPair,
    /// Naked single: the last digit of a cell.
    NakedSingle,
    /// Hidden triple whose eliminations leave a hidden single (SE only).
    DirectHiddenTriple,
    /// Pointing (box to line) and claiming (line to box).
    Intersection,
    /// Two digits confined to two cells of a unit.
    HiddenPair,
    /// Two cells of a unit holding the same two digits.
    NakedPair,
    /// A digit confined to two lines' same two cross lines.
    XWing,
    /// Three digits confined to three cells of a unit.
    HiddenTriple,
    /// Three cells of a unit holding only three digits.
    NakedTriple,
    /// The fish of three lines.
    Swordfish,
    /// A bivalue pivot and two bivalue pincers.
    XyWing,
    /// A trivalue pivot and two bivalue pincers.
    XyzWing,
    /// Unique rectangles and loops, types 1 to 4 (the puzzle is assumed unique).
    UniqueLoop,
    /// Four cells of a unit holding only four digits.
    NakedQuad,
    /// The fish of four lines.
    Jellyfish,
    /// Four digits confined to four cells of a unit.
    HiddenQuad,
    /// Bivalue universal grave, types 1 to 4.
    Bug,
    /// Aligned pair exclusion.
    AlignedPair,
    /// X- and Y-cycles and forcing chains (SE's chains and cycles).
    ForcingChain,
    /// Aligned triple exclusion.
    AlignedTriple,
    /// Nishio forcing chains.
    Nishio,
    /// Cell and region forcing chains.
    MultipleForcingChain,
    /// Dynamic forcing chains.
    DynamicForcingChain,
    /// Dynamic forcing chains that also use intersections, subsets and fish.
    DynamicForcingChainPlus,
    /// Dynamic chains nested over forcing chains (SE level 2).
    NestedForcingChain,
    /// Dynamic chains nested over multiple forcing chains (SE level 3).
    NestedMultipleChain,
    /// Dynamic chains nested over dynamic chains (SE level 4).
    NestedDynamicChain,
    /// Dynamic chains nested over dynamic chains plus (SE level 5).
    NestedPlusChain,
    /// Finned and sashimi X-Wing, Swordfish and Jellyfish: the plain fish's
    /// rating plus 0.1 (finned) or 0.2 (sashimi). Not in SE.
    FinnedFish,
    /// Two conjugate pairs of a digit with one end in common line.
    Skyscraper,
    /// A row and a column conjugate pair joined in a box.
    TwoStringKite,
    /// A box's places of a digit on one row and one column, and a conjugate pair.
    EmptyRectangle,
    /// Two equal bivalue cells joined by a conjugate pair.
    WWing,
    /// Two-colouring of a digit's conjugate pairs.
    SimpleColoring,
    /// Alternating inference chains (X-chains, XY-chains, AIC) in players' notation.
    Aic,
    /// Killer cages: the digit sets a cage's sum allows, and the law of
    /// leftovers (variants only: plain Sudoku has no cages).
    Cage,
    /// The law of leftovers between lines and irregular regions: `k` rows
    /// hold each digit `k` times, as do `k` regions, so the cells of one
    /// outside the other hold the same digits (variants only).
    Leftovers,
}

impl Technique {
    /// Every technique: Sudoku Explainer's in SE's order, then the others.
    pub const ALL: [Technique; 39] = [
        Technique::HiddenSingle,
        Technique::DirectPointing,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::Intersection,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueLoop,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::Bug,
        Technique::AlignedPair,
        Technique::ForcingChain,
        Technique::AlignedTriple,
        Technique::Nishio,
        Technique::MultipleForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
        Technique::NestedMultipleChain,
        Technique::NestedDynamicChain,
        Technique::NestedPlusChain,
        Technique::FinnedFish,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::EmptyRectangle,
        Technique::WWing,
        Technique::SimpleColoring,
        Technique::Aic,
        Technique::Cage,
        Technique::Leftovers,
    ];

    /// Sudoku Explainer's producers in the order SE tries them.
    pub const EXPLAINER: [Technique; 30] = [
        Technique::HiddenSingle,
        Technique::DirectPointing,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::Intersection,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueLoop,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::Bug,
        Technique::AlignedPair,
        Technique::ForcingChain,
        Technique::AlignedTriple,
        Technique::Nishio,
        Technique::MultipleForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
        Technique::NestedMultipleChain,
        Technique::NestedDynamicChain,
        Technique::NestedPlusChain,
    ];

    /// Every technique but SE's "direct" shortcuts, easiest first: the order
    /// of a person's hints.
    pub const HUMAN: [Technique; 34] = [
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::Intersection,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::EmptyRectangle,
        Technique::Swordfish,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::WWing,
        Technique::FinnedFish,
        Technique::UniqueLoop,
        Technique::NakedQuad,
        Technique::HiddenQuad,
        Technique::Jellyfish,
        Technique::SimpleColoring,
        Technique::Bug,
        Technique::AlignedPair,
        Technique::Aic,
        Technique::ForcingChain,
        Technique::AlignedTriple,
        Technique::Nishio,
        Technique::MultipleForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
        Technique::NestedMultipleChain,
        Technique::NestedDynamicChain,
        Technique::NestedPlusChain,
    ];

    /// Looks for steps of this technique in `grid`, reporting each to
    /// `sink` until it breaks.
    pub fn find(self, grid: &Candidates, sink: &mut Sink<'_>) -> ControlFlow<()> {
        self.find_within(grid, &Budget::unlimited(), sink)
    }

    /// As [`Technique::find`], giving up early (with what it found so far)
    /// once `budget` is spent: the chain techniques can take seconds on the
    /// hardest puzzles.
    pub fn find_within(
        self,
        grid: &Candidates,
        budget: &Budget,
        sink: &mut Sink<'_>,
    ) -> ControlFlow<()> {
        match self {
            Technique::HiddenSingle => singles::hidden(grid, sink),
            Technique::DirectPointing => intersections::locked(grid, true, sink),
            Technique::DirectHiddenPair => subsets::direct_hidden(grid, 2, sink),
            Technique::NakedSingle => singles::naked(grid, sink),
            Technique::DirectHiddenTriple => subsets::direct_hidden(grid, 3, sink),
            Technique::Intersection => intersections::locked(grid, false, sink),
            Technique::HiddenPair => subsets::hidden(grid, 2, sink),
            Technique::NakedPair => subsets::naked(grid, 2, sink),
            Technique::XWing => fish::basic(grid, 2, sink),
            Technique::HiddenTriple => subsets::hidden(grid, 3, sink),
            Technique::NakedTriple => subsets::naked(grid, 3, sink),
            Technique::Swordfish => fish::basic(grid, 3, sink),
            Technique::XyWing => wings::xy(grid, sink),
            Technique::XyzWing => wings::xyz(grid, sink),
            Technique::UniqueLoop => uniqueness::loops(grid, sink),
            Technique::NakedQuad => subsets::naked(grid, 4, sink),
            Technique::Jellyfish => fish::basic(grid, 4, sink),
            Technique::HiddenQuad => subsets::hidden(grid, 4, sink),
            Technique::Bug => uniqueness::bug(grid, sink),
            Technique::AlignedPair => aligned::exclusion(grid, 2, sink),
            Technique::ForcingChain => chains::cycles_and_chains(grid, budget, sink),
            Technique::AlignedTriple => aligned::exclusion(grid, 3, sink),
            Technique::Nishio => forcing::find(grid, forcing::Mode::Nishio, budget, sink),
            Technique::MultipleForcingChain => {
                forcing::find(grid, forcing::Mode::Multiple, budget, sink)
            }
            Technique::DynamicForcingChain => {
                forcing::find(grid, forcing::Mode::Dynamic(0), budget, sink)
            }
            Technique::DynamicForcingChainPlus => {
                forcing::find(grid, forcing::Mode::Dynamic(1), budget, sink)
            }
            Technique::NestedForcingChain => {
                forcing::find(grid, forcing::Mode::Dynamic(2), budget, sink)
            }
            Technique::NestedMultipleChain => {
                forcing::find(grid, forcing::Mode::Dynamic(3), budget, sink)
            }
            Technique::NestedDynamicChain => {
                forcing::find(grid, forcing::Mode::Dynamic(4), budget, sink)
            }
            Technique::NestedPlusChain => {
                forcing::find(grid, forcing::Mode::Dynamic(5), budget, sink)
            }
            Technique::FinnedFish => fish::finned(grid, sink),
            Technique::Skyscraper => single_digit::skyscraper(grid, sink),
            Technique::TwoStringKite => single_digit::kite(grid, sink),
            Technique::EmptyRectangle => single_digit::empty_rectangle(grid, sink),
            Technique::WWing => wings::w(grid, sink),
            Technique::SimpleColoring => coloring::simple(grid, sink),
            Technique::Aic => aic::find(grid, sink),
            // A plain grid has no cage, and on boxes the intersections and
            // subsets do the leftovers' work: these two find steps in the
            // variant logic engine (`crate::variant::VariantLogic`).
            Technique::Cage | Technique::Leftovers => ControlFlow::Continue(()),
        }
    }

    /// The technique's name on the command line (`hidden-single`).
    pub fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingle => "hidden-single",
            Technique::DirectPointing => "direct-pointing",
            Technique::DirectHiddenPair => "direct-hidden-pair",
            Technique::NakedSingle => "naked-single",
            Technique::DirectHiddenTriple => "direct-hidden-triple",
            Technique::Intersection => "intersection",
            Technique::HiddenPair => "hidden-pair",
            Technique::NakedPair => "naked-pair",
            Technique::XWing => "x-wing",
            Technique::HiddenTriple => "hidden-triple",
            Technique::NakedTriple => "naked-triple",
            Technique::Swordfish => "swordfish",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::UniqueLoop => "unique-rectangle",
            Technique::NakedQuad => "naked-quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden-quad",
            Technique::Bug => "bug",
            Technique::AlignedPair => "aligned-pair-exclusion",
            Technique::ForcingChain => "forcing-chain",
            Technique::AlignedTriple => "aligned-triple-exclusion",
            Technique::Nishio => "nishio",
            Technique::MultipleForcingChain => "multiple-forcing-chain",
            Technique::DynamicForcingChain => "dynamic-forcing-chain",
            Technique::DynamicForcingChainPlus => "dynamic-forcing-chain-plus",
            Technique::NestedForcingChain => "nested-forcing-chain",
            Technique::NestedMultipleChain => "nested-multiple-chain",
            Technique::NestedDynamicChain => "nested-dynamic-chain",
            Technique::NestedPlusChain => "nested-plus-chain",
            Technique::FinnedFish => "finned-fish",
            Technique::Skyscraper => "skyscraper",
            Technique::TwoStringKite => "two-string-kite",
            Technique::EmptyRectangle => "empty-rectangle",
            Technique::WWing => "w-wing",
            Technique::SimpleColoring => "simple-coloring",
            Technique::Aic => "aic",
            Technique::Cage => "cage",
            Technique::Leftovers => "leftovers",
        }
    }
}

impl std::fmt::Display for Technique {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Error of parsing a [`Technique`] name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown technique {0:?} (see `sudokit rate --help` for the list)")]
pub struct TechniqueError(pub String);

impl std::str::FromStr for Technique {
    type Err = TechniqueError;

    fn from_str(s: &str) -> Result<Technique, TechniqueError> {
        Technique::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| TechniqueError(s.to_string()))
    }
}
