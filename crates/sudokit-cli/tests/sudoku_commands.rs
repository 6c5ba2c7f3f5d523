//! The real `sudokit` binary on analyze, solve and count (SPEC §1–§4).

mod common;

use common::{run, stdout};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudokit::generate::random_puzzle;
use sudokit::grid::{Puzzle, Shape};
use sudokit::parse::Alphabet;
use sudokit::solver::reference::ReferenceSolver;
use sudokit::solver::{Solver, Status};

const CHALLENGE: &str = "*314*******1**356**621**3*******561*\n***4****41*2*4321**6534*5*16****6***\n5******5******5******5******5******5\n";

#[test]
fn analyze_answers_the_challenge_examples() {
    let out = run(&["analyze", "-"], CHALLENGE.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "Puzzle # 1 has a unique solution\nPuzzle # 2 has no solution\nPuzzle # 3 has no solution\n"
    );
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(
        summary.contains("3 puzzles: 1 unique, 2 no solution, 0 multiple, 0 invalid"),
        "{summary}"
    );
}

#[test]
fn analyze_speaks_the_challenges_chinese_byte_for_byte() {
    let input = format!("{CHALLENGE}1{}\n{}\n", ".".repeat(35), ".".repeat(35));
    let out = run(&["analyze", "--lang", "zh"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stdout,
        "谜题 # 1 有唯一解\n谜题 # 2 无解\n谜题 # 3 无解\n谜题 # 4 有多解\n谜题 # 5 格式错误: 35 cells, expected 36\n".as_bytes()
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("计算时间"));
}

#[test]
fn bad_lines_are_reported_and_every_other_line_answered() {
    let mut bad = ".".repeat(36).into_bytes();
    bad[13] = b'Z';
    let input = [
        "\u{feff}# a comment, not numbered\r\n".as_bytes(),
        b"\r\n",
        b"a1:*314*******1**356**621**3*******561*\r\n",
        &bad,
        b"\n",
        b"12345\n",
        b"7**4****41*2*4321**6534*5*16****6***\n",
        b"5******5******5******5******5******5 ; rated 9.9\n",
        b"end\n",
        b"1***********************************\n",
    ]
    .concat();
    let out = run(&["analyze"], &input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "a1:Puzzle # 1 has a unique solution\n\
         Puzzle # 2 is invalid: unexpected 'Z' at cell 14\n\
         Puzzle # 3 is invalid: 5 cells, expected 36\n\
         Puzzle # 4 is invalid: unexpected '7' at cell 1\n\
         Puzzle # 5 has no solution\n"
    );
}

#[test]
fn the_first_puzzle_sets_the_size_and_box_overrides_it() {
    // A 6x6 grid valid with 2x3 boxes, read with 3x2 boxes, breaks the boxes.
    let grid = "123456456123231564564231312645645312\n";
    assert_eq!(
        stdout(&run(&["analyze"], grid.as_bytes())),
        "Puzzle # 1 has a unique solution\n"
    );
    assert_eq!(
        stdout(&run(&["analyze", "--box", "3x2"], grid.as_bytes())),
        "Puzzle # 1 has no solution\n"
    );
    let out = run(&["analyze", "--box", "3"], grid.as_bytes());
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn symbols_set_the_alphabet() {
    // The 4x4 online-judge style: letters for digits, 0 stays a blank.
    let out = run(&["solve", "--symbols", "ABCD"], b"AB00CD00B0D0D00A\n");
    let line = stdout(&out);
    let alphabet = Alphabet::new("ABCD", 4).unwrap();
    let values: Vec<u8> = line
        .trim()
        .bytes()
        .map(|b| alphabet.value(b).unwrap())
        .collect();
    let solution = Puzzle::new(Shape::new(2, 2).unwrap(), values).unwrap();
    let givens: Vec<u8> = b"AB00CD00B0D0D00A"
        .iter()
        .map(|&b| alphabet.value(b).unwrap())
        .collect();
    assert!(Puzzle::new(Shape::new(2, 2).unwrap(), givens)
        .unwrap()
        .is_solved_by(&solution));
    let wrong = run(&["solve", "--symbols", "ABC"], b"AB00CD0000000000\n");
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("3 symbols given"));
}

#[test]
fn jsonl_has_solutions_that_solve_their_puzzles() {
    let out = run(
        &["analyze", "--format", "jsonl", "--minimal"],
        CHALLENGE.as_bytes(),
    );
    let records: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["number"], 1);
    assert_eq!(records[0]["puzzle"], CHALLENGE.lines().next().unwrap());
    assert_eq!(records[0]["box"], "2x3");
    assert_eq!(records[0]["id"], serde_json::Value::Null);
    assert_eq!(records[0]["status"], "unique");
    assert_eq!(records[0]["clues"], 14);
    assert_eq!(records[0]["minimal"], false);
    assert_eq!(records[1]["status"], "none");
    assert!(records[1].get("solution").is_none());
    let alphabet = Alphabet::default_for(6).unwrap();
    let shape = Shape::new(2, 3).unwrap();
    let digits = |s: &str| {
        s.bytes()
            .map(|b| alphabet.value(b).unwrap())
            .collect::<Vec<u8>>()
    };
    let puzzle = Puzzle::new(shape, digits(CHALLENGE.lines().next().unwrap())).unwrap();
    let solution = Puzzle::new(shape, digits(records[0]["solution"].as_str().unwrap())).unwrap();
    assert!(puzzle.is_solved_by(&solution));
}

#[test]
fn minimal_tells_needed_clues_apart() {
    // Easter Monster is minimal; adding one of its solution's digits makes it not.
    let monster =
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";
    let solved = stdout(&run(&["solve", monster], b""));
    let mut extra = monster.as_bytes().to_vec();
    extra[1] = solved.as_bytes()[1];
    let input = format!("{monster}\n{}\n", String::from_utf8(extra).unwrap());
    assert_eq!(
        stdout(&run(&["analyze", "--minimal"], input.as_bytes())),
        "Puzzle # 1 has a unique solution and is minimal\nPuzzle # 2 has a unique solution and is not minimal\n"
    );
}

#[test]
fn solve_prints_solutions_pretty_grids_and_no_solution() {
    let puzzle =
        "000704005020010070000080002090006250600070008053200010400090000030060090200407000";
    let no_solution = format!("x:55{}", ".".repeat(79));
    let out = run(&["solve", puzzle, &no_solution], b"");
    let text = stdout(&out);
    let mut lines = text.lines();
    let solution = lines.next().unwrap();
    let shape = Shape::new(3, 3).unwrap();
    let digits = |s: &str| {
        s.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect::<Vec<u8>>()
    };
    let given = Puzzle::new(shape, digits(puzzle)).unwrap();
    assert!(given.is_solved_by(&Puzzle::new(shape, digits(solution)).unwrap()));
    assert_eq!(lines.next(), Some("x:No solution"));
    let pretty = stdout(&run(&["solve", "--pretty", puzzle], b""));
    let rows: Vec<&str> = pretty.lines().collect();
    assert_eq!(rows.len(), 9 + 2 + 1, "{pretty}");
    assert_eq!(rows[3], "------+-------+------");
    assert_eq!(rows[11], "");
    assert_eq!(rows[0].replace([' ', '|'], ""), solution[..9]);
}

#[test]
fn count_gives_the_known_grid_totals() {
    let out = run(&["count", &".".repeat(16), "--threads", "2"], b"");
    assert_eq!(stdout(&out), "288\n");
    let out = run(&["count", "--limit", "1000", &".".repeat(36)], b"");
    assert_eq!(stdout(&out), ">=1000\n");
    let out = run(&["count", "-"], b"id7:12..............\n");
    let mut givens = vec![0u8; 16];
    givens[..2].copy_from_slice(&[1, 2]);
    let want = ReferenceSolver::new(Shape::new(2, 2).unwrap())
        .solve(&givens, u64::MAX, None)
        .unwrap()
        .solutions;
    assert_eq!(stdout(&out), format!("id7:{want}\n"));
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let out = run(&["analyze", "/nonexistent/puzzles.txt"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open /nonexistent/puzzles.txt"));
}

/// Many blocks' worth of input (more than the 4 MiB block), two threads: every
/// puzzle answered, numbered in input order, and each answer matches the
/// reference solver.
#[test]
fn large_inputs_stream_in_order_across_blocks() {
    let shape = Shape::new(2, 3).unwrap();
    let alphabet = Alphabet::default_for(6).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let distinct: Vec<Puzzle> = (0..400)
        .map(|_| random_puzzle(shape, rng.gen_range(8..=20), 0.25, &mut rng))
        .collect();
    let mut reference = ReferenceSolver::new(shape);
    let statuses: Vec<Status> = distinct
        .iter()
        .map(|p| reference.status(p.cells(), None).unwrap())
        .collect();
    let lines = 160_000;
    let mut input = Vec::with_capacity(lines * 37);
    for i in 0..lines {
        alphabet.write_cells(distinct[i % distinct.len()].cells(), &mut input);
        input.push(b'\n');
    }
    let out = run(&["analyze", "--threads", "2", "-"], &input);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let mut count = 0;
    for (i, line) in text.lines().enumerate() {
        let want = match statuses[i % distinct.len()] {
            Status::Unique => "has a unique solution",
            Status::None => "has no solution",
            Status::Multiple => "has multiple solutions",
        };
        assert_eq!(line, format!("Puzzle # {} {want}", i + 1));
        count += 1;
    }
    assert_eq!(count, lines);
}
