//! Out-of-range and wrong-length input to every public entry point that takes
//! cells gives an error: never a panic, never a count or a solution.
//!
//! Each case here gave a wrong answer or a panic before the entry points
//! checked their input (a 4×4 of all `9`s had one solution in the small
//! engine, the general engine panicked on a cell value of 200, the 9×9 engine
//! asserted on 10 cells).

use sudokit::analyze::is_minimal;
use sudokit::budget::Budget;
use sudokit::canon::{canonical_form, canonicalize, Transform};
use sudokit::grid::{InputError, Puzzle, Shape};
use sudokit::parse::ParseError;
use sudokit::solver::choice::EngineChoice;
use sudokit::solver::count::count_solutions;
use sudokit::solver::fast9::Fast9Solver;
use sudokit::solver::general::GeneralSolver;
use sudokit::solver::reference::ReferenceSolver;
use sudokit::solver::small::SmallSolver;
use sudokit::solver::{solver_for, Solver};

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

/// Every engine, for every shape it handles among a few.
fn engines() -> Vec<Box<dyn Solver>> {
    let mut all: Vec<Box<dyn Solver>> = Vec::new();
    for s in [shape(2, 2), shape(2, 3), shape(3, 3), shape(4, 4)] {
        all.push(solver_for(s));
        all.push(Box::new(GeneralSolver::new(s)));
        all.push(Box::new(ReferenceSolver::new(s)));
        for choice in [
            EngineChoice::Auto,
            EngineChoice::General,
            EngineChoice::Reference,
        ] {
            all.push(choice.build(s));
        }
        if let Some(small) = SmallSolver::new(s) {
            all.push(Box::new(small));
        }
    }
    all.push(Box::new(Fast9Solver::new()));
    all.push(Box::new(Fast9Solver::scalar()));
    all
}

/// Givens that do not fit `shape`, each with the error it must give.
fn bad_givens(s: Shape) -> Vec<(Vec<u8>, InputError)> {
    let (count, side) = (s.cell_count(), s.side());
    let mut high = vec![0; count];
    high[count - 1] = side as u8 + 1;
    let mut huge = vec![0; count];
    huge[0] = 200;
    vec![
        (
            vec![0; 10],
            InputError::WrongLength {
                found: 10,
                expected: count,
            },
        ),
        (
            vec![0; count + 1],
            InputError::WrongLength {
                found: count + 1,
                expected: count,
            },
        ),
        (
            Vec::new(),
            InputError::WrongLength {
                found: 0,
                expected: count,
            },
        ),
        (
            vec![9; count],
            InputError::OutOfRange {
                value: 9,
                cell: 1,
                side,
            },
        ),
        (
            high,
            InputError::OutOfRange {
                value: side as u8 + 1,
                cell: count,
                side,
            },
        ),
        (
            huge,
            InputError::OutOfRange {
                value: 200,
                cell: 1,
                side,
            },
        ),
    ]
    .into_iter()
    // All 9s are in range on a 9×9 or larger grid.
    .filter(|(givens, _)| !(side >= 9 && givens.iter().all(|&v| v == 9)))
    .collect()
}

#[test]
fn every_engine_rejects_bad_givens() {
    for mut solver in engines() {
        let s = solver.shape();
        for (givens, want) in bad_givens(s) {
            let mut out = vec![0; s.cell_count()];
            assert_eq!(solver.solve(&givens, 2, None), Err(want.clone()), "{s}");
            assert_eq!(
                solver.solve(&givens, u64::MAX, Some(&mut out)),
                Err(want.clone())
            );
            assert_eq!(
                solver.solve_until(&givens, 1, None, &Budget::unlimited()),
                Err(want.clone())
            );
            assert_eq!(solver.status(&givens, None), Err(want.clone()));
            assert_eq!(is_minimal(solver.as_mut(), &givens), Err(want.clone()));
            assert_eq!(count_solutions(s, &givens, 10), Err(want.clone()));
            assert_eq!(Puzzle::from_cells(s, givens.clone()), Err(want));
            assert_eq!(Puzzle::new(s, givens), None);
        }
    }
}

#[test]
fn every_engine_rejects_a_solution_buffer_of_the_wrong_length() {
    for mut solver in engines() {
        let s = solver.shape();
        let givens = vec![0; s.cell_count()];
        for len in [0, 10, s.cell_count() - 1, s.cell_count() + 1] {
            let mut out = vec![0; len];
            let want = Err(InputError::SolutionLength {
                found: len,
                expected: s.cell_count(),
            });
            assert_eq!(solver.solve(&givens, 1, Some(&mut out)), want, "{s}");
            let budget = Budget::unlimited();
            assert_eq!(
                solver
                    .solve_until(&givens, 1, Some(&mut out), &budget)
                    .map(|o| o.unwrap()),
                want
            );
            assert!(solver.status(&givens, Some(&mut out)).is_err());
        }
    }
}

#[test]
fn the_three_cases_of_the_issue() {
    let mut small = SmallSolver::new(shape(2, 2)).unwrap();
    assert!(small.solve(&[9; 16], 2, None).is_err());
    let mut cells = vec![0; 81];
    cells[40] = 200;
    assert!(GeneralSolver::new(shape(3, 3))
        .solve(&cells, 2, None)
        .is_err());
    assert!(Fast9Solver::new().solve(&[0; 10], 2, None).is_err());
}

#[test]
fn puzzle_text_of_the_wrong_length_or_with_bad_characters_is_an_error() {
    let not_square = ".".repeat(80).parse::<Puzzle>().unwrap_err();
    assert_eq!(
        not_square.to_string(),
        "80 cells is not a square grid of side 1 to 64"
    );
    assert!("".parse::<Puzzle>().is_err());
    assert!("# a comment".parse::<Puzzle>().is_err());
    let mut bad = ".".repeat(81);
    bad.replace_range(13..14, "Z");
    assert_eq!(
        bad.parse::<Puzzle>().unwrap_err(),
        ParseError::BadCharacter {
            found: 'Z',
            cell: 14
        }
    );
    // 62 to 64 have no default symbols.
    assert!(matches!(
        ".".repeat(62 * 62).parse::<Puzzle>(),
        Err(ParseError::Alphabet(_))
    ));
}

#[test]
fn setting_a_cell_out_of_range_is_an_error_and_changes_nothing() {
    let mut p = Puzzle::empty(shape(2, 2));
    assert!(p.set(0, 5).is_err());
    assert!(p.set(16, 1).is_err());
    assert_eq!(p, Puzzle::empty(shape(2, 2)));
}

#[test]
fn canonical_forms_reject_values_above_nine() {
    let mut cells = [0u8; 81];
    cells[5] = 10;
    let want = Err(InputError::OutOfRange {
        value: 10,
        cell: 6,
        side: 9,
    });
    assert_eq!(canonical_form(&cells), want);
    assert_eq!(canonicalize(&cells).map(|c| c.form), want);
    assert_eq!(Transform::identity().apply(&cells), want);
    let mut broken = Transform::identity();
    broken.labels[3] = 200;
    assert_eq!(broken.apply(&[0; 81]), Err(InputError::InvalidTransform));
    let four = Puzzle::empty(shape(2, 2));
    assert!(four.canonical_form().is_err());
}

/// The hunt needs the default features (`parallel` and `serde`).
#[cfg(all(feature = "parallel", feature = "serde"))]
#[test]
fn the_hunt_rejects_bad_seeds_and_removals() {
    use std::path::Path;
    use sudokit::search::{
        neighbourhood, run, unit_neighbours, Batch, HuntError, HuntOptions, Shard,
    };
    let mut seed = [0u8; 81];
    seed[0] = 10;
    assert!(neighbourhood(&seed, 1, 1).is_err());
    let mut fast = Fast9Solver::new();
    assert!(unit_neighbours(&mut fast, &seed, &[], 1).is_err());
    let mut ok_seed = [0u8; 81];
    ok_seed[0] = 1;
    assert!(unit_neighbours(&mut fast, &ok_seed, &[81], 1).is_err());
    let dir = std::env::temp_dir().join(format!("sudokit-bad-input-{}", std::process::id()));
    let options = HuntOptions {
        remove: 1,
        add: 1,
        min_clues: 0,
        shard: Shard::default(),
        batch: Batch::Units(1),
    };
    let result = run(
        &[ok_seed, seed],
        &options,
        &dir.join("out.txt"),
        Path::new("/nonexistent/checkpoint"),
        false,
        &|_| {},
    );
    assert!(matches!(result, Err(HuntError::Seed { seed: 2, .. })));
    assert!(!dir.exists(), "nothing is written for a bad seed");
}

#[test]
fn pattern_databases_reject_bad_patterns() {
    use sudokit::slide::cache;
    use sudokit::slide::pdb::{PatternDb, PatternError};
    assert_eq!(PatternDb::build(&[]).err(), Some(PatternError::Size(0)));
    assert_eq!(
        PatternDb::build(&[1, 2, 3, 4, 5, 6, 7, 8, 9]).err(),
        Some(PatternError::Size(9))
    );
    assert_eq!(
        PatternDb::build(&[0, 1]).err(),
        Some(PatternError::NoSuchTile(0))
    );
    assert_eq!(
        PatternDb::build(&[16]).err(),
        Some(PatternError::NoSuchTile(16))
    );
    assert_eq!(
        PatternDb::build(&[3, 3]).err(),
        Some(PatternError::Repeated(3))
    );
    let dir = std::env::temp_dir();
    let path = cache::file_for(&dir, &[200, 200]);
    assert!(matches!(
        cache::load(&path, &[200, 200]),
        Err(cache::Unusable::Pattern(PatternError::NoSuchTile(200)))
    ));
    assert_eq!(sudokit::slide::pdb::table_size(17), 0);
}

#[cfg(all(feature = "parallel", feature = "serde"))]
#[test]
fn a_shard_is_always_one_of_its_slices() {
    use sudokit::search::Shard;
    assert!(Shard::new(0, 0).is_none());
    assert!(Shard::new(3, 3).is_none());
    assert_eq!(Shard::new(2, 3).map(|s| s.to_string()), Some("3/3".into()));
    for bad in ["0/3", "4/3", "1/0", "x/2", "1"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
}
