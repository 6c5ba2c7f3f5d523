//! `sudokit analyze [FILE|PUZZLE…]`: unique, none or multiple for every
//! puzzle (SPEC §2), in English, in the challenge's Chinese, or as records
//! (JSON lines, CSV).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde_json::Value;
use sudokit::analyze::{AnalyzeOptions, Numbering, Render, Rendered, Summary, Verdict};
use sudokit::parse::Format;
use sudokit::shard::records::RecordsOut;
use sudokit::solver::Status;

use super::background::BackgroundWriter;
use super::input::{locate, render_sources, InputArgs, Source};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::progress::{self, with_bar, Meter};
use super::record_out::{progress_line, LogLines, RecordOutArgs};
use super::{
    push_number, push_prefix, status_word, EngineArgs, FormatArgs, LineArgs, ThreadArgs,
    TimeoutArgs, VariantArgs,
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
    pub record: RecordOutArgs,
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
    puzzle: Phrase,
    unique: Phrase,
    none: Phrase,
    multiple: Phrase,
    timed_out: Phrase,
    invalid: Phrase,
    minimal: Phrase,
    not_minimal: Phrase,
}

const ENGLISH: Wording = Wording {
    puzzle: Phrase::new("Puzzle # "),
    unique: Phrase::new(" has a unique solution"),
    none: Phrase::new(" has no solution"),
    multiple: Phrase::new(" has multiple solutions"),
    timed_out: Phrase::new(" timed out"),
    invalid: Phrase::new(" is invalid: "),
    minimal: Phrase::new(" and is minimal"),
    not_minimal: Phrase::new(" and is not minimal"),
};

const CHINESE: Wording = Wording {
    puzzle: Phrase::new("谜题 # "),
    unique: Phrase::new(" 有唯一解"),
    none: Phrase::new(" 无解"),
    multiple: Phrase::new(" 有多解"),
    timed_out: Phrase::new(" 超时"),
    invalid: Phrase::new(" 格式错误: "),
    minimal: Phrase::new("，是最小谜题"),
    not_minimal: Phrase::new("，不是最小谜题"),
};

/// A phrase of at most [`Phrase::ROOM`] bytes, kept in an array of that
/// size: appending it copies a fixed number of bytes, which the compiler
/// does inline, where a slice of run-time length costs a call to `memcpy`
/// (on 6×6 puzzles, `memcpy` fell from 5.4% to 1.6% of a thread's time).
struct Phrase {
    bytes: [u8; Phrase::ROOM],
    len: usize,
}

impl Phrase {
    /// The longest phrase, in bytes.
    const ROOM: usize = 32;

    /// `text` as a phrase; a longer text fails to compile (these are
    /// constants).
    const fn new(text: &str) -> Phrase {
        let text = text.as_bytes();
        assert!(text.len() <= Phrase::ROOM, "phrase too long");
        let mut bytes = [0; Phrase::ROOM];
        let mut i = 0;
        while i < text.len() {
            bytes[i] = text[i];
            i += 1;
        }
        Phrase {
            bytes,
            len: text.len(),
        }
    }

    /// Appends the phrase to `out`.
    fn push_to(&self, out: &mut Vec<u8>) {
        push_prefix(out, &self.bytes, self.len);
    }
}

/// The command's own fields, after the common ones.
const FIELDS: [&str; 3] = ["solution", "clues", "minimal"];

/// Turns runs of verdicts into output (text, JSON lines or CSV), on the
/// analyzer's worker threads (see [`sudokit::analyze::analyze_rendered`]).
struct Renderer<'r> {
    output: OutputFormat,
    words: &'static Wording,
    /// The CSV columns.
    columns: &'r [&'static str],
    /// The source's name when the run reads several (for error lines).
    source: Option<String>,
    rooms: &'r Rooms,
}

impl Render for Renderer<'_> {
    type Output = Vec<u8>;

    fn render(&self, format: Option<&Format>, run: &[Verdict<'_>]) -> Vec<u8> {
        let mut out = self.rooms.take();
        out.reserve(run.len() * 48);
        let source = self.source.as_deref();
        for verdict in run {
            let number = verdict.number;
            if self.output == OutputFormat::Text {
                write_text(&mut out, self.words, number, verdict);
            } else {
                let record = Renderer::record(source, format, number, verdict);
                match self.output {
                    OutputFormat::Csv => record.write_csv(self.columns, &mut out),
                    _ => record.write_json(&mut out),
                }
            }
        }
        out
    }
}

/// Output buffers already written, emptied, for the next runs: fresh ones
/// would make the kernel map and zero their pages anew.
#[derive(Default)]
struct Rooms(Mutex<Vec<Vec<u8>>>);

impl Rooms {
    /// An empty buffer, with room if one came back.
    fn take(&self) -> Vec<u8> {
        let room = self.0.lock().ok().and_then(|mut rooms| rooms.pop());
        room.unwrap_or_default()
    }

    /// Keeps `buffer`'s room.
    fn give(&self, mut buffer: Vec<u8>) {
        buffer.clear();
        if let Ok(mut rooms) = self.0.lock() {
            rooms.push(buffer);
        }
    }
}

/// Writes rendered verdicts as they come, to standard output or to an out
/// file.
struct Printer {
    output: OutputFormat,
    /// The out file (`--out`), else standard output.
    records: Option<RecordsOut>,
    /// Progress lines for a batch job's log.
    log: LogLines,
    /// Puzzles passed before this run (by the run it resumes).
    first: u64,
    /// The thread writing to standard output (without `--out`).
    writer: Option<BackgroundWriter>,
}

impl Printer {
    /// Writes a block's rendered runs in order; their buffers go back to
    /// `rooms` once written.
    fn write(&mut self, rooms: &Rooms, block: Rendered<Vec<u8>>) -> io::Result<()> {
        let Some(records) = &mut self.records else {
            let writer = self
                .writer
                .as_mut()
                .ok_or_else(|| io::Error::other("output already finished"))?;
            // The writer hands the buffers back once they are written.
            while let Some(room) = writer.spare() {
                rooms.give(room);
            }
            return writer.send(block.outputs);
        };
        records.append(
            &block.outputs.concat(),
            block.verdicts,
            block.passed,
            &counted(&block.counts),
        )?;
        let (passed, written) = (block.passed, records.lines());
        let here = passed.saturating_sub(self.first);
        self.log
            .tick(|elapsed| progress_line("puzzles", passed, None, written, here, elapsed));
        block.outputs.into_iter().for_each(|out| rooms.give(out));
        Ok(())
    }

    /// Waits until everything sent to standard output is written; the first
    /// write error, if any.
    fn finish(&mut self) -> io::Result<()> {
        self.writer
            .take()
            .map_or(Ok(()), |mut writer| writer.finish())
    }

    /// Writes the output's header (the CSV header line; text and JSON
    /// lines have none).
    fn header(&mut self, columns: &[&str]) -> io::Result<()> {
        let mut header = Vec::new();
        if self.output == OutputFormat::Csv {
            write_csv_header(columns, &mut header);
        }
        match &mut self.records {
            None => io::stdout().lock().write_all(&header),
            Some(records) => records.header(&header),
        }
    }
}

/// The counts an out file's checkpoint keeps, by name.
fn counted(summary: &Summary) -> [(&'static str, u64); 5] {
    [
        ("unique", summary.unique),
        ("none", summary.none),
        ("multiple", summary.multiple),
        ("invalid", summary.invalid),
        ("timed_out", summary.timed_out),
    ]
}

/// The counts of an out file's checkpoint, back in a summary.
fn from_counts(counts: &BTreeMap<String, u64>, summary: &mut Summary) {
    let count = |name: &str| counts.get(name).copied().unwrap_or(0);
    summary.unique = count("unique");
    summary.none = count("none");
    summary.multiple = count("multiple");
    summary.invalid = count("invalid");
    summary.timed_out = count("timed_out");
}

/// One sentence: `[id:]Puzzle # N has …`.
fn write_text(out: &mut Vec<u8>, words: &Wording, number: u64, verdict: &Verdict<'_>) {
    push_id(out, verdict.id);
    words.puzzle.push_to(out);
    push_number(out, number);
    match &verdict.result {
        Ok(analysis) => {
            let status = match analysis.status {
                Some(Status::Unique) => &words.unique,
                Some(Status::None) => &words.none,
                Some(Status::Multiple) => &words.multiple,
                None => &words.timed_out,
            };
            status.push_to(out);
            match analysis.minimal {
                Some(true) => words.minimal.push_to(out),
                Some(false) => words.not_minimal.push_to(out),
                None => {}
            }
        }
        Err(error) => {
            words.invalid.push_to(out);
            out.extend_from_slice(escape_controls(&error.to_string()).as_bytes());
        }
    }
    out.push(b'\n');
}

impl Renderer<'_> {
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
    let inputs: Vec<&std::path::Path> = sources.iter().filter_map(Source::path).collect();
    args.record.refuse_clobbering(&inputs)?;
    let records = match &args.record.out {
        Some(_) => {
            let (what, identity) = identity(args, &sources)?;
            args.record.open("analyze", what, &identity, args.quiet)?
        }
        None => None,
    };
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
        numbering: Numbering {
            before: 0,
            stripes: args.record.stripes(),
            skip: records.as_ref().map_or(0, RecordsOut::items_passed),
        },
    };
    let mut printer = Printer {
        output,
        log: LogLines::new("analyze", records.is_some(), args.quiet),
        first: records.as_ref().map_or(0, RecordsOut::items_passed),
        records,
        writer: None,
    };
    let words = match args.lang {
        Lang::Zh => &CHINESE,
        Lang::En => &ENGLISH,
    };
    let columns = csv_columns(&FIELDS);
    let rooms = Rooms::default();
    let render_for = |source: Option<&str>| Renderer {
        output,
        words,
        columns: &columns,
        source: source.map(str::to_string),
        rooms: &rooms,
    };
    let complete = printer
        .records
        .as_ref()
        .is_some_and(RecordsOut::is_complete);
    let mut summary = if complete {
        Summary::default()
    } else {
        printer.header(&columns)?;
        if printer.records.is_none() {
            printer.writer = Some(BackgroundWriter::start()?);
        }
        let meter = Meter {
            with_total: "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            without_total: "{spinner} {bytes} analysed, {bytes_per_sec}",
            position: &|| progress.bytes(),
            total: &|| total_bytes,
        };
        with_bar(show_progress, &meter, || {
            // The loop runs on a worker thread, so that each block's
            // parallel work starts and ends there rather than waking the
            // pool from outside and sleeping until it is done: those
            // thread switches took 15% of a one-thread run over 1,000,000
            // 6×6 puzzles on a 2-vCPU VM.
            rayon::scope(|_| {
                render_sources(
                    sources,
                    &options,
                    render_for,
                    |block| printer.write(&rooms, block),
                    || progress.source_done(),
                )
            })
        })?
    };
    printer.finish().context("writing output")?;
    // Puzzles analysed by this run, for its rate.
    let analysed = summary.puzzles();
    if let Some(records) = printer.records.take() {
        let path = records.path().display().to_string();
        let finished = match complete {
            true => records.counts().clone(),
            false => {
                records
                    .finish(summary.passed)
                    .with_context(|| format!("writing {path}"))?
                    .counts
            }
        };
        // The whole run's counts, those before a resume included.
        from_counts(&finished, &mut summary);
    }
    if !args.quiet {
        print_summary(&summary, analysed, args.lang, threads, started.elapsed());
    }
    Ok(if summary.invalid + summary.timed_out > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The run in words and the bytes that identify it for its checkpoint:
/// each source's name and digest (so that a resumed run refuses an input
/// that changed), and every option that changes what is written.
fn identity(args: &AnalyzeArgs, sources: &[Source]) -> anyhow::Result<(String, Vec<u8>)> {
    let mut identity = format!(
        "box={:?} symbols={:?} variant={} format={:?} lang={:?} minimal={} max_line={} timeout={:?}",
        args.format.shape,
        args.format.symbols,
        args.variant.variant,
        args.output.format,
        args.lang,
        args.minimal,
        args.lines.max_line,
        args.timeout.timeout,
    );
    for source in sources {
        match source.digest()? {
            Some(digest) => identity += &format!("\n{} {digest:016x}", source.name),
            None if args.record.needs_replay() => anyhow::bail!(
                "{}: standard input, a pipe or a device cannot be read again; \
                 --shard and --resume need the input in files",
                source.name
            ),
            None => identity += &format!("\n{} once", source.name),
        }
    }
    let what = match sources {
        [one] => one.name.clone(),
        many => format!("{} sources ({} …)", many.len(), many[0].name),
    };
    Ok((what, identity.into_bytes()))
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

/// The summary on standard error: counts (of the whole run, a resumed
/// one's earlier part included), times, and the rate of this run's
/// `analysed` puzzles.
fn print_summary(summary: &Summary, analysed: u64, lang: Lang, threads: usize, wall: Duration) {
    let rate = analysed as f64 / wall.as_secs_f64().max(1e-9);
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
