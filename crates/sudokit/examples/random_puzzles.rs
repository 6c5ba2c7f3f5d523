//! Writes random puzzles of any shape, one per line: the mixed unique /
//! multiple / contradictory input the batch analyzer is benchmarked on.
//!
//! `cargo run --release -p sudokit --example random_puzzles -- COUNT [RxC] [SEED]`

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufWriter, Write};
use sudokit::generate::random_puzzle;
use sudokit::grid::Shape;
use sudokit::parse::Alphabet;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let shape: Shape = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(Shape::new(2, 3).unwrap());
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let alphabet = Alphabet::default_for(shape.side()).map_err(std::io::Error::other)?;
    let cells = shape.cell_count();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::with_capacity(cells + 1);
    for _ in 0..count {
        let clues = rng.gen_range(cells / 4..=cells / 2 + 2);
        let puzzle = random_puzzle(shape, clues, 0.25, &mut rng);
        line.clear();
        alphabet.write_cells(puzzle.cells(), &mut line);
        line.push(b'\n');
        out.write_all(&line)?;
    }
    out.flush()
}
