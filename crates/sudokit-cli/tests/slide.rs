//! `sudokit slide`, run as a real process.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Starts `sudokit slide ARGS` and writes `input` to its standard input.
fn start_slide(args: &[&str], input: &str) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .arg("slide")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sudokit runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child
}

/// Runs `sudokit slide ARGS` with `input` on standard input.
fn slide(args: &[&str], input: &str) -> Output {
    start_slide(args, input).wait_with_output().unwrap()
}

/// Standard output as lines.
fn lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Applies blank moves to a board given as tiles; `None` if one leaves it.
fn replay(tiles: &[u8], width: usize, moves: &str) -> Option<Vec<u8>> {
    let mut tiles = tiles.to_vec();
    for m in moves.chars() {
        let blank = tiles.iter().position(|&t| t == 0)?;
        let (row, col) = (blank / width, blank % width);
        let to = match m {
            'u' if row > 0 => blank - width,
            'd' if row + 1 < width => blank + width,
            'l' if col > 0 => blank - 1,
            'r' if col + 1 < width => blank + 1,
            _ => return None,
        };
        tiles.swap(blank, to);
    }
    Some(tiles)
}

#[test]
fn hdu_1043_sample_and_input_rules() {
    let input = "# HDU 1043 sample\r\n\
                 2  3  4  1  5  x  7  6  8\r\n\
                 \n\
                 job7:23415x768\n\
                 12345678x\n\
                 end\n\
                 1 2 3\n";
    let out = slide(&[], input);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let answers = lines(&out);
    assert_eq!(answers.len(), 3, "{answers:?}");
    let start = [2, 3, 4, 1, 5, 0, 7, 6, 8];
    let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
    assert_eq!(answers[0].len(), 19);
    assert_eq!(replay(&start, 3, &answers[0]).as_deref(), Some(&goal[..]));
    assert_eq!(answers[1], format!("job7:{}", answers[0]));
    assert_eq!(answers[2], "");
}

#[test]
fn bad_lines_are_reported_and_the_rest_answered() {
    let input = "1 2 3 4 5 6 7 8 8\n213456780\n12345678x\nabc\n1 2 3 4 5 6 7 8 9\n";
    let out = slide(&[], input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        lines(&out),
        [
            "line 1: tile 8 appears twice",
            "unsolvable",
            "",
            "line 4: 3 characters in a compact line, expected 9 (separate a 15-puzzle's 16 numbers with spaces)",
            "line 5: tile 9 out of range (1 to 8, 0 or x for the blank)",
        ]
    );
}

#[test]
fn a_line_that_is_not_utf8_is_just_a_bad_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .arg("slide")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"1234\xff5678\n12345678x\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let answers = lines(&out);
    assert!(answers[0].starts_with("line 1: unexpected"), "{answers:?}");
    assert_eq!(answers[1], "");
}

#[test]
fn blank_first_goal_and_stats() {
    let out = slide(&["--blank-first", "--stats"], "1 2 0 3 4 5 6 7 8\n");
    assert_eq!(out.status.code(), Some(0));
    let answers = lines(&out);
    let fields: Vec<&str> = answers[0].split('\t').collect();
    assert_eq!(fields[0], "ll");
    assert_eq!(fields[1], "length=2");
    assert!(fields[2].starts_with("nodes="), "{fields:?}");
    assert!(fields[3].starts_with("time="), "{fields:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 solved"));
}

#[test]
fn fifteen_puzzles_with_each_heuristic() {
    // Korf's instance #79, optimal length 42 (blank-first goal).
    let korf79 = "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15";
    let start: Vec<u8> = korf79.split(' ').map(|t| t.parse().unwrap()).collect();
    let goal: Vec<u8> = (0..16).collect();
    let cache = std::env::temp_dir().join(format!("sudokit-cli-slide-{}", std::process::id()));
    let cache_arg = cache.to_str().unwrap();
    for args in [
        vec!["--blank-first", "--databases", "6-6-3", "--no-cache"],
        vec![
            "--blank-first",
            "--databases",
            "6-6-3",
            "--cache-dir",
            cache_arg,
        ],
    ] {
        let out = slide(&args, &format!("{korf79}\n"));
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let answer = &lines(&out)[0];
        assert_eq!(answer.len(), 42, "{args:?}");
        assert_eq!(replay(&start, 4, answer), Some(goal.clone()));
    }
    let _ = std::fs::remove_dir_all(&cache);

    // An easy one for the blank-last goal, with the database-free fallback.
    let near = "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15";
    let out = slide(&["--databases", "manhattan"], &format!("x:{near}\n"));
    assert_eq!(lines(&out), ["x:rr"]);
}

#[test]
fn reads_a_file_with_trailing_fields() {
    let path = std::env::temp_dir().join(format!("sudokit-slide-{}.txt", std::process::id()));
    std::fs::write(
        &path,
        "23415x768 HDU sample\n1 2 3 4 5 6 7 x 8 ; one move\n",
    )
    .unwrap();
    let out = slide(&[path.to_str().unwrap()], "");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let answers = lines(&out);
    assert_eq!(answers[0].len(), 19);
    assert_eq!(answers[1], "r");
}

/// A file of `contents` in the temporary directory, named after the test.
fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("sudokit-slide-{name}-{}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

/// The HDU 1043 sample's optimal answer.
const HDU_SAMPLE: &str = "ullddrurdllurrdlurd";

#[test]
fn a_missing_file_stops_the_run_before_any_output() {
    let good = temp_file("before-missing", b"12345678x\n");
    let out = slide(&[good.to_str().unwrap(), "/nonexistent/puzzles.txt"], "");
    std::fs::remove_file(&good).unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let errors = error_lines(&out);
    assert_eq!(errors.len(), 1, "the OS error is printed once: {errors:#?}");
    assert!(
        errors[0].starts_with("sudokit: error: cannot open /nonexistent/puzzles.txt: "),
        "{errors:#?}"
    );
}

#[test]
fn files_are_read_in_order_and_named_in_errors() {
    let first = temp_file("first", b"23415x768\n1 2 3\n");
    let second = temp_file("second", b"12345678x\n");
    let (a, b) = (first.to_str().unwrap(), second.to_str().unwrap());
    let out = slide(&[a, b], "");
    std::fs::remove_file(&first).unwrap();
    std::fs::remove_file(&second).unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let expected = format!("{a}: line 2: 3 tiles, expected 9 (8-puzzle) or 16 (15-puzzle)");
    assert_eq!(lines(&out), [HDU_SAMPLE, &expected, ""]);
}

#[test]
fn a_fifo_is_read_like_a_file() {
    let fifo = std::env::temp_dir().join(format!("sudokit-slide-fifo-{}", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let after = temp_file("after-fifo", b"12345678x\n");
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, "23415x768\n").unwrap())
    };
    let out = slide_within_a_minute(&[fifo.to_str().unwrap(), after.to_str().unwrap()], "");
    std::fs::remove_file(&after).unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(lines(&out), [HDU_SAMPLE, ""]);
    writer.join().unwrap();
    std::fs::remove_file(&fifo).unwrap();
}

#[test]
fn an_operand_that_reads_as_a_puzzle_is_that_puzzle() {
    let out = slide(
        &[
            "23415x768",
            "hdu:2 3 4 1 5 x 7 6 8",
            "--puzzle",
            "1 2 3 4 5 6 7 x 8",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        lines(&out),
        [
            HDU_SAMPLE.to_string(),
            format!("hdu:{HDU_SAMPLE}"),
            "r".into()
        ]
    );
    // Not a puzzle and not a file: a file that cannot be opened.
    let out = slide(&["23415x76"], "");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open 23415x76"));
}

#[test]
fn standard_input_mixes_with_inline_puzzles() {
    let out = slide(&["12345678x", "-", "1 2 3 4 5 6 7 x 8"], "23415x768\n");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(lines(&out), ["", HDU_SAMPLE, "r"]);
}

#[test]
fn a_byte_order_mark_starts_a_file() {
    let path = temp_file("bom", b"\xef\xbb\xbf23415x768\n");
    let out = slide(&[path.to_str().unwrap()], "");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(lines(&out), [HDU_SAMPLE]);
}

#[test]
fn control_bytes_in_ids_and_errors_are_escaped() {
    let out = slide(&[], "1 2 3 \0 5 6 7 8 x\nid\u{1b}:12345678x\n");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        lines(&out),
        ["line 1: unexpected '\\u{0}' at tile 4", "id\\u{1b}:"]
    );
}

#[test]
fn line_numbers_count_blank_and_comment_lines() {
    let input = "# eight-puzzles\n\n23415x768\n\n# a bad one\n1 2 3\nx:1 2\n";
    let out = slide(&[], input);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        lines(&out),
        [
            HDU_SAMPLE,
            "line 6: 3 tiles, expected 9 (8-puzzle) or 16 (15-puzzle)",
            "x:line 7: 2 tiles, expected 9 (8-puzzle) or 16 (15-puzzle)",
        ]
    );
}

#[test]
fn jsonl_and_csv_records_have_the_common_fields() {
    let input = "hdu:23415x768 HDU sample\n\n12345687x\n1 2 3 ; short\n";
    let out = slide(&["--format", "jsonl"], input);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        lines(&out),
        [
            format!(
                r#"{{"number":1,"id":"hdu","puzzle":"23415x768","box":null,"status":"solved","moves":"{HDU_SAMPLE}","length":19}}"#
            ),
            r#"{"number":2,"id":null,"puzzle":"12345687x","box":null,"status":"unsolvable"}"#.into(),
            r#"{"number":3,"id":null,"puzzle":"1 2 3","box":null,"status":"invalid","error":"line 4: 3 tiles, expected 9 (8-puzzle) or 16 (15-puzzle)"}"#.into(),
        ]
    );

    let out = slide(&["--format", "csv", "--stats", "-q"], input);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stderr.is_empty(), "--quiet: no summary: {out:?}");
    let rows = lines(&out);
    assert_eq!(rows.len(), 4, "{rows:#?}");
    assert_eq!(
        rows[0],
        "number,id,puzzle,box,status,moves,length,nodes,time_ms,error"
    );
    let cells: Vec<Vec<&str>> = rows[1..].iter().map(|r| r.split(',').collect()).collect();
    assert_eq!(
        cells[0][..7],
        ["1", "hdu", "23415x768", "", "solved", HDU_SAMPLE, "19"]
    );
    assert!(cells[0][8].parse::<f64>().is_ok(), "{rows:#?}");
    assert_eq!(
        cells[1][..7],
        ["2", "", "12345687x", "", "unsolvable", "", ""]
    );
    assert_eq!(
        rows[3],
        "3,,1 2 3,,invalid,,,,,\"line 4: 3 tiles, expected 9 (8-puzzle) or 16 (15-puzzle)\""
    );
}

/// Runs `sudokit slide ARGS` like [`slide`], but kills it and fails the test
/// if it has not finished within a minute (a hang must not hang the tests).
fn slide_within_a_minute(args: &[&str], input: &str) -> Output {
    let child = start_slide(args, input);
    let pid = child.id();
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || done.send(child.wait_with_output()));
    match finished.recv_timeout(Duration::from_secs(60)) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("sudokit slide {args:?} still running after a minute: killed");
        }
    }
}

/// Standard error as lines.
fn error_lines(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .map(str::to_string)
        .collect()
}

/// A fresh directory for one test's cache.
fn cache_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Korf's instance #55 (optimal length 41, blank-first goal).
const KORF55: &str = "13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11";

/// Checks that `answer` solves Korf #55 optimally.
fn assert_solves_korf55(answer: &str) {
    let start: Vec<u8> = KORF55.split(' ').map(|t| t.parse().unwrap()).collect();
    let goal: Vec<u8> = (0..16).collect();
    let moves = answer.split('\t').next().unwrap();
    assert_eq!(moves.len(), 41, "{answer}");
    assert_eq!(replay(&start, 4, moves), Some(goal));
}

/// The lines of `lines` that contain every one of `words`.
fn containing<'a>(lines: &'a [String], words: &[&str]) -> Vec<&'a String> {
    lines
        .iter()
        .filter(|l| words.iter().all(|w| l.contains(w)))
        .collect()
}

#[test]
fn bad_cache_files_are_reported_bypassed_and_replaced() {
    let dir = cache_dir("bad-files");
    let file = |name: &str| dir.join(format!("pdb15-{name}.bin"));
    // Garbage under the 7-8 names (which once started a 580 MB build), a FIFO
    // (which once hung the reader) and a file of the wrong size.
    std::fs::write(file("1-2-3-4-5-6-7"), vec![0xa5; 4096]).unwrap();
    std::fs::write(file("8-9-10-11-12-13-14-15"), vec![0xa5; 4096]).unwrap();
    let status = Command::new("mkfifo").arg(file("1-4-5")).status().unwrap();
    assert!(status.success());
    std::fs::write(file("2-3-6-7-10-11"), vec![0; 100]).unwrap();

    let args = [
        "--blank-first",
        "--stats",
        "--cache-dir",
        dir.to_str().unwrap(),
    ];
    let out = slide_within_a_minute(&args, &format!("{KORF55}\n"));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_solves_korf55(&lines(&out)[0]);
    let errors = error_lines(&out);
    let show = |p: &Path| p.display().to_string();
    for name in ["1-2-3-4-5-6-7", "8-9-10-11-12-13-14-15"] {
        let path = show(&file(name));
        let warned = containing(&errors, &["warning", &path, "4096 bytes", "ignored"]);
        assert_eq!(warned.len(), 1, "{errors:#?}");
        let building = format!("pattern database {name} ");
        assert!(containing(&errors, &[&building]).is_empty(), "{errors:#?}");
    }
    let building = |name: &str, why: &str| {
        let what = format!("building 15-puzzle pattern database {name} (");
        containing(&errors, &[&what, why]).len()
    };
    assert_eq!(building("1-4-5", "is a FIFO"), 1, "{errors:#?}");
    assert_eq!(
        building("2-3-6-7-10-11", "wrong size (100 bytes"),
        1,
        "{errors:#?}"
    );
    assert_eq!(
        building("8-9-12-13-14-15", "not cached yet"),
        1,
        "{errors:#?}"
    );
    assert_eq!(
        containing(&errors, &["6-6-3 database"]).len(),
        3,
        "{errors:#?}"
    );
    assert!(std::fs::metadata(file("1-4-5")).unwrap().is_file());

    // The next run loads what this one saved, and still warns about the
    // garbage it leaves alone.
    let out = slide_within_a_minute(&args, &format!("{KORF55}\n"));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_solves_korf55(&lines(&out)[0]);
    let errors = error_lines(&out);
    assert!(containing(&errors, &["building"]).is_empty(), "{errors:#?}");
    assert_eq!(
        containing(&errors, &["loaded from cache"]).len(),
        3,
        "{errors:#?}"
    );
    assert_eq!(
        containing(&errors, &["warning", "ignored"]).len(),
        2,
        "{errors:#?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_cache_is_reported_once_per_run() {
    // Under a regular file no directory can be made, not even by root.
    let base = cache_dir("unwritable");
    std::fs::write(base.join("a-file"), b"").unwrap();
    let dir = base.join("a-file").join("cache");
    let args = ["--blank-first", "--cache-dir", dir.to_str().unwrap()];
    let out = slide_within_a_minute(&args, &format!("{KORF55}\n{KORF55}\n"));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for answer in lines(&out) {
        assert_solves_korf55(&answer);
    }
    let errors = error_lines(&out);
    let unwritable = containing(
        &errors,
        &["warning", "cannot be written", &dir.display().to_string()],
    );
    assert_eq!(unwritable.len(), 1, "{errors:#?}");
    assert_eq!(containing(&errors, &["building"]).len(), 3, "{errors:#?}");
    std::fs::remove_dir_all(&base).unwrap();
}
