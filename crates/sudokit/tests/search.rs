//! The neighbourhood hunt: the same finds as a brute force over every
//! (cell, digit) addition, a constructed known answer, shards whose union
//! is the whole hunt, a killed-then-resumed run equal to an uninterrupted
//! one, resumes refused (and nothing changed) when the checkpoint or the out
//! file is not what it was, a second run on one out file refused, and the
//! checkpoint gone when the hunt completes.
//!
//! The hunt needs the default features (`parallel` and `serde`).
#![cfg(all(feature = "parallel", feature = "serde"))]

use std::collections::{BTreeSet, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use sudokit::analyze::is_minimal;
use sudokit::canon::canonical_form;
use sudokit::generate::{GenerateOptions, Generator};
use sudokit::grid::Shape;
use sudokit::search::{
    neighbourhood, removals, run, unit_neighbours, Batch, HuntOptions, Shard, Stats,
};
use sudokit::shard::merge::{merge, Merged, ShardFiles};
use sudokit::solver::fast9::Fast9Solver;
use sudokit::solver::general::GeneralSolver;
use sudokit::solver::Solver;

fn minimal_seeds(seed: u64, n: u64) -> Vec<[u8; 81]> {
    let mut options = GenerateOptions::new(Shape::new(3, 3).unwrap());
    options.minimal = true;
    let mut g = Generator::new(options);
    (0..n)
        .map(|i| {
            g.generate(seed, i)
                .unwrap()
                .puzzle
                .cells()
                .try_into()
                .unwrap()
        })
        .collect()
}

/// Every unique minimal puzzle `seed − removed + A clues`, by trying every
/// set of `A` (cell, digit) additions in increasing cell order with the
/// general engine; a set whose first clues already leave no solution or
/// one is not extended (any further clue would be redundant).
fn brute_unit(seed: &[u8; 81], removed: &[u8], add: usize) -> BTreeSet<Vec<u8>> {
    let mut solver = GeneralSolver::new(Shape::new(3, 3).unwrap());
    let mut reduced = *seed;
    for &k in removed {
        reduced[k as usize] = 0;
    }
    let options: Vec<(usize, u8)> = (0..81)
        .filter(|&k| reduced[k] == 0)
        .flat_map(|k| (1..=9).map(move |d| (k, d)))
        .filter(|&(k, d)| !(removed.contains(&(k as u8)) && seed[k] == d))
        .collect();
    let mut out = BTreeSet::new();
    let mut stack = vec![(0usize, reduced, 0usize)];
    while let Some((from, puzzle, placed)) = stack.pop() {
        let solutions = solver.solve(&puzzle, 2, None).unwrap().solutions;
        if placed == add {
            if solutions == 1 && is_minimal(&mut solver, &puzzle).unwrap() {
                out.insert(puzzle.to_vec());
            }
            continue;
        }
        if solutions < 2 {
            continue;
        }
        for (i, &(k, d)) in options.iter().enumerate().skip(from) {
            if puzzle[k] == 0 {
                let mut next = puzzle;
                next[k] = d;
                stack.push((i + 1, next, placed + 1));
            }
        }
    }
    out
}

/// The bundled 17-clue puzzles (the fewest clues a 9×9 puzzle can have),
/// whose reduced puzzles have up to millions of solutions.
fn seventeens() -> Vec<[u8; 81]> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/famous-9x9.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let seeds: Vec<[u8; 81]> = text
        .lines()
        .filter(|l| l.contains(" 17-"))
        .map(|l| std::array::from_fn(|k| l.as_bytes()[k].saturating_sub(b'0').min(9)))
        .collect();
    assert!(seeds.len() >= 3);
    for s in &seeds {
        assert_eq!(clue_cells(s).len(), 17);
    }
    seeds
}

/// Whether `unit_neighbours` finds what `brute_unit` does on these units;
/// the number of finds.
fn agrees_with_brute_force(seed: &[u8; 81], remove: usize, add: usize, units: usize) -> usize {
    let mut solver = Fast9Solver::new();
    let mut total = 0;
    for removed in removals(&clue_cells(seed), remove).take(units) {
        let (finds, counts) = unit_neighbours(&mut solver, seed, &removed, add).unwrap();
        let ours: BTreeSet<Vec<u8>> = finds.iter().map(|f| f.to_vec()).collect();
        assert_eq!(ours.len(), finds.len(), "no find twice");
        assert_eq!(counts.minimal as usize, finds.len());
        assert_eq!(
            ours,
            brute_unit(seed, &removed, add),
            "{{-{remove}+{add}}} removing {removed:?}"
        );
        total += ours.len();
    }
    total
}

fn clue_cells(p: &[u8; 81]) -> Vec<u8> {
    (0..81u8).filter(|&k| p[k as usize] != 0).collect()
}

#[test]
fn finds_equal_brute_force() {
    let mut total = 0;
    for (seeds, (r, a), units) in [
        (minimal_seeds(1, 2), (1, 1), usize::MAX),
        (minimal_seeds(2, 1), (2, 1), 25),
        (minimal_seeds(3, 1), (1, 2), 2),
    ] {
        for s in &seeds {
            total += agrees_with_brute_force(s, r, a, units);
        }
    }
    assert!(total > 0, "the comparison saw some finds");
}

#[test]
fn low_clue_seeds_equal_brute_force() {
    let seeds = seventeens();
    let mut total = 0;
    for s in &seeds {
        total += agrees_with_brute_force(s, 1, 1, usize::MAX);
    }
    // Two clues to add to a puzzle of millions of solutions: clue by clue.
    total += agrees_with_brute_force(&seeds[0], 1, 2, 2);
    total += agrees_with_brute_force(&seeds[1], 2, 2, 1);
    assert!(total > 0, "the comparison saw some finds");
}

#[test]
fn a_constructed_neighbour_is_found() {
    // Y is a minimal {-1+1} neighbour of X, so X is one of Y.
    let x = minimal_seeds(4, 1)[0];
    let y = clue_cells(&x)
        .into_iter()
        .find_map(|k| brute_unit(&x, &[k], 1).into_iter().next())
        .expect("a minimal neighbour");
    let y: [u8; 81] = y.try_into().unwrap();
    let (finds, stats) = neighbourhood(&y, 1, 1).unwrap();
    assert!(finds.contains(&x));
    assert!(stats.new >= 1);
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn forms(lines: &[String]) -> HashSet<[u8; 81]> {
    lines
        .iter()
        .map(|l| {
            let cells: [u8; 81] =
                std::array::from_fn(|k| l.as_bytes()[k].saturating_sub(b'0').min(9));
            canonical_form(&cells).unwrap()
        })
        .collect()
}

fn options(shard: Shard) -> HuntOptions {
    HuntOptions {
        remove: 1,
        add: 1,
        min_clues: 0,
        shard,
        batch: Batch::Units(7),
    }
}

fn hunt(seeds: &[[u8; 81]], dir: &Path, name: &str, shard: Shard) -> (Vec<String>, Stats) {
    let out = dir.join(name);
    let stats = run(
        seeds,
        &options(shard),
        &out,
        &dir.join(format!("{name}.ck")),
        false,
        &|_| {},
    )
    .unwrap();
    (lines(&out), stats)
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sudokit-search-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn shards_partition_the_hunt() {
    let seeds = minimal_seeds(5, 3);
    let dir = temp_dir("shards");
    let (whole, all) = hunt(&seeds, &dir, "whole", Shard::default());
    assert!(all.new > 0);
    assert_eq!(whole.len() as u64, all.new);
    let mut union = HashSet::new();
    let mut sum = Stats::default();
    for i in 0..3 {
        let (part, s) = hunt(&seeds, &dir, &format!("part{i}"), Shard::new(i, 3).unwrap());
        union.extend(forms(&part));
        sum.units += s.units;
        sum.candidates += s.candidates;
        sum.unique += s.unique;
        sum.minimal += s.minimal;
    }
    assert_eq!(union, forms(&whole));
    assert_eq!(
        (sum.units, sum.candidates, sum.unique, sum.minimal),
        (all.units, all.candidates, all.unique, all.minimal)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn killed_and_resumed_equals_uninterrupted() {
    let seeds = minimal_seeds(6, 3);
    let dir = temp_dir("resume");
    let (whole, all) = hunt(&seeds, &dir, "whole", Shard::default());
    let out = dir.join("killed");
    let ck = dir.join("killed.ck");
    for kill_after in [1, 4] {
        let _ = std::fs::remove_file(&out);
        let _ = std::fs::remove_file(&ck);
        let killed = catch_unwind(AssertUnwindSafe(|| {
            run(&seeds, &options(Shard::default()), &out, &ck, false, &|p| {
                if p.checkpointed && p.done_here >= kill_after * 7 {
                    panic!("killed");
                }
            })
        }));
        assert!(killed.is_err());
        // A kill mid-batch leaves finds past the checkpoint, maybe a torn line.
        let mut torn = std::fs::OpenOptions::new().append(true).open(&out).unwrap();
        std::io::Write::write_all(&mut torn, &whole[0].as_bytes()[..40]).unwrap();
        drop(torn);
        let resumed = run(&seeds, &options(Shard::default()), &out, &ck, true, &|_| {}).unwrap();
        let got = lines(&out);
        assert_eq!(resumed, all);
        assert_eq!(got.len(), whole.len(), "nothing lost or repeated");
        assert_eq!(forms(&got), forms(&whole));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn batches_parse_and_print() {
    for (text, batch) in [
        ("64", Batch::Units(64)),
        ("2s", Batch::Every(Duration::from_secs(2))),
        ("0.25s", Batch::Every(Duration::from_millis(250))),
    ] {
        assert_eq!(text.parse::<Batch>(), Ok(batch));
        assert_eq!(batch.to_string(), text);
    }
    for bad in ["0", "0s", "-1s", "s", "2m", "", "1e99s", "NaNs"] {
        let error = bad.parse::<Batch>().unwrap_err();
        assert!(error.contains(&format!("'{bad}'")), "{error}");
    }
}

#[test]
fn timed_batches_hunt_the_same_as_counted_ones() {
    let seeds = minimal_seeds(9, 3);
    let dir = temp_dir("timed");
    let (counted, stats) = hunt(&seeds, &dir, "counted", Shard::default());
    for every in [Duration::from_micros(1), Duration::from_secs(60)] {
        let (out, ck) = (dir.join("timed"), dir.join("timed.ck"));
        let _ = std::fs::remove_file(&out);
        let checkpoints = Mutex::new(Vec::new());
        let options = HuntOptions {
            batch: Batch::Every(every),
            ..options(Shard::default())
        };
        let timed = run(&seeds, &options, &out, &ck, false, &|p| {
            if p.checkpointed {
                checkpoints.lock().unwrap().push(p.done);
            }
        })
        .unwrap();
        assert_eq!(timed, stats);
        let got = lines(&out);
        assert_eq!(got.len(), counted.len());
        assert!(forms(&got) == forms(&counted), "the same finds");
        let checkpoints = checkpoints.into_inner().unwrap();
        assert_eq!(checkpoints.last(), Some(&stats.units));
        assert!(checkpoints.windows(2).all(|w| w[0] < w[1]));
        assert_complete(&ck, stats.units);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn progress_is_heard_after_every_unit_and_every_checkpoint() {
    let seeds = minimal_seeds(8, 2);
    let dir = temp_dir("progress");
    let reports = Mutex::new(Vec::new());
    let all = run(
        &seeds,
        &options(Shard::default()),
        &dir.join("out"),
        &dir.join("out.ck"),
        false,
        &|p| reports.lock().unwrap().push(*p),
    )
    .unwrap();
    let (checkpoints, units): (Vec<_>, Vec<_>) = reports
        .into_inner()
        .unwrap()
        .into_iter()
        .partition(|p| p.checkpointed);
    let dones: Vec<u64> = units.iter().map(|p| p.done).collect();
    assert_eq!(
        dones,
        (1..=all.units).collect::<Vec<_>>(),
        "each unit once, in order"
    );
    assert_eq!(units.last().unwrap().stats, all);
    let batches: Vec<u64> = (1..=all.units.div_ceil(7))
        .map(|b| (b * 7).min(all.units))
        .collect();
    let dones: Vec<u64> = checkpoints.iter().map(|p| p.done).collect();
    assert_eq!(dones, batches, "one checkpoint per batch");
    assert_eq!(checkpoints.last().unwrap().stats, all);
    assert!(checkpoints.iter().all(|p| p.total == all.units));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Leaves `out` and `ck` as a kill does right after the checkpoint of the
/// `batches`-th batch.
fn interrupted(seeds: &[[u8; 81]], out: &Path, ck: &Path, batches: u64) {
    let killed = catch_unwind(AssertUnwindSafe(|| {
        run(seeds, &options(Shard::default()), out, ck, false, &|p| {
            if p.checkpointed && p.done_here >= batches * 7 {
                panic!("killed");
            }
        })
    }));
    assert!(killed.is_err(), "the hunt has more than {batches} batches");
}

/// The out file's bytes, `None` when it is missing.
fn contents(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

#[test]
fn a_damaged_checkpoint_or_out_file_is_refused_and_left_as_it_was() {
    let seeds = minimal_seeds(7, 2);
    let dir = temp_dir("refused");
    let (out, ck) = (dir.join("out"), dir.join("out.ck"));
    interrupted(&seeds, &out, &ck, 3);
    let text = std::fs::read(&out).unwrap();
    let record = std::fs::read(&ck).unwrap();
    assert!(text.len() > 82, "some finds before the kill");
    let mut cases: Vec<(String, Vec<u8>, Option<Vec<u8>>)> = (0..record.len())
        .map(|i| {
            let mut flipped = record.clone();
            flipped[i] ^= 1 << (i % 8);
            (
                format!("checkpoint byte {i} flipped"),
                flipped,
                Some(text.clone()),
            )
        })
        .collect();
    let mut altered = text.clone();
    altered[3] = if altered[3] == b'.' { b'5' } else { b'.' };
    let mut foreign = text.clone();
    foreign.extend_from_slice(b"not a find\n");
    for (name, out_text) in [
        (
            "out file one byte short",
            Some(text[..text.len() - 1].to_vec()),
        ),
        (
            "out file one find short",
            Some(text[..text.len() - 82].to_vec()),
        ),
        ("out file deleted", None),
        ("out file altered in its recorded part", Some(altered)),
        (
            "out file with other text after its recorded part",
            Some(foreign),
        ),
    ] {
        cases.push((name.to_string(), record.clone(), out_text));
    }
    for (name, ck_bytes, out_bytes) in cases {
        std::fs::write(&ck, &ck_bytes).unwrap();
        match &out_bytes {
            Some(bytes) => std::fs::write(&out, bytes).unwrap(),
            None => std::fs::remove_file(&out).unwrap(),
        }
        let resumed = run(&seeds, &options(Shard::default()), &out, &ck, true, &|_| {});
        assert!(resumed.is_err(), "{name}: refused");
        assert_eq!(contents(&out), out_bytes, "{name}: out file as it was");
        assert_eq!(
            contents(&ck),
            Some(ck_bytes),
            "{name}: checkpoint as it was"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_run_on_the_same_out_file_is_refused() {
    let seeds = minimal_seeds(7, 2);
    let dir = temp_dir("locked");
    let (whole, all) = hunt(&seeds, &dir, "whole", Shard::default());
    let (out, ck) = (dir.join("out"), dir.join("out.ck"));
    // (resume, checkpoint of the second run, refused, files unchanged)
    let seconds: Mutex<Vec<(bool, PathBuf, bool, bool)>> = Mutex::new(Vec::new());
    let first = run(&seeds, &options(Shard::default()), &out, &ck, false, &|p| {
        if !p.checkpointed || p.done_here != 7 {
            return;
        }
        for (resume, second_ck) in [
            (false, ck.clone()),
            (true, ck.clone()),
            (false, dir.join("other.ck")),
        ] {
            let before = (contents(&out), contents(&ck));
            let second = run(
                &seeds,
                &options(Shard::default()),
                &out,
                &second_ck,
                resume,
                &|_| {},
            );
            let unchanged = (contents(&out), contents(&ck)) == before;
            seconds
                .lock()
                .unwrap()
                .push((resume, second_ck, second.is_err(), unchanged));
        }
    })
    .unwrap();
    let seconds = seconds.into_inner().unwrap();
    assert_eq!(
        seconds.len(),
        3,
        "the second runs happened during the first"
    );
    for (resume, second_ck, refused, unchanged) in seconds {
        assert!(
            refused,
            "resume {resume}, checkpoint {second_ck:?}: refused"
        );
        assert!(
            unchanged,
            "resume {resume}, checkpoint {second_ck:?}: nothing changed"
        );
    }
    let got = lines(&out);
    assert_eq!(first, all);
    assert_eq!(got.len(), whole.len());
    assert_eq!(forms(&got), forms(&whole));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_completed_hunt_keeps_a_complete_checkpoint_and_resuming_it_adds_nothing() {
    let seeds = minimal_seeds(7, 2);
    let dir = temp_dir("completed");
    let (out, ck) = (dir.join("out"), dir.join("out.ck"));
    let all = run(
        &seeds,
        &options(Shard::default()),
        &out,
        &ck,
        false,
        &|_| {},
    )
    .unwrap();
    assert!(
        all.units > 7,
        "more than one batch, so a checkpoint was written"
    );
    assert_complete(&ck, all.units);
    assert!(
        !dir.join("out.ck.tmp").exists(),
        "no temporary checkpoint left"
    );
    let text = std::fs::read(&out).unwrap();
    let again = run(&seeds, &options(Shard::default()), &out, &ck, true, &|_| {}).unwrap();
    // Resumed complete: nothing runs, and the counts are the whole shard's.
    assert_eq!(again, all);
    assert_eq!(std::fs::read(&out).unwrap(), text, "nothing added");
    assert_complete(&ck, all.units);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_resume_a_killed_hunt_starts_over_and_loses_nothing() {
    let seeds = minimal_seeds(7, 2);
    let dir = temp_dir("restart");
    let (whole, all) = hunt(&seeds, &dir, "whole", Shard::default());
    let (out, ck) = (dir.join("out"), dir.join("out.ck"));
    interrupted(&seeds, &out, &ck, 2);
    let before = lines(&out);
    // A kill mid-write leaves a torn last line.
    let mut torn = std::fs::OpenOptions::new().append(true).open(&out).unwrap();
    std::io::Write::write_all(&mut torn, &whole[whole.len() - 1].as_bytes()[..40]).unwrap();
    drop(torn);
    let again = run(
        &seeds,
        &options(Shard::default()),
        &out,
        &ck,
        false,
        &|_| {},
    )
    .unwrap();
    assert_eq!(again.units, all.units);
    let got: Vec<String> = lines(&out).into_iter().filter(|l| l.len() == 81).collect();
    assert_eq!(got.len(), whole.len(), "every find once, none torn");
    assert_eq!(forms(&got), forms(&whole));
    assert_eq!(again.new as usize, whole.len() - before.len());
    assert_complete(&ck, all.units);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Panics unless `ck` is the complete checkpoint of a shard of `units`
/// units: what a finished hunt leaves for `--resume` and `sudokit merge`.
fn assert_complete(ck: &std::path::Path, units: u64) {
    let c = sudokit::search::checkpoint::Checkpoint::load(ck)
        .unwrap()
        .expect("a finished hunt leaves its checkpoint");
    assert!(c.is_complete() && c.done == units, "{c}");
}

/// The out files of a hunt over `seeds` split into `count` shards, each run
/// to completion in `dir` (checkpoints beside them, `OUT.checkpoint`).
fn sharded(seeds: &[[u8; 81]], dir: &Path, count: u64) -> Vec<ShardFiles> {
    (0..count)
        .map(|i| {
            let files = ShardFiles::new(&dir.join(format!("part{}-of-{count}", i + 1)));
            let shard = Shard::new(i, count).unwrap();
            run(
                seeds,
                &options(shard),
                &files.out,
                &files.checkpoint,
                false,
                &|_| {},
            )
            .unwrap();
            files
        })
        .collect()
}

/// The merged finds as text lines.
fn merged_lines(merged: &Merged) -> Vec<String> {
    merged
        .finds
        .iter()
        .map(|l| String::from_utf8(l.clone()).unwrap().trim_end().to_string())
        .collect()
}

#[test]
fn merged_shards_equal_the_unsharded_hunt_whatever_the_split() {
    let seeds = minimal_seeds(5, 3);
    let dir = temp_dir("merge");
    let (whole, all) = hunt(&seeds, &dir, "whole", Shard::default());
    assert!(all.new > 0);
    let mut results = Vec::new();
    for count in [1, 2, 3, 5] {
        let files = sharded(&seeds, &dir, count);
        let merged = merge(&files).unwrap();
        assert_eq!(merged.shards, count);
        assert_eq!(merged.units, all.units);
        let got = merged_lines(&merged);
        assert_eq!(got.len(), whole.len(), "one line per canonical form");
        assert_eq!(forms(&got), forms(&whole), "{count} shards: the same finds");
        assert!(got.windows(2).all(|w| w[0] < w[1]), "sorted");
        results.push(got);
    }
    // Sorted and deduplicated the same way, the merges of 2, 3 and 5
    // shards hold the same canonical forms; each line is a find of a shard.
    for got in &results[1..] {
        assert_eq!(forms(got), forms(&results[0]));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_a_missing_unfinished_foreign_changed_or_repeated_shard() {
    let seeds = minimal_seeds(5, 3);
    let dir = temp_dir("merge-refused");
    let files = sharded(&seeds, &dir, 3);
    let message = |files: &[ShardFiles]| merge(files).unwrap_err().to_string();

    // A shard missing: named.
    let err = message(&[files[0].clone(), files[2].clone()]);
    assert!(err.contains("shards 2/3 of 3 missing"), "{err}");
    // The same shard twice.
    let err = message(&[files[0].clone(), files[0].clone(), files[1].clone()]);
    assert!(err.contains("given twice"), "{err}");
    // A shard of another hunt (other seeds).
    std::fs::create_dir_all(dir.join("other")).unwrap();
    let other = sharded(&minimal_seeds(6, 2), &dir.join("other"), 3);
    let err = message(&[files[0].clone(), other[1].clone(), files[2].clone()]);
    assert!(err.contains("not of the same run"), "{err}");
    // A shard never run.
    let never = ShardFiles::new(&dir.join("never"));
    let err = message(&[files[0].clone(), never, files[2].clone()]);
    assert!(err.contains("has not run"), "{err}");

    // An unfinished shard (killed after two batches): refused, and merged
    // once resumed.
    let killed = ShardFiles::new(&dir.join("killed"));
    let shard = Shard::new(1, 3).unwrap();
    let stopped = catch_unwind(AssertUnwindSafe(|| {
        run(
            &seeds,
            &options(shard),
            &killed.out,
            &killed.checkpoint,
            false,
            &|p| {
                if p.checkpointed && p.done_here >= 7 {
                    panic!("killed");
                }
            },
        )
    }));
    assert!(stopped.is_err());
    let with_killed = [files[0].clone(), killed.clone(), files[2].clone()];
    let err = message(&with_killed);
    assert!(err.contains("shard 2/3 is not finished (7 of"), "{err}");
    run(
        &seeds,
        &options(shard),
        &killed.out,
        &killed.checkpoint,
        true,
        &|_| {},
    )
    .unwrap();
    assert_eq!(
        forms(&merged_lines(&merge(&with_killed).unwrap())),
        forms(&merged_lines(&merge(&files).unwrap()))
    );

    // An out file changed after its shard finished: a line dropped, a
    // line added.
    let text = std::fs::read(&files[1].out).unwrap();
    assert!(text.len() >= 164, "two finds at least");
    std::fs::write(&files[1].out, &text[82..]).unwrap();
    let err = message(&files);
    assert!(
        err.contains("part2-of-3") && err.contains("checkpoint"),
        "{err}"
    );
    let mut longer = text.clone();
    longer.extend_from_slice(&text[..82]);
    std::fs::write(&files[1].out, &longer).unwrap();
    let err = message(&files);
    assert!(err.contains("part2-of-3"), "{err}");
    std::fs::write(&files[1].out, &text).unwrap();
    assert!(merge(&files).is_ok(), "restored, it merges again");
    std::fs::remove_dir_all(&dir).unwrap();
}
