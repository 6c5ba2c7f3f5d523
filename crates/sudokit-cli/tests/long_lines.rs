//! Lines longer than `--max-line` (SPEC §1, issue 13): every command that
//! reads lines reports such a line as invalid by its number, skips it without
//! holding it, and answers the lines before and after it.

mod common;

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

use common::scratch_dir;

/// A 6×6 puzzle with a unique solution.
const SIX: &str = "*314*******1**356**621**3*******561*";
/// A 9×9 puzzle with a unique solution.
const NINE: &str =
    "000704005020010070000080002090006250600070008053200010400090000030060090200407000";

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Runs `sudokit ARGS` with `stdin` as input.
fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = spawn(args);
    let mut input = child.stdin.take().unwrap();
    let data = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

fn lines(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// `before`, a line of `len` bytes of `0`, then `after`, one per line.
fn around_long_line(before: &str, len: usize, after: &str) -> String {
    format!("{before}\n{}\n{after}\n", "0".repeat(len))
}

#[test]
fn analyze_reports_a_long_line_as_an_invalid_puzzle() {
    let input = around_long_line(SIX, 65, &format!("x:{SIX}"));
    let out = run(&["analyze", "--max-line", "64"], &input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        lines(&out),
        [
            "Puzzle # 1 has a unique solution",
            "Puzzle # 2 is invalid: longer than 64 bytes",
            "x:Puzzle # 3 has a unique solution",
        ]
    );
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("3 puzzles: 2 unique, 0 no solution, 0 multiple, 1 invalid"));

    let out = run(
        &["analyze", "--max-line", "64", "--format", "jsonl"],
        &input,
    );
    let records: Vec<serde_json::Value> = lines(&out)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["status"], "unique");
    assert_eq!(records[1]["number"], 2);
    assert_eq!(records[1]["puzzle"], serde_json::Value::Null);
    assert_eq!(records[1]["id"], serde_json::Value::Null);
    assert_eq!(records[1]["status"], "invalid");
    assert_eq!(records[1]["error"], "line 2: longer than 64 bytes");
    assert_eq!(records[2]["id"], "x");
    assert_eq!(records[2]["status"], "unique");
}

#[test]
fn solve_reports_a_long_line_by_number() {
    let solution = lines(&run(&["solve"], SIX)).remove(0);
    let out = run(
        &["solve", "--max-line", "64"],
        &around_long_line(SIX, 100, &format!("x:{SIX}")),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        lines(&out),
        [
            solution.clone(),
            "line 2: longer than 64 bytes".to_string(),
            format!("x:{solution}"),
        ]
    );
}

#[test]
fn count_reports_a_long_line_by_number() {
    let out = run(
        &["count", "--max-line", "64"],
        &around_long_line(SIX, 65, &format!("# a comment\nx:{SIX}")),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(lines(&out), ["1", "line 2: longer than 64 bytes", "x:1"]);
}

#[test]
fn canon_reports_a_long_line_by_number() {
    let form = lines(&run(&["canon"], NINE)).remove(0);
    let out = run(
        &["canon", "--max-line", "90"],
        &around_long_line(NINE, 91, &format!("x:{NINE}")),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        lines(&out),
        [
            form.clone(),
            "line 2: longer than 90 bytes".to_string(),
            format!("x:{form}"),
        ]
    );
}

#[test]
fn search_reports_a_long_line_and_hunts_from_the_other_seeds() {
    let dir = scratch_dir("long-line-search");
    let finds = dir.join("finds.txt");
    let finds = finds.to_str().unwrap();
    let out = run(
        &["search", "--max-line", "90", "--quiet", "--out", finds],
        &around_long_line(NINE, 91, &format!("x:{NINE}")),
    );
    assert_eq!(out.status.code(), Some(1));
    let answers = lines(&out);
    assert_eq!(answers[0], "line 2: longer than 90 bytes");
    assert!(answers[1].contains(": 2 seeds,"), "{answers:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn slide_reports_a_long_line_by_number() {
    let moves = lines(&run(&["slide"], "23415x768\n")).remove(0);
    let out = run(
        &["slide", "--max-line", "64"],
        &around_long_line("12345678x", 65, "x:23415x768"),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        lines(&out),
        [
            String::new(),
            "line 2: longer than 64 bytes".to_string(),
            format!("x:{moves}"),
        ]
    );
}

/// Peak memory while a line far longer than the cap streams in, read from
/// `/proc` (Linux only).
#[cfg(target_os = "linux")]
mod memory {
    use super::*;

    /// The child's peak resident memory so far, in bytes.
    fn peak_rss(child: &Child) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let line = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .expect("VmHWM in /proc/PID/status");
        let kb: u64 = line
            .trim_start_matches("VmHWM:")
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .unwrap();
        kb * 1024
    }

    /// Bytes of the long line, streamed through the pipe a chunk at a time.
    const LONG_LINE: usize = 300 << 20;
    /// Far below the long line: what a reader that held the line would pass.
    const RSS_CEILING: u64 = 64 << 20;

    /// Feeds `sudokit ARGS` a 300 MB line of `0` without a newline, then a
    /// newline and `last`; returns the child's peak memory just before the line
    /// ended, and its output.
    fn feed_long_line(args: &[&str], last: &str) -> (u64, Output) {
        let mut child = spawn(args);
        let mut input = child.stdin.take().unwrap();
        let chunk = vec![b'0'; 64 << 10];
        for _ in 0..LONG_LINE / chunk.len() {
            input
                .write_all(&chunk)
                .expect("the child reads the long line");
        }
        let peak = peak_rss(&child);
        input.write_all(format!("\n{last}\n").as_bytes()).unwrap();
        drop(input);
        (peak, child.wait_with_output().unwrap())
    }

    #[test]
    fn analyze_skips_a_300_mb_line_in_bounded_memory() {
        let (peak, out) = feed_long_line(&["analyze"], SIX);
        assert!(peak < RSS_CEILING, "peak RSS {peak} bytes");
        assert_eq!(
            lines(&out),
            [
                "Puzzle # 1 is invalid: longer than 1048576 bytes",
                "Puzzle # 2 has a unique solution",
            ]
        );
        assert_eq!(out.status.code(), Some(1));
    }

    #[test]
    fn count_skips_a_300_mb_line_in_bounded_memory() {
        let (peak, out) = feed_long_line(&["count"], SIX);
        assert!(peak < RSS_CEILING, "peak RSS {peak} bytes");
        assert_eq!(lines(&out), ["line 1: longer than 1048576 bytes", "1"]);
        assert_eq!(out.status.code(), Some(1));
    }

    #[test]
    fn slide_skips_a_300_mb_line_in_bounded_memory() {
        let (peak, out) = feed_long_line(&["slide"], "12345678x");
        assert!(peak < RSS_CEILING, "peak RSS {peak} bytes");
        assert_eq!(lines(&out), ["line 1: longer than 1048576 bytes", ""]);
        assert_eq!(out.status.code(), Some(1));
    }
}
