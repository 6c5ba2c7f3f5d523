//! Rating benchmark: sudokit's Sudoku Explainer rating beside SE's own, on a
//! sample whose ER/EP/ED were computed by SE 1.2.1 (gsf's `serate` 1.2.1.3,
//! built locally and run on this machine kind; see `data/se_sample.tsv`'s
//! header for how the sample was chosen and rated).
//!
//! For each band of SE's ER (below 4, 4–7, 7–9, 9 and up) it prints the
//! number of puzzles, the share whose ER sudokit computes identically and
//! within 0.1 and 0.2, the same for EP and ED, and puzzles per second of
//! both programs: sudokit's measured here on one thread, SE's from the
//! per-puzzle times `serate` reported (JVM start-up excluded). The machine is
//! shared and noisy: the ratio is what holds, not the absolute rates.
//!
//! A band rated in under a second is timed again, all its puzzles in a row,
//! as many times as fill about a second, and its rate is the mean of those
//! passes: single passes over a few hundred easy puzzles take milliseconds
//! and move with every hiccup of the machine.
//!
//! `cargo bench -p sudokit --bench rate [-- FILE]` reads another TSV of the
//! same columns (`puzzle ER EP ED seconds`). A puzzle still unrated after
//! `RATE_DEADLINE` seconds (default 60) counts as a mismatch and is not timed.
//! Every disagreement is written to `target/rate-mismatches.tsv` (puzzle,
//! SE's ER/EP/ED, sudokit's, the hardest step's name) for study.

use std::io::Write;
use std::time::{Duration, Instant};

use sudokit::budget::Budget;
use sudokit::logic::{Difficulty, Solver, TechniqueSet};
use sudokit::Puzzle;

/// One sample line: the puzzle, SE's ER/EP/ED, SE's seconds.
struct Rated {
    puzzle: Puzzle,
    text: String,
    se: [Difficulty; 3],
    se_seconds: f64,
}

/// Totals of one ER band.
#[derive(Default)]
struct Band {
    count: usize,
    exact: [usize; 3],
    within1: [usize; 3],
    within2: [usize; 3],
    ours: Duration,
    theirs: f64,
    unrated: usize,
    /// The puzzles rated (the ones timed again when the band is fast).
    rated: Vec<Puzzle>,
}

/// The least time a band's timing covers; faster bands are timed again.
const MIN_TIMING: Duration = Duration::from_secs(1);

/// Times `band` again when it took less than [`MIN_TIMING`]: whole passes
/// over its rated puzzles until they fill it, `band.ours` the mean pass.
fn retime(band: &mut Band, solver: &Solver, deadline: f64) {
    if band.rated.is_empty() || band.ours >= MIN_TIMING {
        return;
    }
    let passes = (MIN_TIMING.as_secs_f64() / band.ours.as_secs_f64().max(1e-6)).ceil() as u32;
    let passes = passes.clamp(1, 1000);
    let start = Instant::now();
    for _ in 0..passes {
        for puzzle in &band.rated {
            let budget = Budget::until(Instant::now() + Duration::from_secs_f64(deadline));
            let _ = std::hint::black_box(solver.rate_within(puzzle, &budget));
        }
    }
    band.ours = start.elapsed() / passes;
}

fn read_sample(path: &str) -> Vec<Rated> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let parse = |s: &str| s.parse::<Difficulty>().ok();
            Some(Rated {
                puzzle: f[0].parse().ok()?,
                text: f[0].to_string(),
                se: [parse(f[1])?, parse(f[2])?, parse(f[3])?],
                se_seconds: f.get(4).and_then(|s| s.parse().ok()).unwrap_or(f64::NAN),
            })
        })
        .collect()
}

fn band_of(er: Difficulty) -> usize {
    match er.0 {
        0..=39 => 0,
        40..=69 => 1,
        70..=89 => 2,
        _ => 3,
    }
}

fn main() {
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_else(|| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/se_sample.tsv").to_string()
        });
    let deadline = std::env::var("RATE_DEADLINE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60.0);
    let sample = read_sample(&path);
    let solver = Solver::new(TechniqueSet::Explainer);
    let mut bands: [Band; 4] = Default::default();
    let mismatch_path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../target/rate-mismatches.tsv"
    );
    let mut mismatches = std::fs::File::create(mismatch_path).expect("target/ is writable");
    for r in &sample {
        let band = &mut bands[band_of(r.se[0])];
        band.count += 1;
        band.theirs += r.se_seconds;
        let start = Instant::now();
        let budget = Budget::until(start + Duration::from_secs_f64(deadline));
        let ours = match solver.rate_within(&r.puzzle, &budget) {
            Ok(rating) if rating.solved => {
                band.ours += start.elapsed();
                band.rated.push(r.puzzle.clone());
                Some((
                    [rating.er, rating.ep, rating.ed],
                    rating.hardest.unwrap_or_default(),
                ))
            }
            Ok(rating) => {
                band.ours += start.elapsed();
                band.rated.push(r.puzzle.clone());
                Some((
                    [Difficulty(200); 3],
                    format!("stuck after {}", rating.hardest.unwrap_or_default()),
                ))
            }
            Err(_) => {
                band.unrated += 1;
                None
            }
        };
        let Some((got, hardest)) = ours else {
            writeln!(
                mismatches,
                "{}\t{}\t{}\t{}\tunrated",
                r.text, r.se[0], r.se[1], r.se[2]
            )
            .unwrap();
            continue;
        };
        for (k, (ours, theirs)) in got.iter().zip(r.se.iter()).enumerate() {
            let diff = ours.0.abs_diff(theirs.0);
            band.exact[k] += usize::from(diff == 0);
            band.within1[k] += usize::from(diff <= 1);
            band.within2[k] += usize::from(diff <= 2);
        }
        if got != r.se {
            writeln!(
                mismatches,
                "{}\t{}/{}/{}\t{}/{}/{}\t{hardest}",
                r.text, r.se[0], r.se[1], r.se[2], got[0], got[1], got[2]
            )
            .unwrap();
        }
    }
    for band in &mut bands {
        retime(band, &solver, deadline);
    }
    println!(
        "sample: {path} ({} puzzles), one thread, deadline {deadline} s",
        sample.len()
    );
    println!(
        "{:<8} {:>5}  {:>17}  {:>17}  {:>17}  {:>12} {:>12} {:>8}",
        "SE ER",
        "n",
        "ER = / ±0.1 / ±0.2",
        "EP = / ±0.1 / ±0.2",
        "ED = / ±0.1 / ±0.2",
        "sudokit/s",
        "SE/s",
        "ratio"
    );
    let names = ["< 4", "4-7", "7-9", "9+"];
    let total = total_of(&bands);
    for (name, b) in names.iter().zip(&bands).chain([(&"all", &total)]) {
        if b.count == 0 {
            continue;
        }
        let pct = |x: usize| 100.0 * x as f64 / b.count as f64;
        let rated = (b.count - b.unrated) as f64;
        let ours = rated / b.ours.as_secs_f64().max(1e-9);
        let theirs = b.count as f64 / b.theirs;
        let cols: Vec<String> = (0..3)
            .map(|k| {
                format!(
                    "{:>4.0}% {:>4.0}% {:>4.0}%",
                    pct(b.exact[k]),
                    pct(b.within1[k]),
                    pct(b.within2[k])
                )
            })
            .collect();
        println!(
            "{name:<8} {:>5}  {}  {}  {}  {:>12} {:>12} {:>7.0}x{}",
            b.count,
            cols[0],
            cols[1],
            cols[2],
            per_second(ours),
            per_second(theirs),
            ours / theirs,
            if b.unrated > 0 {
                format!("  ({} unrated)", b.unrated)
            } else {
                String::new()
            }
        );
    }
    println!("disagreements: {mismatch_path}");
}

/// A rate with about three significant digits (`11158`, `32.9`,
/// `0.0412`): the bands' rates span six orders of magnitude.
fn per_second(rate: f64) -> String {
    match rate {
        r if r >= 100.0 => format!("{r:.0}"),
        r if r >= 10.0 => format!("{r:.1}"),
        r if r >= 1.0 => format!("{r:.2}"),
        r => format!("{r:.4}"),
    }
}

/// The sum of every band.
fn total_of(bands: &[Band; 4]) -> Band {
    let mut total = Band::default();
    for b in bands {
        total.count += b.count;
        total.unrated += b.unrated;
        total.ours += b.ours;
        total.theirs += b.theirs;
        for k in 0..3 {
            total.exact[k] += b.exact[k];
            total.within1[k] += b.within1[k];
            total.within2[k] += b.within2[k];
        }
    }
    total
}
