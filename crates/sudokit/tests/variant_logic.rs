//! The variant logic engine: every step it takes is checked against the
//! puzzle's solution on generated puzzles of every variant; on plain Sudoku
//! its techniques reach the same pencil marks as the plain-Sudoku engine's
//! (an independent implementation); published variant puzzles are solved
//! to their known solutions.

use std::collections::BTreeMap;

use sudokit::logic::{Candidates, Solver, Step, Technique, TechniqueSet};
use sudokit::variant::generate::{generate_variant, VariantOptions};
use sudokit::variant::{Layout, Rule, Rules, VariantGrid, VariantLogic, VariantPuzzle};
use sudokit::{Puzzle, Shape};

/// Panics with the step when it contradicts `solution` or the grid.
fn check_step(grid: &VariantGrid, step: &Step, solution: &Puzzle, what: &str) {
    assert!(
        step.places() || !step.eliminations.is_empty(),
        "{what}: an empty step: {step}"
    );
    for p in &step.placements {
        assert_eq!(
            solution.cells()[p.cell],
            p.digit,
            "{what}: wrong placement: {step}"
        );
        assert_eq!(
            grid.value(p.cell),
            0,
            "{what}: placed in a filled cell: {step}"
        );
    }
    for e in &step.eliminations {
        assert_ne!(
            solution.cells()[e.cell],
            e.digit,
            "{what}: removes the solution's digit: {step}"
        );
        assert!(
            grid.has(e.cell, e.digit),
            "{what}: removes a candidate already gone: {step}"
        );
    }
}

/// Walks `puzzle` with every technique, checking each step and the grid
/// reached; adds the techniques used to `used`; whether it was solved.
fn walk_checked(
    puzzle: &VariantPuzzle,
    solution: &Puzzle,
    used: &mut BTreeMap<Technique, usize>,
) -> bool {
    let what = puzzle.to_string();
    let logic = VariantLogic::new(puzzle.layout());
    let end = logic
        .walk(
            puzzle.givens(),
            &sudokit::budget::Budget::unlimited(),
            |grid, step| {
                check_step(grid, step, solution, &what);
                *used.entry(step.technique).or_default() += 1;
            },
        )
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    for (cell, &v) in end.to_puzzle().cells().iter().enumerate() {
        assert!(
            v == 0 || v == solution.cells()[cell],
            "{what}: wrong grid reached"
        );
    }
    end.is_solved()
}

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

fn rules(list: &[Rule]) -> Rules {
    list.iter().fold(Rules::NONE, |r, &rule| r.with(rule))
}

/// The kinds of generated puzzles walked: `(name, options)`.
fn kinds() -> Vec<(&'static str, VariantOptions)> {
    let with = |s: Shape, list: &[Rule], jigsaw: bool, killer: bool| VariantOptions {
        rules: rules(list),
        jigsaw,
        killer,
        ..VariantOptions::new(s)
    };
    vec![
        ("4x4 x", with(shape(2, 2), &[Rule::Diagonals], false, false)),
        ("4x4 killer", with(shape(2, 2), &[], false, true)),
        ("6x6 jigsaw", with(shape(2, 3), &[], true, false)),
        ("6x6 killer", with(shape(2, 3), &[], false, true)),
        (
            "6x6 antiking",
            with(shape(2, 3), &[Rule::AntiKing], false, false),
        ),
        ("9x9 x", with(shape(3, 3), &[Rule::Diagonals], false, false)),
        (
            "9x9 windoku",
            with(shape(3, 3), &[Rule::Windoku], false, false),
        ),
        (
            "9x9 disjoint",
            with(shape(3, 3), &[Rule::Disjoint], false, false),
        ),
        (
            "9x9 antiknight",
            with(shape(3, 3), &[Rule::AntiKnight], false, false),
        ),
        ("9x9 jigsaw", with(shape(3, 3), &[], true, false)),
        (
            "9x9 x jigsaw",
            with(shape(3, 3), &[Rule::Diagonals], true, false),
        ),
        ("9x9 killer", with(shape(3, 3), &[], false, true)),
    ]
}

#[test]
fn every_step_on_generated_variants_keeps_the_solution() {
    let mut used = BTreeMap::new();
    for (name, options) in kinds() {
        // 9×9 killers take the longest to make (each cage split is checked
        // for uniqueness): fewer of them.
        let count = match (options.shape.side(), options.killer) {
            (9, true) => 3,
            (9, false) => 20,
            _ => 40,
        };
        let mut solved = 0;
        for index in 0..count {
            let made = generate_variant(&options, 17, index).unwrap();
            assert!(made.puzzle.is_solved_by(&made.solution), "{name}");
            solved += usize::from(walk_checked(&made.puzzle, &made.solution, &mut used));
        }
        println!("{name}: {solved}/{count} solved by logic");
        // The techniques finish most puzzles of every kind; a kind they
        // could not start on would mean a technique lost its generality.
        assert!(solved > 0, "{name}: none of {count} solved");
    }
    println!("{used:?}");
    for technique in [
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::Cage,
        Technique::Intersection,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::XWing,
        Technique::Aic,
    ] {
        assert!(
            used.contains_key(&technique),
            "{technique} never used: {used:?}"
        );
    }
}

/// The techniques both engines have, whose result together does not
/// depend on the order they are applied in (each only adds placements or
/// removes candidates that follow from the grid).
const SHARED: [Technique; 14] = [
    Technique::HiddenSingle,
    Technique::NakedSingle,
    Technique::Intersection,
    Technique::NakedPair,
    Technique::HiddenPair,
    Technique::NakedTriple,
    Technique::HiddenTriple,
    Technique::NakedQuad,
    Technique::HiddenQuad,
    Technique::XWing,
    Technique::Swordfish,
    Technique::Jellyfish,
    Technique::XyWing,
    Technique::XyzWing,
];

/// A grid's values and candidate masks, cell by cell.
type Marks = (Vec<u8>, Vec<u64>);

/// The pencil marks of both engines after their shared techniques.
fn both_ends(puzzle: &Puzzle, list: &[Technique]) -> (Marks, Marks) {
    let set = TechniqueSet::Only(list.to_vec());
    let (_, plain) = Solver::new(set.clone()).steps(puzzle).unwrap();
    let layout = Layout::classic(puzzle.shape());
    let logic = VariantLogic::new(&layout).with_techniques(&set);
    let (_, variant) = logic.steps(puzzle).unwrap();
    let cells = 0..puzzle.cells().len();
    let marks = |value: &dyn Fn(usize) -> u8, mask: &dyn Fn(usize) -> u64| {
        (
            cells.clone().map(value).collect::<Vec<_>>(),
            cells.clone().map(mask).collect::<Vec<_>>(),
        )
    };
    let p: &Candidates = &plain;
    (
        marks(&|c| p.value(c), &|c| p.mask(c)),
        marks(&|c| variant.value(c), &|c| variant.mask(c)),
    )
}

#[test]
fn on_plain_sudoku_the_shared_techniques_reach_the_plain_engines_grid() {
    let text = include_str!("../../../examples/famous-9x9.txt");
    let puzzles: Vec<Puzzle> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .filter(|p: &Puzzle| p.status() == sudokit::Status::Unique)
        .collect();
    assert!(puzzles.len() >= 5);
    for puzzle in &puzzles {
        for list in [&SHARED[..2], &SHARED[..3], &SHARED[..]] {
            let (plain, variant) = both_ends(puzzle, list);
            assert_eq!(plain, variant, "{puzzle} with {list:?}");
        }
    }
    let options = sudokit::generate::GenerateOptions::new(shape(2, 3));
    let mut generator = sudokit::generate::Generator::new(options);
    for index in 0..40 {
        let puzzle = generator.generate(5, index).unwrap().puzzle;
        let (plain, variant) = both_ends(&puzzle, &SHARED);
        assert_eq!(plain, variant, "{puzzle}");
    }
}

/// The puzzles of `data/variants-published.txt` with their known solutions.
fn published() -> Vec<(VariantPuzzle, Puzzle)> {
    include_str!("data/variants-published.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|raw| {
            let known = raw
                .split_whitespace()
                .find_map(|f| f.strip_prefix("solution="))
                .unwrap();
            (raw.parse().unwrap(), known.parse().unwrap())
        })
        .collect()
}

#[test]
fn published_variants_are_solved_by_logic_to_their_known_solution() {
    let mut used = BTreeMap::new();
    let all = published();
    let mut solved = 0;
    for (puzzle, known) in &all {
        if walk_checked(puzzle, known, &mut used) {
            solved += 1;
            let rating = VariantLogic::new(puzzle.layout())
                .rate(puzzle.givens())
                .unwrap();
            assert!(rating.solved && rating.er >= rating.ep && rating.ep >= rating.ed);
        }
    }
    assert!(solved + 1 >= all.len(), "{solved}/{} solved", all.len());
}

#[test]
fn a_puzzle_without_a_unique_solution_is_refused() {
    let several: VariantPuzzle = ".2.3.4..........".parse().unwrap();
    let logic = VariantLogic::new(several.layout());
    assert!(matches!(
        logic.rate(several.givens()),
        Err(sudokit::logic::LogicError::NotUnique(
            sudokit::Status::Multiple
        ))
    ));
    let clash: VariantPuzzle = "1...1........... variant=x".parse().unwrap();
    assert!(VariantLogic::new(clash.layout())
        .hint(clash.givens())
        .is_err());
}
