//! coloring (being written).

use std::ops::ControlFlow;

use super::{Candidates, Sink};

/// Not yet written.
pub(super) fn simple(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
