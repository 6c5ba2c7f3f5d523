//! aic (being written).

use std::ops::ControlFlow;

use super::{Candidates, Sink};

/// Not yet written.
pub(super) fn find(_grid: &Candidates, _sink: &mut Sink<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
