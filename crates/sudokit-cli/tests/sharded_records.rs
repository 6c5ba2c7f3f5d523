//! `sudokit analyze` and `sudokit generate` split into slices (`--shard
//! I/N --out FILE`), resumed after a kill (`--resume`), and joined by
//! `sudokit merge`: the joined output must be byte for byte what one
//! unsharded run prints, and every incomplete, damaged or mixed-up set of
//! slices must be refused (exit 2, the slice named, no output written).

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{run, scratch_dir, stderr};
use sudokit::search::digest::Fnv1a;
use sudokit::shard::records::RecordsCheckpoint;

/// Runs `sudokit ARGS` with no standard input.
fn sudokit(args: &[&str]) -> Output {
    run(args, b"")
}

/// A path as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The input of the analyzer tests, in two files: 600 generated puzzles
/// (more than a few stripes of 64 per slice), with comments, blank lines,
/// invalid lines, an id, a puzzle with no solution and one with many.
fn analyzer_input(dir: &Path) -> (PathBuf, PathBuf) {
    let made = sudokit(&["generate", "-q", "-n", "600", "--seed", "5"]);
    assert!(made.status.success(), "{}", stderr(&made));
    let mut lines: Vec<String> = String::from_utf8(made.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    lines.insert(10, "not a puzzle".into());
    lines.insert(70, String::new());
    lines.insert(130, format!("id7:{}", ".".repeat(81)));
    lines.insert(200, format!("11{}", ".".repeat(79)));
    lines.insert(333, "1".repeat(80));
    let (first, second) = lines.split_at(350);
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    fs::write(&a, first.join("\n") + "\n").unwrap();
    fs::write(&b, second.join("\n") + "\n").unwrap();
    (a, b)
}

/// The slices' out files, `OUT.I` for `I` in `1..=n`.
fn slice_files(out: &Path, n: u64) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| PathBuf::from(format!("{}.{i}", out.display())))
        .collect()
}

/// `sudokit merge --out OUT SLICES…`.
fn merge(out: &Path, slices: &[PathBuf]) -> Output {
    let mut args = vec!["merge", "-q", "--out", arg(out)];
    args.extend(slices.iter().map(|p| arg(p)));
    sudokit(&args)
}

/// Whether `output` failed with exit status 2 and a message with `text`.
fn refused(output: &Output, text: &str) -> bool {
    output.status.code() == Some(2) && stderr(output).contains(text)
}

#[test]
fn analyzer_slices_merge_into_the_unsharded_output() {
    let dir = scratch_dir("analyze-slices");
    let (a, b) = analyzer_input(&dir);
    for format in [
        &["--format", "text"][..],
        &["--format", "jsonl", "--minimal"],
        &["--format", "csv"],
        &["--lang", "zh"],
    ] {
        let mut common = vec!["analyze", "-q"];
        common.extend(format);
        let whole = sudokit(&[&common[..], &[arg(&a), arg(&b)]].concat());
        assert_eq!(whole.status.code(), Some(1), "invalid lines exit 1");
        for n in [1u64, 2, 3, 5] {
            let out = dir.join(format!("analyze-{}-{n}", format.join("")));
            let slices = slice_files(&out, n);
            for (i, slice) in slices.iter().enumerate() {
                let shard = format!("{}/{n}", i + 1);
                let args = [
                    &common[..],
                    &["--shard", &shard, "--out", arg(slice), arg(&a), arg(&b)],
                ];
                let ran = sudokit(&args.concat());
                assert!(ran.status.code().is_some_and(|c| c < 2), "{}", stderr(&ran));
                assert!(ran.stdout.is_empty(), "the lines go to the out file");
            }
            let merged = dir.join("merged.txt");
            let joined = merge(&merged, &slices);
            assert!(joined.status.success(), "{}", stderr(&joined));
            assert_eq!(
                fs::read(&merged).unwrap(),
                whole.stdout,
                "{format:?} in {n} slices"
            );
        }
    }
}

#[test]
fn generator_slices_merge_into_the_unsharded_output() {
    let dir = scratch_dir("generate-slices");
    for (options, n) in [
        (
            &["-n", "300", "--seed", "9", "--symmetry", "rot180"][..],
            3u64,
        ),
        (&["-n", "130", "--seed", "2", "--format", "csv"], 2),
        (
            &[
                "-n", "70", "--seed", "4", "--box", "2x3", "--jigsaw", "--format", "jsonl",
            ],
            4,
        ),
    ] {
        let mut common = vec!["generate", "-q"];
        common.extend(options);
        let whole = sudokit(&common);
        assert!(whole.status.success(), "{}", stderr(&whole));
        let out = dir.join(format!("gen-{n}"));
        let slices = slice_files(&out, n);
        for (i, slice) in slices.iter().enumerate() {
            let shard = format!("{}/{n}", i + 1);
            let ran = sudokit(&[&common[..], &["--shard", &shard, "--out", arg(slice)]].concat());
            assert!(ran.status.success(), "{}", stderr(&ran));
        }
        let merged = dir.join("merged.txt");
        let joined = merge(&merged, &slices);
        assert!(joined.status.success(), "{}", stderr(&joined));
        assert_eq!(fs::read(&merged).unwrap(), whole.stdout, "{options:?}");
    }
}

/// Rewinds a finished slice of `analyze --format jsonl` to the state a
/// kill after `keep` of its lines leaves: the out file cut after those
/// lines plus a torn line being written, and the checkpoint that was
/// written just after them (with the counts of their statuses).
fn rewind(out: &Path, keep: u64, stripe_items: u64) {
    let checkpoint = PathBuf::from(format!("{}.checkpoint", out.display()));
    let mut c = RecordsCheckpoint::load(&checkpoint).unwrap().unwrap();
    let text = fs::read(out).unwrap();
    let header = c.header_len as usize;
    let cut = header
        + text[header..]
            .split_inclusive(|&b| b == b'\n')
            .take(keep as usize)
            .map(<[u8]>::len)
            .sum::<usize>();
    let mut damaged = text[..cut].to_vec();
    damaged.extend_from_slice(&text[cut..cut + 10]);
    fs::write(out, &damaged).unwrap();
    c.items = stripe_items;
    c.total = None;
    c.records = keep;
    c.out_len = cut as u64;
    c.out_digest = Fnv1a::of(&text[..cut]);
    c.counts.clear();
    for line in text[header..cut]
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
    {
        let record: serde_json::Value = serde_json::from_slice(line).unwrap();
        let status = record["status"].as_str().unwrap().to_string();
        *c.counts.entry(status).or_default() += 1;
    }
    c.save(&checkpoint).unwrap();
}

#[test]
fn a_killed_analyzer_slice_resumes_exactly() {
    let dir = scratch_dir("analyze-resume");
    let (a, b) = analyzer_input(&dir);
    let common = ["analyze", "-q", "--format", "jsonl", arg(&a), arg(&b)];
    let whole = sudokit(&common);
    let slices = slice_files(&dir.join("out"), 2);
    for (i, slice) in slices.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let ran = sudokit(&[&common[..], &["--shard", &shard, "--out", arg(slice)]].concat());
        assert_eq!(ran.status.code(), Some(1), "{}", stderr(&ran));
    }
    // Slice 1 of 2 owns items 0..64, 128..192, …: after item 256 it has
    // written 128 lines.
    rewind(&slices[0], 128, 256);
    let merged = dir.join("merged.txt");
    assert!(refused(
        &merge(&merged, &slices),
        "shard 1/2 is not finished"
    ));
    assert!(!merged.exists(), "a refused merge writes nothing");
    let shard = ["--shard", "1/2", "--out", arg(&slices[0])];
    let resumed = sudokit(&[&common[..], &shard, &["--resume"]].concat());
    assert_eq!(resumed.status.code(), Some(1), "{}", stderr(&resumed));
    assert!(merge(&merged, &slices).status.success());
    assert_eq!(fs::read(&merged).unwrap(), whole.stdout);

    // Resumed on an input that changed, the slice is refused as it is.
    let before = fs::read(&slices[0]).unwrap();
    rewind(&slices[0], 64, 128);
    let kept = fs::read(&slices[0]).unwrap();
    let mut changed = fs::read(&b).unwrap();
    changed[0] = if changed[0] == b'.' { b'1' } else { b'.' };
    fs::write(&b, &changed).unwrap();
    let refused_run = sudokit(&[&common[..], &shard, &["--resume"]].concat());
    assert!(
        refused(&refused_run, "not of this run"),
        "{}",
        stderr(&refused_run)
    );
    assert_eq!(
        fs::read(&slices[0]).unwrap(),
        kept,
        "a refused resume changes nothing"
    );
    assert_ne!(before, kept);
}

#[test]
fn incomplete_damaged_or_mixed_slices_are_refused_by_name() {
    let dir = scratch_dir("merge-refusals");
    let gen = |out: &Path, shard: &str, seed: &str| {
        let ran = sudokit(&[
            "generate",
            "-q",
            "-n",
            "200",
            "--seed",
            seed,
            "--shard",
            shard,
            "--out",
            arg(out),
        ]);
        assert!(ran.status.success(), "{}", stderr(&ran));
    };
    let slices = slice_files(&dir.join("g"), 3);
    for (i, slice) in slices.iter().enumerate() {
        gen(slice, &format!("{}/3", i + 1), "1");
    }
    let merged = dir.join("merged.txt");
    assert!(merge(&merged, &slices).status.success());

    let missing = merge(&merged, &slices[..2]);
    assert!(
        refused(&missing, "shards 3/3 of 3 missing"),
        "{}",
        stderr(&missing)
    );
    let twice = merge(
        &merged,
        &[slices[0].clone(), slices[0].clone(), slices[1].clone()],
    );
    assert!(refused(&twice, "given twice"), "{}", stderr(&twice));

    let other = dir.join("other");
    gen(&other, "3/3", "2");
    let mixed = merge(
        &merged,
        &[slices[0].clone(), slices[1].clone(), other.clone()],
    );
    assert!(refused(&mixed, "not of the same run"), "{}", stderr(&mixed));

    // A changed byte in an out file, then in a checkpoint.
    let text = fs::read(&slices[1]).unwrap();
    let mut changed = text.clone();
    let at = changed.len() - 5;
    changed[at] = if changed[at] == b'.' { b'1' } else { b'.' };
    fs::write(&slices[1], &changed).unwrap();
    let differs = merge(&merged, &slices);
    assert!(refused(&differs, "differs"), "{}", stderr(&differs));
    fs::write(&slices[1], &text).unwrap();
    let checkpoint = PathBuf::from(format!("{}.checkpoint", slices[2].display()));
    let sealed = fs::read(&checkpoint).unwrap();
    let mut flipped = sealed.clone();
    flipped[40] ^= 1;
    fs::write(&checkpoint, &flipped).unwrap();
    let damaged = merge(&merged, &slices);
    assert!(refused(&damaged, "damaged"), "{}", stderr(&damaged));
    fs::remove_file(&checkpoint).unwrap();
    let never_ran = merge(&merged, &slices);
    assert!(refused(&never_ran, "has not run"), "{}", stderr(&never_ran));
    fs::write(&checkpoint, &sealed).unwrap();

    // A hunt's slice among a record run's.
    let hunt = dir.join("hunt.txt");
    let seed = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
    let searched = sudokit(&[
        "search",
        "-q",
        "--remove",
        "0",
        "--add",
        "0",
        "--out",
        arg(&hunt),
        seed,
    ]);
    assert!(searched.status.success(), "{}", stderr(&searched));
    let kinds = merge(&merged, &[slices[0].clone(), hunt]);
    assert_eq!(kinds.status.code(), Some(2), "{}", stderr(&kinds));
    assert_eq!(fs::read(&merged).unwrap().len() as u64, merged_len(&slices));
}

/// The length of the merged output of `slices` (their lengths, the header
/// once).
fn merged_len(slices: &[PathBuf]) -> u64 {
    let header = fs::read(&slices[0])
        .unwrap()
        .iter()
        .position(|&b| b == b'\n')
        .unwrap() as u64
        + 1;
    let total: u64 = slices.iter().map(|s| fs::metadata(s).unwrap().len()).sum();
    total - header * (slices.len() as u64 - 1)
}

#[test]
fn slices_need_inputs_that_can_be_read_again() {
    let dir = scratch_dir("slices-stdin");
    let out = dir.join("out.txt");
    let puzzle = format!("{}\n", ".".repeat(81));
    let piped = run(
        &["analyze", "--shard", "1/2", "--out", arg(&out)],
        puzzle.as_bytes(),
    );
    assert!(
        refused(&piped, "cannot be read again"),
        "{}",
        stderr(&piped)
    );
    let unseeded = sudokit(&["generate", "--shard", "1/2", "--out", arg(&out)]);
    assert!(refused(&unseeded, "need --seed"), "{}", stderr(&unseeded));
    let to_stdout = sudokit(&["generate", "--seed", "1", "--shard", "1/2"]);
    assert_eq!(to_stdout.status.code(), Some(2), "--shard needs --out");
}

#[test]
fn a_generator_killed_at_any_moment_resumes_into_the_same_puzzles() {
    let dir = scratch_dir("generate-kill");
    let common = [
        "generate",
        "-q",
        "--threads",
        "1",
        "-n",
        "1000",
        "--seed",
        "3",
        "--minimal",
        "--box",
        "3x4",
    ];
    let whole = sudokit(&common);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let out = dir.join("out.txt");
    let checkpoint = PathBuf::from(format!("{}.checkpoint", out.display()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(common)
        .args(["--out", arg(&out)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once a first batch is checkpointed (or whenever the run ends
    // first, on a fast machine): the resumed output must be the same.
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        let passed = RecordsCheckpoint::load(&checkpoint)
            .ok()
            .flatten()
            .is_some_and(|c| c.items > 0);
        if passed || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().ok();
    child.wait().unwrap();
    let passed = RecordsCheckpoint::load(&checkpoint).unwrap().unwrap();
    eprintln!("killed after item {} of 1000", passed.items);
    let resumed = sudokit(&[&common[..], &["--out", arg(&out), "--resume"]].concat());
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(fs::read(&out).unwrap(), whole.stdout);
}

#[test]
fn an_out_file_or_checkpoint_that_is_the_input_is_refused() {
    let dir = scratch_dir("clobber");
    let input = dir.join("in.txt");
    let text = format!(
        "{}\n",
        "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
    );
    fs::write(&input, &text).unwrap();
    let link = dir.join("link.txt");
    fs::hard_link(&input, &link).unwrap();
    let other = dir.join("other.txt");
    for args in [
        vec!["analyze", "--out", arg(&input), arg(&input)],
        vec!["analyze", "--out", arg(&link), arg(&input)],
        vec![
            "analyze",
            "--out",
            arg(&other),
            "--checkpoint",
            arg(&input),
            arg(&input),
        ],
        vec!["search", "--out", arg(&link), arg(&input)],
        vec![
            "search",
            "--out",
            arg(&other),
            "--checkpoint",
            arg(&input),
            arg(&input),
        ],
    ] {
        let ran = sudokit(&args);
        assert!(
            refused(&ran, "would overwrite its own input"),
            "{args:?}: {}",
            stderr(&ran)
        );
        assert_eq!(fs::read_to_string(&input).unwrap(), text, "{args:?}");
    }
    let same = sudokit(&[
        "analyze",
        "--out",
        arg(&other),
        "--checkpoint",
        arg(&other),
        arg(&input),
    ]);
    assert!(refused(&same, "names the out file"), "{}", stderr(&same));
}
