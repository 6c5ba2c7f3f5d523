//! `sudokit analyze [FILE|-]`: unique, none or multiple for every puzzle
//! (SPEC §2), in English, in the challenge's Chinese, or as JSON lines.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use sudokit::analyze::{analyze_stream, AnalyzeOptions, Summary, Verdict};
use sudokit::parse::Format;
use sudokit::solver::Status;

use super::{open_input, push_number, EngineArgs, FormatArgs, LineArgs, ThreadArgs};

/// Options of `sudokit analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// Puzzles, one per line; `-` or nothing for standard input.
    pub input: Option<PathBuf>,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub lines: LineArgs,
    /// Language of the text output: `en`, or `zh` for the challenge's wording.
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
    /// Output format: `text` lines, or `jsonl` (one JSON object per puzzle).
    #[arg(long = "format", value_enum, default_value_t = OutputFormat::Text)]
    pub output: OutputFormat,
    /// Also say whether each unique puzzle is minimal (every clue needed).
    #[arg(long)]
    pub minimal: bool,
    /// No summary on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Language of text output.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// `Puzzle # 1 has a unique solution`.
    En,
    /// `谜题 # 1 有唯一解`, the challenge's original wording.
    Zh,
}

/// Shape of the output.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// One sentence per puzzle.
    Text,
    /// One JSON object per puzzle.
    Jsonl,
}

/// The words of one language.
struct Wording {
    puzzle: &'static str,
    unique: &'static str,
    none: &'static str,
    multiple: &'static str,
    invalid: &'static str,
    minimal: &'static str,
    not_minimal: &'static str,
}

const ENGLISH: Wording = Wording {
    puzzle: "Puzzle # ",
    unique: " has a unique solution",
    none: " has no solution",
    multiple: " has multiple solutions",
    invalid: " is invalid: ",
    minimal: " and is minimal",
    not_minimal: " and is not minimal",
};

const CHINESE: Wording = Wording {
    puzzle: "谜题 # ",
    unique: " 有唯一解",
    none: " 无解",
    multiple: " 有多解",
    invalid: " 格式错误: ",
    minimal: "，是最小谜题",
    not_minimal: "，不是最小谜题",
};

/// One line of `--format jsonl`.
#[derive(Serialize)]
struct Record<'a> {
    puzzle: u64,
    id: Option<&'a str>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clues: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Verdicts formatted per task: large enough that a task's overhead is
/// nothing beside its formatting, small enough to spread a block over cores.
const FORMAT_CHUNK: usize = 4096;

/// Writes verdicts as they come, numbering puzzles across blocks.
struct Printer {
    output: OutputFormat,
    words: &'static Wording,
    /// Puzzles printed so far (the next one is `printed + 1`).
    printed: u64,
}

impl Printer {
    /// Formats a block's verdicts in parallel chunks, then writes them in order.
    fn write(&mut self, format: Option<&Format>, verdicts: &[Verdict<'_>]) -> io::Result<()> {
        let first = self.printed + 1;
        let chunks: Vec<Vec<u8>> = verdicts
            .par_chunks(FORMAT_CHUNK)
            .enumerate()
            .map(|(i, chunk)| {
                let mut out = Vec::with_capacity(chunk.len() * 48);
                for (j, verdict) in chunk.iter().enumerate() {
                    let number = first + (i * FORMAT_CHUNK + j) as u64;
                    match self.output {
                        OutputFormat::Text => write_text(&mut out, self.words, number, verdict),
                        OutputFormat::Jsonl => write_json(&mut out, format, number, verdict)?,
                    }
                }
                Ok(out)
            })
            .collect::<io::Result<_>>()?;
        self.printed += verdicts.len() as u64;
        let mut stdout = io::stdout().lock();
        for chunk in &chunks {
            stdout.write_all(chunk)?;
        }
        stdout.flush()
    }
}

/// One sentence: `[id:]Puzzle # N has …`.
fn write_text(out: &mut Vec<u8>, words: &Wording, number: u64, verdict: &Verdict<'_>) {
    if let Some(id) = verdict.id {
        out.extend_from_slice(id.as_bytes());
        out.push(b':');
    }
    out.extend_from_slice(words.puzzle.as_bytes());
    push_number(out, number);
    match &verdict.result {
        Ok(analysis) => {
            let status = match analysis.status {
                Status::Unique => words.unique,
                Status::None => words.none,
                Status::Multiple => words.multiple,
            };
            out.extend_from_slice(status.as_bytes());
            match analysis.minimal {
                Some(true) => out.extend_from_slice(words.minimal.as_bytes()),
                Some(false) => out.extend_from_slice(words.not_minimal.as_bytes()),
                None => {}
            }
        }
        Err(error) => {
            out.extend_from_slice(words.invalid.as_bytes());
            out.extend_from_slice(error.to_string().as_bytes());
        }
    }
    out.push(b'\n');
}

/// One JSON object per line (see [`Record`]).
fn write_json(
    out: &mut Vec<u8>,
    format: Option<&Format>,
    number: u64,
    verdict: &Verdict<'_>,
) -> io::Result<()> {
    let mut record = Record {
        puzzle: number,
        id: verdict.id,
        status: "invalid",
        solution: None,
        clues: None,
        minimal: None,
        error: None,
    };
    match &verdict.result {
        Ok(analysis) => {
            record.status = match analysis.status {
                Status::Unique => "unique",
                Status::None => "none",
                Status::Multiple => "multiple",
            };
            record.clues = Some(analysis.clues);
            record.minimal = analysis.minimal;
            let unique = analysis.status == Status::Unique;
            if let (Some(grid), Some(format), true) = (&analysis.solution, format, unique) {
                let mut text = Vec::with_capacity(grid.len());
                format.alphabet().write_cells(grid, &mut text);
                record.solution = Some(String::from_utf8_lossy(&text).into_owned());
            }
        }
        Err(error) => record.error = Some(error.to_string()),
    }
    serde_json::to_writer(&mut *out, &record)?;
    out.push(b'\n');
    Ok(())
}

/// Runs `sudokit analyze`.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.install()?;
    let started = Instant::now();
    let input = open_input(args.input.as_deref())?;
    let total_bytes = args
        .input
        .as_deref()
        .and_then(|p| std::fs::metadata(p).ok())
        .filter(|m| m.is_file())
        .map(|m| m.len());
    let show_progress = !args.quiet && io::stderr().is_terminal();
    let analysed = Arc::new(AtomicU64::new(0));
    let options = AnalyzeOptions {
        spec: args.format.spec(),
        minimal: args.minimal,
        solutions: args.output == OutputFormat::Jsonl,
        engine: args.engine.engine,
        progress: show_progress.then(|| analysed.clone()),
        max_line: args.lines.max_line,
    };
    let mut printer = Printer {
        output: args.output,
        words: if args.lang == Lang::Zh {
            &CHINESE
        } else {
            &ENGLISH
        },
        printed: 0,
    };
    let finished = AtomicBool::new(false);
    let summary = std::thread::scope(|scope| {
        if show_progress {
            scope.spawn(|| show_progress_bar(total_bytes, &analysed, &finished, started));
        }
        let summary = analyze_stream(input, &options, |format, verdicts| {
            printer.write(format, verdicts)
        });
        finished.store(true, Ordering::Relaxed);
        summary
    })?;
    if !args.quiet {
        print_summary(&summary, args.lang, threads, started.elapsed());
    }
    Ok(if summary.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Draws a progress bar of the bytes analysed, from one second into the run
/// until `finished`; a bar with an ETA when the input's size is known, a
/// spinner otherwise.
fn show_progress_bar(
    total_bytes: Option<u64>,
    analysed: &AtomicU64,
    finished: &AtomicBool,
    started: Instant,
) {
    const DELAY: Duration = Duration::from_secs(1);
    const TICK: Duration = Duration::from_millis(100);
    let template = match total_bytes {
        Some(_) => "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        None => "{spinner} {bytes} analysed, {bytes_per_sec}",
    };
    let bar = ProgressBar::with_draw_target(total_bytes, ProgressDrawTarget::hidden())
        .with_style(ProgressStyle::with_template(template).expect("valid template"));
    while !finished.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        if bar.is_hidden() && started.elapsed() > DELAY {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_position(analysed.load(Ordering::Relaxed));
    }
    bar.finish_and_clear();
}

fn print_summary(summary: &Summary, lang: Lang, threads: usize, wall: Duration) {
    let rate = summary.puzzles() as f64 / wall.as_secs_f64().max(1e-9);
    let (read, compute, write, total) = (
        summary.read_time.as_secs_f64(),
        summary.compute_time.as_secs_f64(),
        summary.write_time.as_secs_f64(),
        wall.as_secs_f64(),
    );
    let (puzzles, unique, none, multiple, invalid) = (
        summary.puzzles(),
        summary.unique,
        summary.none,
        summary.multiple,
        summary.invalid,
    );
    match lang {
        Lang::En => {
            eprintln!("{puzzles} puzzles: {unique} unique, {none} no solution, {multiple} multiple, {invalid} invalid");
            eprintln!(
                "time: read {read:.3}s, compute {compute:.3}s, write {write:.3}s, total {total:.3}s; {threads} threads, {rate:.0} puzzles/s"
            );
        }
        Lang::Zh => {
            eprintln!("共 {puzzles} 题: 唯一解 {unique}, 无解 {none}, 多解 {multiple}, 格式错误 {invalid}");
            eprintln!(
                "读入时间: {read:.3}s, 计算时间: {compute:.3}s, 输出时间: {write:.3}s, 总时间: {total:.3}s; 线程 {threads}, 每秒 {rate:.0} 题"
            );
        }
    }
}
