//! The real `sudokit search` binary on resumes it must refuse (exit 2,
//! nothing changed), a second run on a locked out file, a checkpoint
//! discarded without `--resume` (a warning, then nothing lost), and the
//! tasks of a Slurm array job (`--shard slurm`) joined by `sudokit merge`.

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sudokit::canon::canonical_form;
use sudokit::generate::{GenerateOptions, Generator};
use sudokit::grid::Shape;
use sudokit::search::{run, Batch, HuntOptions, Shard};

/// Two minimal seeds, small enough for a {-1+1} hunt to take a moment.
fn seeds() -> Vec<[u8; 81]> {
    let mut options = GenerateOptions::new(Shape::new(3, 3).unwrap());
    options.minimal = true;
    let mut g = Generator::new(options);
    (0..2)
        .map(|i| g.generate(7, i).unwrap().puzzle.cells().try_into().unwrap())
        .collect()
}

/// A seed as a command-line argument.
fn text(puzzle: &[u8; 81]) -> String {
    puzzle
        .iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect()
}

/// The {-1+1} options the binary uses by default (batch aside).
fn options() -> HuntOptions {
    HuntOptions {
        remove: 1,
        add: 1,
        min_clues: 0,
        shard: Shard::default(),
        batch: Batch::Units(7),
    }
}

/// `sudokit search --out OUT [--resume] SEEDS…`.
fn search(seeds: &[[u8; 81]], out: &Path, resume: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudokit"));
    command.args(["search", "--quiet", "--out"]).arg(out);
    if resume {
        command.arg("--resume");
    }
    command.args(seeds.iter().map(text));
    command.output().expect("the binary runs")
}

/// The binary's default checkpoint for `out`.
fn checkpoint_of(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".checkpoint");
    PathBuf::from(name)
}

/// Leaves `out` and its checkpoint as a kill right after the second batch.
fn interrupted(seeds: &[[u8; 81]], out: &Path) {
    let killed = catch_unwind(AssertUnwindSafe(|| {
        run(seeds, &options(), out, &checkpoint_of(out), false, &|p| {
            if p.checkpointed && p.done_here >= 14 {
                panic!("killed");
            }
        })
    }));
    assert!(killed.is_err(), "the hunt has more than two batches");
}

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("sudokit-cli-search-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn forms(path: &Path) -> HashSet<[u8; 81]> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let cells: [u8; 81] =
                std::array::from_fn(|k| l.as_bytes()[k].saturating_sub(b'0').min(9));
            canonical_form(&cells).unwrap()
        })
        .collect()
}

#[test]
fn resumes_that_do_not_add_up_exit_2_and_change_nothing() {
    let seeds = seeds();
    let dir = temp_dir("refused");
    let out = dir.join("finds.txt");
    let ck = checkpoint_of(&out);
    interrupted(&seeds, &out);
    let (found, record) = (std::fs::read(&out).unwrap(), std::fs::read(&ck).unwrap());
    assert!(found.len() > 82, "some finds before the kill");
    let mut flipped = record.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 1;
    let shortened = found[..found.len() - 82].to_vec();
    for (case, ck_bytes, out_bytes, names) in [
        (
            "a flipped bit in the checkpoint",
            &flipped,
            Some(&found),
            &ck,
        ),
        ("a shortened out file", &record, Some(&shortened), &out),
        ("a deleted out file", &record, None, &out),
    ] {
        std::fs::write(&ck, ck_bytes).unwrap();
        match out_bytes {
            Some(bytes) => std::fs::write(&out, bytes).unwrap(),
            None => std::fs::remove_file(&out).unwrap(),
        }
        let result = search(&seeds, &out, true);
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{case}: {stderr}");
        assert!(
            stderr.contains("cannot resume") && stderr.contains(&names.display().to_string()),
            "{case}: the message names the file: {stderr}"
        );
        assert_eq!(
            std::fs::read(&out).ok().as_ref(),
            out_bytes,
            "{case}: out file as it was"
        );
        assert_eq!(
            &std::fs::read(&ck).unwrap(),
            ck_bytes,
            "{case}: checkpoint as it was"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_out_file_locked_by_another_run_is_refused_with_exit_2() {
    let seeds = seeds();
    let dir = temp_dir("locked");
    let out = dir.join("finds.txt");
    std::fs::write(&out, "").unwrap();
    // The lock another `sudokit search` on this out file would hold.
    let holder = std::fs::File::open(&out).unwrap();
    holder.lock().unwrap();
    for resume in [false, true] {
        let result = search(&seeds, &out, resume);
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "resume {resume}: {stderr}");
        assert!(stderr.contains("in use by another hunt"), "{stderr}");
        assert_eq!(std::fs::read(&out).unwrap(), b"", "out file untouched");
        assert!(!checkpoint_of(&out).exists(), "no checkpoint written");
    }
    drop(holder);
    let result = search(&seeds, &out, false);
    assert_eq!(result.status.code(), Some(0));
    assert!(!forms(&out).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_resume_a_checkpoint_is_discarded_with_a_warning() {
    let seeds = seeds();
    let dir = temp_dir("discard");
    let whole = dir.join("whole.txt");
    run(
        &seeds,
        &options(),
        &whole,
        &dir.join("whole.ck"),
        false,
        &|_| {},
    )
    .unwrap();
    let out = dir.join("finds.txt");
    interrupted(&seeds, &out);
    let result = search(&seeds, &out, false);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(0), "{stderr}");
    let ck = checkpoint_of(&out).display().to_string();
    assert!(
        stderr.contains("warning: --resume not given: discarding checkpoint")
            && stderr.contains(&ck)
            && stderr.contains("14 of"),
        "says what it discards: {stderr}"
    );
    assert_eq!(forms(&out), forms(&whole), "nothing lost");
    let complete = std::fs::read_to_string(checkpoint_of(&out)).unwrap();
    assert!(
        complete.contains("\"units\":"),
        "completed: checkpoint kept"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `sudokit search --shard slurm --out OUT SEEDS…` as array task `id` of
/// an array `min..=max` of `count` tasks (the variables Slurm sets).
fn slurm_task(seeds: &[[u8; 81]], out: &Path, id: u64, count: u64, min: u64, max: u64) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudokit"));
    command
        .args(["search", "--quiet", "--shard", "slurm", "--out"])
        .arg(out)
        .args(seeds.iter().map(text))
        .env("SLURM_ARRAY_TASK_ID", id.to_string())
        .env("SLURM_ARRAY_TASK_COUNT", count.to_string())
        .env("SLURM_ARRAY_TASK_MIN", min.to_string())
        .env("SLURM_ARRAY_TASK_MAX", max.to_string());
    command.output().expect("the binary runs")
}

/// `sudokit merge --out OUT SHARDS…`.
fn merge(out: &Path, shards: &[PathBuf]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(["merge", "--out"])
        .arg(out)
        .args(shards)
        .output()
        .expect("the binary runs")
}

#[test]
fn slurm_array_tasks_merge_into_the_unsharded_hunt() {
    let seeds = seeds();
    let dir = temp_dir("slurm");
    let whole = dir.join("whole.txt");
    assert_eq!(search(&seeds, &whole, false).status.code(), Some(0));
    // An array 1-3: tasks 1, 2, 3 are shards 1/3, 2/3, 3/3.
    let shards: Vec<PathBuf> = (1..=3)
        .map(|id| dir.join(format!("finds-{id}.txt")))
        .collect();
    for (id, out) in (1..=3).zip(&shards) {
        let task = slurm_task(&seeds, out, id, 3, 1, 3);
        assert_eq!(
            task.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&task.stderr)
        );
        let ck = std::fs::read_to_string(checkpoint_of(out)).unwrap();
        assert!(ck.contains(&format!("\"shard\":\"{id}/3\"")), "{ck}");
    }
    // A shard missing: refused, naming it, nothing written.
    let merged = dir.join("merged.txt");
    let partial = merge(&merged, &[shards[0].clone(), shards[2].clone()]);
    let stderr = String::from_utf8_lossy(&partial.stderr);
    assert_eq!(partial.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("shards 2/3 of 3 missing"), "{stderr}");
    assert!(!merged.exists());
    // All three: the unsharded hunt's finds, once each.
    let all = merge(&merged, &shards);
    assert_eq!(
        all.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&all.stderr)
    );
    assert_eq!(forms(&merged), forms(&whole));
    let count = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
    assert_eq!(count(&merged), count(&whole));
    // A task of an array that is not evenly spaced (--array=1,3,7) is
    // refused before it runs: its shards would not make up the hunt.
    let odd = slurm_task(&seeds, &dir.join("odd.txt"), 3, 3, 1, 7);
    let stderr = String::from_utf8_lossy(&odd.stderr);
    assert_eq!(odd.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("evenly spaced"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
