//! Puzzles written as a grid over several lines, joined into one line each.
//!
//! Besides one puzzle per line (SPEC §1), people paste grids one row per
//! line, as `sudokit solve --pretty` prints them and as books and forums
//! show them:
//!
//! ```text
//! 5 3 . | . 7 . | . . .        530070000
//! 6 . . | 1 9 5 | . . .        600195000
//! ------+-------+------        ...
//! ```
//!
//! [`RowsReader`] wraps an input and hands on the same text with every such
//! grid joined into one puzzle line, so that every reader of puzzle lines
//! takes both layouts. Its rules:
//!
//! - **The layout is decided once, by the first puzzle line** (as the size
//!   is): a line whose first field is a whole one-line puzzle (16, 25, 36, …
//!   4096 cells) means
//!   one-line input, and the rest of the input passes through untouched, at
//!   no cost. Otherwise, when the line is a row of 4 to 64 cells, the input
//!   is read as grids of rows. (4 and 9 cells are taken for rows of 4×4 and
//!   9×9 grids, not for one-line 2×2 and 3×3 grids, which no one solves.) With `--box RxC` a row is any line of `R·C`
//!   cells that is not itself a whole puzzle.
//! - A row is a line of cells, with any spaces, tabs and `|` between them.
//!   A line made only of `-`, `=`, `+`, `|` and spaces is a rule between
//!   bands and is skipped (unless it is exactly `N` dashes and nothing else,
//!   a row of blanks). A line `id:` alone gives the next grid its id.
//! - `N` rows make a grid, printed as one line `[id:]cells` in the place of
//!   its first line; the lines it took are handed on empty, so that line
//!   numbers (which count every line) still point at the input's lines. A
//!   grid cut short by something else (another one-line puzzle, a row of
//!   another length, the end of input) is handed on as the cells it had, and
//!   is then reported as a line of the wrong length.
//! - Blank lines, `#` comments and `end` pass through; a line longer than
//!   the cap is handed on as a line just over the cap, so the reader after
//!   this one reports it as too long.

use std::io::{self, Read};

use crate::grid::MAX_SIDE;
use crate::lines::LineReader;
use crate::parse::{classify, Line};

/// How much of the input is looked at to find its first puzzle line.
const PEEK_BYTES: usize = 64 << 10;

/// An input with grids written over several lines joined into one line each;
/// see the [module documentation](self).
pub struct RowsReader<R: Read> {
    inner: Inner<R>,
}

/// Passing through, or joining rows.
enum Inner<R: Read> {
    /// One-line input: the peeked bytes, then the rest of the input as is.
    Lines(io::Chain<io::Cursor<Vec<u8>>, R>),
    /// Grid input, joined line by line.
    Rows(Box<Joiner<R>>),
}

impl<R: Read> RowsReader<R> {
    /// Reads the start of `input` to decide its layout. `side` is the grid's
    /// side when the user gave the box shape, `max_line` the cap on a line's
    /// length of the reader this one feeds.
    pub fn new(mut input: R, side: Option<usize>, max_line: usize) -> io::Result<Self> {
        let mut peeked = Vec::new();
        let mut chunk = [0u8; 8192];
        let mut layout = None;
        while layout.is_none() && peeked.len() < PEEK_BYTES {
            let read = match input.read(&mut chunk) {
                Ok(read) => read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            peeked.extend_from_slice(&chunk[..read]);
            layout = decide(&peeked, side, read == 0);
            if read == 0 {
                break;
            }
        }
        let rest = io::Cursor::new(peeked).chain(input);
        let inner = match layout {
            Some(Layout::Rows(side)) => Inner::Rows(Box::new(Joiner {
                lines: LineReader::new(rest, max_line),
                side,
                max_line,
                out: Vec::new(),
                sent: 0,
                grid: Grid::default(),
            })),
            _ => Inner::Lines(rest),
        };
        Ok(RowsReader { inner })
    }

    /// Whether the input is read as grids over several lines.
    pub fn joins_rows(&self) -> bool {
        matches!(self.inner, Inner::Rows(_))
    }
}

impl<R: Read> Read for RowsReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.inner {
            Inner::Lines(input) => input.read(buf),
            Inner::Rows(joiner) => joiner.read(buf),
        }
    }
}

/// The layout of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// One puzzle per line.
    Lines,
    /// Grids of this side, one row per line.
    Rows(usize),
}

/// The layout given by the first puzzle line of `peeked`, once that line is
/// complete (or the input has ended: `at_end`); `None` while undecided.
fn decide(peeked: &[u8], side: Option<usize>, at_end: bool) -> Option<Layout> {
    let mut rest = peeked;
    loop {
        let (line, complete) = match memchr::memchr(b'\n', rest) {
            Some(p) => (&rest[..p], true),
            None => (rest, at_end),
        };
        if !complete {
            return None;
        }
        match classify(line) {
            Line::Skip => {}
            Line::End => return Some(Layout::Lines),
            // `id:` alone: the id of a grid that follows.
            Line::Puzzle {
                id: Some(_),
                cells: [],
            } => {}
            Line::Puzzle { cells, .. } => return Some(first_line_layout(line, cells, side)),
        }
        if line.len() == rest.len() {
            return Some(Layout::Lines);
        }
        rest = &rest[line.len() + 1..];
    }
}

/// The layout that a first puzzle line (`cells` its first field) implies.
fn first_line_layout(line: &[u8], cells: &[u8], side: Option<usize>) -> Layout {
    let count = cells.len();
    let whole_puzzle = match side {
        Some(side) => count == side * side,
        None => {
            let root = (count as f64).sqrt().round() as usize;
            root * root == count && (4..=MAX_SIDE).contains(&root)
        }
    };
    if whole_puzzle {
        return Layout::Lines;
    }
    match (row_cells(line), side) {
        (Some(row), Some(side)) if row.len() == side => Layout::Rows(side),
        (Some(row), None) if (4..=MAX_SIDE).contains(&row.len()) => Layout::Rows(row.len()),
        _ => Layout::Lines,
    }
}

/// The cells of a row line: everything but spaces, tabs and `|`, when that
/// is not empty and holds none of the characters that make a line something
/// else (`:` `;` `,` `#`); `None` otherwise.
fn row_cells(line: &[u8]) -> Option<Vec<u8>> {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let cells: Vec<u8> = line
        .iter()
        .copied()
        .filter(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'|'))
        .collect();
    let usable = !cells.is_empty() && !cells.iter().any(|b| b":;,#".contains(b));
    usable.then_some(cells)
}

/// Whether `line` is a rule between bands of a grid of side `side`.
fn is_rule(line: &[u8], side: usize) -> bool {
    let line = line.trim_ascii();
    let only_rule_bytes = !line.is_empty()
        && line
            .iter()
            .all(|b| matches!(b, b'-' | b'=' | b'+' | b'|' | b' ' | b'\t'));
    let a_blank_row = line.len() == side && line.iter().all(|&b| b == b'-');
    only_rule_bytes && !a_blank_row
}

/// A grid being gathered: its id, cells so far, rows, and input lines taken.
#[derive(Default)]
struct Grid {
    id: Option<Vec<u8>>,
    cells: Vec<u8>,
    rows: usize,
    lines: usize,
}

/// Joins rows into grid lines (the [`Layout::Rows`] side of [`RowsReader`]).
struct Joiner<R: Read> {
    lines: LineReader<io::Chain<io::Cursor<Vec<u8>>, R>>,
    side: usize,
    max_line: usize,
    /// Text ready to hand on; `out[sent..]` is not handed on yet.
    out: Vec<u8>,
    sent: usize,
    grid: Grid,
}

impl<R: Read> Joiner<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.sent == self.out.len() {
            self.out.clear();
            self.sent = 0;
            if !self.step()? {
                self.flush_grid();
                if self.out.is_empty() {
                    return Ok(0);
                }
            }
        }
        let n = buf.len().min(self.out.len() - self.sent);
        buf[..n].copy_from_slice(&self.out[self.sent..self.sent + n]);
        self.sent += n;
        Ok(n)
    }

    /// Takes one input line; `false` at the end of input.
    fn step(&mut self) -> io::Result<bool> {
        let Some(item) = self.lines.next_line()? else {
            return Ok(false);
        };
        let line = match item {
            Ok(line) => line.to_vec(),
            Err(_) => {
                self.flush_grid();
                // Just over the cap: the next reader reports it as too long.
                self.out.resize(self.out.len() + self.max_line + 1, b'-');
                self.out.push(b'\n');
                return Ok(true);
            }
        };
        match classify(&line) {
            Line::Skip if self.grid.rows == 0 && self.grid.id.is_none() => self.pass(&line),
            Line::Skip => self.take_line(),
            Line::End => {
                self.flush_grid();
                self.pass(&line);
            }
            Line::Puzzle {
                id: Some(id),
                cells: [],
            } => {
                self.flush_grid();
                self.grid.id = Some(id.as_bytes().to_vec());
                self.grid.lines = 1;
            }
            Line::Puzzle { cells, .. } if cells.len() == self.side * self.side => {
                self.flush_grid();
                self.pass(&line);
            }
            Line::Puzzle { .. } if is_rule(&line, self.side) => {
                if self.grid.rows == 0 && self.grid.id.is_none() {
                    self.pass(b"");
                } else {
                    self.take_line();
                }
            }
            Line::Puzzle { .. } => match row_cells(&line) {
                Some(row) if row.len() == self.side => {
                    self.grid.cells.extend_from_slice(&row);
                    self.grid.rows += 1;
                    self.take_line();
                    if self.grid.rows == self.side {
                        self.flush_grid();
                    }
                }
                _ => {
                    self.flush_grid();
                    self.pass(&line);
                }
            },
        }
        Ok(true)
    }

    /// Counts a line as part of the grid being gathered.
    fn take_line(&mut self) {
        self.grid.lines += 1;
    }

    /// Hands a line on as it is.
    fn pass(&mut self, line: &[u8]) {
        self.out.extend_from_slice(line);
        self.out.push(b'\n');
    }

    /// Hands on the grid gathered so far, if any: one line of its cells, then
    /// an empty line for each other input line it took.
    fn flush_grid(&mut self) {
        let grid = std::mem::take(&mut self.grid);
        if grid.lines == 0 {
            return;
        }
        if let Some(id) = &grid.id {
            self.out.extend_from_slice(id);
            self.out.push(b':');
        }
        self.out.extend_from_slice(&grid.cells);
        self.out.push(b'\n');
        self.out.resize(self.out.len() + grid.lines - 1, b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(text: &str, side: Option<usize>) -> String {
        let mut reader = RowsReader::new(text.as_bytes(), side, 1 << 20).unwrap();
        let mut out = String::new();
        reader.read_to_string(&mut out).unwrap();
        out
    }

    const PRETTY: &str = "\
9 8 1 | 7 2 4 | 3 6 5
3 2 4 | 6 1 5 | 8 7 9
7 6 5 | 9 8 3 | 1 4 2
------+-------+------
1 9 7 | 8 3 6 | 2 5 4
6 4 2 | 5 7 1 | 9 3 8
8 5 3 | 2 4 9 | 7 1 6
------+-------+------
4 7 6 | 3 9 8 | 5 2 1
5 3 8 | 1 6 2 | 4 9 7
2 1 9 | 4 5 7 | 6 8 3
";

    #[test]
    fn one_line_input_passes_through_untouched() {
        let text = "# c\n1234341221434321\n\n..3.....1.......\n";
        assert_eq!(joined(text, None), text);
        let reader = RowsReader::new(text.as_bytes(), None, 100).unwrap();
        assert!(!reader.joins_rows());
    }

    #[test]
    fn a_pretty_grid_becomes_one_line_where_it_started() {
        let out = joined(PRETTY, None);
        let lines: Vec<&str> = out.split('\n').collect();
        assert_eq!(
            lines[0],
            "981724365324615879765983142197836254642571938853249716476398521538162497219457683"
        );
        // Every input line is still there, so line numbers hold.
        assert_eq!(out.matches('\n').count(), PRETTY.matches('\n').count());
    }

    #[test]
    fn ids_compact_rows_and_several_grids() {
        let compact = "x:\n530070000\n600195000\n098000060\n800060003\n400803001\n700020006\n060000280\n000419005\n000080079\n\ny:\n".to_string()
            + PRETTY;
        let out = joined(&compact, None);
        let puzzles: Vec<&str> = out.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(
            puzzles[0],
            "x:530070000600195000098000060800060003400803001700020006060000280000419005000080079"
        );
        assert!(puzzles[1].starts_with("y:981724365"));
        assert_eq!(out.matches('\n').count(), compact.matches('\n').count());
    }

    #[test]
    fn four_cell_rows_make_a_four_by_four_grid() {
        let out = joined("1234\n3412\n2143\n4321\n", None);
        assert_eq!(out.lines().next(), Some("1234341221434321"));
    }

    #[test]
    fn a_short_grid_is_handed_on_as_what_it_had() {
        let out = joined("1 2 | 3 4\n3 4 | 1 2\n\n", None);
        assert_eq!(out.lines().next(), Some("12343412"));
    }

    #[test]
    fn a_box_shape_makes_rows_of_its_side() {
        // 16 cells: a one-line 4x4 puzzle unless the box says 16x16 rows.
        let row = "123456789ABCDEFG\n";
        assert_eq!(joined(row, None), row);
        let grid = row.repeat(16);
        let out = joined(&grid, Some(16));
        assert_eq!(out.lines().next().map(str::len), Some(256));
    }

    #[test]
    fn rows_of_dashes_are_blank_rows_and_longer_dashes_rules() {
        let text = "1 2 3 4\n----\n---+---\n3 4 1 2\n2 1 4 3\n";
        let out = joined(text, None);
        assert_eq!(out.lines().next(), Some("1234----34122143"));
    }
}
