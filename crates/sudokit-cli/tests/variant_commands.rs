//! Variants through the real binary: layout fields on lines and
//! `--variant`, on every command that reads them, the engines that take
//! them, generated variants read back, f-puzzles links imported, and the
//! commands that read plain Sudoku only refusing layout lines.

mod common;

use common::{run, stderr, stdout};
use sudokit::variant::VariantPuzzle;
use sudokit::Puzzle;

/// The repository's bundled 9×9 variants.
const VARIANTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/variants.txt");

/// "Self-contained" by Lavaloid (killer with anti-knight) as its f-puzzles
/// data, and its published solution (from the test suite of the f-puzzles
/// solver, dclamage/SudokuSolver, SudokuTests/Puzzles.cs).
const SELF_CONTAINED: &str = "N4IgzglgXgpiBcBOANCALhNAbO8QGUYsAzAWgGMB7AOzQEMJqYATEVOgVzQAtKAnBCAAydAG50slCK1R8OOMDDSCA1AAIAcvwC2EtWA7NKAaw5q5CtXQAO1rAE8AdAB1qAUVEw+985QDuyGpUWBza1IF01MxqAMwAHjFqAEaUcUE09IxgVlhYaswQAOaY2cR8lNpqAIxqaJRqiC7UruoAgrQQxtRF3Gjm8jBWtlgQMGBNACJFJfow1nR8dGgsyT50Qdxj2V09aADk2dqUnmq6PtSUfUmD0jAd5BJNLWoA0hC5Xv04Q3aj465TYpobKMKxBOiFQbaDhgPoGSp1WqbNTUULXPhqPx8TDLahqUE8QZ1axqHDENCONSAmbQ2Eoy7mOYwJb4vHrB6QxxsECFbGseAAbQFwAAvshRe KxRLpVLZZKALrIYVymWStWq0WK5XqkDkQQAYgmAAZjQAxU0gKW6g3Gs0Wq16vCGk1G82W8XWp22132j2OkDOu3umVajWegPet0Om0uqN+mNB6Ne2O+0D+wM+4Oy0Mq8MZuNphOZpMRlPBvOR1MVssqkU5nXpyvlxs1+PJxNt0sdwvt4vqutKsMt7vVkfDvs9rsT0cT7OD2v9xch+dLhcauuKkCRDA7Qq9BBoOQwVDGd44Pgc3DC3VELBgBACkAAJQAbABhGLcp8Adg/X9/AAsICbuIIS4CAABMn4Ore96Cs+AF/qgT6IUByGIQArMBqCgRw4FQc2sEPs+MRISRb5ASBEh4YIAAchG5HBj5PhhZEsRRX7vpROHUeBVRYTBjHEexWHIe+onPu+L7YSAuF8YgDF3sJiHfl+rHSchrGqVRYGCFUQGCUp8FPqREkmW+Gnkap6EWTJcl6QJfpEcZv5mb+0k6TReD0YZTGSW+1nPr+2k8bpeDSXWIpAA===";

/// Its published solution.
const SELF_CONTAINED_SOLUTION: &str =
    "653418279174259863982673451528961347317542986496387512769835124831724695245196738";

/// Every solution line printed for a variant line must solve it.
fn assert_solves(line: &str, answer: &str) {
    let puzzle: VariantPuzzle = line.parse().unwrap();
    let grid: Puzzle = answer.parse().unwrap();
    assert!(puzzle.is_solved_by(&grid), "{answer} does not solve {line}");
}

#[test]
fn layout_fields_and_variant_rules_are_read_by_analyze_solve_and_count() {
    let input = "\
.2.3.4.......... variant=x
.2.3.4..........
1....1.......... variant=x
................ regions=1111122233334444
................ cage=99@r1c1r1c2
................ variant=x cage=3@r1c1r1c2
";
    let out = run(&["analyze", "-q"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "\
Puzzle # 1 has a unique solution
Puzzle # 2 has multiple solutions
Puzzle # 3 has no solution
Puzzle # 4 is invalid: region '1' has 5 cells, every region needs 4
Puzzle # 5 is invalid: cage 1 of 2 cells cannot sum to 99 with distinct digits 1 to 4
Puzzle # 6 has multiple solutions
"
    );
    // --variant applies to every line; a line adds its own fields.
    let out = run(&["analyze", "-q", "--variant", "x"], b".2.3.4..........\n");
    assert_eq!(stdout(&out), "Puzzle # 1 has a unique solution\n");
    let out = run(&["solve"], b".2.3.4.......... variant=x\n");
    assert_solves(".2.3.4.......... variant=x", stdout(&out).trim());
    // Exact counts, and counts up to a limit (the analyzer's path).
    let out = run(
        &["count", "................ variant=x", "................"],
        b"",
    );
    assert_eq!(stdout(&out), "48\n288\n");
    let out = run(
        &["count", "--limit", "5", "................ variant=x"],
        b"",
    );
    assert_eq!(stdout(&out), ">=5\n");
    // Every solution listed solves the line.
    let out = run(
        &[
            "solve",
            "--all",
            "................ regions=1233122311234444",
        ],
        b"",
    );
    let all = stdout(&out);
    assert!(!all.trim().is_empty());
    for answer in all.lines() {
        assert_solves("................ regions=1233122311234444", answer);
    }
}

#[test]
fn every_engine_that_takes_variants_agrees_on_the_bundled_file() {
    let mut answers = Vec::new();
    for engine in ["auto", "variant", "dlx"] {
        let out = run(
            &[
                "analyze", "-q", "--format", "jsonl", "--engine", engine, VARIANTS,
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{engine}: {}", stderr(&out));
        let text = stdout(&out);
        let file = std::fs::read_to_string(VARIANTS).unwrap();
        let lines: Vec<&str> = file
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .collect();
        for (record, line) in text.lines().zip(&lines) {
            let value: serde_json::Value = serde_json::from_str(record).unwrap();
            assert_eq!(value["status"], "unique", "{engine}: {line}");
            assert_solves(line, value["solution"].as_str().unwrap());
        }
        assert_eq!(text.lines().count(), lines.len());
        answers.push(text);
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]));
    // The engines for plain Sudoku refuse variants before reading anything.
    for engine in ["general", "reference"] {
        let out = run(
            &["analyze", "--variant", "x", "--engine", engine, VARIANTS],
            b"",
        );
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("solves plain Sudoku only"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn generated_variants_read_back_unique_and_solved() {
    let kinds: [&[&str]; 5] = [
        &["--variant", "x"],
        &["--jigsaw"],
        &["--killer", "--box", "2x3"],
        &["--variant", "windoku,antiknight", "--symmetry", "rot180"],
        &["--jigsaw", "--variant", "x", "--box", "2x3"],
    ];
    for kind in kinds {
        let mut args = vec![
            "generate", "-q", "-n", "4", "--seed", "3", "--format", "jsonl",
        ];
        args.extend_from_slice(kind);
        let out = run(&args, b"");
        assert_eq!(out.status.code(), Some(0), "{kind:?}: {}", stderr(&out));
        for record in stdout(&out).lines() {
            let value: serde_json::Value = serde_json::from_str(record).unwrap();
            let line = format!(
                "{} {}",
                value["puzzle"].as_str().unwrap(),
                value["layout"].as_str().unwrap()
            );
            let puzzle: VariantPuzzle = line.parse().unwrap();
            assert_eq!(puzzle.status(), sudokit::Status::Unique, "{kind:?}: {line}");
            assert_solves(&line, value["solution"].as_str().unwrap());
        }
        // Text lines are what every command reads.
        let mut args = vec!["generate", "-q", "-n", "4", "--seed", "3"];
        args.extend_from_slice(kind);
        let text = stdout(&run(&args, b""));
        let out = run(&["analyze", "-q"], text.as_bytes());
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            stdout(&out).matches("has a unique solution").count(),
            4,
            "{kind:?}"
        );
    }
    // Options for plain Sudoku are refused with variants.
    let out = run(&["generate", "--jigsaw", "--clues", "30"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--clues is for plain Sudoku"));
}

#[test]
fn f_puzzles_links_are_imported_and_read_as_operands() {
    let link = format!(
        "https://f-puzzles.com/?load={}",
        SELF_CONTAINED.replace(' ', "")
    );
    let out = run(&["solve", &link], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), SELF_CONTAINED_SOLUTION);
    // import: a link per line, our lines passed through, a bad one reported.
    let input = format!("{link}\n.2.3.4.......... variant=x\nhttps://f-puzzles.com/?load=XYZ\n");
    let out = run(&["import"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let printed = stdout(&out);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].contains("variant=antiknight") && lines[0].contains("cage=23@"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], ".2.3.4.......... variant=x");
    assert!(stderr(&out).contains("line 3:"), "{}", stderr(&out));
    let solved = run(&["solve"], format!("{}\n", lines[0]).as_bytes());
    assert_eq!(stdout(&solved).trim(), SELF_CONTAINED_SOLUTION);
}

#[test]
fn canon_refuses_layout_lines() {
    let line = format!("{JIGSAW}\n");
    let out = run(&["canon"], line.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("reads plain Sudoku only"),
        "{}",
        stdout(&out)
    );
}

/// A jigsaw from janko.at (Chaos Sudoku 108, in the test data of
/// SmilingWayne/PuzzleSolver) and its published solution.
const JIGSAW: &str = "8...........1.....2.....4.6.....8..5...62..18.3...4.2....5..1.7..2.........8...9. regions=AAAAABBBBCCCAABBBBCCCAABDDDCCCEEEDDDFFFEEEDDDFFFEEEGGGFFFHIIGGGHHHHIIGGGHHHHIIIII";

#[test]
fn rate_hint_and_explain_work_on_variants() {
    // A layout on the line, or the rules from --variant: the same rating.
    let with_field = run(&["rate"], b".2.3.4.......... variant=x\n");
    let with_flag = run(&["rate", "--variant", "x"], b".2.3.4..........\n");
    assert_eq!(with_field.status.code(), Some(0), "{}", stderr(&with_field));
    assert_eq!(stdout(&with_field), stdout(&with_flag));
    assert!(
        !stdout(&with_field).contains("stuck"),
        "{}",
        stdout(&with_field)
    );
    // Without the diagonals the givens have several solutions: refused.
    let several = run(&["rate", "--format", "jsonl"], b".2.3.4..........\n");
    assert_eq!(several.status.code(), Some(1));
    assert!(
        stdout(&several).contains("\"status\":\"multiple\""),
        "{}",
        stdout(&several)
    );

    // The jigsaw's hint places a digit of its solution.
    let solution = run(&["solve"], format!("{JIGSAW}\n").as_bytes());
    let solution = stdout(&solution).trim().to_string();
    assert_solves(JIGSAW, &solution);
    // Drawn, a jigsaw's grid has no box lines: its regions are not boxes.
    let drawn = run(&["solve", "--pretty"], format!("{JIGSAW}\n").as_bytes());
    let drawn = stdout(&drawn);
    assert_eq!(drawn.replace([' ', '\n'], ""), solution, "{drawn}");
    assert_eq!(
        drawn.lines().filter(|l| !l.is_empty()).count(),
        9,
        "{drawn}"
    );
    let hint = run(
        &["hint", "--format", "jsonl"],
        format!("{JIGSAW}\n").as_bytes(),
    );
    let record: serde_json::Value = serde_json::from_str(stdout(&hint).trim()).unwrap();
    assert_eq!(record["status"], "hint", "{record}");
    for placement in record["step"]["placements"].as_array().unwrap() {
        let text = placement.as_str().unwrap();
        let (cell, digit) = text.split_once('=').unwrap();
        let (row, col) = cell[1..].split_once('c').unwrap();
        let index = (row.parse::<usize>().unwrap() - 1) * 9 + col.parse::<usize>().unwrap() - 1;
        assert_eq!(&solution[index..=index], digit, "{text}");
    }

    // Its explanation ends with the solution; pencil marks draw no boxes
    // on a jigsaw (its regions are not boxes).
    let out = run(&["explain", "--pretty"], format!("{JIGSAW}\n").as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.trim_end().ends_with(&format!("solved: {solution}")),
        "{text}"
    );
    assert!(text.contains("region"), "{text}");
    assert!(!text.contains('|'), "{text}");
    // On an X the boxes are drawn.
    let out = run(&["explain", "--pretty"], b".2.3.4.......... variant=x\n");
    assert!(stdout(&out).contains('|'));
}
