//! `sudokit search [FILE|-|PUZZLE…]`: the {−R+A} neighbourhood hunt
//! (SPEC §8). New unique minimal puzzles are appended to `--out` as they are
//! found; a progress bar on standard error shows the rate and ETA; the
//! summary goes to standard output. Where the hunt starts (resumed, or a
//! checkpoint discarded) is said on standard error before it does.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudokit::grid::Shape;
use sudokit::parse::{classify, Format, Line, LineError, ParseError};
use sudokit::search::{Hunt, HuntOptions, Progress, Shard, Start};

use super::{inputs_from_args, LineArgs, ThreadArgs};

/// Options of `sudokit search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// A file of 9×9 seed puzzles (one per line), `-` for standard input, or
    /// puzzles themselves. Nothing: standard input.
    pub inputs: Vec<String>,
    /// Clues removed from each seed (R).
    #[arg(long, value_name = "R", default_value_t = 1)]
    pub remove: usize,
    /// Clues added (A).
    #[arg(long, value_name = "A", default_value_t = 1)]
    pub add: usize,
    /// File the new finds are appended to (one puzzle per line, deduplicated
    /// by canonical form against its earlier content).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Run slice I of N (1 <= I <= N); the N slices make up the whole hunt.
    #[arg(long, value_name = "I/N", default_value = "1/1")]
    pub shard: Shard,
    /// Continue from the checkpoint of an interrupted run, after checking it
    /// and the out file agree (without it, a checkpoint there is discarded).
    #[arg(long)]
    pub resume: bool,
    /// Only puzzles with at least K clues.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub min_clues: usize,
    /// Checkpoint file (default: the out file's name + `.checkpoint`).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Units (seed × removal) per checkpointed batch.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub batch: usize,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub lines: LineArgs,
}

/// Runs `sudokit search`.
pub fn run(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let format = Format::new(Shape::new(3, 3)?, None)?;
    let mut input = args.lines.reader(inputs_from_args(&args.inputs)?);
    let mut stdout = io::stdout().lock();
    let mut seeds = Vec::new();
    let mut invalid = false;
    let mut line = 0;
    while let Some(raw) = input.next_line()? {
        line += 1;
        let mut seed = [0u8; 81];
        let parsed = match raw.map(classify) {
            Ok(Line::Skip) => continue,
            Ok(Line::End) => break,
            Ok(Line::Puzzle { cells, .. }) => format.parse_into(cells, &mut seed),
            Err(too_long) => Err(ParseError::from(too_long)),
        };
        if let Err(error) = parsed {
            invalid = true;
            writeln!(stdout, "{}", LineError { line, error })?;
            continue;
        }
        seeds.push(seed);
    }
    let checkpoint = args.checkpoint.clone().unwrap_or_else(|| {
        let mut name = args.out.as_os_str().to_owned();
        name.push(".checkpoint");
        PathBuf::from(name)
    });
    let options = HuntOptions {
        remove: args.remove,
        add: args.add,
        min_clues: args.min_clues,
        shard: args.shard,
        batch: args.batch.max(1),
    };
    let bar = progress_bar(args.quiet);
    let report = |p: &Progress| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        bar.set_message(format!("minimal {}  new {}", p.stats.minimal, p.stats.new));
    };
    let start = Instant::now();
    let hunt = Hunt::open(&seeds, &options, &args.out, &checkpoint, args.resume)?;
    announce(hunt.start(), args, &checkpoint, args.quiet);
    let stats = hunt.run(&report)?;
    bar.finish_and_clear();
    writeln!(
        stdout,
        "{{-{}+{}}} shard {}: {} seeds, {} units, {} candidates, {} unique, {} minimal, {} new, {} skipped, {:.3} s",
        args.remove,
        args.add,
        args.shard,
        seeds.len(),
        stats.units,
        stats.candidates,
        stats.unique,
        stats.minimal,
        stats.new,
        stats.skipped,
        start.elapsed().as_secs_f64()
    )?;
    Ok(if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Says on standard error where the hunt starts: always when a checkpoint
/// is discarded or missing, unless `quiet` when it is resumed.
fn announce(start: &Start, args: &SearchArgs, checkpoint: &Path, quiet: bool) {
    let (out, checkpoint) = (args.out.display(), checkpoint.display());
    let kept = format!("finds already in {out} are kept and not repeated");
    match start {
        Start::Fresh => {}
        Start::Resume(c) if !quiet => eprintln!(
            "sudokit: resuming from {checkpoint} at unit {} of {}",
            c.done, c.hunt.units
        ),
        Start::Resume(_) => {}
        Start::NoCheckpoint => eprintln!(
            "sudokit: warning: --resume: no checkpoint {checkpoint}; the hunt starts from the beginning ({kept})"
        ),
        Start::Discard(c) => eprintln!(
            "sudokit: warning: --resume not given: discarding checkpoint {checkpoint} ({c}); \
             the hunt starts from the beginning ({kept})"
        ),
        Start::DiscardUnreadable(why) => eprintln!(
            "sudokit: warning: --resume not given: discarding unreadable checkpoint {checkpoint} ({why}); \
             the hunt starts from the beginning ({kept})"
        ),
    }
}

/// A bar on standard error with units done, rate and ETA (hidden when quiet
/// or when standard error is not a terminal).
fn progress_bar(quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(0);
    let style =
        ProgressStyle::with_template("{bar:30} {pos}/{len} units  {per_sec}  ETA {eta}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}
