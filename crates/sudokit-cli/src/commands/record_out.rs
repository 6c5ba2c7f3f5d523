//! `--out`, `--shard`, `--resume` and `--checkpoint` for the commands whose
//! output is one line per item in item order (`analyze`, `generate`): the
//! lines go to a file with a checkpoint beside it, so that a killed run
//! resumes where it stopped, and a sharded run's slices can be joined by
//! `sudokit merge` into exactly what one run writes.

use std::fs;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sudokit::shard::records::{RecordsOut, RunId, Start};
use sudokit::shard::{checkpoint_beside, Shard, Stripes};

/// Items per stripe when a run is sharded: narrow enough that every piece
/// of the analyzer's blocks, and every batch of the generator, holds some
/// of each slice's items.
pub const STRIPE: u64 = 64;

/// How often a run writing to `--out` prints a progress line when standard
/// error is not a terminal (a batch job's log).
pub const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Where a record command writes, and which slice of the run it does.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RecordOutArgs {
    /// Write the output to FILE instead of standard output, with a
    /// checkpoint beside it every few seconds (FILE.checkpoint), so that
    /// --resume continues a killed run exactly.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Do slice I of N (1 <= I <= N) of the items, dealt in stripes of 64;
    /// `slurm`: this task's slice of a Slurm array job (from
    /// SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT). Needs --out;
    /// `sudokit merge` joins the slices' out files in item order.
    #[arg(long, value_name = "I/N|slurm", value_parser = super::parse_shard, requires = "out")]
    pub shard: Option<Shard>,
    /// Continue from the checkpoint of an interrupted run, after checking
    /// that it is this run's and that the out file agrees (without it, a
    /// checkpoint there is discarded and the out file started again).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Checkpoint file (default: the out file's name + `.checkpoint`).
    #[arg(long, value_name = "FILE", requires = "out")]
    pub checkpoint: Option<PathBuf>,
}

impl RecordOutArgs {
    /// The items this run does.
    pub fn stripes(&self) -> Stripes {
        Stripes::new(self.shard.unwrap_or_default(), STRIPE)
    }

    /// Whether the run must be able to read its input again (to resume, or
    /// to be a slice that may be resumed): then standard input will not do.
    pub fn needs_replay(&self) -> bool {
        self.resume || self.shard.is_some_and(|s| !s.is_whole())
    }

    /// Refuses an out file or checkpoint that is one of the `inputs` (see
    /// [`refuse_clobbering`]).
    pub fn refuse_clobbering(&self, inputs: &[&Path]) -> anyhow::Result<()> {
        match &self.out {
            Some(out) => refuse_clobbering(out, &self.checkpoint_path(out), inputs),
            None => Ok(()),
        }
    }

    /// The checkpoint file: `--checkpoint`, else `OUT.checkpoint`.
    fn checkpoint_path(&self, out: &Path) -> PathBuf {
        self.checkpoint
            .clone()
            .unwrap_or_else(|| checkpoint_beside(out))
    }

    /// Opens the out file of the run of `command` described by `what`
    /// whose input and options `identity` sums up, saying on standard
    /// error where it starts (unless `quiet` and nothing is discarded);
    /// `None` without `--out`.
    pub fn open(
        &self,
        command: &str,
        what: String,
        identity: &[u8],
        quiet: bool,
    ) -> anyhow::Result<Option<RecordsOut>> {
        let Some(out) = &self.out else {
            return Ok(None);
        };
        let checkpoint = self.checkpoint_path(out);
        let run = RunId::new(command, what, identity, self.stripes());
        let records = RecordsOut::open(out, &checkpoint, run, self.resume)?;
        let (out, checkpoint) = (out.display(), checkpoint.display());
        match records.start() {
            Start::Fresh => {}
            Start::Resume(c) if c.is_complete() => eprintln!(
                "sudokit: {checkpoint}: this run is complete ({} items); nothing left to do",
                c.items
            ),
            Start::Resume(c) if !quiet => eprintln!(
                "sudokit: resuming from {checkpoint} after item {} ({} lines kept in {out})",
                c.items, c.records
            ),
            Start::Resume(_) => {}
            Start::NoCheckpoint => eprintln!(
                "sudokit: warning: --resume: no checkpoint {checkpoint}; the run starts from the beginning"
            ),
            Start::Discard(c) => eprintln!(
                "sudokit: warning: --resume not given: discarding checkpoint {checkpoint} ({c}); \
                 {out} starts again"
            ),
            Start::DiscardUnreadable(why) => eprintln!(
                "sudokit: warning: --resume not given: discarding unreadable checkpoint {checkpoint} ({why}); \
                 {out} starts again"
            ),
        }
        Ok(Some(records))
    }
}

/// Progress lines for a batch job's log: a run writing to `--out`, with
/// standard error off a terminal (where a bar would not show), says every
/// [`PROGRESS_EVERY`] how far it got.
pub struct LogLines {
    /// The command, for the line's prefix.
    command: &'static str,
    /// When the last line was printed; `None` when lines are not wanted.
    last: Option<Instant>,
    /// When the run started.
    started: Instant,
}

impl LogLines {
    /// Lines for `command`, printed when `out` and not `quiet` and standard
    /// error is not a terminal.
    pub fn new(command: &'static str, out: bool, quiet: bool) -> LogLines {
        let now = Instant::now();
        LogLines {
            command,
            last: (out && !quiet && !io::stderr().is_terminal()).then_some(now),
            started: now,
        }
    }

    /// Prints `line(elapsed)` when the last line is [`PROGRESS_EVERY`] old.
    pub fn tick(&mut self, line: impl FnOnce(Duration) -> String) {
        if let Some(last) = &mut self.last {
            if last.elapsed() >= PROGRESS_EVERY {
                *last = Instant::now();
                eprintln!("sudokit {}: {}", self.command, line(self.started.elapsed()));
            }
        }
    }
}

/// A progress line: `passed` of the run's items (of `total` when known),
/// `lines` written to the out file, and the rate of the `here` items this
/// run passed in `elapsed` (and the time left at that rate).
pub fn progress_line(
    items: &str,
    passed: u64,
    total: Option<u64>,
    lines: u64,
    here: u64,
    elapsed: Duration,
) -> String {
    let rate = here as f64 / elapsed.as_secs_f64().max(1e-9);
    match total {
        Some(total) => {
            let left = match rate > 0.0 {
                true => {
                    let seconds = total.saturating_sub(passed) as f64 / rate;
                    indicatif::HumanDuration(Duration::from_secs_f64(seconds)).to_string()
                }
                false => "unknown".to_string(),
            };
            format!(
                "{passed}/{total} {items} ({:.1}%), {lines} lines written, {rate:.0} {items}/s, {left} left",
                100.0 * passed as f64 / total.max(1) as f64
            )
        }
        None => format!("{passed} {items} passed, {lines} lines written, {rate:.0} {items}/s"),
    }
}

/// Refuses an out file or a checkpoint that is one of the `inputs`, or
/// each other: a run empties or appends to its out file and replaces its
/// checkpoint, which would destroy or garble its own input.
pub fn refuse_clobbering(out: &Path, checkpoint: &Path, inputs: &[&Path]) -> anyhow::Result<()> {
    for (flag, written) in [("--out", out), ("--checkpoint", checkpoint)] {
        if let Some(input) = inputs.iter().find(|input| same_file(input, written)) {
            anyhow::bail!(
                "{flag} {} is the input file {}: the run would overwrite its own input",
                written.display(),
                input.display()
            );
        }
    }
    if same_file(out, checkpoint) {
        anyhow::bail!("--checkpoint names the out file {}", out.display());
    }
    Ok(())
}

/// Whether `a` and `b` name one existing file (the same path, or another
/// name for it: a symbolic or hard link, `./` or `..` detours).
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_say_how_far_and_how_fast() {
        let line = progress_line("puzzles", 300, Some(1200), 150, 200, Duration::from_secs(2));
        assert_eq!(
            line,
            "300/1200 puzzles (25.0%), 150 lines written, 100 puzzles/s, 9 seconds left"
        );
        let open = progress_line("puzzles", 5000, None, 2500, 5000, Duration::from_secs(4));
        assert_eq!(
            open,
            "5000 puzzles passed, 2500 lines written, 1250 puzzles/s"
        );
        let stalled = progress_line("puzzles", 0, Some(10), 0, 0, Duration::ZERO);
        assert!(stalled.ends_with("unknown left"), "{stalled}");
    }
}
