//! End-to-end throughput of `sudokit analyze` (I/O included), run as the real
//! binary, engine against engine in the same run so that ratios hold on a
//! noisy machine.
//!
//! - 6×6: 100,000 random puzzles (the batch challenge's kind of input: a mix of
//!   unique, contradictory and multiple), 1 and 2 threads, the fastest engine
//!   (`--engine auto`) beside the general engine, and beside the seed
//!   challenge's analyzer rebuilt in C (`benches/peers/seed6.c`: bitmask
//!   cells, singles, most-constrained-cell branching, OpenMP; compiled here
//!   with `cc -O2 -march=native -fopenmp` when a compiler is there), wall
//!   and CPU time each, with the I/O floor: `cat` copying the input to the
//!   answers file, reading and writing about as many bytes.
//! - 9×9: each standard set in `../shared/data/9x9`, when that folder exists,
//!   on 1 and 2 threads.
//!
//! `cargo bench -p sudokit-cli --bench analyze`

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudokit::generate::random_puzzle;
use sudokit::grid::Shape;
use sudokit::parse::Alphabet;

/// Runs per configuration; the best is reported.
const RUNS: usize = 5;

/// Writes `count` random puzzles of `shape` (clue counts from a quarter to
/// half the cells, a quarter of them with one clue corrupted).
fn write_random_file(path: &Path, shape: Shape, count: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let alphabet = Alphabet::default_for(shape.side()).unwrap();
    let cells = shape.cell_count();
    let mut out = BufWriter::new(File::create(path).unwrap());
    let mut line = Vec::new();
    for _ in 0..count {
        let puzzle = random_puzzle(
            shape,
            rng.gen_range(cells / 4..=cells / 2 + 2),
            0.25,
            &mut rng,
        );
        line.clear();
        alphabet.write_cells(puzzle.cells(), &mut line);
        line.push(b'\n');
        out.write_all(&line).unwrap();
    }
    out.flush().unwrap();
}

/// Wall time of one `sudokit analyze` run writing its answers to a file, as
/// a batch job would, and those answers.
fn analyze(file: &Path, engine: &str, threads: usize) -> (Duration, Vec<u8>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudokit"));
    command
        .args(["analyze", "--quiet", "--engine", engine, "--threads"])
        .arg(threads.to_string())
        .arg(file);
    let (times, answers) = run_timed(command, file);
    (times.wall, answers)
}

/// Wall and CPU (user + system) time of one run of a program.
#[derive(Clone, Copy, Debug)]
struct Times {
    wall: Duration,
    cpu: Duration,
}

impl Times {
    /// The faster of two measurements in each column.
    fn best(self, other: Times) -> Times {
        Times {
            wall: self.wall.min(other.wall),
            cpu: self.cpu.min(other.cpu),
        }
    }
}

/// CPU time used so far by this process's waited-for children.
fn children_cpu() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// Runs `command` with its output going to a file beside `file`, as a batch
/// job would; its times and that output.
fn run_timed(mut command: Command, file: &Path) -> (Times, Vec<u8>) {
    let answers = file.with_extension("answers");
    // Created (truncating the last run's answers, which frees their pages)
    // before the clock starts: that is the harness's work, not the
    // program's, and it took 3–4 ms.
    let out = File::create(&answers).unwrap();
    let cpu_before = children_cpu();
    let started = Instant::now();
    let status = command
        .stdout(out)
        .stderr(Stdio::inherit())
        .status()
        .expect("the program runs");
    let wall = started.elapsed();
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "{command:?} failed: {status}"
    );
    let cpu = children_cpu() - cpu_before;
    (Times { wall, cpu }, std::fs::read(&answers).unwrap())
}

/// Compiles the seed analyzer's C rebuild into `dir`; `None` (and why)
/// when no C compiler with OpenMP is there.
fn build_seed(dir: &Path) -> Result<PathBuf, String> {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/peers/seed6.c");
    let binary = dir.join("seed6");
    let output = Command::new("cc")
        .args(["-O2", "-march=native", "-fopenmp", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .map_err(|e| format!("no C compiler ({e})"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    Ok(binary)
}

/// Interleaved runs of the seed comparison: this machine is shared and
/// its speed drifts by 20% from minute to minute, so the ratio is taken over
/// many runs side by side, as the best and the median of each column.
const SEED_RUNS: usize = 21;

/// The 6×6 comparison with the seed analyzer and the I/O floor, 2 threads
/// each, [`SEED_RUNS`] interleaved runs; checks that the seed's answers are
/// sudokit's.
fn compare_with_seed(file: &Path, puzzles: usize, dir: &Path) {
    let seed = match build_seed(dir) {
        Ok(binary) => binary,
        Err(why) => {
            println!("seed analyzer not built, skipping the comparison: {why}");
            return;
        }
    };
    let mut runs: [Vec<Times>; 3] = Default::default();
    for _ in 0..SEED_RUNS {
        let mut sudokit = Command::new(env!("CARGO_BIN_EXE_sudokit"));
        sudokit
            .args(["analyze", "--quiet", "--threads", "2"])
            .arg(file);
        let mut c = Command::new(&seed);
        c.env("OMP_NUM_THREADS", "2").arg(file);
        let mut cat = Command::new("cat");
        cat.arg(file);
        let (ours, our_answers) = run_timed(sudokit, file);
        let (theirs, their_answers) = run_timed(c, file);
        assert!(
            our_answers == their_answers,
            "the seed analyzer answered differently"
        );
        let (floor, _) = run_timed(cat, file);
        for (list, times) in runs.iter_mut().zip([ours, theirs, floor]) {
            list.push(times);
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let best = |list: &[Times]| list.iter().copied().reduce(Times::best).expect("runs");
    let median = |list: &[Times]| {
        let mut wall: Vec<Duration> = list.iter().map(|t| t.wall).collect();
        let mut cpu: Vec<Duration> = list.iter().map(|t| t.cpu).collect();
        wall.sort();
        cpu.sort();
        Times {
            wall: wall[wall.len() / 2],
            cpu: cpu[cpu.len() / 2],
        }
    };
    println!(
        "{puzzles} random 6x6 puzzles on 2 threads, end to end ({SEED_RUNS} interleaved runs):"
    );
    println!(
        "{:<34} {:>9} {:>9} {:>11} {:>10}",
        "program", "wall ms", "CPU ms", "median wall", "median CPU"
    );
    for (name, list) in [
        ("sudokit analyze", &runs[0]),
        ("seed analyzer (C, OpenMP)", &runs[1]),
        ("I/O floor (cat input > answers)", &runs[2]),
    ] {
        let (b, m) = (best(list), median(list));
        println!(
            "{name:<34} {:>9.1} {:>9.1} {:>11.1} {:>10.1}",
            ms(b.wall),
            ms(b.cpu),
            ms(m.wall),
            ms(m.cpu)
        );
    }
    let ratio = |theirs: Duration, ours: Duration| theirs.as_secs_f64() / ours.as_secs_f64();
    let (ours, theirs) = (best(&runs[0]), best(&runs[1]));
    let (ours_m, theirs_m) = (median(&runs[0]), median(&runs[1]));
    println!(
        "sudokit vs the seed: best {:.2}x in wall time, {:.2}x in CPU time; median {:.2}x and {:.2}x\n",
        ratio(theirs.wall, ours.wall),
        ratio(theirs.cpu, ours.cpu),
        ratio(theirs_m.wall, ours_m.wall),
        ratio(theirs_m.cpu, ours_m.cpu)
    );
}

/// Best-of-[`RUNS`] puzzles/s for each (engine, threads), runs interleaved;
/// checks that every configuration printed the same answers.
fn compare(file: &Path, puzzles: usize, configs: &[(&str, usize)]) -> Vec<f64> {
    let mut best = vec![Duration::MAX; configs.len()];
    let mut first_output: Option<Vec<u8>> = None;
    for _ in 0..RUNS {
        for (slot, &(engine, threads)) in best.iter_mut().zip(configs) {
            let (time, output) = analyze(file, engine, threads);
            *slot = (*slot).min(time);
            match &first_output {
                None => first_output = Some(output),
                Some(want) => assert!(
                    *want == output,
                    "{engine} with {threads} threads answered differently"
                ),
            }
        }
    }
    best.iter()
        .map(|t| puzzles as f64 / t.as_secs_f64())
        .collect()
}

fn main() {
    let dir = std::env::temp_dir().join(format!("sudokit-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let six = dir.join("random-6x6.txt");
    let count = 100_000;
    write_random_file(&six, Shape::new(2, 3).unwrap(), count);
    let configs = [("auto", 1), ("auto", 2), ("general", 1), ("general", 2)];
    let rates = compare(&six, count, &configs);
    println!("sudokit analyze, 100,000 random 6x6 puzzles, end to end (best of {RUNS}):");
    println!(
        "{:<10} {:>8} {:>14} {:>12}",
        "engine", "threads", "puzzles/s", "vs general"
    );
    for (&(engine, threads), rate) in configs.iter().zip(&rates) {
        let general = rates[configs
            .iter()
            .position(|c| *c == ("general", threads))
            .unwrap()];
        println!(
            "{engine:<10} {threads:>8} {rate:>14.0} {:>11.2}x",
            rate / general
        );
    }
    println!();
    compare_with_seed(&six, count, &dir);

    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/9x9");
    let Ok(entries) = std::fs::read_dir(&data) else {
        println!(
            "9x9: {} is absent, skipping the standard sets",
            data.display()
        );
        return;
    };
    let mut sets: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    sets.sort();
    println!("sudokit analyze on the standard 9x9 sets, end to end (best of {RUNS}; engines compared in the solvers9 bench):");
    println!(
        "{:<40} {:>9} {:>14} {:>14}",
        "set", "puzzles", "1 thread /s", "2 threads /s"
    );
    for set in sets {
        let text = std::fs::read_to_string(&set).unwrap();
        let puzzles = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        let rates = compare(&set, puzzles, &[("auto", 1), ("auto", 2)]);
        let name = set.file_name().unwrap().to_string_lossy();
        println!(
            "{name:<40} {puzzles:>9} {:>14.0} {:>14.0}",
            rates[0], rates[1]
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
