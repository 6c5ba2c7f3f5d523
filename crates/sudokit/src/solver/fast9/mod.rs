//! The 9×9 engine (being written: see issue 3).
