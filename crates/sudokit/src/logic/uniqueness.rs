//! uniqueness (being written).

use std::ops::ControlFlow;

use super::{Candidates, Sink};

/// Not yet written.
pub(super) fn loops(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Not yet written.
pub(super) fn bug(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
