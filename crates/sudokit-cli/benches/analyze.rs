//! End-to-end throughput of `sudokit analyze` (I/O included), run as the real
//! binary, engine against engine in the same run so that ratios hold on a
//! noisy machine.
//!
//! - 6×6: 100,000 random puzzles (the batch challenge's kind of input: a mix of
//!   unique, contradictory and multiple), 1 and 2 threads, the fastest engine
//!   (`--engine auto`) beside the general engine (the seed program's method:
//!   bitmask cells, singles, most-constrained-cell branching). The seed
//!   program's published figure on this machine is about 1M puzzles/s.
//! - 9×9: each standard set in `../shared/data/9x9`, when that folder exists,
//!   on 1 and 2 threads.
//!
//! `cargo bench -p sudokit-cli --bench analyze`

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudokit::generate::random_puzzle;
use sudokit::grid::Shape;
use sudokit::parse::Alphabet;

/// Runs per configuration; the best is reported.
const RUNS: usize = 5;

/// Writes `count` random puzzles of `shape` (clue counts from a quarter to
/// half the cells, a quarter of them with one clue corrupted).
fn write_random_file(path: &Path, shape: Shape, count: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let alphabet = Alphabet::default_for(shape.side()).unwrap();
    let cells = shape.cell_count();
    let mut out = BufWriter::new(File::create(path).unwrap());
    let mut line = Vec::new();
    for _ in 0..count {
        let puzzle = random_puzzle(
            shape,
            rng.gen_range(cells / 4..=cells / 2 + 2),
            0.25,
            &mut rng,
        );
        line.clear();
        alphabet.write_cells(puzzle.cells(), &mut line);
        line.push(b'\n');
        out.write_all(&line).unwrap();
    }
    out.flush().unwrap();
}

/// Wall time of one `sudokit analyze` run writing its answers to a file, as
/// a batch job would, and those answers.
fn analyze(file: &Path, engine: &str, threads: usize) -> (Duration, Vec<u8>) {
    let answers = file.with_extension("answers");
    let started = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(["analyze", "--quiet", "--engine", engine, "--threads"])
        .arg(threads.to_string())
        .arg(file)
        .stdout(File::create(&answers).unwrap())
        .stderr(Stdio::inherit())
        .status()
        .expect("sudokit runs");
    let elapsed = started.elapsed();
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "sudokit failed: {status}"
    );
    (elapsed, std::fs::read(&answers).unwrap())
}

/// Best-of-[`RUNS`] puzzles/s for each (engine, threads), runs interleaved;
/// checks that every configuration printed the same answers.
fn compare(file: &Path, puzzles: usize, configs: &[(&str, usize)]) -> Vec<f64> {
    let mut best = vec![Duration::MAX; configs.len()];
    let mut first_output: Option<Vec<u8>> = None;
    for _ in 0..RUNS {
        for (slot, &(engine, threads)) in best.iter_mut().zip(configs) {
            let (time, output) = analyze(file, engine, threads);
            *slot = (*slot).min(time);
            match &first_output {
                None => first_output = Some(output),
                Some(want) => assert!(
                    *want == output,
                    "{engine} with {threads} threads answered differently"
                ),
            }
        }
    }
    best.iter()
        .map(|t| puzzles as f64 / t.as_secs_f64())
        .collect()
}

fn main() {
    let dir = std::env::temp_dir().join(format!("sudokit-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let six = dir.join("random-6x6.txt");
    let count = 100_000;
    write_random_file(&six, Shape::new(2, 3).unwrap(), count);
    let configs = [("auto", 1), ("auto", 2), ("general", 1), ("general", 2)];
    let rates = compare(&six, count, &configs);
    println!("sudokit analyze, 100,000 random 6x6 puzzles, end to end (best of {RUNS}):");
    println!(
        "{:<10} {:>8} {:>14} {:>12}",
        "engine", "threads", "puzzles/s", "vs general"
    );
    for (&(engine, threads), rate) in configs.iter().zip(&rates) {
        let general = rates[configs
            .iter()
            .position(|c| *c == ("general", threads))
            .unwrap()];
        println!(
            "{engine:<10} {threads:>8} {rate:>14.0} {:>11.2}x",
            rate / general
        );
    }
    println!(
        "(seed challenge program, published on this machine: ~1,000,000 puzzles/s on 2 threads)\n"
    );

    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/9x9");
    let Ok(entries) = std::fs::read_dir(&data) else {
        println!(
            "9x9: {} is absent, skipping the standard sets",
            data.display()
        );
        return;
    };
    let mut sets: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    sets.sort();
    println!("sudokit analyze on the standard 9x9 sets, end to end (best of {RUNS}; engines compared in the solvers9 bench):");
    println!(
        "{:<40} {:>9} {:>14} {:>14}",
        "set", "puzzles", "1 thread /s", "2 threads /s"
    );
    for set in sets {
        let text = std::fs::read_to_string(&set).unwrap();
        let puzzles = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        let rates = compare(&set, puzzles, &[("auto", 1), ("auto", 2)]);
        let name = set.file_name().unwrap().to_string_lossy();
        println!(
            "{name:<40} {puzzles:>9} {:>14.0} {:>14.0}",
            rates[0], rates[1]
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
