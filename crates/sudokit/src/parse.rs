//! Puzzles as text (SPEC §1): lines, ids, alphabets, and errors that say where.
//!
//! Reading a puzzle file is two steps. [`classify`] looks at one raw line and
//! says whether it is a puzzle (with its optional `id:` and its cell text), a
//! line to skip (blank, `#` comment), or the `end` marker. A [`Format`] — the
//! shape and the [`Alphabet`] — then turns the cell text into digits. The format
//! is fixed by the first puzzle of a file ([`FormatSpec::resolve`]): its cell
//! count picks the size, unless `--box` fixed it.

use std::fmt;
use std::str::FromStr;

use crate::bytes;
use crate::grid::{Puzzle, Shape, ShapeError};
use crate::lines::TooLong;

/// The default symbols; a grid of side `N` uses the first `N`.
pub const DEFAULT_SYMBOLS: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Characters that mean "blank" unless the alphabet uses them as symbols.
pub const BLANKS: &str = ".*-_0";

/// Marks a byte that is neither a symbol nor a blank in [`Alphabet`]'s table.
const UNKNOWN: u8 = u8::MAX;

/// The symbols of a grid and the blanks beside them, as a byte lookup table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    symbols: Vec<u8>,
    /// For each byte: 0 for a blank, `1..=N` for a digit, [`UNKNOWN`] otherwise.
    values: [u8; 256],
}

/// Why an alphabet cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AlphabetError {
    /// The number of symbols does not match the grid's side.
    #[error("{given} symbols given, a grid of side {side} needs {side}")]
    WrongCount {
        /// Symbols supplied.
        given: usize,
        /// Side of the grid.
        side: usize,
    },
    /// A symbol that is not a printable ASCII character, or one used as a
    /// separator (`:`, `;`, `,`, `#`).
    #[error("symbol {0:?} cannot be used (printable ASCII other than : ; , # only)")]
    Unusable(char),
    /// A side larger than the default symbols cover, with no `--symbols`.
    #[error("a grid of side {0} needs --symbols: the default symbols cover sides up to 61")]
    NoDefault(usize),
    /// The same symbol twice.
    #[error("symbol '{0}' appears twice")]
    Repeated(char),
}

impl Alphabet {
    /// An alphabet of the given symbols, one per digit, in digit order.
    ///
    /// Blanks are [`BLANKS`] less the symbols; a letter also stands for its
    /// other case unless that case is a symbol of its own.
    pub fn new(symbols: &str, side: usize) -> Result<Alphabet, AlphabetError> {
        let count = symbols.chars().count();
        if count != side {
            return Err(AlphabetError::WrongCount { given: count, side });
        }
        let mut values = [UNKNOWN; 256];
        for ch in symbols.chars() {
            if !ch.is_ascii_graphic() || ":;,#".contains(ch) {
                return Err(AlphabetError::Unusable(ch));
            }
        }
        let bytes = symbols.as_bytes();
        for (digit, &b) in bytes.iter().enumerate() {
            if values[b as usize] != UNKNOWN {
                return Err(AlphabetError::Repeated(b as char));
            }
            values[b as usize] = digit as u8 + 1;
        }
        for (digit, &b) in bytes.iter().enumerate() {
            let other = if b.is_ascii_lowercase() {
                b.to_ascii_uppercase()
            } else {
                b.to_ascii_lowercase()
            };
            if other != b && !bytes.contains(&other) {
                values[other as usize] = digit as u8 + 1;
            }
        }
        for b in BLANKS.bytes() {
            if !bytes.contains(&b) {
                values[b as usize] = 0;
            }
        }
        Ok(Alphabet {
            symbols: bytes.to_vec(),
            values,
        })
    }

    /// The default alphabet for side `side` (the first `side` of
    /// [`DEFAULT_SYMBOLS`]); sides beyond its 61 symbols need symbols of
    /// their own.
    pub fn default_for(side: usize) -> Result<Alphabet, AlphabetError> {
        match DEFAULT_SYMBOLS.get(..side) {
            Some(symbols) => Alphabet::new(symbols, side),
            None => Err(AlphabetError::NoDefault(side)),
        }
    }

    /// The symbol that prints `digit` (`1..=N`).
    ///
    /// # Panics
    /// If `digit` is 0 or above `N`, as slice indexing does.
    pub fn symbol(&self, digit: u8) -> u8 {
        self.symbols[digit as usize - 1]
    }

    /// The value of byte `b`: `Some(0)` blank, `Some(1..=N)` digit, `None`
    /// unknown.
    pub fn value(&self, b: u8) -> Option<u8> {
        let v = self.values[b as usize];
        (v != UNKNOWN).then_some(v)
    }

    /// Writes the cells of `grid` (0 = blank, printed as `.`) as one line.
    ///
    /// # Panics
    /// If a cell is above `N` (a [`Puzzle`]'s cells never are).
    pub fn write_cells(&self, grid: &[u8], out: &mut Vec<u8>) {
        out.extend(
            grid.iter()
                .map(|&v| if v == 0 { b'.' } else { self.symbol(v) }),
        );
    }
}

/// What one raw input line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// Blank or `#` comment: skipped and not numbered.
    Skip,
    /// `end`: the input stops here.
    End,
    /// A puzzle: its optional id and its cell text (trailing fields removed).
    Puzzle {
        /// Everything before the first `:`, when there is one before the cells end.
        id: Option<&'a str>,
        /// The cell characters.
        cells: &'a [u8],
    },
}

/// Byte classes for [`classify`]'s single pass over a line.
const ORDINARY: u8 = 0;
/// Whitespace, `;` and `,`: the cell text ends, a rating or a name follows.
const SEPARATOR: u8 = 1;
/// `:`: the end of an id.
const COLON: u8 = 2;

/// The class of every byte, built at compile time.
static BYTE_CLASS: [u8; 256] = {
    let mut table = [ORDINARY; 256];
    let separators = b" \t\n\r\x0c;,";
    let mut i = 0;
    while i < separators.len() {
        table[separators[i] as usize] = SEPARATOR;
        i += 1;
    }
    table[b':' as usize] = COLON;
    table
};

/// Where the first field of `text` ends, and the first `:` within it.
fn first_field(text: &[u8]) -> (usize, Option<usize>) {
    let mut colon = None;
    for (i, &b) in text.iter().enumerate() {
        match BYTE_CLASS[b as usize] {
            ORDINARY => {}
            SEPARATOR => return (i, colon),
            _ => {
                colon = colon.or(Some(i));
            }
        }
    }
    (text.len(), colon)
}

/// Classifies one input line (without its `\n`); see [`Line`].
pub fn classify(raw: &[u8]) -> Line<'_> {
    let raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
    let line = raw.trim_ascii();
    if line.is_empty() || line[0] == b'#' {
        return Line::Skip;
    }
    if line == b"end" {
        return Line::End;
    }
    match first_field(line) {
        (field_end, None) => Line::Puzzle {
            id: None,
            cells: &line[..field_end],
        },
        (_, Some(colon)) => {
            let rest = line[colon + 1..].trim_ascii_start();
            let (end, _) = first_field(rest);
            // Ids come from the line's bytes; a non-UTF-8 id keeps only its
            // valid prefix.
            let id = std::str::from_utf8(&line[..colon])
                .unwrap_or_else(|e| std::str::from_utf8(&line[..e.valid_up_to()]).unwrap_or(""));
            Line::Puzzle {
                id: Some(id),
                cells: &rest[..end],
            }
        }
    }
}

/// Why a puzzle line is invalid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The line has another number of cells than the file's puzzles.
    #[error("{found} cells, expected {expected}")]
    WrongLength {
        /// Cells on the line.
        found: usize,
        /// Cells of the file's size.
        expected: usize,
    },
    /// A character that is neither a symbol nor a blank.
    #[error("unexpected {} at cell {cell}", quoted(*.found))]
    BadCharacter {
        /// The character (U+FFFD for bytes that are not UTF-8).
        found: char,
        /// 1-based cell position.
        cell: usize,
    },
    /// The first puzzle's size is not a supported square grid.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// The line is longer than the reader's cap; it was skipped unread.
    #[error(transparent)]
    TooLong(#[from] TooLong),
    /// The puzzle's size has no default symbols (sides 62 to 64).
    #[error(transparent)]
    Alphabet(#[from] AlphabetError),
    /// The line's variant layout fields do not parse or do not fit together
    /// (a region of the wrong size, a cage sum no digits make …).
    #[error(transparent)]
    Layout(#[from] crate::variant::LayoutError),
}

fn quoted(ch: char) -> String {
    if ch.is_control() || ch == char::REPLACEMENT_CHARACTER {
        format!("character {:?}", ch)
    } else {
        format!("'{ch}'")
    }
}

/// A [`ParseError`] with the physical (1-based) line it was found on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// Line number in the input, counting every line.
    pub line: u64,
    /// What is wrong.
    pub error: ParseError,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for LineError {}

/// How a file's puzzles are read: the shape and the alphabet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Format {
    shape: Shape,
    alphabet: Alphabet,
}

impl Format {
    /// A format of `shape` with `symbols` (the default ones when `None`).
    pub fn new(shape: Shape, symbols: Option<&str>) -> Result<Format, AlphabetError> {
        let alphabet = match symbols {
            Some(s) => Alphabet::new(s, shape.side())?,
            None => Alphabet::default_for(shape.side())?,
        };
        Ok(Format { shape, alphabet })
    }

    /// The shape of every puzzle read with this format.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The symbols puzzles are read and written in.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// Reads cell text into `out` (`N²` values, 0 = blank).
    ///
    /// # Panics
    /// If `out` does not have `N²` slots, as `copy_from_slice` does (a
    /// caller's buffer, not input, is wrong then).
    pub fn parse_into(&self, cells: &[u8], out: &mut [u8]) -> Result<(), ParseError> {
        let expected = self.shape.cell_count();
        assert_eq!(out.len(), expected, "parse_into needs a buffer of N² cells");
        // A line of the right number of characters but more bytes holds a
        // non-ASCII character: the scan below reports it where it stands.
        if cells.len() != expected && char_count(cells) != expected {
            return Err(ParseError::WrongLength {
                found: char_count(cells),
                expected,
            });
        }
        // A branch-free pass (64 bytes a step where the CPU allows); the
        // rare bad line is located afterwards. Values are at most 64, so
        // only [`UNKNOWN`] has the top bit, and symbols are ASCII, so every
        // byte from 128 up is unknown, as the look-up requires.
        let table = &self.alphabet.values;
        if cells.len() == expected && bytes::look_up(bytes::Path::best(), table, cells, out) {
            return Ok(());
        }
        let i = cells
            .iter()
            .position(|&b| self.alphabet.value(b).is_none())
            .unwrap_or_default();
        Err(ParseError::BadCharacter {
            found: char_at(cells, i),
            cell: char_count(&cells[..i]) + 1,
        })
    }

    /// Reads cell text into a new [`Puzzle`].
    pub fn parse(&self, cells: &[u8]) -> Result<Puzzle, ParseError> {
        let mut values = vec![0; self.shape.cell_count()];
        self.parse_into(cells, &mut values)?;
        Ok(Puzzle::new(self.shape, values).expect("parsed values are in range"))
    }
}

impl FromStr for Puzzle {
    type Err = ParseError;

    /// One puzzle's text, read by the rules of a puzzle line (SPEC §1):
    /// surrounding whitespace, an `id:` prefix and trailing fields (after
    /// whitespace, `;` or `,`) are ignored; the size comes from the number of
    /// cells (16 → 4×4, 36 → 6×6 with 2×3 boxes, 81 → 9×9 …); symbols are the
    /// default ones ([`DEFAULT_SYMBOLS`]) and blanks are [`BLANKS`]. For
    /// other boxes or symbols, or a file of puzzles, use a [`Format`] (or
    /// [`FormatSpec`]). A grid written over several lines, one row per line
    /// (with or without `|`, `-`, `+` separators, as `sudokit solve
    /// --pretty` prints it), reads as the same puzzle ([`crate::rows`]).
    ///
    /// ```
    /// use sudokit::Puzzle;
    ///
    /// let p: Puzzle = "  id7: 1.3..4....2.4... ; rated 1.2\r\n".parse().unwrap();
    /// assert_eq!(p.shape().side(), 4);
    /// assert_eq!(p.to_string(), "1.3..4....2.4...");
    /// let err = "12345.....".parse::<Puzzle>().unwrap_err();
    /// assert_eq!(err.to_string(), "10 cells is not a square grid of side 1 to 64");
    /// let grid: Puzzle = "1 . | 3 .\n. 4 | . .\n----+----\n. . | 2 .\n4 . | . .".parse().unwrap();
    /// assert_eq!(grid.to_string(), "1.3..4....2.4...");
    /// ```
    fn from_str(text: &str) -> Result<Puzzle, ParseError> {
        if let Some(line) = joined_grid(text) {
            return line.parse();
        }
        let cells = match classify(text.as_bytes()) {
            Line::Puzzle { cells, .. } => cells,
            // Not a puzzle line (blank, a comment, `end`): its text is the
            // cells, which the checks below reject with a reason.
            Line::Skip | Line::End => text.trim().as_bytes(),
        };
        let shape = Shape::for_cell_count(char_count(cells))?;
        let format = Format::new(shape, None).map_err(ParseError::Alphabet)?;
        format.parse(cells)
    }
}

/// A grid written over several lines ([`crate::rows`]) as its one-line
/// text; `None` for text of one line.
fn joined_grid(text: &str) -> Option<String> {
    let text = text.trim();
    if !text.contains('\n') {
        return None;
    }
    let mut joined = String::new();
    crate::rows::RowsReader::new(text.as_bytes(), None, text.len() + 1)
        .and_then(|mut rows| std::io::Read::read_to_string(&mut rows, &mut joined))
        .ok()?;
    let first = joined
        .lines()
        .find(|line| matches!(classify(line.as_bytes()), Line::Puzzle { .. }))?;
    // A text whose rows did not join stays several lines: read as one.
    (!first.contains('\n') && first.len() < text.len()).then(|| first.to_string())
}

impl fmt::Display for Puzzle {
    /// The cells on one line in the default symbols, `.` for blanks: the
    /// text [`Puzzle::from_str`] reads back. Sides 62 to 64, which have no
    /// default symbols, print their values as decimal numbers separated by
    /// spaces (0 = blank).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Alphabet::default_for(self.shape().side()) {
            Ok(alphabet) => {
                let mut text = Vec::with_capacity(self.cells().len());
                alphabet.write_cells(self.cells(), &mut text);
                f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
            }
            Err(_) => {
                for (i, v) in self.cells().iter().enumerate() {
                    let sep = if i == 0 { "" } else { " " };
                    write!(f, "{sep}{v}")?;
                }
                Ok(())
            }
        }
    }
}

/// Characters in `bytes`, counting each invalid UTF-8 byte as one.
fn char_count(bytes: &[u8]) -> usize {
    String::from_utf8_lossy(bytes).chars().count()
}

/// The character starting at byte `i` (U+FFFD when not valid UTF-8).
fn char_at(bytes: &[u8], i: usize) -> char {
    let end = (i + 4).min(bytes.len());
    (i + 1..=end)
        .find_map(|j| std::str::from_utf8(&bytes[i..j]).ok())
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// What the user said about the format (`--box`, `--symbols`), before the
/// first puzzle fixes the rest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FormatSpec {
    /// `--box RxC`: fixes the shape whatever the puzzles' length.
    pub shape: Option<Shape>,
    /// `--symbols STRING`: the symbols in digit order.
    pub symbols: Option<String>,
}

/// Why a file's format cannot be settled from its first puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The puzzle's length does not give a size: that line is invalid, and the
    /// next puzzle may settle the format.
    #[error(transparent)]
    Line(#[from] ParseError),
    /// `--symbols` does not fit the size: no line can be read.
    #[error("--symbols: {0}")]
    Alphabet(#[from] AlphabetError),
    /// `--box` gives another size than the first puzzle's, which is a whole
    /// grid of another size: every line would be invalid, so the flag is
    /// wrong, not the input.
    #[error("--box {shape} makes {side}x{side} grids of {expected} cells, but the first puzzle has {found} cells (a {found_side}x{found_side} grid)", side = shape.side(), expected = shape.cell_count(), found_side = (*found as f64).sqrt() as usize)]
    BoxMismatch {
        /// The shape `--box` gave.
        shape: Shape,
        /// Cells of the first puzzle.
        found: usize,
    },
}

impl FormatSpec {
    /// The format for a file whose first puzzle has cell text `first_cells`
    /// (also for one self-contained puzzle, such as a server request).
    pub fn resolve(&self, first_cells: &[u8]) -> Result<Format, FormatError> {
        let shape = match self.shape {
            Some(shape) => {
                let found = char_count(first_cells);
                if found != shape.cell_count() && Shape::for_cell_count(found).is_ok() {
                    return Err(FormatError::BoxMismatch { shape, found });
                }
                shape
            }
            None => Shape::for_cell_count(char_count(first_cells)).map_err(ParseError::from)?,
        };
        Ok(Format::new(shape, self.symbols.as_deref())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_from_128_up_is_unknown_and_every_line_reads_the_same_on_each_path() {
        // The table look-up's AVX-512 form relies on the high half being
        // unknown; symbols are ASCII, so it is in every alphabet.
        for (symbols, side) in [(None, 4), (None, 9), (None, 36), (Some("abcdefghi"), 9)] {
            let alphabet = match symbols {
                Some(s) => Alphabet::new(s, side).unwrap(),
                None => Alphabet::default_for(side).unwrap(),
            };
            assert!(alphabet.values[128..].iter().all(|&v| v == UNKNOWN));
        }
        // Every byte in every position of a 9x9 line gives the same cells and
        // the same error on both forms of the look-up.
        let format = Format::new(Shape::new(3, 3).unwrap(), None).unwrap();
        let base: Vec<u8> =
            b"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
                .to_vec();
        let mut cells = vec![0u8; 81];
        assert!(format.parse_into(&base, &mut cells).is_ok());
        for at in [0, 1, 40, 63, 64, 80] {
            for byte in 0..=255u8 {
                let mut line = base.clone();
                line[at] = byte;
                let mut by_path = Vec::new();
                for path in [bytes::Path::Portable, bytes::Path::best()] {
                    let mut out = vec![0u8; 81];
                    let known = bytes::look_up(path, &format.alphabet.values, &line, &mut out);
                    by_path.push((known, if known { out } else { Vec::new() }));
                }
                assert_eq!(by_path[0], by_path[1], "byte {byte} at {at}");
                let parsed = format.parse_into(&line, &mut cells);
                assert_eq!(parsed.is_ok(), by_path[0].0, "byte {byte} at {at}");
            }
        }
    }

    fn cells(line: &str) -> &[u8] {
        match classify(line.as_bytes()) {
            Line::Puzzle { cells, .. } => cells,
            other => panic!("{line:?} classified as {other:?}"),
        }
    }

    #[test]
    fn classifies_lines() {
        assert_eq!(classify(b""), Line::Skip);
        assert_eq!(classify(b"   \r"), Line::Skip);
        assert_eq!(classify(b"# a comment"), Line::Skip);
        assert_eq!(classify(b"end"), Line::End);
        assert_eq!(classify(b"end\r"), Line::End);
        assert_eq!(cells("\u{feff}1.2.\r"), b"1.2.");
        assert_eq!(cells("  1.2.  ; rated 4.5"), b"1.2.");
        assert_eq!(cells("1.2.,name"), b"1.2.");
        assert_eq!(cells("1.2.\tFata Morgana"), b"1.2.");
        assert_eq!(
            classify(b"a7:1.2. 3:4"),
            Line::Puzzle {
                id: Some("a7"),
                cells: b"1.2."
            }
        );
        assert_eq!(
            classify(b":1.2."),
            Line::Puzzle {
                id: Some(""),
                cells: b"1.2."
            }
        );
        // A colon after the cells belongs to a trailing field, not an id.
        assert_eq!(
            classify(b"1.2. rating:3"),
            Line::Puzzle {
                id: None,
                cells: b"1.2."
            }
        );
    }

    #[test]
    fn every_blank_symbol_reads_as_blank() {
        let f = Format::new(Shape::new(2, 2).unwrap(), None).unwrap();
        for blank in BLANKS.chars() {
            let text = format!("1{blank}{blank}4{}", ".".repeat(12));
            let p = f.parse(text.as_bytes()).unwrap();
            assert_eq!(&p.cells()[..4], &[1, 0, 0, 4], "blank {blank:?}");
        }
    }

    #[test]
    fn reports_length_and_bad_characters() {
        let f = Format::new(Shape::new(3, 3).unwrap(), None).unwrap();
        let short = ".".repeat(80);
        assert_eq!(
            f.parse(short.as_bytes()).unwrap_err().to_string(),
            "80 cells, expected 81"
        );
        let mut bad = ".".repeat(81).into_bytes();
        bad[13] = b'Z';
        assert_eq!(
            f.parse(&bad).unwrap_err().to_string(),
            "unexpected 'Z' at cell 14"
        );
        let wide = format!("{}é{}", ".".repeat(5), ".".repeat(75));
        assert_eq!(
            f.parse(wide.as_bytes()).unwrap_err().to_string(),
            "unexpected 'é' at cell 6"
        );
        assert!(f
            .parse(&[0xff; 81])
            .unwrap_err()
            .to_string()
            .contains("at cell 1"));
    }

    #[test]
    fn letters_fold_case_only_when_the_alphabet_allows() {
        let f16 = Format::new(Shape::new(4, 4).unwrap(), None).unwrap();
        assert_eq!(f16.alphabet().value(b'g'), Some(16));
        assert_eq!(f16.alphabet().value(b'G'), Some(16));
        assert_eq!(f16.alphabet().value(b'0'), Some(0));
        let f36 = Format::new(Shape::new(6, 6).unwrap(), None).unwrap();
        assert_eq!(f36.alphabet().value(b'Z'), Some(35));
        assert_eq!(f36.alphabet().value(b'a'), Some(36));
        let hex = Format::new(Shape::new(4, 4).unwrap(), Some("0123456789ABCDEF")).unwrap();
        // '0' is a symbol here, so it is not a blank.
        assert_eq!(hex.alphabet().value(b'0'), Some(1));
        assert_eq!(hex.alphabet().value(b'f'), Some(16));
        assert_eq!(hex.alphabet().value(b'.'), Some(0));
    }

    #[test]
    fn symbols_must_fit_the_size() {
        let s = Shape::new(2, 2).unwrap();
        assert_eq!(
            Format::new(s, Some("ABC")).unwrap_err(),
            AlphabetError::WrongCount { given: 3, side: 4 }
        );
        assert_eq!(
            Format::new(s, Some("ABCA")).unwrap_err(),
            AlphabetError::Repeated('A')
        );
        assert_eq!(
            Format::new(s, Some("AB:C")).unwrap_err(),
            AlphabetError::Unusable(':')
        );
    }

    #[test]
    fn the_first_puzzle_sets_the_size_unless_box_is_given() {
        let spec = FormatSpec::default();
        assert_eq!(
            spec.resolve(&[b'.'; 36]).unwrap().shape(),
            Shape::new(2, 3).unwrap()
        );
        assert_eq!(
            spec.resolve(&[b'.'; 256]).unwrap().shape(),
            Shape::new(4, 4).unwrap()
        );
        assert!(matches!(
            spec.resolve(&[b'.'; 35]),
            Err(FormatError::Line(_))
        ));
        let boxed = FormatSpec {
            shape: Some(Shape::new(3, 2).unwrap()),
            symbols: None,
        };
        assert_eq!(
            boxed.resolve(&[b'.'; 35]).unwrap().shape(),
            Shape::new(3, 2).unwrap()
        );
    }
}
