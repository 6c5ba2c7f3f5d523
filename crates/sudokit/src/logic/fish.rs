//! fish (being written).

use std::ops::ControlFlow;

use super::{Candidates, Sink};

/// Not yet written.
pub(super) fn basic(_grid: &Candidates, _size: usize, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Not yet written.
pub(super) fn finned(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
