//! Sliding puzzles (being written: see issue 4).
