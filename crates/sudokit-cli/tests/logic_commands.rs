//! The real `sudokit` binary on `rate`, `hint` and `explain` (issue 15):
//! explained steps replayed on the puzzle reach the grid they claim and the
//! puzzle's solution, the hint is the explanation's first step, ratings do
//! not depend on the thread count, and a bad line is reported while every
//! other line is answered.

mod common;

use std::process::Output;

use common::{run, stdout};
use serde_json::Value;

/// Generated 9×9 puzzles of several difficulties, a 6×6 and a 4×4 one.
const PUZZLES: [&str; 5] = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    ".4..2...1.678.....8....54..2....8.3.4.....765.............93..7..95...2...1....5.",
    "..........12.34567.345.6182..1.582.6..86....1.2...7.5...37.5.28.8..6.7..2.7.83615",
    "*314*******1**356**621**3*******561*",
    ".4....3....21...",
];

/// The JSON objects of a jsonl output.
fn records(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?}: {e}")))
        .collect()
}

/// The cells of a puzzle line as digits (0 for empty), for sides up to 9.
fn digits(text: &str) -> Vec<u8> {
    text.bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect()
}

/// Parses `r3c5` into a row-major index on a grid of side `side`.
fn cell_index(name: &str, side: usize) -> usize {
    let (row, col) = name[1..].split_once('c').expect("rNcM");
    (row.parse::<usize>().unwrap() - 1) * side + col.parse::<usize>().unwrap() - 1
}

/// Replays the placements of an explanation on the puzzle's cells.
fn replay(puzzle: &str, steps: &[Value]) -> Vec<u8> {
    let mut cells = digits(puzzle);
    let side = (cells.len() as f64).sqrt() as usize;
    for step in steps {
        for placement in step["placements"].as_array().unwrap() {
            let (cell, digit) = placement.as_str().unwrap().split_once('=').unwrap();
            let index = cell_index(cell, side);
            assert_eq!(cells[index], 0, "{puzzle}: {placement} fills a full cell");
            cells[index] = digit.parse().unwrap();
        }
    }
    cells
}

#[test]
fn explained_steps_replay_to_the_solution() {
    let mut args = vec!["explain", "--format", "jsonl"];
    args.extend(PUZZLES);
    let output = run(&args, b"");
    let explained = records(&output);
    let mut solve_args = vec!["solve"];
    solve_args.extend(PUZZLES);
    let solutions = stdout(&run(&solve_args, b""));
    let mut solved = 0;
    for ((record, puzzle), solution) in explained.iter().zip(PUZZLES).zip(solutions.lines()) {
        let steps = record["steps"].as_array().expect("a steps list");
        let grid = digits(record["grid"].as_str().unwrap());
        assert_eq!(
            replay(puzzle, steps),
            grid,
            "{puzzle}: steps and grid differ"
        );
        for step in steps {
            assert!(step["text"].as_str().unwrap().contains(" => "), "{step}");
            assert!(step["difficulty"].as_f64().unwrap() >= 1.0, "{step}");
        }
        if record["status"] == "solved" {
            assert_eq!(
                grid,
                digits(solution),
                "{puzzle}: explained to a wrong grid"
            );
            solved += 1;
        } else {
            assert_eq!(record["status"], "stuck");
            // Whatever the steps placed is the solution's digit.
            for (got, want) in grid.iter().zip(digits(solution)) {
                assert!(*got == 0 || *got == want, "{puzzle}: a wrong placement");
            }
        }
    }
    assert_eq!(explained.len(), PUZZLES.len());
    assert!(solved >= 2, "the easy puzzles are solved by singles");
}

#[test]
fn the_hint_is_the_first_explained_step() {
    for puzzle in PUZZLES {
        let hint = records(&run(&["hint", "--format", "jsonl", puzzle], b""));
        let explained = records(&run(&["explain", "--format", "jsonl", puzzle], b""));
        let first = explained[0]["steps"].as_array().unwrap().first().cloned();
        match first {
            Some(step) => assert_eq!(hint[0]["step"], step, "{puzzle}"),
            None => assert_eq!(hint[0]["status"], "stuck", "{puzzle}"),
        }
        let text = stdout(&run(&["hint", puzzle], b""));
        if let Some(step) = hint[0].get("step") {
            assert_eq!(text.trim_end(), step["text"].as_str().unwrap());
        }
    }
}

#[test]
fn ratings_do_not_depend_on_threads() {
    let mut one = vec!["rate", "--format", "jsonl", "-j", "1"];
    one.extend(PUZZLES);
    let mut two = vec!["rate", "--format", "jsonl", "-j", "2"];
    two.extend(PUZZLES);
    let first = records(&run(&one, b""));
    assert_eq!(first, records(&run(&two, b"")));
    assert_eq!(first.len(), PUZZLES.len());
    for record in &first {
        assert_eq!(record["status"], "rated", "{record}");
        let er = record["er"].as_f64().unwrap();
        assert!(er >= record["ed"].as_f64().unwrap() && er >= record["ep"].as_f64().unwrap());
    }
}

#[test]
fn hints_and_explanations_do_not_depend_on_threads() {
    // Each puzzle its own source, then standard input with a bad line and an
    // ambiguous puzzle.
    let input = format!("{}\nnot a puzzle\n{}\n", PUZZLES[1], ".".repeat(81));
    for command in ["hint", "explain"] {
        for format in ["text", "jsonl", "csv"] {
            let with_threads = |threads| {
                let mut args = vec![command, "--format", format, "-j", threads];
                args.extend(PUZZLES);
                args.push("-");
                run(&args, input.as_bytes())
            };
            let (one, two) = (with_threads("1"), with_threads("2"));
            assert_eq!(one.status.code(), Some(1), "{command} {format}");
            assert_eq!(two.status.code(), Some(1), "{command} {format}");
            assert!(!one.stdout.is_empty());
            assert_eq!(stdout(&one), stdout(&two), "{command} {format}");
        }
    }
}

#[test]
fn bad_and_ambiguous_lines_are_reported_and_the_rest_answered() {
    let input = format!("{}\nnot a puzzle\n{}\n", PUZZLES[0], ".".repeat(81));
    let output = run(&["rate", "--format", "jsonl", "-"], input.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    let got = records(&output);
    let statuses: Vec<&str> = got.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["rated", "invalid", "multiple"]);
    assert!(got[1]["error"].as_str().unwrap().contains("line 2"));
    let hint = run(&["hint", "-"], input.as_bytes());
    assert_eq!(hint.status.code(), Some(1));
    assert_eq!(stdout(&hint).lines().count(), 3);
}

#[test]
fn singles_only_rates_with_singles() {
    let output = run(
        &[
            "rate",
            "--techniques",
            "hidden-single,naked-single",
            "--format",
            "jsonl",
            PUZZLES[0],
        ],
        b"",
    );
    let record = &records(&output)[0];
    assert!(record["er"].as_f64().unwrap() <= 2.3, "{record}");
}

/// A timeout stops even a step that takes seconds (nested forcing chains
/// on a puzzle SE rates 11.1): the puzzle is reported `timeout`, never as
/// stuck with a partial rating, and the next puzzle is still rated.
#[test]
fn a_timeout_inside_a_long_step_reports_timeout() {
    let hardest =
        "1..4...8..5...9..2..9.........6..8.36.......4....41.6...2.7.5...7.......8..3...4.";
    let out = run(
        &[
            "rate",
            "--format",
            "jsonl",
            "--timeout",
            "0.05",
            hardest,
            PUZZLES[0],
        ],
        b"",
    );
    let found = records(&out);
    assert_eq!(found[0]["status"], "timeout", "{}", found[0]);
    assert!(found[0]["er"].is_null(), "{}", found[0]);
    assert_eq!(found[1]["status"], "rated", "{}", found[1]);
}
