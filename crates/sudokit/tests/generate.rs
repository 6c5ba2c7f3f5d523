//! Generated puzzles: unique (checked by an independent engine), minimal when
//! asked (every clue re-checked), of the asked clue count and symmetry, and
//! the same for the same seed whatever the threading.

use sudokit::generate::{generate_range, GenerateOptions, Generator, Symmetry, ALL_SYMMETRIES};
use sudokit::grid::Shape;
use sudokit::solver::general::GeneralSolver;
use sudokit::solver::reference::ReferenceSolver;
use sudokit::solver::Solver;

/// Solution count up to 2 by an engine the generator does not use.
fn independent_count(shape: Shape, cells: &[u8]) -> u64 {
    if shape.cell_count() <= 36 {
        ReferenceSolver::new(shape)
            .solve(cells, 2, None)
            .unwrap()
            .solutions
    } else {
        GeneralSolver::new(shape)
            .solve(cells, 2, None)
            .unwrap()
            .solutions
    }
}

fn independently_minimal(shape: Shape, cells: &[u8]) -> bool {
    let mut probe = cells.to_vec();
    (0..cells.len()).filter(|&i| cells[i] != 0).all(|i| {
        probe[i] = 0;
        let several = independent_count(shape, &probe) == 2;
        probe[i] = cells[i];
        several
    })
}

#[test]
fn minimal_puzzles_are_unique_and_minimal_on_every_shape() {
    for (r, c, count) in [(3, 3, 40), (2, 3, 30), (2, 2, 20), (3, 4, 4)] {
        let shape = Shape::new(r, c).unwrap();
        let mut options = GenerateOptions::new(shape);
        options.minimal = true;
        for g in generate_range(options, 11, 0..count) {
            let g = g.unwrap();
            assert!(g.minimal);
            assert_eq!(independent_count(shape, g.puzzle.cells()), 1, "{shape}");
            assert!(g.puzzle.is_solved_by(&g.solution));
            assert!(independently_minimal(shape, g.puzzle.cells()), "{shape}");
        }
    }
}

#[test]
fn every_symmetry_holds_and_stays_unique() {
    let shape = Shape::new(3, 3).unwrap();
    for symmetry in ALL_SYMMETRIES {
        let mut options = GenerateOptions::new(shape);
        options.symmetry = symmetry;
        for g in generate_range(options, 5, 0..10) {
            let g = g.unwrap();
            assert!(symmetry.holds(9, g.puzzle.cells()), "{symmetry}");
            assert_eq!(independent_count(shape, g.puzzle.cells()), 1);
        }
        options.minimal = true;
        options.attempts = 10_000;
        let g = Generator::new(options).generate(5, 0).unwrap();
        assert!(symmetry.holds(9, g.puzzle.cells()));
        assert!(independently_minimal(shape, g.puzzle.cells()), "{symmetry}");
    }
}

#[test]
fn clue_targets_are_met_or_reported() {
    let shape = Shape::new(3, 3).unwrap();
    let mut options = GenerateOptions::new(shape);
    options.clues = Some(30);
    options.symmetry = Symmetry::Rot180;
    for g in generate_range(options, 3, 0..10) {
        let g = g.unwrap();
        assert_eq!(g.clues, 30);
        assert_eq!(independent_count(shape, g.puzzle.cells()), 1);
    }
    options.minimal = true;
    options.symmetry = Symmetry::None;
    options.clues = Some(24);
    let g = Generator::new(options).generate(3, 0).unwrap();
    assert_eq!(g.clues, 24);
    assert!(independently_minimal(shape, g.puzzle.cells()));
    options.clues = Some(19);
    options.attempts = 20;
    let err = Generator::new(options).generate(3, 0).unwrap_err();
    assert!(
        err.to_string().contains("no minimal puzzle with 19 clues"),
        "{err}"
    );
    options.clues = Some(82);
    assert!(Generator::new(options).generate(3, 0).is_err());
}

#[test]
fn impossible_clue_targets_are_refused_up_front() {
    let refusal = |rows, cols, clues, symmetry| {
        let mut options = GenerateOptions::new(Shape::new(rows, cols).unwrap());
        options.clues = Some(clues);
        options.symmetry = symmetry;
        let err = options.check().unwrap_err();
        assert_eq!(
            Generator::new(options).generate(1, 0).unwrap_err(),
            err,
            "the generator refuses the same way"
        );
        err.to_string()
    };
    assert_eq!(
        refusal(2, 2, 20, Symmetry::None),
        "20 clues asked for, a 4x4 grid has 16 cells"
    );
    assert!(refusal(3, 3, 16, Symmetry::None).contains("at least 17"));
    // Two symbols absent from the clues could be swapped.
    assert!(refusal(2, 3, 4, Symmetry::None).contains("at least 5"));
    // Quarter-turn orbits have 4 cells, the centre 1: 22 is neither 4k nor 4k+1.
    let rot90 = refusal(3, 3, 22, Symmetry::Rot90);
    assert!(
        rot90.contains("rot90") && rot90.contains("1 or 4"),
        "{rot90}"
    );
    let mut fine = GenerateOptions::new(Shape::new(3, 3).unwrap());
    fine.symmetry = Symmetry::Rot90;
    for clues in [17, 21, 24, 81] {
        fine.clues = Some(clues);
        assert_eq!(fine.check(), Ok(()), "{clues}");
    }
}

#[test]
fn seeds_reproduce_whatever_the_threading() {
    let mut options = GenerateOptions::new(Shape::new(3, 3).unwrap());
    options.minimal = true;
    let parallel = generate_range(options, 42, 0..32);
    let mut one = Generator::new(options);
    let serial: Vec<_> = (0..32).map(|i| one.generate(42, i)).collect();
    assert_eq!(parallel, serial);
    let again = generate_range(options, 42, 16..32);
    assert_eq!(&parallel[16..], &again[..]);
    let other = generate_range(options, 43, 0..32);
    assert_ne!(parallel, other);
}
