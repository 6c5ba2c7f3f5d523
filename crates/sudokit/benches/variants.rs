//! Variant benchmark: the two variant engines, [`VariantSolver`]
//! (propagation and search) and [`DlxSolver`] (dancing links), and, with
//! the `sat` feature, CaDiCaL on a CNF encoding of its own, counting each
//! puzzle's solutions up to 2 (the status question), one thread.
//!
//! The sets are made in the run by the variant generator from a fixed seed,
//! so nothing from outside is needed: 9×9 classic (no rule, for reference),
//! X, windoku, anti-knight, anti-king, disjoint groups, jigsaw, X + jigsaw
//! (50 puzzles), killer and killer + X (cages, no givens; 10 puzzles), and a
//! 6×6 jigsaw set, 200 puzzles each unless said (the smaller sets are slow
//! to generate and to solve, which the run says). A 16×16 X set is made only
//! when `VARIANTS_16X16` gives its size: its generator takes seconds a
//! puzzle. The generator runs on every core; its time is printed apart and
//! is not part of the measurement. Jigsaw and killer puzzles each have
//! their own layout, so the engines are built afresh for each of them, and
//! that build is timed with the solve (it is part of answering such a
//! puzzle); sets that share one layout build each engine once.
//!
//! Each engine answers every puzzle of a set once, each answer recorded;
//! when that pass took less than `VARIANTS_SECONDS` (default 0.5) it runs
//! the set again until it has, and the rate is over all passes. Every
//! answer is then cross-checked, and a mismatch aborts the run: all engines
//! give each puzzle the same status, which must be "unique" (the generator
//! made it so), and every solution found keeps the layout's constraints
//! (`Constraints::is_solution`) and the givens, and is the generator's. As
//! generated puzzles are all unique, the first twenty of each set (at most
//! half of it) are also answered, untimed, as altered twins (one given
//! removed, when there are givens; a wrong digit written into a blank
//! cell), so that the engines are compared on puzzles with no solution and
//! with several too.
//!
//! CaDiCaL (the `cadical` crate, which builds its C++ source, so a C++
//! compiler is needed) gets a fresh solver per puzzle, encoding included in
//! its time; its columns give the rate on that total and on the time inside
//! its `solve` calls alone. Its encoding is written here from the layout's
//! definition (rows, columns, `Layout::region_of`, the rules' diagonals,
//! windows, disjoint groups and chess moves, the cages and their digit
//! sets), not from the library's tables. Without the feature its columns
//! say "—"; `cargo bench -p sudokit --features sat --bench variants` has
//! them, and `VARIANTS_SAT=0` leaves CaDiCaL out of such a build.
//!
//! `cargo bench -p sudokit --bench variants [-- NAME...]` runs the sets
//! whose names contain one of the given words (all without arguments). A
//! puzzle still unanswered after `VARIANTS_DEADLINE` seconds (default 1) is
//! counted as given up, by any engine, rather than hanging the run.

use std::time::{Duration, Instant};

use sudokit::budget::Budget;
use sudokit::grid::Shape;
use sudokit::solver::Solver;
use sudokit::variant::generate::{generate_variant_range, VariantOptions};
use sudokit::variant::{Constraints, DlxSolver, Layout, VariantPuzzle, VariantSolver};

/// The generator's seed for every set.
const SEED: u64 = 1;

/// Puzzles of a set unless it says why it has another number.
const PUZZLES_PER_SET: u64 = 200;

/// Puzzles of each set that are also checked through their altered twins
/// (at most half the set).
const TWINS_CHECKED_PER_SET: usize = 20;

/// One set to generate and measure.
struct SetSpec {
    /// The name in the table.
    name: &'static str,
    /// What the generator makes.
    options: VariantOptions,
    /// How many puzzles (0: the set is skipped).
    puzzles: u64,
    /// Why the set has another size than [`PUZZLES_PER_SET`] (or is
    /// skipped), printed with it.
    size_note: Option<String>,
}

impl SetSpec {
    /// A set of [`PUZZLES_PER_SET`] puzzles of box shape `shape` (`RxC`)
    /// under `rules` (comma-separated names), with random regions when
    /// `jigsaw`, made of cages alone when `killer`.
    fn new(name: &'static str, shape: &str, rules: &str, jigsaw: bool, killer: bool) -> SetSpec {
        let shape: Shape = shape.parse().expect("a box shape");
        SetSpec {
            name,
            options: VariantOptions {
                rules: rules.parse().expect("rule names"),
                jigsaw,
                killer,
                ..VariantOptions::new(shape)
            },
            puzzles: PUZZLES_PER_SET,
            size_note: None,
        }
    }

    /// The set with `puzzles` puzzles, for the reason given.
    fn sized(mut self, puzzles: u64, because: impl Into<String>) -> SetSpec {
        self.puzzles = puzzles;
        self.size_note = Some(because.into());
        self
    }
}

/// The sets, in the table's order. The 16×16 X set is made only when
/// `VARIANTS_16X16` names its size: its generator takes seconds a puzzle.
fn set_specs() -> Vec<SetSpec> {
    let large_puzzles = std::env::var("VARIANTS_16X16")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    let large_reason = if large_puzzles == 0 {
        "the generator takes several seconds a puzzle; VARIANTS_16X16=N makes N".to_string()
    } else {
        format!("VARIANTS_16X16={large_puzzles}")
    };
    vec![
        SetSpec::new("9x9 classic", "3x3", "", false, false),
        SetSpec::new("9x9 x", "3x3", "x", false, false),
        SetSpec::new("9x9 windoku", "3x3", "windoku", false, false),
        SetSpec::new("9x9 antiknight", "3x3", "antiknight", false, false),
        SetSpec::new("9x9 antiking", "3x3", "antiking", false, false),
        SetSpec::new("9x9 disjoint", "3x3", "disjoint", false, false),
        SetSpec::new("9x9 jigsaw", "3x3", "", true, false),
        SetSpec::new("9x9 x+jigsaw", "3x3", "x", true, false).sized(
            50,
            "fewer: the generator takes a quarter of a second a puzzle, dlx solves 20 a second",
        ),
        SetSpec::new("9x9 killer", "3x3", "", false, true).sized(
            10,
            "fewer: the generator takes about a second a puzzle, dlx gives up on most",
        ),
        SetSpec::new("9x9 killer+x", "3x3", "x", false, true).sized(
            10,
            "fewer: the generator takes about a second a puzzle, dlx gives up on most",
        ),
        SetSpec::new("6x6 jigsaw", "2x3", "", true, false),
        SetSpec::new("16x16 x", "4x4", "x", false, false).sized(large_puzzles, large_reason),
    ]
}

/// Settings read from the environment.
struct Settings {
    /// Timed seconds each engine spends on a set at least.
    min_seconds: f64,
    /// How long a puzzle may take before it is given up.
    deadline: Duration,
    /// Whether CaDiCaL runs (the `sat` feature, and `VARIANTS_SAT` not 0).
    with_sat: bool,
}

/// A generated set: the puzzles, their only solutions, and where the
/// layout changes.
struct PuzzleSet {
    name: &'static str,
    puzzles: Vec<VariantPuzzle>,
    /// The generator's solution of each puzzle.
    solutions: Vec<Vec<u8>>,
    /// Whether each puzzle's layout differs from the previous puzzle's (so
    /// that an engine must be built for it).
    new_layout: Vec<bool>,
}

impl PuzzleSet {
    /// Cells per puzzle.
    fn cell_count(&self) -> usize {
        self.puzzles[0].givens().cells().len()
    }
}

/// Makes `spec`'s puzzles; `None` (with a note printed) when the generator
/// made none.
fn generate_set(spec: &SetSpec) -> Option<PuzzleSet> {
    if spec.puzzles == 0 {
        let why = spec.size_note.as_deref().unwrap_or("no puzzles asked for");
        println!("skipped   {:<16} ({why})", spec.name);
        return None;
    }
    let started = Instant::now();
    let made = generate_variant_range(&spec.options, SEED, 0..spec.puzzles);
    let seconds = started.elapsed().as_secs_f64();
    let failed = made.iter().filter(|m| m.is_err()).count();
    let (puzzles, solutions): (Vec<VariantPuzzle>, Vec<Vec<u8>>) = made
        .into_iter()
        .flatten()
        .map(|g| (g.puzzle, g.solution.cells().to_vec()))
        .unzip();
    let size_note = spec
        .size_note
        .as_ref()
        .map_or(String::new(), |why| format!(" ({why})"));
    let failures = if failed > 0 {
        format!(", {failed} not made (no grid found)")
    } else {
        String::new()
    };
    println!(
        "generated {:<16} {:>4} puzzles in {:>7.2} s ({} threads){}{}",
        spec.name,
        puzzles.len(),
        seconds,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        failures,
        size_note
    );
    if puzzles.is_empty() {
        println!("  {}: no puzzle made, set skipped", spec.name);
        return None;
    }
    let new_layout = (0..puzzles.len())
        .map(|i| i == 0 || puzzles[i].layout() != puzzles[i - 1].layout())
        .collect();
    Some(PuzzleSet {
        name: spec.name,
        puzzles,
        solutions,
        new_layout,
    })
}

/// One engine's answer to one puzzle.
struct Answer {
    /// Solutions found, up to 2.
    solutions: u64,
    /// Branch points of the search (0 for CaDiCaL, which does not say).
    guesses: u64,
    /// Time inside the SAT solver's `solve` calls (zero for the others).
    solving: Duration,
}

/// What one engine made of one set.
struct Tally {
    /// Seconds over all timed passes.
    seconds: f64,
    /// Of which inside CaDiCaL's `solve` calls.
    solving: f64,
    /// Puzzles answered or given up over all passes.
    attempted: usize,
    /// Guesses over the first pass.
    guesses: u64,
    /// Puzzles given up in the first pass.
    gave_up: usize,
    /// Each puzzle's solution count (up to 2), `None` when given up.
    counts: Vec<Option<u64>>,
    /// The first solution found of each puzzle, concatenated (zeros when
    /// there was none).
    found: Vec<u8>,
}

impl Tally {
    /// Puzzles per second over all passes.
    fn rate(&self) -> f64 {
        self.attempted as f64 / self.seconds
    }

    /// Puzzles per second counting the time inside `solve` calls alone.
    fn solving_rate(&self) -> f64 {
        self.attempted as f64 / self.solving
    }

    /// Guesses per answered puzzle of the first pass, for the table ("—"
    /// when it answered none).
    fn guesses_cell(&self) -> String {
        let answered = self.counts.len() - self.gave_up;
        if answered == 0 {
            return "—".to_string();
        }
        format!("{:.1}", self.guesses as f64 / answered as f64)
    }
}

/// Times `answer` (puzzle, whether its layout is new, the solution slot)
/// on every puzzle of `set`: one recorded pass, then more until
/// `min_seconds` have passed (when the first gave up on none).
fn measure(
    set: &PuzzleSet,
    engine: &str,
    settings: &Settings,
    mut answer: impl FnMut(&VariantPuzzle, bool, &mut [u8]) -> Option<Answer>,
) -> Tally {
    let cells = set.cell_count();
    let mut tally = Tally {
        seconds: 0.0,
        solving: 0.0,
        attempted: 0,
        guesses: 0,
        gave_up: 0,
        counts: Vec::with_capacity(set.puzzles.len()),
        found: vec![0; cells * set.puzzles.len()],
    };
    let mut solving = Duration::ZERO;
    let started = Instant::now();
    let slots = tally.found.chunks_exact_mut(cells);
    for ((puzzle, &new_layout), slot) in set.puzzles.iter().zip(&set.new_layout).zip(slots) {
        match answer(puzzle, new_layout, slot) {
            Some(a) => {
                tally.guesses += a.guesses;
                solving += a.solving;
                tally.counts.push(Some(a.solutions));
            }
            None => {
                tally.gave_up += 1;
                tally.counts.push(None);
            }
        }
    }
    tally.attempted = set.puzzles.len();
    let mut scratch = vec![0; cells];
    while tally.gave_up == 0 && started.elapsed().as_secs_f64() < settings.min_seconds {
        for (i, (puzzle, &new_layout)) in set.puzzles.iter().zip(&set.new_layout).enumerate() {
            // Passes after the first answer the same puzzles again; only a
            // different count would matter (a late give-up is timing).
            if let Some(a) = answer(puzzle, new_layout, &mut scratch) {
                solving += a.solving;
                assert_eq!(
                    Some(a.solutions),
                    tally.counts[i],
                    "{} #{}: {engine} counted differently on another pass: {puzzle}",
                    set.name,
                    i + 1
                );
            }
        }
        tally.attempted += set.puzzles.len();
    }
    tally.seconds = started.elapsed().as_secs_f64();
    tally.solving = solving.as_secs_f64();
    tally
}

/// One of the library's engines as a [`measure`] closure: built by `build`
/// for each new layout, each puzzle bounded by `deadline`.
fn library_engine<S: Solver>(
    build: impl Fn(&Layout) -> S,
    deadline: Duration,
) -> impl FnMut(&VariantPuzzle, bool, &mut [u8]) -> Option<Answer> {
    let mut engine: Option<S> = None;
    move |puzzle, new_layout, slot| {
        if new_layout || engine.is_none() {
            engine = Some(build(puzzle.layout()));
        }
        let solver = engine.as_mut().expect("built above");
        let budget = Budget::until(Instant::now() + deadline);
        solver
            .solve_until(puzzle.givens().cells(), 2, Some(slot), &budget)
            .expect("the givens fit the layout")
            .map(|outcome| Answer {
                solutions: outcome.solutions,
                guesses: outcome.guesses,
                solving: Duration::ZERO,
            })
    }
}

/// CaDiCaL on every puzzle of `set`, when it runs.
#[cfg(feature = "sat")]
fn measure_sat(set: &PuzzleSet, settings: &Settings) -> Option<Tally> {
    let deadline = settings.deadline;
    settings.with_sat.then(|| {
        measure(set, "CaDiCaL", settings, |puzzle, _, slot| {
            cnf::count(puzzle, 2, deadline, slot).map(|a| Answer {
                solutions: a.solutions,
                guesses: 0,
                solving: a.solving,
            })
        })
    })
}

/// Without the `sat` feature there is no CaDiCaL to run.
#[cfg(not(feature = "sat"))]
fn measure_sat(_: &PuzzleSet, _: &Settings) -> Option<Tally> {
    None
}

/// Panics with `what` about puzzle `index` of `set` unless `grid` solves
/// `puzzle`: it keeps the givens and `Constraints::is_solution` holds.
fn check_solution(
    set_name: &str,
    index: usize,
    engine: &str,
    puzzle: &VariantPuzzle,
    constraints: &Constraints,
    grid: &[u8],
) {
    let keeps_givens = puzzle
        .givens()
        .cells()
        .iter()
        .zip(grid)
        .all(|(&given, &digit)| given == 0 || given == digit);
    assert!(
        keeps_givens && constraints.is_solution(grid),
        "{set_name} #{}: {engine} returned a grid that does not solve the puzzle\npuzzle:   {puzzle}\nsolution: {grid:?}",
        index + 1
    );
}

/// Checks every answer of `tallies` on `set`: the engines agree on every
/// status, which is unique, and every first solution solves its puzzle and
/// is the generator's.
fn cross_check(set: &PuzzleSet, tallies: &[(&str, &Tally)]) {
    let cells = set.cell_count();
    let mut constraints: Option<Constraints> = None;
    for (i, puzzle) in set.puzzles.iter().enumerate() {
        if set.new_layout[i] || constraints.is_none() {
            constraints = Some(Constraints::new(puzzle.layout()));
        }
        let constraints = constraints.as_ref().expect("built above");
        check_solution(
            set.name,
            i,
            "the generator",
            puzzle,
            constraints,
            &set.solutions[i],
        );
        for &(engine, tally) in tallies {
            let Some(count) = tally.counts[i] else {
                continue;
            };
            assert_eq!(
                count,
                1,
                "{} #{}: {engine} counts {count} solution(s) of a generated (unique) puzzle: {puzzle}",
                set.name,
                i + 1
            );
            let grid = &tally.found[i * cells..(i + 1) * cells];
            check_solution(set.name, i, engine, puzzle, constraints, grid);
            assert_eq!(
                grid,
                &set.solutions[i][..],
                "{} #{}: {engine}'s solution is not the generator's: {puzzle}",
                set.name,
                i + 1
            );
        }
    }
}

/// `puzzle` with its first given removed (when it has givens), and with a
/// digit other than `solution`'s written into its first blank cell.
fn altered_twins(puzzle: &VariantPuzzle, solution: &[u8]) -> Vec<VariantPuzzle> {
    let side = puzzle.layout().side() as u8;
    let cells = puzzle.givens().cells();
    let mut twins = Vec::new();
    if let Some(given) = cells.iter().position(|&v| v != 0) {
        let mut fewer = puzzle.givens().clone();
        fewer.set(given, 0).expect("a cell of the grid");
        twins.push(fewer);
    }
    if let Some(blank) = cells.iter().position(|&v| v == 0) {
        let mut wrong = puzzle.givens().clone();
        wrong
            .set(blank, solution[blank] % side + 1)
            .expect("a digit of the grid");
        twins.push(wrong);
    }
    twins
        .into_iter()
        .map(|givens| VariantPuzzle::new(puzzle.layout().clone(), givens).expect("same shape"))
        .collect()
}

/// CaDiCaL's count and first solution of `puzzle`; `None` when it gave up
/// or does not run.
#[cfg(feature = "sat")]
fn sat_twin_answer(puzzle: &VariantPuzzle, settings: &Settings) -> Option<(u64, Vec<u8>)> {
    if !settings.with_sat {
        return None;
    }
    let mut grid = vec![0; puzzle.givens().cells().len()];
    cnf::count(puzzle, 2, settings.deadline, &mut grid).map(|a| (a.solutions, grid))
}

/// Without the `sat` feature there is no CaDiCaL to ask.
#[cfg(not(feature = "sat"))]
fn sat_twin_answer(_: &VariantPuzzle, _: &Settings) -> Option<(u64, Vec<u8>)> {
    None
}

/// The count (up to 2) and first solution of `puzzle` by a library engine
/// built for it; `None` when it gave up.
fn library_twin_answer<S: Solver>(
    mut engine: S,
    puzzle: &VariantPuzzle,
    deadline: Duration,
) -> Option<(u64, Vec<u8>)> {
    let mut grid = vec![0; puzzle.givens().cells().len()];
    let budget = Budget::until(Instant::now() + deadline);
    engine
        .solve_until(puzzle.givens().cells(), 2, Some(&mut grid), &budget)
        .expect("the givens fit the layout")
        .map(|outcome| (outcome.solutions, grid))
}

/// Answers the altered twins of the first puzzles of `set` with every
/// engine (untimed) and checks that they agree and that their solutions
/// hold; returns the twins' statuses (none, unique, multiple) and the
/// answers given up.
fn check_twins(set: &PuzzleSet, settings: &Settings) -> ([usize; 3], usize) {
    let mut statuses = [0; 3];
    let mut gave_up = 0;
    let firsts = set
        .puzzles
        .iter()
        .zip(&set.solutions)
        .take(TWINS_CHECKED_PER_SET.min(set.puzzles.len() / 2));
    for (i, (original, solution)) in firsts.enumerate() {
        for twin in altered_twins(original, solution) {
            let constraints = Constraints::new(twin.layout());
            let answers = [
                (
                    "VariantSolver",
                    library_twin_answer(
                        VariantSolver::new(twin.layout()),
                        &twin,
                        settings.deadline,
                    ),
                ),
                (
                    "DlxSolver",
                    library_twin_answer(DlxSolver::new(twin.layout()), &twin, settings.deadline),
                ),
                ("CaDiCaL", sat_twin_answer(&twin, settings)),
            ];
            let ran = if settings.with_sat { 3 } else { 2 };
            gave_up += answers[..ran].iter().filter(|(_, a)| a.is_none()).count();
            let mut agreed: Option<(&str, u64)> = None;
            for (engine, answer) in &answers {
                let Some((count, grid)) = answer else {
                    continue;
                };
                if *count > 0 {
                    let name = format!("twin of {}", set.name);
                    check_solution(&name, i, engine, &twin, &constraints, grid);
                }
                match agreed {
                    None => agreed = Some((engine, *count)),
                    Some((first, first_count)) => assert_eq!(
                        first_count,
                        *count,
                        "twin of {} #{}: {first} counts {first_count}, {engine} counts {count}: {twin}",
                        set.name,
                        i + 1
                    ),
                }
            }
            if let Some((_, count)) = agreed {
                statuses[count.min(2) as usize] += 1;
            }
        }
    }
    (statuses, gave_up)
}

/// A rate for the table, with the puzzles given up when there were any.
fn rate_cell(tally: &Tally) -> String {
    let rate = tally.rate();
    let shown = if rate >= 100.0 {
        format!("{rate:.0}")
    } else {
        format!("{rate:.1}")
    };
    if tally.gave_up > 0 {
        format!("{shown} ({} gave up)", tally.gave_up)
    } else {
        shown
    }
}

/// A CaDiCaL rate on solving time alone, for the table.
fn solving_rate_cell(tally: &Tally) -> String {
    let rate = tally.solving_rate();
    if rate >= 100.0 {
        format!("{rate:.0}")
    } else {
        format!("{rate:.1}")
    }
}

fn main() {
    let words: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |name: &str| words.is_empty() || words.iter().any(|w| name.contains(w.as_str()));
    let env_seconds = |name: &str, default: f64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(default)
    };
    let settings = Settings {
        min_seconds: env_seconds("VARIANTS_SECONDS", 0.5),
        deadline: Duration::from_secs_f64(env_seconds("VARIANTS_DEADLINE", 1.0)),
        with_sat: cfg!(feature = "sat") && std::env::var("VARIANTS_SAT").map_or(true, |v| v != "0"),
    };
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for spec in set_specs().iter().filter(|s| wanted(s.name)) {
        let Some(set) = generate_set(spec) else {
            continue;
        };
        let variant = measure(
            &set,
            "VariantSolver",
            &settings,
            library_engine(VariantSolver::new, settings.deadline),
        );
        let dlx = measure(
            &set,
            "DlxSolver",
            &settings,
            library_engine(DlxSolver::new, settings.deadline),
        );
        let sat = measure_sat(&set, &settings);
        let mut tallies = vec![("VariantSolver", &variant), ("DlxSolver", &dlx)];
        if let Some(sat) = &sat {
            tallies.push(("CaDiCaL", sat));
        }
        cross_check(&set, &tallies);
        let (twin_statuses, twins_given_up) = check_twins(&set, &settings);
        println!(
            "  {:<16} every answer checked; twins none/unique/multiple {}/{}/{}, all engines agree{}",
            set.name,
            twin_statuses[0],
            twin_statuses[1],
            twin_statuses[2],
            if twins_given_up > 0 {
                format!(" ({twins_given_up} twin answers given up)")
            } else {
                String::new()
            }
        );
        for (engine, tally) in &tallies {
            if tally.gave_up > 0 {
                notes.push(format!(
                    "{}: {engine} gave up on {} of {} puzzles after {:?} each",
                    set.name,
                    tally.gave_up,
                    set.puzzles.len(),
                    settings.deadline
                ));
            }
        }
        let (sat_total, sat_solving) = match &sat {
            Some(s) => (rate_cell(s), solving_rate_cell(s)),
            None => ("—".to_string(), "—".to_string()),
        };
        rows.push(format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            set.name,
            set.puzzles.len(),
            rate_cell(&variant),
            rate_cell(&dlx),
            sat_total,
            sat_solving,
            variant.guesses_cell(),
            dlx.guesses_cell()
        ));
    }
    println!();
    println!(
        "Puzzles per second, one thread, solutions counted up to 2, each engine at least {} s per set \
         (several passes when one is shorter); engine builds for new layouts included.",
        settings.min_seconds
    );
    println!();
    println!("| set | puzzles | variant /s | dlx /s | CaDiCaL /s (total) | CaDiCaL /s (solving) | variant guesses/puzzle | dlx guesses/puzzle |");
    println!("|---|--:|--:|--:|--:|--:|--:|--:|");
    for row in &rows {
        println!("{row}");
    }
    println!();
    for note in &notes {
        println!("{note}");
    }
    if !cfg!(feature = "sat") {
        println!(
            "CaDiCaL columns: built without the `sat` feature; \
             `cargo bench -p sudokit --features sat --bench variants` has them (needs a C++ compiler)."
        );
    } else if !settings.with_sat {
        println!("CaDiCaL columns: left out by VARIANTS_SAT=0.");
    }
}

/// CaDiCaL on a variant puzzle: a CNF encoding made here from the layout's
/// definition, independent of the library's `Constraints` tables.
#[cfg(feature = "sat")]
mod cnf {
    use std::time::{Duration, Instant};

    use cadical::{Solver, Timeout};
    use sudokit::variant::{Layout, Rule, VariantPuzzle};

    /// What CaDiCaL said about a puzzle.
    pub struct SatAnswer {
        /// Solutions found, up to the limit asked for.
        pub solutions: u64,
        /// Time inside the solver's `solve` calls (the rest of the call
        /// builds the encoding).
        pub solving: Duration,
    }

    /// The groups of cells whose digits must all differ: rows, columns,
    /// regions, the diagonals (X), the windows (windoku), the disjoint
    /// groups, the extra groups and the cages.
    pub fn distinct_groups(layout: &Layout) -> Vec<Vec<usize>> {
        let n = layout.side();
        let (box_rows, box_cols) = (layout.shape().box_rows(), layout.shape().box_cols());
        let rules = layout.rules();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for r in 0..n {
            groups.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            groups.push((0..n).map(|r| r * n + c).collect());
        }
        let mut regions = vec![Vec::new(); n];
        for cell in 0..n * n {
            regions[layout.region_of(cell)].push(cell);
        }
        groups.extend(regions);
        if rules.contains(Rule::Diagonals) {
            groups.push((0..n).map(|i| i * n + i).collect());
            groups.push((0..n).map(|i| i * n + (n - 1 - i)).collect());
        }
        if rules.contains(Rule::Windoku) {
            // Boxes one cell in from the box grid, a row and a column apart.
            let mut top = 1;
            while top + box_rows <= n {
                let mut left = 1;
                while left + box_cols <= n {
                    let window = (top..top + box_rows)
                        .flat_map(|r| (left..left + box_cols).map(move |c| r * n + c))
                        .collect();
                    groups.push(window);
                    left += box_cols + 1;
                }
                top += box_rows + 1;
            }
        }
        if rules.contains(Rule::Disjoint) {
            // The cells at the same place within their boxes.
            for place_row in 0..box_rows {
                for place_col in 0..box_cols {
                    let group = (0..n * n)
                        .filter(|&cell| {
                            cell / n % box_rows == place_row && cell % n % box_cols == place_col
                        })
                        .collect();
                    groups.push(group);
                }
            }
        }
        for group in layout.groups() {
            groups.push(group.iter().map(|&c| usize::from(c)).collect());
        }
        for cage in layout.cages() {
            groups.push(cage.cells.iter().map(|&c| usize::from(c)).collect());
        }
        groups
    }

    /// The pairs of cells a knight's move (anti-knight) or a king's move
    /// (anti-king) apart, each pair once per rule.
    pub fn move_pairs(layout: &Layout) -> Vec<(usize, usize)> {
        let n = layout.side() as isize;
        let mut moves: Vec<(isize, isize)> = Vec::new();
        if layout.rules().contains(Rule::AntiKnight) {
            moves.extend([(1, 2), (2, 1), (1, -2), (2, -1)]);
        }
        if layout.rules().contains(Rule::AntiKing) {
            moves.extend([(0, 1), (1, -1), (1, 0), (1, 1)]);
        }
        let mut pairs = Vec::new();
        for r in 0..n {
            for c in 0..n {
                for &(dr, dc) in &moves {
                    let (r2, c2) = (r + dr, c + dc);
                    if (0..n).contains(&r2) && (0..n).contains(&c2) {
                        pairs.push(((r * n + c) as usize, (r2 * n + c2) as usize));
                    }
                }
            }
        }
        pairs
    }

    /// The sets of `size` distinct digits `1..=side` adding up to `sum`,
    /// each in increasing order.
    pub fn digit_sets(side: usize, size: usize, sum: usize) -> Vec<Vec<usize>> {
        /// Extends `chosen` with digits from `next` on.
        fn extend(
            next: usize,
            side: usize,
            left: usize,
            sum_left: usize,
            chosen: &mut Vec<usize>,
            out: &mut Vec<Vec<usize>>,
        ) {
            if left == 0 {
                if sum_left == 0 {
                    out.push(chosen.clone());
                }
                return;
            }
            for digit in next..=side.min(sum_left) {
                chosen.push(digit);
                extend(digit + 1, side, left - 1, sum_left - digit, chosen, out);
                chosen.pop();
            }
        }
        let mut out = Vec::new();
        extend(1, side, size, sum, &mut Vec::new(), &mut out);
        out
    }

    /// Counts the solutions of `puzzle` up to `limit` with a fresh CaDiCaL,
    /// writing the first into `first`; `None` when the solver has not
    /// decided within `timeout` (per solve call).
    ///
    /// Variable `N·cell + d` (digits `d` from 1) says "digit `d` in `cell`";
    /// each cell holds exactly one digit; two cells that must differ (in a
    /// group of [`distinct_groups`], or a pair of [`move_pairs`]) never hold
    /// the same digit; each group of `N` cells holds every digit; each given
    /// is a unit clause. A cage with a sum has one selector variable per
    /// digit set making the sum ([`digit_sets`]): exactly one is true, and
    /// a true one puts each of its digits in some cell of the cage and
    /// keeps every other digit out of the cage.
    pub fn count(
        puzzle: &VariantPuzzle,
        limit: u64,
        timeout: Duration,
        first: &mut [u8],
    ) -> Option<SatAnswer> {
        let layout = puzzle.layout();
        let n = layout.side();
        let cells = n * n;
        let var = |cell: usize, digit: usize| (n * cell + digit) as i32;
        let mut sat: Solver<Timeout> = Solver::new();
        sat.set_callbacks(Some(Timeout::new(timeout.as_secs_f32())));
        for cell in 0..cells {
            sat.add_clause((1..=n).map(|d| var(cell, d)));
            for d in 1..=n {
                for e in d + 1..=n {
                    sat.add_clause([-var(cell, d), -var(cell, e)]);
                }
            }
        }
        let groups = distinct_groups(layout);
        let mut must_differ = vec![false; cells * cells];
        let mut mark = |a: usize, b: usize| must_differ[a.min(b) * cells + a.max(b)] = true;
        for group in &groups {
            for (i, &a) in group.iter().enumerate() {
                for &b in &group[i + 1..] {
                    mark(a, b);
                }
            }
        }
        for (a, b) in move_pairs(layout) {
            mark(a, b);
        }
        for a in 0..cells {
            for b in a + 1..cells {
                if must_differ[a * cells + b] {
                    for d in 1..=n {
                        sat.add_clause([-var(a, d), -var(b, d)]);
                    }
                }
            }
        }
        for group in groups.iter().filter(|g| g.len() == n) {
            for d in 1..=n {
                sat.add_clause(group.iter().map(|&cell| var(cell, d)));
            }
        }
        let mut next_var = (n * cells) as i32;
        for cage in layout.cages() {
            let Some(sum) = cage.sum else { continue };
            let members: Vec<usize> = cage.cells.iter().map(|&c| usize::from(c)).collect();
            let sets = digit_sets(n, members.len(), sum as usize);
            let selectors: Vec<i32> = sets
                .iter()
                .map(|_| {
                    next_var += 1;
                    next_var
                })
                .collect();
            // No set makes the sum: the empty clause.
            sat.add_clause(selectors.iter().copied());
            for (i, &s) in selectors.iter().enumerate() {
                for &t in &selectors[i + 1..] {
                    sat.add_clause([-s, -t]);
                }
            }
            for (set, &selector) in sets.iter().zip(&selectors) {
                for d in 1..=n {
                    if set.contains(&d) {
                        sat.add_clause(
                            std::iter::once(-selector).chain(members.iter().map(|&c| var(c, d))),
                        );
                    } else {
                        for &c in &members {
                            sat.add_clause([-selector, -var(c, d)]);
                        }
                    }
                }
            }
        }
        for (cell, &given) in puzzle.givens().cells().iter().enumerate() {
            if given != 0 {
                sat.add_clause([var(cell, usize::from(given))]);
            }
        }
        let mut answer = SatAnswer {
            solutions: 0,
            solving: Duration::ZERO,
        };
        let mut grid = vec![0u8; cells];
        while answer.solutions < limit {
            let started = Instant::now();
            let result = sat.solve();
            answer.solving += started.elapsed();
            if !result? {
                break;
            }
            for (cell, slot) in grid.iter_mut().enumerate() {
                *slot = (1..=n)
                    .find(|&d| sat.value(var(cell, d)) == Some(true))
                    .map_or(0, |d| d as u8);
            }
            // Another solution differs in some cell (the selectors follow
            // from the cells).
            sat.add_clause(
                grid.iter()
                    .enumerate()
                    .map(|(cell, &d)| -var(cell, usize::from(d))),
            );
            if answer.solutions == 0 {
                first.copy_from_slice(&grid);
            }
            answer.solutions += 1;
        }
        Some(answer)
    }
}
