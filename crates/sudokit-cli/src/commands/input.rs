//! Where puzzles come from: one rule for every command that reads them.
//!
//! Operands are files, read in the order given: `-` is standard input, and
//! any path that opens is read (a regular file, a FIFO, `/dev/stdin`, a
//! process substitution `<(…)`). An operand that names no existing file but
//! reads as one whole puzzle of its own (SPEC §1: a square number of cells,
//! only symbols and blanks, an optional `id:`; or a grid over several lines)
//! is that puzzle, so `sudokit solve 0007040…` works; `--puzzle P` says
//! so explicitly, whatever files exist. Anything else is a file that cannot
//! be opened: `cannot open PATH: reason`, exit status 2, before any output.
//! No operand at all means standard input.
//!
//! Each source is read on its own (the first puzzle of each sets its size),
//! and grids written over several lines are joined ([`sudokit::rows`]).

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use anyhow::Context;
use sudokit::analyze::{
    analyze_rendered, analyze_stream, AnalyzeError, AnalyzeOptions, Render, Rendered, Summary,
    Verdicts,
};
use sudokit::grid::{Puzzle, Shape};
use sudokit::lines::{Item, LineReader};
use sudokit::parse::{classify, Format, FormatError, FormatSpec, Line, ParseError};
use sudokit::rows::RowsReader;
use sudokit::search::digest::Fnv1a;
use sudokit::variant::fpuzzles::{self, looks_like_fpuzzles};
use sudokit::variant::text::{self, has_layout_fields};
use sudokit::variant::{Layout, LayoutError, Rules};

/// The operands of a command that reads puzzles.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct InputArgs {
    /// Files of puzzles, one per line or one grid over several lines, read in
    /// order (`-`: standard input; FIFOs and devices too). An operand that is
    /// no existing file but reads as a whole puzzle is that puzzle. None:
    /// standard input.
    #[arg(value_name = "FILE|PUZZLE")]
    pub operands: Vec<OsString>,
    /// A puzzle given on the command line, whatever files exist (repeatable;
    /// read after the operands).
    #[arg(long = "puzzle", value_name = "PUZZLE")]
    pub puzzles: Vec<String>,
}

/// One place puzzles are read from.
pub struct Source {
    /// How error messages name it: the path, `-`, or `argument K`.
    pub name: String,
    /// Its length in bytes, when it is a regular file (for a progress bar).
    pub size: Option<u64>,
    reader: Box<dyn Read + Send>,
    /// How to read it again, for its digest.
    again: Again,
}

/// How a source can be read a second time.
enum Again {
    /// A regular file: opened again by its path.
    File(std::path::PathBuf),
    /// A puzzle given as an argument: its text.
    Text(String),
    /// Standard input, a FIFO or a device: its bytes are gone once read.
    Never,
}

impl Source {
    /// Standard input, named `-`.
    fn stdin() -> Source {
        Source {
            name: "-".to_string(),
            size: None,
            reader: Box::new(io::stdin()),
            again: Again::Never,
        }
    }

    /// The file the source reads, when it is a regular file.
    pub fn path(&self) -> Option<&Path> {
        match &self.again {
            Again::File(path) => Some(path),
            _ => None,
        }
    }

    /// The FNV-1a digest of the source's bytes, read again from the start
    /// (so that a resumed run can tell that its input has not changed);
    /// `None` for standard input, a FIFO or a device, which cannot be read
    /// twice.
    pub fn digest(&self) -> anyhow::Result<Option<u64>> {
        let mut digest = Fnv1a::new();
        match &self.again {
            Again::Never => return Ok(None),
            Again::Text(text) => digest.update(text.as_bytes()),
            Again::File(path) => {
                let cannot = |e: io::Error| anyhow::anyhow!("cannot read {}: {e}", self.name);
                let mut file = File::open(path).map_err(cannot)?;
                digest
                    .update_from(&mut file, u64::MAX, |_| {})
                    .map_err(cannot)?;
            }
        }
        Ok(Some(digest.value()))
    }

    /// The source's text, with grids over several lines joined into one line
    /// each. `side` is the grid's side when `--box` gave it.
    pub fn reader(
        self,
        side: Option<usize>,
        max_line: usize,
    ) -> anyhow::Result<Box<dyn Read + Send>> {
        let name = self.name;
        let rows = RowsReader::new(self.reader, side, max_line)
            .map_err(|e| anyhow::anyhow!("cannot read {name}: {e}"))?;
        Ok(Box::new(rows))
    }

    /// The source's bytes as they are, for commands whose puzzles are not
    /// Sudoku grids (`slide`), where joining rows into grids would be wrong.
    pub fn into_raw(self) -> Box<dyn Read + Send> {
        self.reader
    }
}

impl InputArgs {
    /// Opens every source in order, so that a missing file stops the command
    /// before it prints anything. `spec` decides whether an operand that is
    /// no file reads as a Sudoku puzzle.
    pub fn open(&self, spec: &FormatSpec) -> anyhow::Result<Vec<Source>> {
        self.open_with(|text| reads_as_puzzle(text, spec))
    }

    /// [`InputArgs::open`] for any kind of puzzle: `reads_as_puzzle` says
    /// whether an operand that names no existing file is a puzzle of the
    /// command's own kind (a sliding puzzle for `slide`), so that every
    /// command shares the rule for operands and only this test differs.
    pub fn open_with(&self, reads_as_puzzle: impl Fn(&str) -> bool) -> anyhow::Result<Vec<Source>> {
        let mut sources = Vec::new();
        let mut inline = 0;
        // A puzzle pasted from f-puzzles (a link, its data, its JSON) is
        // read as the line `sudokit import` would make of it.
        let mut inline_source = |text: &str| -> anyhow::Result<Source> {
            inline += 1;
            let text = if looks_like_fpuzzles(text) {
                fpuzzles::parse(text.trim())
                    .map_err(|e| anyhow::anyhow!("argument {inline}: {e}"))?
                    .to_string()
            } else {
                text.to_string()
            };
            Ok(Source {
                name: format!("argument {inline}"),
                size: Some(text.len() as u64),
                reader: Box::new(io::Cursor::new(text.clone().into_bytes())),
                again: Again::Text(text),
            })
        };
        for operand in &self.operands {
            if operand == "-" {
                sources.push(Source::stdin());
                continue;
            }
            let path = Path::new(operand);
            if path.symlink_metadata().is_err() {
                if let Some(text) = operand
                    .to_str()
                    .filter(|t| reads_as_puzzle(t) || looks_like_fpuzzles(t))
                {
                    sources.push(inline_source(text)?);
                    continue;
                }
            }
            sources.push(open_file(path)?);
        }
        for puzzle in &self.puzzles {
            sources.push(inline_source(puzzle)?);
        }
        if sources.is_empty() {
            sources.push(Source::stdin());
        }
        Ok(sources)
    }
}

/// Opens a file operand; a directory is refused here, where its name is
/// known, rather than failing at the first read.
fn open_file(path: &Path) -> anyhow::Result<Source> {
    let name = path.display().to_string();
    let cannot = |e: io::Error| anyhow::anyhow!("cannot open {name}: {e}");
    let metadata = path.metadata().map_err(cannot)?;
    if metadata.is_dir() {
        anyhow::bail!("cannot open {name}: it is a directory");
    }
    let file = File::open(path).map_err(cannot)?;
    Ok(Source {
        size: metadata.is_file().then_some(metadata.len()),
        name,
        reader: Box::new(file),
        again: match metadata.is_file() {
            true => Again::File(path.to_path_buf()),
            false => Again::Never,
        },
    })
}

/// Whether an operand's text is a puzzle of its own: one line that parses
/// whole under `spec` (a square number of cells unless `--box` says), or
/// text over several lines (no path has a newline).
fn reads_as_puzzle(text: &str, spec: &FormatSpec) -> bool {
    if text.trim().contains('\n') {
        return true;
    }
    // Judged by its own size: a `--box` that does not fit it is reported
    // when the puzzle is read, not taken for a missing file.
    let own_size = FormatSpec {
        shape: None,
        symbols: spec.symbols.clone(),
    };
    match classify(text.as_bytes()) {
        Line::Puzzle { cells, .. } => own_size
            .resolve(cells)
            .is_ok_and(|format| format.parse(cells).is_ok()),
        Line::Skip | Line::End => false,
    }
}

/// The lines of one source that hold something, read one at a time: blank
/// lines and `#` comments passed over but counted, so that every line is
/// known by its physical number; an `end` line ends the source (SPEC §1).
/// Shared by [`PuzzleLines`] and the commands whose puzzles are not Sudoku
/// grids (`slide`).
pub struct SourceLines {
    lines: LineReader<Box<dyn Read + Send>>,
    /// Physical lines read so far.
    line: u64,
    /// The line being handed out.
    current: Vec<u8>,
}

impl SourceLines {
    /// Reads `input` with lines of at most `max_line` bytes.
    pub fn new(input: Box<dyn Read + Send>, max_line: usize) -> Self {
        SourceLines {
            lines: LineReader::new(input, max_line),
            line: 0,
            current: Vec::new(),
        }
    }

    /// The next line that is not skipped, with its physical number (1-based,
    /// counting every line): its bytes, or [`sudokit::lines::TooLong`] for a
    /// line over the cap. `None` at the end of input or an `end` line.
    pub fn next_line(&mut self) -> anyhow::Result<Option<(u64, Item<'_>)>> {
        // The line is copied out of the reader, so that what is handed out
        // borrows only `current`.
        loop {
            let Some(item) = self.lines.next_line().context("reading input")? else {
                return Ok(None);
            };
            self.line += 1;
            match item {
                Err(too_long) => return Ok(Some((self.line, Err(too_long)))),
                Ok(raw) => match classify(raw) {
                    Line::Skip => {}
                    Line::End => return Ok(None),
                    Line::Puzzle { .. } => {
                        self.current.clear();
                        self.current.extend_from_slice(raw);
                        return Ok(Some((self.line, Ok(&self.current))));
                    }
                },
            }
        }
    }
}

/// Puzzle lines of one source, read one at a time: skipped lines passed
/// over, the format settled by the first puzzle, each puzzle parsed.
pub struct PuzzleLines {
    lines: SourceLines,
    spec: FormatSpec,
    format: Option<Format>,
    /// Whether the command reads layout fields (else a line with them is
    /// invalid, rather than read as plain Sudoku).
    variants: bool,
}

/// One puzzle line of a source.
pub struct Entry<'a> {
    /// Its physical line number (1-based, counting every line).
    pub line: u64,
    /// Its id, if any.
    pub id: Option<&'a str>,
    /// Its cell text as read.
    pub cells: &'a [u8],
    /// The text after the cells (layout fields, a rating, a name …).
    pub rest: &'a [u8],
    /// The source's box shape, once its first puzzle has settled it.
    pub shape: Option<Shape>,
    /// The puzzle, or why the line is invalid.
    pub puzzle: Result<Puzzle, ParseError>,
}

impl PuzzleLines {
    /// Reads `source` under `spec` with lines of at most `max_line` bytes.
    pub fn new(source: Source, spec: &FormatSpec, max_line: usize) -> anyhow::Result<Self> {
        let side = spec.shape.map(|s| s.side());
        Ok(PuzzleLines {
            lines: SourceLines::new(source.reader(side, max_line)?, max_line),
            spec: spec.clone(),
            format: None,
            variants: false,
        })
    }

    /// These lines for a command that reads variant layout fields (see
    /// [`Entry::layout`]); other commands refuse a line that has them.
    pub fn with_variants(mut self) -> Self {
        self.variants = true;
        self
    }

    /// The next puzzle line; `None` at the end of input or an `end` line. A
    /// `--symbols` or `--box` that fits no line of this source is an error.
    pub fn next_entry(&mut self) -> anyhow::Result<Option<Entry<'_>>> {
        let Some((line, item)) = self.lines.next_line()? else {
            return Ok(None);
        };
        let raw = match item {
            Ok(raw) => raw,
            Err(too_long) => {
                return Ok(Some(Entry {
                    line,
                    id: None,
                    cells: b"",
                    rest: b"",
                    shape: self.format.as_ref().map(Format::shape),
                    puzzle: Err(too_long.into()),
                }))
            }
        };
        let (id, cells) = match classify(raw) {
            Line::Skip | Line::End => return Ok(None),
            Line::Puzzle { id, cells } => (id, cells),
        };
        let after_cells = cells.as_ptr() as usize - raw.as_ptr() as usize + cells.len();
        let rest = &raw[after_cells..];
        if self.format.is_none() {
            match self.spec.resolve(cells) {
                Ok(format) => self.format = Some(format),
                Err(FormatError::Line(error)) => {
                    return Ok(Some(Entry {
                        line,
                        id,
                        cells,
                        rest,
                        shape: None,
                        puzzle: Err(error),
                    }))
                }
                Err(error) => anyhow::bail!("line {line}: {error}"),
            }
        }
        let format = self.format.as_ref().expect("settled above");
        let puzzle = if !self.variants && has_layout_fields(rest) {
            Err(ParseError::Layout(LayoutError::Syntax(
                "this command reads plain Sudoku only; variant layouts (regions=, variant=, \
                 cage=, group=) are read by analyze, solve, count, rate, hint, explain and serve"
                    .to_string(),
            )))
        } else {
            format.parse(cells)
        };
        Ok(Some(Entry {
            line,
            id,
            cells,
            rest,
            shape: Some(format.shape()),
            puzzle,
        }))
    }
}

impl Entry<'_> {
    /// The variant layout of this entry's puzzle: `rules` (`--variant`) and
    /// the layout fields after its cells; `None` for plain Sudoku.
    pub fn layout(&self, puzzle: &Puzzle, rules: Rules) -> Result<Option<Layout>, ParseError> {
        let base = Layout::classic(puzzle.shape()).with_rules(rules);
        let layout = text::apply_fields(base, &String::from_utf8_lossy(self.rest))?;
        Ok((!layout.is_classic()).then_some(layout))
    }
}

/// Runs the analyzer over every source in turn (each settles its own
/// format), handing `sink` each block's verdicts with the source's name when
/// the run reads several (for error lines), and calling `source_done` after
/// each source. Returns the run's totals.
pub fn analyze_sources(
    sources: Vec<Source>,
    options: &AnalyzeOptions,
    mut sink: impl FnMut(Option<&str>, Option<&Format>, &Verdicts<'_>) -> io::Result<()>,
    source_done: impl FnMut(),
) -> anyhow::Result<Summary> {
    each_source(sources, options, source_done, |input, options, shown| {
        analyze_stream(input, options, |format, verdicts| {
            sink(shown, format, verdicts)
        })
    })
}

/// Runs the analyzer over every source in turn as [`analyze_sources`] does,
/// but each run of verdicts is rendered on the worker that analysed it, by
/// the renderer `render_for` makes for the source (given its name when the
/// run reads several), and `sink` gets each block's output.
pub fn render_sources<R: Render>(
    sources: Vec<Source>,
    options: &AnalyzeOptions,
    render_for: impl Fn(Option<&str>) -> R,
    mut sink: impl FnMut(Rendered<R::Output>) -> io::Result<()>,
    source_done: impl FnMut(),
) -> anyhow::Result<Summary> {
    each_source(sources, options, source_done, |input, options, shown| {
        analyze_rendered(input, options, &render_for(shown), &mut sink)
    })
}

/// Analyses every source in turn with `analyze` (given the source's reader,
/// the options numbering its puzzles after those of the sources before,
/// and its name when the run reads several), calling `source_done` after
/// each. Returns the run's totals.
fn each_source(
    sources: Vec<Source>,
    options: &AnalyzeOptions,
    mut source_done: impl FnMut(),
    mut analyze: impl FnMut(
        Box<dyn Read + Send>,
        &AnalyzeOptions,
        Option<&str>,
    ) -> Result<Summary, AnalyzeError>,
) -> anyhow::Result<Summary> {
    let several = sources.len() > 1;
    let side = options.spec.shape.map(|s| s.side());
    let mut total = Summary::default();
    let mut options = options.clone();
    for source in sources {
        let name = source.name.clone();
        let shown = several.then_some(name.as_str());
        let input = source.reader(side, options.max_line)?;
        options.numbering.before = total.passed;
        let summary =
            analyze(input, &options, shown).map_err(|e| stream_error(&name, several, e))?;
        source_done();
        add_summary(&mut total, &summary);
    }
    Ok(total)
}

/// Why the analyzer stopped reading source `name`, as a message naming the
/// source (when the run reads several, or when reading it failed).
fn stream_error(name: &str, several: bool, error: AnalyzeError) -> anyhow::Error {
    match error {
        AnalyzeError::Read(e) => anyhow::anyhow!("reading {name}: {e}"),
        AnalyzeError::Write(e) => anyhow::Error::new(e).context("writing output"),
        other if several => anyhow::anyhow!("{name}: {other}"),
        other => other.into(),
    }
}

/// Adds a source's totals to the run's.
fn add_summary(total: &mut Summary, source: &Summary) {
    total.unique += source.unique;
    total.none += source.none;
    total.multiple += source.multiple;
    total.invalid += source.invalid;
    total.timed_out += source.timed_out;
    total.passed = source.passed;
    total.read_time += source.read_time;
    total.compute_time += source.compute_time;
    total.write_time += source.write_time;
}

/// Where an invalid line is: `line N: reason`, after the source's name when
/// the run reads more than one source.
pub fn locate(source: Option<&str>, line: u64, error: &dyn std::fmt::Display) -> String {
    match source {
        Some(name) => format!("{name}: line {line}: {error}"),
        None => format!("line {line}: {error}"),
    }
}
