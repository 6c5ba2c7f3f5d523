//! `sudokit analyze [FILE|PUZZLE…]`: unique, none or multiple for every
//! puzzle (SPEC §2), in English, in the challenge's Chinese, or as records
//! (JSON lines, CSV).

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde_json::Value;
use sudokit::analyze::{AnalyzeOptions, Summary, Verdict, Verdicts};
use sudokit::parse::Format;
use sudokit::solver::Status;

use super::input::{analyze_sources, locate, InputArgs};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::progress::{self, with_bar, Meter};
use super::{
    push_number, status_word, EngineArgs, FormatArgs, LineArgs, ThreadArgs, TimeoutArgs,
    VariantArgs,
};

/// Options of `sudokit analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub variant: VariantArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub lines: LineArgs,
    /// Language of the text output: `en`, or `zh` for the challenge's wording.
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    /// Also say whether each unique puzzle is minimal (every clue needed).
    #[arg(long)]
    pub minimal: bool,
    /// No summary and no progress bar on standard error.
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

/// The words of one language.
struct Wording {
    puzzle: &'static str,
    unique: &'static str,
    none: &'static str,
    multiple: &'static str,
    timed_out: &'static str,
    invalid: &'static str,
    minimal: &'static str,
    not_minimal: &'static str,
}

const ENGLISH: Wording = Wording {
    puzzle: "Puzzle # ",
    unique: " has a unique solution",
    none: " has no solution",
    multiple: " has multiple solutions",
    timed_out: " timed out",
    invalid: " is invalid: ",
    minimal: " and is minimal",
    not_minimal: " and is not minimal",
};

const CHINESE: Wording = Wording {
    puzzle: "谜题 # ",
    unique: " 有唯一解",
    none: " 无解",
    multiple: " 有多解",
    timed_out: " 超时",
    invalid: " 格式错误: ",
    minimal: "，是最小谜题",
    not_minimal: "，不是最小谜题",
};

/// The command's own fields, after the common ones.
const FIELDS: [&str; 3] = ["solution", "clues", "minimal"];

/// Writes verdicts as they come, numbering puzzles across blocks and
/// sources.
struct Printer {
    output: OutputFormat,
    words: &'static Wording,
    /// Puzzles printed so far (the next one is `printed + 1`).
    printed: u64,
    /// The CSV columns.
    columns: Vec<&'static str>,
    /// Output buffers of the last block, emptied, for the next one: fresh
    /// ones would make the kernel map and zero their pages anew.
    spare: Vec<Vec<u8>>,
}

impl Printer {
    /// Formats a block's verdicts in parallel, a run (a piece of the block)
    /// per task, then writes them in order.
    fn write(
        &mut self,
        source: Option<&str>,
        format: Option<&Format>,
        verdicts: &Verdicts<'_>,
    ) -> io::Result<()> {
        let mut starts = Vec::with_capacity(verdicts.runs().len());
        for run in verdicts.runs() {
            starts.push((self.printed + 1, self.spare.pop().unwrap_or_default()));
            self.printed += run.len() as u64;
        }
        let this = &*self;
        let chunks: Vec<Vec<u8>> = verdicts
            .runs()
            .par_iter()
            .zip(starts)
            .map(|(run, (first, mut out))| {
                out.reserve(run.len() * 48);
                for (number, verdict) in (first..).zip(run) {
                    if this.output == OutputFormat::Text {
                        write_text(&mut out, this.words, number, verdict);
                    } else {
                        let record = Printer::record(source, format, number, verdict);
                        match this.output {
                            OutputFormat::Csv => record.write_csv(&this.columns, &mut out),
                            _ => record.write_json(&mut out),
                        }
                    }
                }
                out
            })
            .collect();
        let mut stdout = io::stdout().lock();
        for mut chunk in chunks {
            stdout.write_all(&chunk)?;
            chunk.clear();
            self.spare.push(chunk);
        }
        stdout.flush()
    }
}

/// One sentence: `[id:]Puzzle # N has …`.
fn write_text(out: &mut Vec<u8>, words: &Wording, number: u64, verdict: &Verdict<'_>) {
    push_id(out, verdict.id);
    out.extend_from_slice(words.puzzle.as_bytes());
    push_number(out, number);
    match &verdict.result {
        Ok(analysis) => {
            let status = match analysis.status {
                Some(Status::Unique) => words.unique,
                Some(Status::None) => words.none,
                Some(Status::Multiple) => words.multiple,
                None => words.timed_out,
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
            out.extend_from_slice(escape_controls(&error.to_string()).as_bytes());
        }
    }
    out.push(b'\n');
}

impl Printer {
    /// The record of one verdict (for `--format jsonl` and `csv`); `source`
    /// names the source in an error when the run reads several.
    fn record<'a>(
        source: Option<&str>,
        format: Option<&Format>,
        number: u64,
        verdict: &Verdict<'a>,
    ) -> Record<'a> {
        let analysis = match &verdict.result {
            Ok(analysis) => analysis,
            Err(error) => {
                let error = locate(source, verdict.line, error);
                let mut record = Record::invalid(number, verdict.id, Some(verdict.cells), error);
                record.shape = format.map(Format::shape);
                return record;
            }
        };
        let solution = match (&analysis.solution, format, analysis.status) {
            (Some(grid), Some(format), Some(Status::Unique)) => {
                let mut text = Vec::with_capacity(grid.len());
                format.alphabet().write_cells(grid, &mut text);
                Value::from(String::from_utf8_lossy(&text).into_owned())
            }
            _ => Value::Null,
        };
        Record {
            number,
            id: verdict.id,
            puzzle: Some(String::from_utf8_lossy(verdict.cells)),
            shape: format.map(Format::shape),
            status: status_word(analysis.status),
            fields: vec![
                ("solution", solution),
                ("clues", Value::from(analysis.clues)),
                ("minimal", analysis.minimal.map_or(Value::Null, Value::from)),
            ],
            error: None,
        }
    }
}

/// Runs `sudokit analyze`.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<ExitCode> {
    args.variant.check(args.engine.engine)?;
    let threads = args.threads.install()?;
    let started = Instant::now();
    let spec = args.format.spec();
    let sources = args.input.open(&spec)?;
    let total_bytes = sources.iter().map(|s| s.size).sum::<Option<u64>>();
    let show_progress = progress::wanted(args.quiet);
    let progress = Bytes::default();
    let output = args.output.format;
    let options = AnalyzeOptions {
        spec,
        minimal: args.minimal,
        solutions: output != OutputFormat::Text,
        engine: args.engine.engine,
        variant: args.variant.variant,
        progress: show_progress.then(|| progress.current.clone()),
        max_line: args.lines.max_line,
        timeout: args.timeout.timeout,
        limit: 2,
    };
    let mut printer = Printer {
        output,
        words: if args.lang == Lang::Zh {
            &CHINESE
        } else {
            &ENGLISH
        },
        printed: 0,
        columns: csv_columns(&FIELDS),
        spare: Vec::new(),
    };
    if output == OutputFormat::Csv {
        let mut header = Vec::new();
        write_csv_header(&printer.columns, &mut header);
        io::stdout().lock().write_all(&header)?;
    }
    let meter = Meter {
        with_total: "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        without_total: "{spinner} {bytes} analysed, {bytes_per_sec}",
        position: &|| progress.bytes(),
        total: &|| total_bytes,
    };
    let summary = with_bar(show_progress, &meter, || {
        analyze_sources(
            sources,
            &options,
            |source, format, verdicts| printer.write(source, format, verdicts),
            || progress.source_done(),
        )
    })?;
    if !args.quiet {
        print_summary(&summary, args.lang, threads, started.elapsed());
    }
    Ok(if summary.invalid + summary.timed_out > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Bytes analysed so far: those of the sources finished, and the current
/// source's, which the analyzer keeps up to date.
#[derive(Default)]
struct Bytes {
    finished_sources: AtomicU64,
    current: Arc<AtomicU64>,
}

impl Bytes {
    /// Bytes analysed in all.
    fn bytes(&self) -> u64 {
        self.finished_sources.load(Ordering::Relaxed) + self.current.load(Ordering::Relaxed)
    }

    /// Moves the current source's bytes to the finished ones.
    fn source_done(&self) {
        let bytes = self.current.swap(0, Ordering::Relaxed);
        self.finished_sources.fetch_add(bytes, Ordering::Relaxed);
    }
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
            let timed_out = match summary.timed_out {
                0 => String::new(),
                n => format!(", {n} timed out"),
            };
            eprintln!("{puzzles} puzzles: {unique} unique, {none} no solution, {multiple} multiple, {invalid} invalid{timed_out}");
            eprintln!(
                "time: read {read:.3}s, compute {compute:.3}s, write {write:.3}s, total {total:.3}s; {threads} threads, {rate:.0} puzzles/s"
            );
        }
        Lang::Zh => {
            let timed_out = match summary.timed_out {
                0 => String::new(),
                n => format!(", 超时 {n}"),
            };
            eprintln!("共 {puzzles} 题: 唯一解 {unique}, 无解 {none}, 多解 {multiple}, 格式错误 {invalid}{timed_out}");
            eprintln!(
                "读入时间: {read:.3}s, 计算时间: {compute:.3}s, 输出时间: {write:.3}s, 总时间: {total:.3}s; 线程 {threads}, 每秒 {rate:.0} 题"
            );
        }
    }
}
