//! The real `sudokit` binary on `generate`, `canon` and `search` reading
//! operands like every command (files in order, inline puzzles, a missing
//! file refused before any output, 9×9 only as a usage error) and printing
//! the shared record shape (issue 14).

mod common;

use std::path::Path;
use std::process::Output;

use common::{scratch_dir, stderr, stdout};
use serde_json::Value;

/// A minimal 40-clue puzzle whose {-1+1} neighbourhood holds one new find.
const SEED40: &str =
    "..........12.34567.345.6182..1.582.6..86....1.2...7.5...37.5.28.8..6.7..2.7.83615";

/// Another 9×9 puzzle (generated, minimal).
const OTHER: &str =
    ".4..2...1.678.....8....54..2....8.3.4.....765.............93..7..95...2...1....5.";

/// Runs `sudokit ARGS` with no input.
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

/// Writes `text` to `dir/name` and returns its path as text.
fn file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The canonical form of one puzzle, by the binary.
fn canon_of(puzzle: &str) -> String {
    let out = run(&["canon", puzzle]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out).trim_end().to_string()
}

#[test]
fn canon_reads_files_in_order_then_inline_puzzles() {
    let dir = scratch_dir("canon-order");
    let a = file(&dir, "a.txt", &format!("# first\n{SEED40}\n"));
    let b = file(&dir, "b.txt", &format!("b:{OTHER}\n"));
    let out = run(&["canon", &b, &a, SEED40]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (seed, other) = (canon_of(SEED40), canon_of(OTHER));
    assert_eq!(stdout(&out), format!("b:{other}\n{seed}\n{seed}\n"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn canon_and_search_refuse_a_missing_file_before_any_output() {
    let dir = scratch_dir("missing");
    let missing = dir.join("missing.txt");
    let missing = missing.to_str().unwrap();
    let out = run(&["canon", SEED40, missing]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains(&format!("cannot open {missing}")),
        "{}",
        stderr(&out)
    );
    let finds = dir.join("finds.txt");
    let out = run(&[
        "search",
        "-q",
        "--out",
        finds.to_str().unwrap(),
        SEED40,
        missing,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains(&format!("cannot open {missing}")));
    assert!(!finds.exists(), "no hunt started");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn canon_refuses_a_source_that_is_not_nine_by_nine() {
    let dir = scratch_dir("canon-size");
    let four = file(&dir, "four.txt", "1.3.....2.......\n....\n.2..\n");
    let out = run(&["canon", &four]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let message = stderr(&out);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.contains(&four) && message.contains("4x4") && message.contains("9x9"),
        "{message}"
    );
    let out = run(&["canon", "--box", "2x3", SEED40]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--box 2x3"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn canon_prints_the_common_record_fields() {
    let bad = format!("{SEED40}1");
    let input = format!("a:{SEED40}\n\nz\u{1}:{bad}\n");
    let dir = scratch_dir("canon-records");
    let path = file(&dir, "in.txt", &input);
    let seed = canon_of(SEED40);
    let out = run(&["canon", "--format", "jsonl", &path]);
    assert_eq!(out.status.code(), Some(1));
    let records = records(&out);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["number"], 1);
    assert_eq!(records[0]["id"], "a");
    assert_eq!(records[0]["puzzle"], SEED40);
    assert_eq!(records[0]["box"], "3x3");
    assert_eq!(records[0]["status"], "canonical");
    assert_eq!(records[0]["canonical"], seed.as_str());
    assert_eq!(records[1]["number"], 2);
    assert_eq!(records[1]["status"], "invalid");
    assert_eq!(records[1]["error"], "line 3: 82 cells, expected 81");
    let out = run(&["canon", "--format", "csv", &path]);
    assert_eq!(
        stdout(&out).lines().collect::<Vec<_>>(),
        [
            "number,id,puzzle,box,status,canonical,error".to_string(),
            format!("1,a,{SEED40},3x3,canonical,{seed},"),
            format!("2,z\u{1},{bad},3x3,invalid,,\"line 3: 82 cells, expected 81\""),
        ]
    );
    // Text escapes the control byte of the id it echoes.
    let out = run(&["canon", &path]);
    assert_eq!(
        stdout(&out),
        format!("a:{seed}\nz\\u{{1}}:line 3: 82 cells, expected 81\n")
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn search_reads_files_in_order_and_prints_finds_as_records() {
    let dir = scratch_dir("search");
    let a = file(&dir, "a.txt", &format!("{OTHER}\n"));
    let b = file(&dir, "b.txt", &format!("bad:{SEED40}1\n"));
    let finds = dir.join("finds.txt");
    let out = run(&[
        "search",
        "--format",
        "jsonl",
        "--out",
        finds.to_str().unwrap(),
        &a,
        &b,
        SEED40,
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let records = records(&out);
    assert_eq!(records[0]["number"], 1);
    assert_eq!(records[0]["status"], "invalid");
    let error = records[0]["error"].as_str().unwrap();
    assert!(
        error.starts_with(&format!("{b}: line 1: 82 cells")),
        "{error}"
    );
    let written = std::fs::read_to_string(&finds).unwrap();
    let found: Vec<&Value> = records[1..].iter().collect();
    assert_eq!(found.len(), written.lines().count(), "one record per find");
    for (k, (record, line)) in found.iter().zip(written.lines()).enumerate() {
        assert_eq!(record["number"], k as u64 + 2);
        assert_eq!(record["puzzle"], line);
        assert_eq!(record["box"], "3x3");
        assert_eq!(record["status"], "unique");
        assert_eq!(record["clues"], line.bytes().filter(|&c| c != b'.').count());
    }
    // The 40-clue find comes from SEED40, the third puzzle line read.
    let known = "..........12.34567.345.6182..1.582.6..86....1.2...785...37.5.2..8..6.7..2.7.83615";
    let from_seed40 = found.iter().find(|r| r["puzzle"] == known).expect("found");
    assert_eq!(from_seed40["seed_number"], 3);
    assert!(
        stderr(&out).contains("shard 1/1: 2 seeds"),
        "the summary goes to stderr: {}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn generate_records_are_numbered_from_one_with_box_and_seed() {
    let out = run(&[
        "generate", "-q", "-n", "3", "--seed", "7", "--format", "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "quiet");
    let records = records(&out);
    assert_eq!(records.len(), 3);
    for (k, record) in records.iter().enumerate() {
        assert_eq!(record["number"], k as u64 + 1);
        assert_eq!(record["box"], "3x3");
        assert_eq!(record["seed"], 7);
        assert_eq!(record["status"], "unique");
        let puzzle = record["puzzle"].as_str().unwrap();
        assert_eq!(puzzle.len(), 81);
        assert_eq!(
            record["clues"],
            puzzle.bytes().filter(|&c| c != b'.').count()
        );
    }
    let out = run(&[
        "generate", "-n", "2", "--seed", "3", "--box", "2x3", "--format", "csv",
    ]);
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(
        lines[0],
        "number,id,puzzle,box,status,solution,clues,symmetry,minimal,guesses,seed,error"
    );
    assert!(lines[1].starts_with("1,,") && lines[1].contains(",2x3,unique,"));
    assert!(lines[2].starts_with("2,,") && lines[2].ends_with(",3,"));
}

#[test]
fn generate_reports_a_puzzle_it_cannot_make_as_a_record() {
    let out = run(&[
        "generate",
        "-q",
        "-n",
        "2",
        "--seed",
        "1",
        "--clues",
        "19",
        "--minimal",
        "--attempts",
        "2",
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let records = records(&out);
    assert_eq!(records.len(), 2, "no plain text among the records");
    assert_eq!(records[0]["number"], 1);
    assert_eq!(records[0]["status"], "invalid");
    assert_eq!(records[0]["seed"], 1);
    let error = records[0]["error"].as_str().unwrap();
    assert!(
        error.starts_with("no minimal puzzle with 19 clues"),
        "{error}"
    );
}

#[test]
fn generate_text_starts_with_a_header_that_readers_skip() {
    let dir = scratch_dir("generate-text");
    let out = run(&["generate", "-q", "-n", "3", "--seed", "7", "--minimal"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("# sudokit generate --box 3x3 --seed 7 --count 3 --minimal")
    );
    assert_eq!(lines.count(), 3);
    let path = file(&dir, "puzzles.txt", &text);
    let analysed = run(&["analyze", "--minimal", &path]);
    assert_eq!(analysed.status.code(), Some(0), "{}", stderr(&analysed));
    assert_eq!(
        stdout(&analysed),
        (1..=3)
            .map(|k| format!("Puzzle # {k} has a unique solution and is minimal\n"))
            .collect::<String>()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn generate_refuses_an_impossible_clue_count_once() {
    let out = run(&["generate", "-n", "5", "--box", "2x2", "--clues", "20"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    let message = stderr(&out);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.contains("4x4 grid") && message.contains("16 cells"),
        "{message}"
    );
    let out = run(&["generate", "-n", "5", "--clues", "16"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("at least 17"), "{}", stderr(&out));
}
