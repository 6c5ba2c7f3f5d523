//! chains (being written).

use std::ops::ControlFlow;

use super::{Candidates, Sink};

/// Not yet written.
pub(super) fn cycles_and_chains(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Not yet written.
pub(super) fn nishio(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Not yet written.
pub(super) fn multiple(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Not yet written.
pub(super) fn dynamic(_grid: &Candidates, _size: usize, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
