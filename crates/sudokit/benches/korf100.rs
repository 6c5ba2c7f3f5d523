//! Korf's 100 random 15-puzzle instances, solved optimally.
//!
//! `cargo bench -p sudokit --bench korf100 -- [7-8|6-6-3|manhattan] [--no-cache] [--first N]`
//!
//! Reads `korf100.txt` from the shared benchmark data (`$SUDOKIT_KORF100`, else
//! `../shared/data/slide/korf100.txt` beside the repository), solves every
//! instance on all cores (rayon; `RAYON_NUM_THREADS` to change), checks each
//! solution replays to the goal with the published optimal length, and prints
//! one line per instance and a summary whose total includes building or
//! loading the pattern databases. Databases are cached in
//! [`sudokit::slide::cache::default_dir`] unless `--no-cache` is given; the
//! default heuristic is the library's ([`Databases::preferred`]): 7-8 if
//! already cached, else 6-6-3. Ask for `7-8` once to build and cache it
//! (minutes).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;
use sudokit::slide::{cache, parse, Databases, Goal, Outcome, SlideSolver};

/// CPU time used so far by the calling thread (Linux; `None` elsewhere), so
/// the table stays meaningful on a machine shared with other jobs.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// One line of the data file.
struct Instance {
    id: u32,
    optimal: usize,
    tiles: String,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let cache_dir = if args.iter().any(|a| a == "--no-cache") {
        None
    } else {
        cache::default_dir()
    };
    let named = [
        Databases::SevenEight,
        Databases::SixSixThree,
        Databases::Manhattan,
    ];
    let databases = named
        .into_iter()
        .find(|d| args.iter().any(|a| a == d.name()))
        .unwrap_or_else(|| {
            Databases::preferred(cache_dir.as_deref(), &|event| eprintln!("korf100: {event}"))
        });
    let first = args
        .iter()
        .position(|a| a == "--first")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);

    let path = std::env::var_os("SUDOKIT_KORF100").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/slide/korf100.txt"),
        PathBuf::from,
    );
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "korf100: {} not found; skipping (set SUDOKIT_KORF100)",
            path.display()
        );
        return ExitCode::SUCCESS;
    };
    let instances: Vec<Instance> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(first)
        .map(|line| {
            let (head, tiles) = line
                .split_once('|')
                .expect("id optimal nodes manhattan | tiles");
            let fields: Vec<&str> = head.split_whitespace().collect();
            Instance {
                id: fields[0].parse().expect("id"),
                optimal: fields[1].parse().expect("optimal length"),
                tiles: tiles.trim().to_string(),
            }
        })
        .collect();

    let started = Instant::now();
    let solver = SlideSolver::new(databases, cache_dir.clone());
    let fifteen = solver.fifteen();
    let setup = started.elapsed();
    println!(
        "databases {} ({}), ready in {:.2} s",
        databases.name(),
        cache_dir.map_or("in memory".into(), |d| d.display().to_string()),
        setup.as_secs_f64()
    );
    for report in fifteen.reports() {
        println!(
            "  {:?}: {:?} in {:.2} s",
            report.tiles,
            report.origin,
            report.elapsed.as_secs_f64()
        );
    }

    let solving = Instant::now();
    let results: Vec<(usize, u64, f64, bool, f64)> = instances
        .par_iter()
        .map(|inst| {
            let board = parse(&inst.tiles).expect("a 15-puzzle");
            let t = Instant::now();
            let cpu = thread_cpu_seconds().unwrap_or(0.0);
            let Outcome::Solved(solution) = solver.solve(&board, Goal::BlankFirst) else {
                return (0, 0, 0.0, false, 0.0);
            };
            let seconds = t.elapsed().as_secs_f64();
            let cpu = thread_cpu_seconds().unwrap_or(0.0) - cpu;
            let replays = board
                .replay(&solution.moves)
                .is_some_and(|end| end.is_solved(Goal::BlankFirst));
            (solution.moves.len(), solution.nodes, seconds, replays, cpu)
        })
        .collect();
    let solve_wall = solving.elapsed().as_secs_f64();

    println!(
        "{:>4} {:>4} {:>5} {:>12} {:>9}",
        "id", "opt", "found", "nodes", "seconds"
    );
    let mut all_optimal = true;
    for (inst, &(length, nodes, seconds, replays, _)) in instances.iter().zip(&results) {
        let ok = replays && length == inst.optimal;
        all_optimal &= ok;
        let flag = if ok { "" } else { "  WRONG" };
        println!(
            "{:>4} {:>4} {:>5} {:>12} {:>9.3}{flag}",
            inst.id, inst.optimal, length, nodes, seconds
        );
    }
    let nodes: u64 = results.iter().map(|r| r.1).sum();
    let busy: f64 = results.iter().map(|r| r.2).sum();
    let cpu: f64 = results.iter().map(|r| r.4).sum();
    let n = instances.len() as f64;
    println!(
        "{} instances, {} threads: all optimal {}; nodes {} (mean {:.0}); \
         solve wall {:.2} s, mean {:.4} s/instance (one core); \
         solve CPU {:.2} s ({:.1} M nodes/CPU-s); databases {:.2} s; total {:.2} s",
        instances.len(),
        rayon::current_num_threads(),
        all_optimal,
        nodes,
        nodes as f64 / n,
        solve_wall,
        busy / n,
        cpu,
        nodes as f64 / cpu.max(1e-9) / 1e6,
        setup.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    if all_optimal {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
