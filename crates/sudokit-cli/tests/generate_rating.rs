//! The real `sudokit` binary on `generate --rating A..B` and `--level NAME`:
//! every puzzle, rated again by `sudokit rate`, is unique and in range with
//! the rating the record reports; the same seed gives the same output on
//! one thread or two; bad ranges and levels are refused with a reason.

mod common;

use std::process::Output;

use common::{scratch_dir, stderr, stdout};
use serde_json::Value;

fn run(args: &[&str]) -> Output {
    common::run(args, b"")
}

/// The JSON objects of a jsonl output.
fn records(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?}: {e}")))
        .collect()
}

/// Generates with `args` in jsonl, re-rates every puzzle with `sudokit
/// rate` and checks it is unique with the reported rating, ER in `lo..=hi`.
fn check_rated(args: &[&str], lo: f64, hi: f64) -> Vec<Value> {
    let mut all = vec!["generate", "-q", "--format", "jsonl"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let made = records(&out);
    let puzzles: Vec<&str> = made.iter().map(|r| r["puzzle"].as_str().unwrap()).collect();
    let mut rate = vec!["rate", "--format", "jsonl"];
    rate.extend_from_slice(&puzzles);
    let rated = run(&rate);
    assert_eq!(rated.status.code(), Some(0), "{}", stderr(&rated));
    let rated = records(&rated);
    assert_eq!(rated.len(), made.len());
    for (m, r) in made.iter().zip(&rated) {
        assert_eq!(m["status"], "unique");
        assert_eq!(r["status"], "rated", "{r}");
        assert_eq!(r["solved"], true, "{r}");
        for field in ["er", "ep", "ed", "hardest", "steps"] {
            assert_eq!(m[field], r[field], "{field} of {m}");
        }
        let er = m["er"].as_f64().unwrap();
        assert!((lo..=hi).contains(&er), "{er} not in {lo}..{hi}: {m}");
        assert!(m["attempts"].as_u64().unwrap() >= 1);
    }
    made
}

#[test]
fn levels_give_unique_puzzles_rated_in_their_documented_range() {
    for (level, lo, hi) in [
        ("easy", 1.0, 2.5),
        ("medium", 2.6, 4.0),
        ("hard", 4.1, 6.0),
        ("expert", 6.1, 7.9),
        ("extreme", 8.0, f64::INFINITY),
    ] {
        let made = check_rated(&["-n", "3", "--seed", "3", "--level", level], lo, hi);
        assert_eq!(made.len(), 3, "{level}");
    }
}

#[test]
fn ranges_combine_with_symmetry_and_minimal() {
    let made = check_rated(
        &[
            "-n",
            "4",
            "--seed",
            "2",
            "--rating",
            "3..5",
            "--symmetry",
            "rot180",
        ],
        3.0,
        5.0,
    );
    for record in made {
        assert_eq!(record["symmetry"], "rot180");
        let cells = record["puzzle"].as_str().unwrap().as_bytes();
        assert!((0..81).all(|k| (cells[k] == b'.') == (cells[80 - k] == b'.')));
    }
    let made = check_rated(
        &["-n", "4", "--seed", "2", "--rating", "3..5", "--minimal"],
        3.0,
        5.0,
    );
    assert!(made.iter().all(|record| record["minimal"] == true));
    check_rated(&["-n", "3", "--seed", "2", "--rating", "..2.0"], 1.0, 2.0);
}

#[test]
fn the_same_seed_gives_the_same_output_on_one_thread_or_two() {
    let args = |threads| {
        [
            "generate", "-q", "-n", "8", "--seed", "11", "--level", "hard", "-j", threads,
        ]
    };
    let one = run(&args("1"));
    let two = run(&args("2"));
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&two));
}

#[test]
fn text_lines_carry_the_rating_after_the_puzzle_and_readers_skip_it() {
    let out = run(&[
        "generate", "-q", "-n", "3", "--seed", "5", "--level", "medium",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("# sudokit generate --box 3x3 --seed 5 --count 3 --level medium")
    );
    for line in lines.clone() {
        let (puzzle, rating) = line.split_once(' ').expect("a rating after the puzzle");
        assert_eq!(puzzle.len(), 81);
        let er: f64 = rating.split('/').next().unwrap().parse().unwrap();
        assert!((2.6..=4.0).contains(&er), "{line}");
    }
    let dir = scratch_dir("generate-rated-text");
    let path = dir.join("rated.txt");
    std::fs::write(&path, &text).unwrap();
    let analysed = run(&["analyze", path.to_str().unwrap()]);
    assert_eq!(analysed.status.code(), Some(0), "{}", stderr(&analysed));
    assert_eq!(stdout(&analysed).lines().count(), 3);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn csv_gains_the_rating_columns() {
    let out = run(&[
        "generate", "-q", "-n", "1", "--seed", "1", "--rating", "2.6..", "--format", "csv",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).lines().next(),
        Some(
            "number,id,puzzle,box,status,solution,clues,symmetry,minimal,guesses,seed,\
             er,ep,ed,hardest,steps,attempts,error"
        )
    );
}

#[test]
fn bad_ranges_and_levels_are_refused_with_a_reason() {
    for (range, reason) in [
        ("3..2", "3.0..2.0 is empty: 3.0 is above 2.0"),
        ("abc", "\"abc\" is not a rating range such as 4.1..6.0"),
        ("0..", "0.0 is below 1.0"),
        ("..", "\"..\" is not a rating range"),
    ] {
        let out = run(&["generate", "--rating", range]);
        assert_eq!(out.status.code(), Some(2), "{range}");
        assert_eq!(stdout(&out), "", "{range}");
        assert!(stderr(&out).contains(reason), "{range}: {}", stderr(&out));
    }
    let out = run(&["generate", "--level", "insane"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("easy, medium, hard, expert or extreme"),
        "{}",
        stderr(&out)
    );
    let out = run(&["generate", "--level", "easy", "--rating", "1..2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_range_not_met_within_the_attempts_is_reported() {
    let out = run(&[
        "generate",
        "-q",
        "-n",
        "2",
        "--seed",
        "1",
        "--box",
        "2x2",
        "--rating",
        "9..",
        "--attempts",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines.len(), 2, "{text}");
    for (k, line) in lines.iter().enumerate() {
        let prefix = format!(
            "# puzzle {}: no puzzle rated 9.0.. found in 3 attempts",
            k + 1
        );
        assert!(line.starts_with(&prefix), "{line}");
    }
}
