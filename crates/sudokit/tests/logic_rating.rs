//! Sudoku Explainer ratings on part of the benchmark sample (SE's own
//! ER/EP/ED in `benches/data/se_sample.tsv`): the engine must give exactly
//! SE's numbers where it matches SE today (every puzzle SE rates below 7),
//! and the same ratings and steps whatever the thread, the number of
//! threads and the order in which puzzles are rated.

use sudokit::logic::{Difficulty, Rating, Solver, TechniqueSet};
use sudokit::Puzzle;

/// Every third puzzle of the sample that SE rates below 7.0, with SE's
/// ER, EP and ED.
fn sample() -> Vec<(Puzzle, [Difficulty; 3])> {
    let text = include_str!("../benches/data/se_sample.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let d = |s: &str| s.parse::<Difficulty>().expect("a rating");
            let puzzle = f[0].parse().expect("a puzzle");
            (puzzle, [d(f[1]), d(f[2]), d(f[3])])
        })
        .filter(|(_, se)| se[0] < Difficulty(70))
        .step_by(3)
        .collect()
}

/// The rating of `puzzle` and the text of each of its steps.
fn rate_and_walk(puzzle: &Puzzle) -> (Rating, Vec<String>) {
    let solver = Solver::new(TechniqueSet::Explainer);
    let rating = solver.rate(puzzle).expect("a unique puzzle");
    let (steps, _) = solver.steps(puzzle).expect("a unique puzzle");
    (rating, steps.iter().map(|s| s.to_string()).collect())
}

#[test]
fn ratings_below_7_are_se_s() {
    for (puzzle, se) in sample() {
        let rating = Solver::new(TechniqueSet::Explainer)
            .rate(&puzzle)
            .expect("a unique puzzle");
        assert!(rating.solved, "{puzzle}: stuck");
        assert_eq!(
            [rating.er, rating.ep, rating.ed],
            se,
            "{puzzle}: ER/EP/ED differ from SE's"
        );
    }
}

#[test]
fn ratings_and_steps_do_not_depend_on_the_thread() {
    let sample: Vec<_> = sample().into_iter().step_by(4).collect();
    let first: Vec<_> = sample.iter().map(|(p, _)| rate_and_walk(p)).collect();
    // Again on this thread, then on four threads at once, each in another
    // order: the same ratings and the same steps every time.
    let again: Vec<_> = sample.iter().map(|(p, _)| rate_and_walk(p)).collect();
    assert_eq!(first, again);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|k| {
                let sample = &sample;
                scope.spawn(move || {
                    let n = sample.len();
                    let mut out: Vec<_> = (0..n)
                        .map(|i| (i * (2 * k + 1) + k) % n)
                        .map(|i| (i, rate_and_walk(&sample[i].0)))
                        .collect();
                    out.sort_by_key(|(i, _)| *i);
                    out
                })
            })
            .collect();
        for worker in workers {
            let out = worker.join().expect("the worker finishes");
            for (i, result) in out {
                assert_eq!(result, first[i], "{}", sample[i].0);
            }
        }
    });
}

#[cfg(feature = "parallel")]
#[test]
fn ratings_do_not_depend_on_the_number_of_threads() {
    use rayon::prelude::*;
    let sample: Vec<_> = sample().into_iter().step_by(2).collect();
    let rate_all = |threads: usize| -> Vec<Rating> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        pool.install(|| {
            sample
                .par_iter()
                .map(|(p, _)| {
                    Solver::new(TechniqueSet::Explainer)
                        .rate(p)
                        .expect("unique")
                })
                .collect()
        })
    };
    let one = rate_all(1);
    assert_eq!(one, rate_all(2));
    assert_eq!(one, rate_all(5));
}
