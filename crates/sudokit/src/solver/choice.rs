//! [`EngineChoice`]: which engine a command runs, for comparing engines on the
//! same input (benchmarks, cross-checks) without changing code.

use std::fmt;
use std::str::FromStr;

use super::general::GeneralSolver;
use super::reference::ReferenceSolver;
use super::{solver_for, Solver};
use crate::grid::Shape;

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
}

impl EngineChoice {
    /// A solver of this kind for `shape`.
    pub fn build(self, shape: Shape) -> Box<dyn Solver> {
        match self {
            EngineChoice::Auto => solver_for(shape),
            EngineChoice::General => Box::new(GeneralSolver::new(shape)),
            EngineChoice::Reference => Box::new(ReferenceSolver::new(shape)),
            #[cfg(feature = "sat")]
            EngineChoice::Sat => Box::new(super::sat::SatSolver::new(shape)),
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
            other => Err(format!(
                "unknown engine '{other}' (auto, general, reference{})",
                if cfg!(feature = "sat") { ", sat" } else { "" }
            )),
        }
    }
}
