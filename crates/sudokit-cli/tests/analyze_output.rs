//! `sudokit analyze` writes its answers from a thread of its own while it
//! analyses the next block: the answers must still come out complete and in
//! input order, and a failing or closed output must end the run cleanly.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{run, scratch_dir, stderr};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudokit::generate::random_puzzle;
use sudokit::grid::{Puzzle, Shape};
use sudokit::solver::reference::ReferenceSolver;
use sudokit::solver::{Solver, Status};

/// Lines enough to span several blocks of the analyzer (256 KiB per
/// thread) on up to 3 threads: 17 bytes each, 1 MB in all.
const MANY: usize = 60_000;

/// `count` random 4×4 puzzles (some with a corrupted clue), one per line.
fn random_lines(count: usize) -> Vec<Puzzle> {
    let shape = Shape::new(2, 2).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    (0..count)
        .map(|i| random_puzzle(shape, 2 + i % 7, 0.25, &mut rng))
        .collect()
}

/// A file of `MANY` random puzzles in a fresh directory for `test`: its
/// path, its text and its puzzles.
fn many_lines_file(test: &str) -> (std::path::PathBuf, String, Vec<Puzzle>) {
    let puzzles = random_lines(MANY);
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    let file = scratch_dir(test).join("many.txt");
    std::fs::write(&file, &input).unwrap();
    (file, input, puzzles)
}

/// The answers `analyze` must print, from the slow reference engine.
fn expected_answers(puzzles: &[Puzzle]) -> String {
    let mut reference = ReferenceSolver::new(puzzles[0].shape());
    let mut text = String::new();
    for (i, puzzle) in puzzles.iter().enumerate() {
        let found = reference
            .solve(puzzle.cells(), 2, None)
            .expect("valid givens");
        let words = match Status::from_count(found.solutions) {
            Status::Unique => "has a unique solution",
            Status::None => "has no solution",
            Status::Multiple => "has multiple solutions",
        };
        text += &format!("Puzzle # {} {words}\n", i + 1);
    }
    text
}

#[test]
fn answers_spanning_many_blocks_come_out_complete_and_in_order() {
    let (file, input, puzzles) = many_lines_file("analyze-blocks");
    let want = expected_answers(&puzzles);
    for threads in ["1", "2", "3"] {
        for source in ["file", "stdin"] {
            let out = match source {
                "file" => run(
                    &[
                        "analyze",
                        "-q",
                        "--threads",
                        threads,
                        file.to_str().unwrap(),
                    ],
                    b"",
                ),
                _ => run(&["analyze", "-q", "--threads", threads], input.as_bytes()),
            };
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            assert!(
                out.stdout == want.as_bytes(),
                "{threads} threads, {source}: the answers differ from the reference engine's"
            );
        }
    }
}

#[test]
fn a_full_disk_is_an_error_naming_the_output_not_a_panic() {
    let (file, _, _) = many_lines_file("analyze-full");
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(["analyze", "-q", "--threads", "2"])
        .arg(&file)
        .stdout(full)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("sudokit: error: writing output") && err.contains("No space left"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_reader_that_stops_early_ends_the_run_quietly() {
    let (file, input, _) = many_lines_file("analyze-closed");
    // Ten times as many: the run is still going when the reader leaves.
    std::fs::write(&file, input.repeat(10)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(["analyze", "-q", "--threads", "2"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("Puzzle # 1 "), "{first}");
    // The reader is gone: the next write fails with a broken pipe, which
    // ends the run with success and no message, as `head` expects.
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "analyze kept running after its reader left"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{status}: {err}");
    assert!(err.is_empty(), "{err}");
}
