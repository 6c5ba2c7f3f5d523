//! subsets (being written).

use std::ops::ControlFlow;

use super::{Candidates, Sink};

/// Not yet written.
pub(super) fn direct_hidden(
    _grid: &Candidates,
    _size: usize,
    _sink: &mut Sink<'_>,
) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Not yet written.
pub(super) fn hidden(_grid: &Candidates, _size: usize, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Not yet written.
pub(super) fn naked(_grid: &Candidates, _size: usize, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
