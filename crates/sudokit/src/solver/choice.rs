//! [`EngineChoice`]: which engine a command runs, for comparing engines on the
//! same input (benchmarks, cross-checks) without changing code.

use std::fmt;
use std::str::FromStr;

use super::general::GeneralSolver;
use super::reference::ReferenceSolver;
use super::{solver_for, Solver};
use crate::grid::Shape;
use crate::variant::{solver_for_layout, DlxSolver, Layout, VariantSolver};

/// An engine to solve with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineChoice {
    /// The fastest engine for the shape ([`solver_for`]).
    #[default]
    Auto,
    /// The general engine, whatever the shape.
    General,
    /// The plain backtracking reference (slow; for checking).
    Reference,
    /// The SAT engine (CaDiCaL), whatever the shape (the `sat` feature).
    #[cfg(feature = "sat")]
    Sat,
    /// The variant engine ([`VariantSolver`]): every layout, read as data.
    Variant,
    /// Dancing links ([`DlxSolver`]): every layout, as an exact cover.
    Dlx,
}

/// An engine asked for a layout it does not handle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine '{0}' solves plain Sudoku only; variants take auto, variant or dlx")]
pub struct UnsupportedLayout(pub EngineChoice);

impl EngineChoice {
    /// A solver of this kind for `shape`.
    pub fn build(self, shape: Shape) -> Box<dyn Solver> {
        match self {
            EngineChoice::Auto => solver_for(shape),
            EngineChoice::General => Box::new(GeneralSolver::new(shape)),
            EngineChoice::Reference => Box::new(ReferenceSolver::new(shape)),
            #[cfg(feature = "sat")]
            EngineChoice::Sat => Box::new(super::sat::SatSolver::new(shape)),
            EngineChoice::Variant => Box::new(VariantSolver::new(&Layout::classic(shape))),
            EngineChoice::Dlx => Box::new(DlxSolver::new(&Layout::classic(shape))),
        }
    }

    /// A solver of this kind for `layout`: plain Sudoku goes to
    /// [`EngineChoice::build`]; other layouts need `auto`, `variant` or `dlx`.
    pub fn build_for(self, layout: &Layout) -> Result<Box<dyn Solver>, UnsupportedLayout> {
        if layout.is_classic() {
            return Ok(self.build(layout.shape()));
        }
        match self {
            EngineChoice::Auto => Ok(solver_for_layout(layout)),
            EngineChoice::Variant => Ok(Box::new(VariantSolver::new(layout))),
            EngineChoice::Dlx => Ok(Box::new(DlxSolver::new(layout))),
            other => Err(UnsupportedLayout(other)),
        }
    }
}

impl fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EngineChoice::Auto => "auto",
            EngineChoice::General => "general",
            EngineChoice::Reference => "reference",
            #[cfg(feature = "sat")]
            EngineChoice::Sat => "sat",
            EngineChoice::Variant => "variant",
            EngineChoice::Dlx => "dlx",
        })
    }
}

impl FromStr for EngineChoice {
    type Err = String;

    fn from_str(name: &str) -> Result<EngineChoice, String> {
        match name {
            "auto" => Ok(EngineChoice::Auto),
            "general" => Ok(EngineChoice::General),
            "reference" => Ok(EngineChoice::Reference),
            #[cfg(feature = "sat")]
            "sat" => Ok(EngineChoice::Sat),
            "variant" => Ok(EngineChoice::Variant),
            "dlx" => Ok(EngineChoice::Dlx),
            other => Err(format!(
                "unknown engine '{other}' (auto, general, reference, variant, dlx{})",
                if cfg!(feature = "sat") { ", sat" } else { "" }
            )),
        }
    }
}
