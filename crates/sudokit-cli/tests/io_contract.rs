//! One way in, one way out (issue 14): how the Sudoku commands take their
//! operands, report bad lines and print records, on the real binary.

mod common;

use std::path::Path;

use common::{run, scratch_dir, stderr, stdout};
use serde_json::Value;

/// A 9×9 puzzle with one solution.
const NINE: &str =
    "000704005020010070000080002090006250600070008053200010400090000030060090200407000";
/// Its solution.
const NINE_SOLVED: &str =
    "981724365324615879765983142197836254642571938853249716476398521538162497219457683";
/// A 6×6 puzzle with one solution (the challenge's first example).
const SIX: &str = "*314*******1**356**621**3*******561*";

/// A 16×16 puzzle with one solution (`sudokit generate --box 4x4 --seed 1`).
const SIXTEEN: &str = ".6...C...2...E.B4......3F.A...6C..G.24..87...5....3A.B8..6.12....5........E.3.7DFG....DA...C...9..C....1....G..E..AD487....9F...AD.8C9.....67...7.9.....EB2.......E...F5.G..A....35.E1.7.....2..3.19.7A4.......GB4.....6..FA5...DA...GB...9E......8E...F7...6..4";

/// The commands that read Sudoku puzzles and answer each line.
const READERS: [&str; 3] = ["analyze", "solve", "count"];

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_missing_file_or_a_directory_is_a_usage_error_before_any_output() {
    let dir = scratch_dir("missing");
    let good = write(&dir, "good.txt", &format!("{NINE}\n"));
    for command in READERS {
        let out = run(&[command, &good, "nosuch.txt"], b"");
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert_eq!(
            stdout(&out),
            "",
            "{command}: nothing printed before the error"
        );
        assert!(
            stderr(&out).contains("cannot open nosuch.txt: No such file or directory"),
            "{command}: {}",
            stderr(&out)
        );
        let out = run(&[command, dir.to_str().unwrap()], b"");
        assert_eq!(out.status.code(), Some(2), "{command}");
        let message = stderr(&out);
        assert!(message.contains("is a directory"), "{command}: {message}");
        // The OS's words once, not once per layer of context.
        assert_eq!(message.matches("directory").count(), 1, "{message}");
    }
}

#[test]
fn several_files_are_read_in_order_and_numbered_as_one_run() {
    let dir = scratch_dir("several");
    let a = write(&dir, "a.txt", &format!("{NINE}\n"));
    let b = write(&dir, "b.txt", &format!("# six\n{SIX}\n"));
    let out = run(&["analyze", "-q", &a, &b], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "Puzzle # 1 has a unique solution\nPuzzle # 2 has a unique solution\n"
    );
    let out = run(&["solve", &b, &a], b"");
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].len(), 36);
    assert_eq!(lines[1], NINE_SOLVED);
}

#[test]
fn stdin_inline_puzzles_and_the_puzzle_flag_mix_in_order() {
    let out = run(
        &["solve", "-", NINE, "--puzzle", "x:................"],
        format!("{SIX}\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].len(), 36);
    assert_eq!(lines[1], NINE_SOLVED);
    assert_eq!(lines[2], "x:Multiple solutions");
    let out = run(&["count", "--box", "2x3", &".".repeat(36)], b"");
    assert_eq!(stdout(&out), "28200960\n");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_read_like_a_file() {
    let dir = scratch_dir("fifo");
    let fifo = dir.join("puzzles");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        std::fs::write(writer_path, format!("{NINE}\n{NINE}\n")).unwrap();
    });
    let out = run(&["count", fifo.to_str().unwrap()], b"");
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1\n1\n");
}

#[test]
fn invalid_lines_keep_their_id_their_physical_number_and_no_raw_controls() {
    let input = b"# comment\n\nx:123\ny\x01z:12\n";
    for command in ["solve", "count"] {
        let out = run(&[command], input);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert_eq!(
            stdout(&out),
            "x:line 3: 3 cells is not a square grid of side 1 to 64\n\
             y\\u{1}z:line 4: 2 cells is not a square grid of side 1 to 64\n",
            "{command}"
        );
    }
}

#[test]
fn a_box_that_fits_no_line_is_a_usage_error() {
    for command in READERS {
        let out = run(
            &[command, "--box", "2x3"],
            format!("{NINE}\n{NINE}\n").as_bytes(),
        );
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert_eq!(stdout(&out), "", "{command}");
        assert!(stderr(&out).contains("--box 2x3"), "{}", stderr(&out));
    }
}

#[test]
fn solve_says_when_a_puzzle_has_several_solutions() {
    let out = run(&["solve", "1..............."], b"");
    assert_eq!(stdout(&out), "Multiple solutions\n");
    let out = run(&["solve", "--format", "jsonl", "1..............."], b"");
    let record: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(record["status"], "multiple");
}

#[test]
fn pretty_grids_read_back_as_the_same_puzzles() {
    let puzzles = [NINE, &format!("id7:{SIX}"), SIXTEEN];
    let one_line = stdout(&run(&[&["solve"][..], &puzzles].concat(), b""));
    let pretty = stdout(&run(&[&["solve", "--pretty"][..], &puzzles].concat(), b""));
    assert!(pretty.contains("+-"), "{pretty}");
    // Each grid read back on its own (each source sets its own size).
    let mut back = String::new();
    for grid in pretty.split("\n\n").filter(|g| !g.trim().is_empty()) {
        back.push_str(&stdout(&run(&["solve", "-"], grid.as_bytes())));
    }
    assert_eq!(back, one_line);
    assert_eq!(one_line.lines().count(), 3);
    // Compact rows and a grid pasted as one operand read the same.
    let rows: String = NINE
        .as_bytes()
        .chunks(9)
        .map(|row| String::from_utf8_lossy(row).into_owned() + "\n")
        .collect();
    assert_eq!(
        stdout(&run(&["solve"], rows.as_bytes())),
        format!("{NINE_SOLVED}\n")
    );
    assert_eq!(
        stdout(&run(&["solve", &rows], b"")),
        format!("{NINE_SOLVED}\n")
    );
}

#[test]
fn every_record_has_the_common_fields_in_order() {
    let input = format!("{NINE}\nbad:123\n{SIX}\n");
    let common = ["number", "id", "puzzle", "box", "status"];
    for command in READERS {
        let out = run(&[command, "--format", "jsonl"], input.as_bytes());
        let records: Vec<Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 3, "{command}");
        for (i, record) in records.iter().enumerate() {
            assert_eq!(record["number"], i + 1, "{command}");
        }
        for line in stdout(&out).lines() {
            let at: Vec<usize> = common
                .iter()
                .map(|key| line.find(&format!("\"{key}\":")).expect(line))
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{command}: {line}");
        }
        assert_eq!(records[1]["status"], "invalid", "{command}");
        assert_eq!(records[1]["id"], "bad", "{command}");
        assert!(records[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("line 2: "));
        assert_eq!(records[0]["box"], "3x3", "{command}");
        let out = run(&[command, "--format", "csv"], input.as_bytes());
        let text = stdout(&out);
        let header = text.lines().next().unwrap();
        assert!(
            header.starts_with("number,id,puzzle,box,status,"),
            "{header}"
        );
        assert!(header.ends_with(",error"), "{header}");
        assert_eq!(text.lines().count(), 4, "{command}: {text}");
    }
}

#[test]
fn count_gives_up_at_its_timeout() {
    let empty = ".".repeat(81);
    let out = run(&["count", "--timeout", "0.2", &empty, NINE], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "Timeout\n1\n");
}

#[test]
fn count_warns_before_a_count_that_cannot_finish() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(["count", &".".repeat(81)])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(first.contains("warning: line 1 has about"), "{first}");
    assert!(first.contains("--limit"), "{first}");
    // A count that finishes is not warned about.
    let out = run(&["count", "--box", "2x3", &".".repeat(36)], b"");
    assert_eq!(stderr(&out), "");
}

#[test]
fn solve_lists_solutions_with_limit_and_all() {
    let puzzle = "12..34..........";
    let out = run(&["solve", "--limit", "3", &format!("x:{puzzle}")], b"");
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| l.starts_with("x:12")));
    let all = run(&["solve", "--all", "--format", "jsonl", puzzle], b"");
    let record: Value = serde_json::from_str(stdout(&all).trim()).unwrap();
    let solutions: Vec<&str> = record["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let counted = stdout(&run(&["count", puzzle], b""));
    assert_eq!(solutions.len().to_string(), counted.trim());
    let mut distinct = solutions.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), solutions.len());
    for solution in &solutions {
        assert!(solution.starts_with("12"), "{solution} keeps the givens");
        assert_eq!(stdout(&run(&["count", solution], b"")), "1\n");
    }
}

/// A 25×25 puzzle without a solution that no propagation sees: row 1's
/// first 11 cells may only hold digits 1 to 10 (their columns hold 12 to 25
/// below them, and the row holds 11 elsewhere), a pigeonhole that the search
/// refutes only by trying orders of those cells (about a minute).
fn pigeonhole25() -> String {
    const SYMBOLS: &[u8] = b"123456789ABCDEFGHIJKLMNOP";
    let grid = |r: usize, c: usize| ((r % 5) * 5 + r / 5 + c) % 25 + 1;
    let mut cells = vec![b'.'; 625];
    for c in 0..11 {
        for r in 1..25 {
            if grid(r, c) >= 12 {
                cells[r * 25 + c] = SYMBOLS[grid(r, c) - 1];
            }
        }
    }
    cells[20] = SYMBOLS[10];
    String::from_utf8(cells).unwrap()
}

#[test]
fn analyze_and_solve_give_up_at_their_timeout() {
    let hard = pigeonhole25();
    let out = run(&["analyze", "--timeout", "0.2", &hard, NINE], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "Puzzle # 1 timed out\nPuzzle # 2 has a unique solution\n"
    );
    assert!(stderr(&out).contains("1 timed out"), "{}", stderr(&out));
    let out = run(&["solve", "--timeout", "0.2", &hard, NINE], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), format!("Timeout\n{NINE_SOLVED}\n"));
    let out = run(
        &["solve", "--timeout", "0.2", "--format", "jsonl", &hard],
        b"",
    );
    let record: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(record["status"], "timeout");
}

#[test]
fn every_command_prints_the_same_record_shape() {
    let dir = scratch_dir("schema");
    let out_file = dir.join("finds.txt");
    let out_file = out_file.to_str().unwrap();
    // Each run but generate's ends with a bad line (`--puzzle` is always a
    // puzzle), which must be a record too, with its id. (`load` needs a
    // server: its record is checked in serve_addresses.rs.)
    let runs: [&[&str]; 8] = [
        &["analyze", NINE, "--puzzle", "x:12"],
        &["solve", NINE, "--puzzle", "x:12"],
        &["solve", "--limit", "2", NINE, "--puzzle", "x:12"],
        &["count", NINE, "--puzzle", "x:12"],
        &["canon", NINE, "--puzzle", "x:12"],
        &["search", "-q", "--out", out_file, NINE, "--puzzle", "x:12"],
        &["slide", "23415x768", "--puzzle", "x:1 2 3"],
        &["generate", "--count", "2", "--seed", "1", "-q"],
    ];
    let common = ["number", "id", "puzzle", "box", "status"];
    for args in runs {
        let has_bad_line = args.contains(&"--puzzle");
        for format in ["jsonl", "csv"] {
            let mut full = args.to_vec();
            full.extend(["--format", format]);
            let out = run(&full, b"");
            assert_ne!(out.status.code(), Some(2), "{full:?}: {}", stderr(&out));
            let text = stdout(&out);
            if format == "csv" {
                let header = text.lines().next().unwrap_or_default();
                assert!(
                    header.starts_with("number,id,puzzle,box,status,"),
                    "{full:?}: {header}"
                );
                assert!(header.ends_with(",error"), "{full:?}: {header}");
                continue;
            }
            assert!(!text.is_empty(), "{full:?} printed no record");
            let mut invalid_records = 0;
            for (i, line) in text.lines().enumerate() {
                let at: Vec<usize> = common
                    .iter()
                    .map(|key| line.find(&format!("\"{key}\":")).expect(line))
                    .collect();
                assert!(at.windows(2).all(|w| w[0] < w[1]), "{full:?}: {line}");
                let record: Value = serde_json::from_str(line).unwrap();
                assert_eq!(record["number"], i + 1, "{full:?}: {line}");
                let invalid = record["status"] == "invalid";
                assert_eq!(invalid, record.get("error").is_some(), "{full:?}: {line}");
                if invalid {
                    invalid_records += 1;
                    assert_eq!(record["id"], "x", "{full:?}: {line}");
                }
            }
            assert_eq!(
                invalid_records,
                usize::from(has_bad_line),
                "{full:?}: {text}"
            );
        }
    }
}
