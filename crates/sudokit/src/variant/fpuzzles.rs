//! Puzzles from [f-puzzles](https://f-puzzles.com), the variant-setting
//! tool most setters use (SudokuPad imports the same data).
//!
//! f-puzzles shares a puzzle as a link `https://f-puzzles.com/?load=DATA`,
//! where `DATA` is the puzzle's JSON compressed with lz-string's
//! `compressToBase64`; SudokuPad links `https://sudokupad.app/fpuzzlesDATA`
//! carry the same `DATA`. [`parse`] reads any of the three: the JSON itself,
//! the bare `DATA`, or a link holding it (percent-escapes such as `%2B` are
//! undone). Short links (`?id=…`) name a puzzle stored on the site and
//! cannot be read offline.
//!
//! The JSON is `{"size": 9, "grid": [[{"value": 5, "given": true,
//! "region": 0}, …], …], …}` plus one key per constraint. What maps to what:
//!
//! - `size` (or the grid's row count): the side `N`, with the boxes of
//!   [`Shape::for_side`], which are f-puzzles' default regions too (6 → 2×3,
//!   8 → 2×4, 12 → 3×4, a prime side → rows).
//! - a cell's `value` with `"given": true`: a given. Values without `given`
//!   are a solver's entries, not clues.
//! - a cell's `region` (0-based): a jigsaw map ([`Layout::with_region_map`]);
//!   cells without `region` keep their box.
//! - `diagonal+` and `diagonal-` together: [`Rule::Diagonals`]; one alone, a
//!   group ([`Layout::with_group`]): `diagonal+` runs from r`N`c1 up to
//!   r1c`N`, `diagonal-` from r1c1 down to r`N`c`N`.
//! - `antiknight`, `antiking`: [`Rule::AntiKnight`], [`Rule::AntiKing`].
//! - `disjointgroups`: [`Rule::Disjoint`]; refused with irregular regions,
//!   where tools disagree on what it means.
//! - `killercage` (`cells`, `value`): a [`Cage`], its sum from `value` (none
//!   when `value` is missing or empty).
//! - `extraregion` (`cells`): a group.
//! - `title`, `author`, `ruleset`, `solution`, cell colours, a solver's
//!   pencil marks: nothing, they constrain nothing.
//! - the cosmetic `line`, `rectangle`, `circle`, `text` and `cage`: nothing
//!   when drawn for a constraint (`fromConstraint`) or carrying metadata (a
//!   `cage` whose value is `title: …`); refused otherwise, since setters
//!   draw custom rules with them.
//!
//! Every other constraint (arrows, thermometers, kropki dots,
//! nonconsecutive, little killers, sandwiches, XV, odd/even, given pencil
//! marks, …) is refused with [`FpuzzlesError::Unsupported`] naming them:
//! dropping one would change the puzzle's answer.
//!
//! ```
//! use sudokit::variant::fpuzzles;
//!
//! let json = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],
//!     [{},{},{},{}],[{},{},{},{}],[{},{},{},{"value":2,"given":true}]],
//!     "diagonal-":true,"diagonal+":true,"killercage":[{"cells":["R1C2","R1C3"],"value":"5"}]}"#;
//! let p = fpuzzles::parse(json)?;
//! assert_eq!(p.to_string(), "1..............2 variant=x cage=5@r1c2r1c3");
//! assert!(fpuzzles::looks_like_fpuzzles("https://f-puzzles.com/?load=N4Ig"));
//! # Ok::<(), fpuzzles::FpuzzlesError>(())
//! ```
//!
//! The module needs the `serde` feature (serde_json reads the JSON).
#![cfg(feature = "serde")]

use serde_json::{Map, Value};

use super::layout::{Cage, Layout, LayoutError, Rule, Rules};
use super::VariantPuzzle;
use crate::grid::{Puzzle, Shape, MAX_SIDE};

/// Why an f-puzzles text cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FpuzzlesError {
    /// No data: an empty text, or a link without `load=DATA` (a short link).
    #[error("no f-puzzles data (expected the JSON, its compressed data or a link with load=DATA)")]
    NoData,
    /// A character outside lz-string's base64 alphabet in the compressed data.
    #[error("'{0}' is not a character of f-puzzles' compressed data (A-Z a-z 0-9 + / =)")]
    NotBase64(char),
    /// Compressed data that does not decompress.
    #[error("the f-puzzles data is corrupt: {0}")]
    Corrupt(&'static str),
    /// Compressed data that decompresses to more than the limit (UTF-16 code units).
    #[error("the f-puzzles data decompresses to over {0} characters")]
    TooLarge(usize),
    /// Text that is not JSON, or JSON that is not an f-puzzles puzzle.
    #[error("not an f-puzzles puzzle: {0}")]
    Json(String),
    /// A grid side sudokit cannot hold.
    #[error("grid side {0} is not supported (1 to {max})", max = MAX_SIDE)]
    Size(usize),
    /// A cell name that is not `RrCc` inside the grid.
    #[error("cell '{0}' is not of the form R1C1 inside the grid")]
    BadCell(String),
    /// A given, region or cage sum that is not a number in range.
    #[error("{0}")]
    BadValue(String),
    /// Constraints present in the puzzle that sudokit does not model.
    #[error("f-puzzles constraints sudokit does not model: {}", .0.join(", "))]
    Unsupported(Vec<String>),
    /// Constraints that do not make a layout (a region of the wrong size,
    /// a cell in two cages, an impossible cage sum …).
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

/// Reads one f-puzzles puzzle: the JSON itself, the compressed DATA, or a
/// URL containing `load=DATA` or `sudokupad.app/fpuzzles DATA`.
pub fn parse(text: &str) -> Result<VariantPuzzle, FpuzzlesError> {
    let text = text.trim();
    if text.starts_with('{') {
        return from_json(text);
    }
    let json = decompress_base64(&extract_data(text)?)?;
    from_json(&json)
}

/// Whether a line of input looks like f-puzzles (starts with `{` or
/// contains `f-puzzles.com/` or `sudokupad.app/fpuzzles`), so readers can
/// route it here.
pub fn looks_like_fpuzzles(line: &str) -> bool {
    line.trim_start().starts_with('{')
        || find_ignore_case(line, "f-puzzles.com/").is_some()
        || find_ignore_case(line, "sudokupad.app/fpuzzles").is_some()
}

/// lz-string `decompressFromBase64`.
pub(crate) fn decompress_base64(text: &str) -> Result<String, FpuzzlesError> {
    decompress_limited(text, MAX_DECOMPRESSED)
}

/// The most UTF-16 code units [`decompress_base64`] produces: 1 Mi, far
/// above real puzzles (the JSON of a busy variant is some ten kilobytes).
const MAX_DECOMPRESSED: usize = 1 << 20;

/// The byte offset of `needle` (ASCII) in `hay`, in any case.
fn find_ignore_case(hay: &str, needle: &str) -> Option<usize> {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    (0..=hay.len().checked_sub(needle.len())?)
        .find(|&i| hay[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

/// The compressed data in a link (after `load=`, or after `/fpuzzles` or
/// `=fpuzzles`, up to the first character that cannot be part of it, with
/// percent-escapes undone), or the whole text when it is no link.
fn extract_data(text: &str) -> Result<String, FpuzzlesError> {
    let start = if let Some(i) = find_ignore_case(text, "load=") {
        Some(i + "load=".len())
    } else {
        let bytes = text.as_bytes();
        let mut from = 0;
        let mut found = None;
        while let Some(i) = find_ignore_case(&text[from..], "fpuzzles") {
            let at = from + i;
            if at > 0 && matches!(bytes[at - 1], b'/' | b'=') {
                found = Some(at + "fpuzzles".len());
                break;
            }
            from = at + 1;
        }
        found
    };
    let Some(start) = start else {
        if text.contains("://") || find_ignore_case(text, "f-puzzles.com").is_some() {
            return Err(FpuzzlesError::NoData);
        }
        return Ok(text.to_string());
    };
    let raw: &str = {
        let rest = &text[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '%')))
            .unwrap_or(rest.len());
        &rest[..end]
    };
    let bytes = raw.as_bytes();
    let mut data = String::with_capacity(raw.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let code = raw
                .get(i + 1..i + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
                .ok_or(FpuzzlesError::NotBase64('%'))?;
            data.push(code as char);
            i += 3;
        } else {
            data.push(bytes[i] as char);
            i += 1;
        }
    }
    Ok(data)
}

/// The 6-bit value of a base64 character; `=` (padding) reads as zero bits,
/// as in lz-string.
fn base64_value(c: char) -> Option<u8> {
    Some(match c {
        'A'..='Z' => c as u8 - b'A',
        'a'..='z' => c as u8 - b'a' + 26,
        '0'..='9' => c as u8 - b'0' + 52,
        '+' => 62,
        '/' => 63,
        '=' => 0,
        _ => return None,
    })
}

/// The bits of lz-string's base64 text: six per character, most significant
/// first, each code read least significant bit first. Past the end, zeros.
struct BitReader {
    values: Vec<u8>,
    /// Index of the next character to load.
    next: usize,
    current: u8,
    mask: u8,
}

impl BitReader {
    fn new(values: Vec<u8>) -> BitReader {
        let current = values.first().copied().unwrap_or(0);
        BitReader {
            values,
            next: 1,
            current,
            mask: 32,
        }
    }

    fn read(&mut self, bits: u32) -> u32 {
        let mut out = 0;
        for k in 0..bits {
            if self.current & self.mask != 0 {
                out |= 1 << k;
            }
            self.mask >>= 1;
            if self.mask == 0 {
                self.mask = 32;
                self.current = self.values.get(self.next).copied().unwrap_or(0);
                self.next += 1;
            }
        }
        out
    }

    /// Whether every character has been read and one more was asked for:
    /// lz-string's "the data ended without its end mark".
    fn exhausted(&self) -> bool {
        self.next > self.values.len()
    }
}

/// lz-string's decompression of base64 text, stopping with
/// [`FpuzzlesError::TooLarge`] past `limit` UTF-16 code units.
///
/// The dictionary holds each entry as a span of the output: an entry is
/// always a piece already written (a literal, a copied entry, or the
/// previous piece followed by the first unit of the next, which comes
/// right after it), so memory stays proportional to the output.
fn decompress_limited(text: &str, limit: usize) -> Result<String, FpuzzlesError> {
    let values = text
        .chars()
        .map(|c| base64_value(c).ok_or(FpuzzlesError::NotBase64(c)))
        .collect::<Result<Vec<u8>, _>>()?;
    if values.is_empty() {
        return Err(FpuzzlesError::NoData);
    }
    let too_large = FpuzzlesError::TooLarge(limit);
    let mut bits = BitReader::new(values);
    let mut out: Vec<u16> = Vec::new();
    // Codes 0, 1 and 2 are "an 8-bit literal follows", "a 16-bit literal
    // follows" and "end"; their slots hold nothing.
    let mut dict: Vec<(usize, usize)> = vec![(0, 0); 3];
    let first = match bits.read(2) {
        0 => bits.read(8),
        1 => bits.read(16),
        2 => return Ok(String::new()),
        _ => return Err(FpuzzlesError::Corrupt("it starts with no literal")),
    };
    if limit == 0 {
        return Err(too_large);
    }
    out.push(first as u16);
    dict.push((0, 1));
    // The previous piece, as a span of `out`.
    let mut previous = (0usize, 1usize);
    let mut enlarge_in: u64 = 4;
    let mut num_bits: u32 = 3;
    let grow = |enlarge_in: &mut u64, num_bits: &mut u32| -> Result<(), FpuzzlesError> {
        *enlarge_in -= 1;
        if *enlarge_in == 0 {
            if *num_bits >= 30 {
                return Err(FpuzzlesError::Corrupt("its dictionary outgrows every code"));
            }
            *enlarge_in = 1 << *num_bits;
            *num_bits += 1;
        }
        Ok(())
    };
    loop {
        if bits.exhausted() {
            return Err(FpuzzlesError::Corrupt("it ends before its end mark"));
        }
        let start = out.len();
        let code = bits.read(num_bits) as usize;
        match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 });
                if out.len() >= limit {
                    return Err(too_large);
                }
                dict.push((start, 1));
                out.push(unit as u16);
                grow(&mut enlarge_in, &mut num_bits)?;
            }
            2 => break,
            _ => {
                let repeat = code == dict.len();
                let (from, len) = match dict.get(code) {
                    Some(&span) => span,
                    None if repeat => previous,
                    None => return Err(FpuzzlesError::Corrupt("a code names no dictionary entry")),
                };
                if out.len() + len + usize::from(repeat) > limit {
                    return Err(too_large);
                }
                out.extend_from_within(from..from + len);
                if repeat {
                    // The previous piece followed by its own first unit.
                    out.push(out[previous.0]);
                }
            }
        }
        // The previous piece and the first unit of this one, which follows it.
        dict.push((previous.0, previous.1 + 1));
        previous = (start, out.len() - start);
        grow(&mut enlarge_in, &mut num_bits)?;
    }
    Ok(String::from_utf16_lossy(&out))
}

/// Top-level keys sudokit maps onto a layout.
const MODELLED: [&str; 9] = [
    "size",
    "grid",
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "killercage",
    "extraregion",
];

/// Top-level keys that carry no constraint.
const METADATA: [&str; 10] = [
    "title",
    "author",
    "ruleset",
    "solution",
    "highlightConflicts",
    "disabledlogic",
    "truecandidatesoptions",
    "successMessage",
    "fogofwar",
    "foglight",
];

/// Cosmetic elements: meaningless to f-puzzles, but a setter may give them
/// a rule in the rules text.
const COSMETIC: [&str; 5] = ["line", "rectangle", "circle", "text", "cage"];

/// Cell keys that carry no constraint (colours, a solver's pencil marks).
const CELL_METADATA: [&str; 9] = [
    "value",
    "given",
    "region",
    "c",
    "cArray",
    "highlight",
    "highlightArray",
    "centerPencilMarks",
    "cornerPencilMarks",
];

/// Whether a JSON value says "nothing here": null, false, "", [] or {}.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Number(_) => false,
    }
}

/// Whether a cosmetic element is harmless: drawn for a constraint that the
/// document also holds, or a SudokuPad metadata cage (`"title: …"`).
fn is_harmless_cosmetic(key: &str, element: &Value) -> bool {
    let Some(element) = element.as_object() else {
        return false;
    };
    let flagged = |k: &str| element.get(k).is_some_and(|v| !is_empty(v));
    if flagged("fromConstraint") || flagged("isLLConstraint") {
        return true;
    }
    key == "cage"
        && element
            .get("value")
            .and_then(Value::as_str)
            .and_then(|v| v.split_once(':'))
            .is_some_and(|(name, _)| {
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            })
}

/// The names of the constraints in `doc` (and its cells) that sudokit does
/// not model, sorted, without repeats.
fn unsupported(doc: &Map<String, Value>, grid: &[Value]) -> Vec<String> {
    let mut names = Vec::new();
    for (key, value) in doc {
        let key = key.as_str();
        if MODELLED.contains(&key) || METADATA.contains(&key) || is_empty(value) {
            continue;
        }
        if COSMETIC.contains(&key) {
            let harmless = |items: &Vec<Value>| items.iter().all(|e| is_harmless_cosmetic(key, e));
            if value.as_array().is_some_and(harmless) {
                continue;
            }
            names.push(format!("{key} (cosmetic)"));
            continue;
        }
        names.push(key.to_string());
    }
    for cell in grid.iter().filter_map(Value::as_array).flatten() {
        let Some(cell) = cell.as_object() else {
            continue;
        };
        for (key, value) in cell {
            if key == "region" && value.is_null() {
                names.push("cells in no region".to_string());
            } else if !CELL_METADATA.contains(&key.as_str()) && !is_empty(value) {
                names.push(key.clone());
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The 0-based index of a cell named `R1C1` (either case) on a grid of side `n`.
fn cell_index(name: &Value, n: usize) -> Result<u16, FpuzzlesError> {
    let bad = || {
        FpuzzlesError::BadCell(
            name.as_str()
                .map_or_else(|| name.to_string(), str::to_string),
        )
    };
    let text = name.as_str().ok_or_else(bad)?;
    let rest = text.strip_prefix(['R', 'r']).ok_or_else(bad)?;
    let (row, col) = rest.split_once(['C', 'c']).ok_or_else(bad)?;
    let number = |s: &str| -> Option<usize> {
        if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok().filter(|&v| (1..=n).contains(&v))
    };
    let (row, col) = (number(row).ok_or_else(bad)?, number(col).ok_or_else(bad)?);
    Ok(((row - 1) * n + col - 1) as u16)
}

/// The cells of an element's `cells` list.
fn cell_list(element: &Value, what: &str, n: usize) -> Result<Vec<u16>, FpuzzlesError> {
    element
        .get("cells")
        .and_then(Value::as_array)
        .ok_or_else(|| FpuzzlesError::Json(format!("{what} without a list of cells")))?
        .iter()
        .map(|cell| cell_index(cell, n))
        .collect()
}

/// A whole number from a JSON number or a string of digits.
fn whole_number(value: &Value) -> Option<u64> {
    match value {
        Value::Number(number) => number.as_u64(),
        Value::String(s) => {
            let s = s.trim();
            (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        }
        _ => None,
    }
}

/// The elements of a list-valued key (none when it is absent or empty).
fn elements<'a>(doc: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], FpuzzlesError> {
    match doc.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(FpuzzlesError::Json(format!("'{key}' is not a list"))),
    }
}

/// Whether a flag key is set.
fn flag(doc: &Map<String, Value>, key: &str) -> bool {
    doc.get(key).is_some_and(|v| !is_empty(v))
}

/// The puzzle an f-puzzles JSON document describes.
fn from_json(json: &str) -> Result<VariantPuzzle, FpuzzlesError> {
    let doc: Value = serde_json::from_str(json).map_err(|e| FpuzzlesError::Json(e.to_string()))?;
    let doc = doc
        .as_object()
        .ok_or_else(|| FpuzzlesError::Json("the JSON is not an object".to_string()))?;
    let grid = doc
        .get("grid")
        .and_then(Value::as_array)
        .ok_or_else(|| FpuzzlesError::Json("no grid".to_string()))?;
    let n = match doc.get("size") {
        None | Some(Value::Null) => grid.len(),
        Some(size) => size
            .as_u64()
            .ok_or_else(|| FpuzzlesError::Json(format!("size {size} is not a whole number")))?
            .try_into()
            .unwrap_or(usize::MAX),
    };
    if n == 0 || n > MAX_SIDE {
        return Err(FpuzzlesError::Size(n));
    }
    let rows: Vec<&[Value]> = grid
        .iter()
        .map(|row| row.as_array().map(Vec::as_slice))
        .collect::<Option<_>>()
        .filter(|rows: &Vec<&[Value]>| rows.len() == n && rows.iter().all(|r| r.len() == n))
        .ok_or_else(|| FpuzzlesError::Json(format!("the grid is not {n} rows of {n} cells")))?;
    let names = unsupported(doc, grid);
    if !names.is_empty() {
        return Err(FpuzzlesError::Unsupported(names));
    }
    let shape = Shape::for_side(n).map_err(|_| FpuzzlesError::Size(n))?;

    // Givens and regions.
    let mut givens = vec![0u8; n * n];
    let mut regions: Vec<usize> = (0..n * n).map(|cell| shape.box_of(cell)).collect();
    let mut irregular = false;
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let index = r * n + c;
            let cell = match cell {
                Value::Object(cell) => cell,
                Value::Null => continue,
                _ => {
                    return Err(FpuzzlesError::Json(format!(
                        "cell r{}c{} is not an object",
                        r + 1,
                        c + 1
                    )))
                }
            };
            let given = cell.get("given").is_some_and(|g| g.as_bool() == Some(true));
            if let Some(value) = cell.get("value").filter(|v| given && !v.is_null()) {
                givens[index] = whole_number(value)
                    .filter(|v| (1..=n as u64).contains(v))
                    .ok_or_else(|| {
                        FpuzzlesError::BadValue(format!(
                            "given {value} in r{}c{} is not a digit from 1 to {n}",
                            r + 1,
                            c + 1
                        ))
                    })? as u8;
            }
            if let Some(region) = cell.get("region") {
                regions[index] = region.as_u64().filter(|&v| v < n as u64).ok_or_else(|| {
                    FpuzzlesError::BadValue(format!(
                        "region {region} of r{}c{} is not a number from 0 to {}",
                        r + 1,
                        c + 1,
                        n - 1
                    ))
                })? as usize;
                irregular = true;
            }
        }
    }
    let mut layout = Layout::classic(shape);
    if irregular {
        // Region `k` as the character '0' + k: N ≤ 64 distinct characters.
        let map: String = regions
            .iter()
            .map(|&k| char::from(b'0' + k as u8))
            .collect();
        layout = layout.with_region_map(&map)?;
    }

    // Rules.
    let (plus, minus) = (flag(doc, "diagonal+"), flag(doc, "diagonal-"));
    let mut rules = Rules::NONE;
    if plus && minus {
        rules = rules.with(Rule::Diagonals);
    }
    if flag(doc, "antiknight") {
        rules = rules.with(Rule::AntiKnight);
    }
    if flag(doc, "antiking") {
        rules = rules.with(Rule::AntiKing);
    }
    if flag(doc, "disjointgroups") {
        if layout.is_jigsaw() {
            return Err(FpuzzlesError::Unsupported(vec![
                "disjointgroups with irregular regions".to_string(),
            ]));
        }
        rules = rules.with(Rule::Disjoint);
    }
    layout = layout.with_rules(rules);

    // Groups: one diagonal alone, extra regions.
    if plus != minus {
        let cells = (0..n).map(|i| {
            let row = if plus { n - 1 - i } else { i };
            (row * n + i) as u16
        });
        layout = layout.with_group(cells.collect())?;
    }
    for region in elements(doc, "extraregion")? {
        layout = layout.with_group(cell_list(region, "an extra region", n)?)?;
    }

    // Killer cages.
    for cage in elements(doc, "killercage")? {
        let cells = cell_list(cage, "a killer cage", n)?;
        let sum = match cage.get("value") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.trim().is_empty() => None,
            Some(value) => Some(
                whole_number(value)
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or_else(|| {
                        FpuzzlesError::BadValue(format!("killer cage sum {value} is not a number"))
                    })?,
            ),
        };
        layout = layout.with_cage(Cage { sum, cells })?;
    }

    let givens =
        Puzzle::from_cells(shape, givens).map_err(|e| FpuzzlesError::BadValue(e.to_string()))?;
    Ok(VariantPuzzle::new(layout, givens).expect("the layout and the givens share a shape"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Status;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::collections::{HashMap, HashSet};

    /// lz-string's `compressToBase64`, for test inputs: its output is
    /// lz-string 1.5.0's (the vectors below).
    struct Compressor {
        out: String,
        value: u8,
        position: u32,
        dictionary: HashMap<Vec<u16>, u32>,
        to_create: HashSet<Vec<u16>>,
        dict_size: u32,
        num_bits: u32,
        enlarge_in: u32,
    }

    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    impl Compressor {
        /// Writes the low `bits` bits of `value`, least significant first.
        fn write(&mut self, mut value: u32, bits: u32) {
            for _ in 0..bits {
                self.value = (self.value << 1) | (value & 1) as u8;
                value >>= 1;
                if self.position == 5 {
                    self.out.push(ALPHABET[self.value as usize] as char);
                    self.value = 0;
                    self.position = 0;
                } else {
                    self.position += 1;
                }
            }
        }

        fn count_code(&mut self) {
            self.enlarge_in -= 1;
            if self.enlarge_in == 0 {
                self.enlarge_in = 1 << self.num_bits;
                self.num_bits += 1;
            }
        }

        /// Writes the code of `w`, its literal first if it is new.
        fn emit(&mut self, w: &[u16]) {
            if self.to_create.remove(w) {
                if w[0] < 256 {
                    self.write(0, self.num_bits);
                    self.write(w[0] as u32, 8);
                } else {
                    self.write(1, self.num_bits);
                    self.write(w[0] as u32, 16);
                }
                self.count_code();
            } else {
                self.write(self.dictionary[w], self.num_bits);
            }
            self.count_code();
        }
    }

    fn compress_to_base64(input: &str) -> String {
        let mut z = Compressor {
            out: String::new(),
            value: 0,
            position: 0,
            dictionary: HashMap::new(),
            to_create: HashSet::new(),
            dict_size: 3,
            num_bits: 2,
            enlarge_in: 2,
        };
        let mut w: Vec<u16> = Vec::new();
        for c in input.encode_utf16() {
            if !z.dictionary.contains_key(&[c][..]) {
                z.dictionary.insert(vec![c], z.dict_size);
                z.dict_size += 1;
                z.to_create.insert(vec![c]);
            }
            let mut wc = w.clone();
            wc.push(c);
            if z.dictionary.contains_key(&wc) {
                w = wc;
            } else {
                z.emit(&w);
                z.dictionary.insert(wc, z.dict_size);
                z.dict_size += 1;
                w = vec![c];
            }
        }
        if !w.is_empty() {
            z.emit(&w);
        }
        z.write(2, z.num_bits);
        // Flush: shift zeros in until a character is complete.
        loop {
            z.value <<= 1;
            if z.position == 5 {
                let v = z.value;
                z.out.push(ALPHABET[v as usize & 63] as char);
                break;
            }
            z.position += 1;
        }
        while !z.out.len().is_multiple_of(4) {
            z.out.push('=');
        }
        z.out
    }

    /// Outputs of lz-string 1.5.0 (npm) `compressToBase64`.
    const VECTORS: [(&str, &str); 5] = [
        ("", "Q==="),
        ("hello", "BYUwNmD2Q==="),
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "IY18ZXWQ",
        ),
        (
            "héllo wörld ✓ 𝄞 𝄞!",
            "BYS4NmD2AEDuBvAnMATahkcmoFg3B4u9nAhEA===",
        ),
        (
            r#"{"size":4,"grid":[[{},{}]]}"#,
            "N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9liBdMooA==",
        ),
    ];

    #[test]
    fn known_vectors_compress_and_decompress() {
        for (plain, packed) in VECTORS {
            assert_eq!(compress_to_base64(plain), packed, "{plain:?}");
            assert_eq!(decompress_base64(packed).unwrap(), plain, "{packed}");
        }
    }

    fn random_text(rng: &mut ChaCha8Rng) -> String {
        let len = rng.gen_range(0..400);
        let pool: Vec<char> = match rng.gen_range(0..4) {
            0 => "ab".chars().collect(),
            1 => "{}[]:,\"RC0123456789 givenvaluesizegrid".chars().collect(),
            2 => "aé✓𝄞€ß漢字\u{ffff}\u{10ffff}x".chars().collect(),
            _ => (0..200u32).filter_map(char::from_u32).collect(),
        };
        (0..len)
            .map(|_| pool[rng.gen_range(0..pool.len())])
            .collect()
    }

    #[test]
    fn random_texts_round_trip() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..1500 {
            let text = random_text(&mut rng);
            let packed = compress_to_base64(&text);
            assert_eq!(decompress_base64(&packed).unwrap(), text, "{packed}");
        }
        // Long and repetitive: long dictionary entries, wide codes.
        let long: String = (0..60_000)
            .map(|i| ["RC", "given", "😀", "{\"value\":"][i % 7 % 4])
            .collect();
        assert_eq!(decompress_base64(&compress_to_base64(&long)).unwrap(), long);
        let same = "a".repeat(100_000);
        assert_eq!(decompress_base64(&compress_to_base64(&same)).unwrap(), same);
    }

    #[test]
    fn bad_compressed_data_is_an_error() {
        assert_eq!(decompress_base64(""), Err(FpuzzlesError::NoData));
        assert_eq!(
            decompress_base64("N4I!"),
            Err(FpuzzlesError::NotBase64('!'))
        );
        assert_eq!(
            decompress_base64("N4 g"),
            Err(FpuzzlesError::NotBase64(' '))
        );
        // Cut short: lz-string returns "" for it, an error here.
        assert!(matches!(
            decompress_base64("N4Ig"),
            Err(FpuzzlesError::Corrupt(_))
        ));
        let packed = compress_to_base64(&"0123456789".repeat(50));
        assert!(matches!(
            decompress_base64(&packed[..packed.len() / 2]),
            Err(FpuzzlesError::Corrupt(_))
        ));
        // A first code of 3.
        assert!(matches!(
            decompress_base64("////"),
            Err(FpuzzlesError::Corrupt(_))
        ));
        // Over the limit.
        let text = "xyz".repeat(1000);
        assert_eq!(
            decompress_limited(&compress_to_base64(&text), 2000),
            Err(FpuzzlesError::TooLarge(2000))
        );
        assert_eq!(
            decompress_limited(&compress_to_base64(&text), 3000).unwrap(),
            text
        );
        assert!(matches!(
            parse("garbage!"),
            Err(FpuzzlesError::NotBase64('!'))
        ));
    }

    #[test]
    fn random_input_never_panics() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let packed = compress_to_base64(
            r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#,
        );
        for round in 0..20_000 {
            let text = match round % 4 {
                // Any bytes.
                0 => {
                    let bytes: Vec<u8> = (0..rng.gen_range(0..64)).map(|_| rng.gen()).collect();
                    String::from_utf8_lossy(&bytes).into_owned()
                }
                // Base64 characters: deep into the decoder.
                1 => (0..rng.gen_range(1..200))
                    .map(|_| ALPHABET[rng.gen_range(0..64)] as char)
                    .collect(),
                // A valid stream with characters changed.
                2 => {
                    let mut bytes = packed.clone().into_bytes();
                    for _ in 0..rng.gen_range(1..4) {
                        let i = rng.gen_range(0..bytes.len());
                        bytes[i] = ALPHABET[rng.gen_range(0..64)];
                    }
                    String::from_utf8(bytes).unwrap()
                }
                // JSON-ish text.
                _ => {
                    let pool = [
                        "{",
                        "}",
                        "[",
                        "]",
                        ",",
                        ":",
                        "\"grid\"",
                        "\"size\"",
                        "9",
                        "{}",
                        "\"R1C1\"",
                        "null",
                        "true",
                        "\"killercage\"",
                        "\"cells\"",
                        "\"region\"",
                        "\"value\"",
                    ];
                    let mut s = String::from("{");
                    for _ in 0..rng.gen_range(0..30) {
                        s.push_str(pool[rng.gen_range(0..pool.len())]);
                    }
                    s
                }
            };
            let _ = parse(&text);
            let _ = parse(&format!("https://f-puzzles.com/?load={text}"));
        }
    }

    /// A 6×6 JSON: boxes of 2 rows × 3 columns, r2c3 and r2c4 swapped
    /// between the top boxes, both diagonals, anti-knight, two cages (one
    /// without a sum), an extra region; r3c3 holds a non-given value.
    const JIGSAW_6: &str = r##"{
        "size": 6, "title": "test", "author": "me", "ruleset": "rules",
        "grid": [
            [{"value": 1, "given": true}, {}, {}, {}, {}, {}],
            [{}, {}, {"region": 1}, {"region": 0}, {}, {}],
            [{}, {}, {"value": 5}, {}, {}, {"c": "#D0D0FF"}],
            [{}, {}, {}, {}, {}, {}],
            [{}, {}, {}, {}, {"centerPencilMarks": [1, 2]}, {}],
            [{}, {}, {}, {}, {}, {"value": "2", "given": true}]
        ],
        "diagonal+": true, "diagonal-": true, "antiknight": true, "antiking": false,
        "killercage": [
            {"cells": ["R1C2", "R1C3"], "value": "5"}, {"cells": ["R2C1", "R3C1"], "value": ""}
        ],
        "extraregion": [{"cells": ["R4C4", "R4C5", "R5C4"]}],
        "cage": [{"cells": [], "value": "title: test"}],
        "line": [{"lines": [["R1C1", "R2C2"]], "fromConstraint": "Renban"}],
        "thermometer": [], "arrow": null
    }"##;

    #[test]
    fn a_jigsaw_killer_maps_to_the_line_format() {
        let p = parse(JIGSAW_6).unwrap();
        let want = format!(
            "1{}2 regions=111222112122333444333444555666555666 variant=x,antiknight \
             group=r4c4r4c5r5c4 cage=5@r1c2r1c3 cage=r2c1r3c1",
            ".".repeat(34)
        );
        assert_eq!(p.to_string(), want);
        assert_eq!(p.to_string().parse::<VariantPuzzle>().unwrap(), p);
        // The same through a compressed link of either site, and bare.
        let packed = compress_to_base64(JIGSAW_6);
        for text in [
            format!("https://f-puzzles.com/?load={packed}&solve=true"),
            format!("  https://sudokupad.app/fpuzzles{packed}?setting-x=1 "),
            format!("https://sudokupad.app/?puzzleid=fpuzzles{packed}"),
            format!(
                "https://f-puzzles.com/?load={}",
                packed.replace('+', "%2B").replace('/', "%2f")
            ),
            packed.clone(),
        ] {
            assert_eq!(parse(&text).unwrap(), p, "{text}");
        }
    }

    #[test]
    fn one_diagonal_is_a_group() {
        let grid = r#""grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]"#;
        let plus = parse(&format!(r#"{{{grid},"diagonal+":true}}"#)).unwrap();
        assert_eq!(plus.to_string(), "................ group=r4c1r3c2r2c3r1c4");
        let minus = parse(&format!(r#"{{{grid},"diagonal-":true,"diagonal+":false}}"#)).unwrap();
        assert_eq!(minus.to_string(), "................ group=r1c1r2c2r3c3r4c4");
        let disjoint = parse(&format!(
            r#"{{"size":4,{grid},"disjointgroups":true,"antiking":true}}"#
        ))
        .unwrap();
        assert_eq!(
            disjoint.to_string(),
            "................ variant=disjoint,antiking"
        );
    }

    #[test]
    fn default_regions_are_f_puzzles_boxes() {
        // f-puzzles' default regions: rows on a prime side, else boxes of
        // `h` rows by N / h columns (the table of the f-puzzles solver,
        // dclamage/SudokuSolver, SolverUtility.DefaultRegions).
        for (n, h) in [
            (3, 1),
            (4, 2),
            (5, 1),
            (6, 2),
            (7, 1),
            (8, 2),
            (9, 3),
            (10, 2),
            (11, 1),
            (12, 3),
            (13, 1),
            (14, 2),
            (15, 3),
            (16, 4),
        ] {
            let shape = Shape::for_side(n).unwrap();
            for cell in 0..n * n {
                let (i, j) = (cell / n, cell % n);
                assert_eq!(
                    shape.box_of(cell),
                    (i / h) * h + j / (n / h),
                    "side {n} cell {cell}"
                );
            }
        }
    }

    #[test]
    fn unmodelled_constraints_are_named() {
        let grid = r#""grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]"#;
        let err = |extra: &str| parse(&format!(r#"{{"size":4,{grid}{extra}}}"#)).unwrap_err();
        let names = |list: &[&str]| {
            FpuzzlesError::Unsupported(list.iter().map(|s| s.to_string()).collect())
        };
        assert_eq!(
            err(concat!(
                r#","thermometer":[{"lines":[["R1C1","R1C2"]]}],"#,
                r#""arrow":[{"cells":["R1C1"],"lines":[["R1C1","R2C2"]]}],"nonconsecutive":true"#
            )),
            names(&["arrow", "nonconsecutive", "thermometer"])
        );
        assert_eq!(
            err(r#","thermometer":[{"lines":[["R1C1","R1C2"]]}],"arrow":[]"#).to_string(),
            "f-puzzles constraints sudokit does not model: thermometer"
        );
        assert_eq!(err(r#","negative":["ratio"]"#), names(&["negative"]));
        assert_eq!(
            err(r##","line":[{"lines":[["R1C1","R2C2"]],"outlineC":"#000"}]"##),
            names(&["line (cosmetic)"])
        );
        assert_eq!(
            err(r#","cage":[{"cells":["R1C1"],"value":"DR5"}]"#),
            names(&["cage (cosmetic)"])
        );
        assert_eq!(err(r#","brandnew":{"x":1}"#), names(&["brandnew"]));
        let first_cell = |cell: &str| {
            let mut g = format!(r#""grid":[[{cell},{{}},{{}},{{}}]"#);
            g.push_str(r#",[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]"#);
            parse(&format!("{{{g}}}"))
        };
        let cells = |cell: &str| first_cell(cell).unwrap_err();
        assert_eq!(
            cells(r#"{"givenPencilMarks":[1,2]}"#),
            names(&["givenPencilMarks"])
        );
        assert_eq!(cells(r#"{"parity":"Odd"}"#), names(&["parity"]));
        assert_eq!(cells(r#"{"region":null}"#), names(&["cells in no region"]));
        // Empty pencil marks, a solver's marks and colours are no constraint.
        assert!(first_cell(
            r##"{"givenPencilMarks":[],"cornerPencilMarks":[3],"cArray":["#fff"]}"##
        )
        .is_ok());
        // Disjoint groups on irregular regions.
        let jigsaw = JIGSAW_6.replace(r#""antiking": false"#, r#""disjointgroups": true"#);
        assert_eq!(
            parse(&jigsaw),
            Err(FpuzzlesError::Unsupported(vec![
                "disjointgroups with irregular regions".into()
            ]))
        );
    }

    #[test]
    fn malformed_documents_are_errors() {
        let row = r#"[{},{},{},{}]"#;
        let grid4 = format!("[{row},{row},{row},{row}]");
        let doc = |body: &str| parse(&format!("{{{body}}}"));
        assert!(matches!(parse("{\"size\":4,"), Err(FpuzzlesError::Json(_))));
        assert!(matches!(parse("[1,2]"), Err(FpuzzlesError::NotBase64('['))));
        assert!(matches!(parse("{} trailing"), Err(FpuzzlesError::Json(_))));
        assert!(matches!(doc(r#""size":4"#), Err(FpuzzlesError::Json(_))));
        assert!(matches!(
            doc(&format!(r#""size":9,"grid":{grid4}"#)),
            Err(FpuzzlesError::Json(_))
        ));
        assert!(matches!(
            doc(&format!(r#""size":"4","grid":{grid4}"#)),
            Err(FpuzzlesError::Json(_))
        ));
        assert!(matches!(
            doc(&format!(r#""grid":[{row},{row},{row},[{{}},{{}},{{}}]]"#)),
            Err(FpuzzlesError::Json(_))
        ));
        assert!(matches!(
            doc(&format!(r#""grid":[{row},{row},{row},[{{}},{{}},{{}},7]]"#)),
            Err(FpuzzlesError::Json(_))
        ));
        assert_eq!(doc(r#""size":0,"grid":[]"#), Err(FpuzzlesError::Size(0)));
        assert_eq!(doc(r#""size":65,"grid":[]"#), Err(FpuzzlesError::Size(65)));
        assert_eq!(doc(r#""grid":[]"#), Err(FpuzzlesError::Size(0)));
        let with = |extra: &str| doc(&format!(r#""size":4,"grid":{grid4},{extra}"#));
        for cell in [
            "R0C1", "R5C1", "R1C0", "X1C1", "R1", "RC1", "R1C1C", "R-1C1", "R01234C1",
        ] {
            assert_eq!(
                with(&format!(
                    r#""killercage":[{{"cells":["{cell}"],"value":"1"}}]"#
                )),
                Err(FpuzzlesError::BadCell(cell.into())),
                "{cell}"
            );
        }
        assert_eq!(
            with(r#""extraregion":[{"cells":[3]}]"#),
            Err(FpuzzlesError::BadCell("3".into()))
        );
        assert!(matches!(
            with(r#""killercage":[{"value":"3"}]"#),
            Err(FpuzzlesError::Json(_))
        ));
        assert!(matches!(
            with(r#""killercage":{"cells":[]}"#),
            Err(FpuzzlesError::Json(_))
        ));
        assert!(matches!(
            with(r#""killercage":[{"cells":["R1C1","R1C2"],"value":"ten"}]"#),
            Err(FpuzzlesError::BadValue(_))
        ));
        assert!(matches!(
            with(r#""killercage":[{"cells":["R1C1","R1C2"],"value":"9"}]"#),
            Err(FpuzzlesError::Layout(LayoutError::ImpossibleSum { .. }))
        ));
        assert!(matches!(
            with(r#""killercage":[{"cells":[],"value":"1"}]"#),
            Err(FpuzzlesError::Layout(LayoutError::BadGroup { .. }))
        ));
        assert!(matches!(
            with(r#""extraregion":[{"cells":["R1C1","R1C2","R1C3","R1C4","R2C1"]}]"#),
            Err(FpuzzlesError::Layout(LayoutError::BadGroup { .. }))
        ));
        let cell = |c: &str| {
            doc(&format!(
                r#""grid":[[{c},{{}},{{}},{{}}],{row},{row},{row}]"#
            ))
        };
        assert!(matches!(
            cell(r#"{"value":5,"given":true}"#),
            Err(FpuzzlesError::BadValue(_))
        ));
        assert!(matches!(
            cell(r#"{"value":0,"given":true}"#),
            Err(FpuzzlesError::BadValue(_))
        ));
        assert!(matches!(
            cell(r#"{"value":"x","given":true}"#),
            Err(FpuzzlesError::BadValue(_))
        ));
        assert!(
            cell(r#"{"value":5}"#).is_ok(),
            "a value that is not given is no clue"
        );
        assert!(matches!(
            cell(r#"{"region":4}"#),
            Err(FpuzzlesError::BadValue(_))
        ));
        assert!(matches!(
            cell(r#"{"region":1}"#),
            Err(FpuzzlesError::Layout(LayoutError::RegionSize { .. }))
        ));
        // Links without data.
        assert_eq!(
            parse("https://f-puzzles.com/?id=abcdef"),
            Err(FpuzzlesError::NoData)
        );
        assert_eq!(parse("   "), Err(FpuzzlesError::NoData));
        assert_eq!(
            parse("https://f-puzzles.com/?load=%2"),
            Err(FpuzzlesError::NotBase64('%'))
        );
    }

    #[test]
    fn lines_that_look_like_f_puzzles() {
        assert!(looks_like_fpuzzles(r#"  {"size":9}"#));
        assert!(looks_like_fpuzzles("see https://F-Puzzles.com/?load=N4Ig"));
        assert!(looks_like_fpuzzles("https://sudokupad.app/fpuzzlesN4Ig"));
        assert!(!looks_like_fpuzzles("1...........4... variant=x"));
        assert!(!looks_like_fpuzzles("https://sudokupad.app/abc"));
    }

    /// Real f-puzzles data with the published solutions, from the test
    /// suite of the f-puzzles solver: dclamage/SudokuSolver,
    /// SudokuTests/Puzzles.cs (uniqueClassicFPuzzles[0]; uniqueVariantFPuzzles
    /// "Clipped" by glum_hippo, "Self-contained" by Lavaloid, "Behemoth" by
    /// Tyrgannus, "Slow Thermo Sudoku" by Philip Newman).
    const CLASSIC: (&str, &str) = (
        "N4IgzglgXgpiBcBOANCALhNAbO8QCUIAHInMEVAQwFc0ALAewCcEQAFOiLYgAgDkYAdwC2lAHYUQTamRhpWf\
         ZqKw8w1ACYMA1tR7SyPSiSwBPAHQ8AgmPU96lNAHIwPTAEJJAcyYR1CANr+oABulFjUuCggnhDBMBLwaNIwA\
         L7IwGkZ6ZmZIKHhuAAcqDFxCUkRufkRCADsJbHxCBWp6XlhNfAAbA1lzck5ALrIQTnZbdW4AIy9TYkDEx2Rs\
         +ULWetDIxuLBQgATCv9lePbpynDozudAMyH88dnJ2MZF+vtu0h3Lc8/J++dM2ijVWD3+uB6QL691SrzBCGKk\
         Lm3yeKLekwQAFYvms4Z9ESDWi8trj6vijoTfmilggIaUkTj0fAEXSCVVqfAsWToZsgrjOSzyZS2R9mcDBVdl\
         lzkSF2bSxdyJXVsQ9zlshYqOcqKajcQAWLXnQYpIA===",
        "913548762678192435452637189137965248295874316864213597749326851521489673386751924",
    );

    const CLIPPED: (&str, &str) = (
        "N4IgzglgXgpiBcBOANCALhNAbO8QGEsIAHYmAExFQEMBXNACwHsAnBEABQYiNIAIAQlloBbGH2oBranwDmwk\
         QH1upJlRAtaOMDDTsAyrXJNJtPgFo+MAG4wWATz4smAd2R8AxkwUA7d9R9yPgBmAA9gvgAjJlC+EVowNE8mH\
         zRqCB8JLCw+RnFyCFlMMD4AM2cRPgBGc0QAOj59JjE+AqK0EuoWcWosbupyRyLbHzqAHR8JgEFUiHMAaQzZC\
         ysAR1pe1sLiuOpHHyYktCZaDwYt6lkU3qx7ccmfABUGOxFm3TsVtp34xL5ElgQDzYRwZDz9HRlCpRLSRXJMX\
         Ike7TFjOFwrPKeCAsDw4ILfJJeHyJTD0GAlTFgUR8JilXIvLbtTpYFLLTFdNH3dSyQGUeAAbX5wAAvsgRWLR\
         eKpZKZRKALrIIWy6US1UqkUKpVq5Ugay9Wi4ABsqGGMB8CDQmhgyptmvVNu12rtOr1wlwAFYTRARharS79bg\
         ql6ffBLQb/W6EAAWYNm33hp2K+2O5MapMOqW6gMIYKx82hv0pmXOoul6Ul1MZ4sKkABDCSJbxmCoPIsN5iNB\
         2BBCkBEHzk7v8kAAJUN+Hd6mHAHZ8FHJwAOfDBBf4ABMIDlcslvYyA4FQ+H7rXk6jS8nwVnk9Xl83277e8FI\
         9PE9Qw4vhqv+Cnn/nG63Yp3fswEHEcj1/V8x2/V8Zw/V9Fw/W8aw5Vxu1Ae9gP3UDL1fU9l1fC911fa9103V\
         APBgbIMIPI853/NDdyo6j8FgkdIMnGdwJHRdf1IkByMo7ssIQu8GJA4dFxfEcZznCCz1kkia34rAqK48cNxE\
         oCxOvSS32Yk8v30njFIo5TBOHbT1IA9CxJnPDVJkkdEDU3ilJU6czy3LcgA=",
        "867452931342891675519763284984327156635918427721645398498536712276189543153274869",
    );

    const SELF_CONTAINED: (&str, &str) = (
        "N4IgzglgXgpiBcBOANCALhNAbO8QGUYsAzAWgGMB7AOzQEMJqYATEVOgVzQAtKAnBCAAydAG50slCK1R8OOM\
         DDSCA1AAIAcvwC2EtWA7NKAaw5q5CtXQAO1rAE8AdAB1qAUVEw+985QDuyGpUWBza1IF01MxqAMwAHjFqAEa\
         UcUE09IxgVlhYaswQAOaY2cR8lNpqAIxqaJRqiC7UruoAgrQQxtRF3Gjm8jBWtlgQMGBNACJFJfow1nR8dGg\
         syT50Qdxj2V09aADk2dqUnmq6PtSUfUmD0jAd5BJNLWoA0hC5Xv04Q3aj465TYpobKMKxBOiFQbaDhgPoGSp\
         1WqbNTUULXPhqPx8TDLahqUE8QZ1axqHDENCONSAmbQ2Eoy7mOYwJb4vHrB6QxxsECFbGseAAbQFwAAvshRe\
         KxRLpVLZZKALrIYVymWStWq0WK5XqkDkQQAYgmAAZjQAxU0gKW6g3Gs0Wq16vCGk1G82W8XWp22132j2OkDO\
         u3umVajWegPet0Om0uqN+mNB6Ne2O+0D+wM+4Oy0Mq8MZuNphOZpMRlPBvOR1MVssqkU5nXpyvlxs1+PJxNt\
         0sdwvt4vqutKsMt7vVkfDvs9rsT0cT7OD2v9xch+dLhcauuKkCRDA7Qq9BBoOQwVDGd44Pgc3DC3VELBgBAC\
         kAAJQAbABhGLcp8Adg/X9/AAsICbuIIS4CAABMn4Ore96Cs+AF/qgT6IUByGIQArMBqCgRw4FQc2sEPs+MRI\
         SRb5ASBEh4YIAAchG5HBj5PhhZEsRRX7vpROHUeBVRYTBjHEexWHIe+onPu+L7YSAuF8YgDF3sJiHfl+rHSc\
         hrGqVRYGCFUQGCUp8FPqREkmW+Gnkap6EWTJcl6QJfpEcZv5mb+0k6TReD0YZTGSW+1nPr+2k8bpeDSXWIpA\
         A===",
        "653418279174259863982673451528961347317542986496387512769835124831724695245196738",
    );

    const BEHEMOTH: (&str, &str) = (
        "N4IgzglgXgpiBcBGAbAGhAFwhgNneIAQjABYwC2A9hiSOgIYCuNlATgiACoCerA5vQB2gxmDohWjPGBgYOAW\
         gBybcvRwACMIwAmlANaN1k6evoAHMzm4AdQfJQAPFOoitWMPlPqsjHiJUEwW3kAEQg+bDB1AGMhQWpfMxh6D\
         BdBUxj6PhhbcT5WCG0EAG1i4ABfVAqqyurQdwiAhAAGWok/JvhWqvbGwRa2hv9+rvQANzVGfABmdAixmBGMS\
         RhBjpHENb6ERHHJ/AAOOYgFpZWt4Z2Lzt2QCZwphAAWY9OEZanrja+rnqGbn5IcoAXVQZVqEJqf3WCAATIDm\
         nsHvgUK9Fu9ztDtl1AfCsZd4NNAbM7vs4Wizp98QDqSMSfdHkgSfN0fAPqtab96jCgZykEjGcyTqz2YDNqDw\
         Xy8dzsdLegTYQKUS8QCzKRyZQqEUqdkK3mzMZrOnL/iNFaTkQg0KrheriTr4ABWCkYqlGunEz09Bko81q10a\
         +U091coMjADsILBIfgT1xuId4ZdBrdYbh8alGZj5p9Oz9toDXpjRL5JeLbVz8AAnMnRd6ybHa4a07yY5GJaB\
         K3qRYbIZ2G4hETb9XXs32LYya8Oe27Ac6J8qm6nTQhHXPE0uNeOV4SHdb/SnAzuy1HJf3LfAjtO7VC6hWB/O\
         D6O+/eL1On83K7cP7Pb6/GYgKo/luHYvnya71he+Yjr2kEAfuBaHmBdQLjs36Ic+f63i2iC3JWQEYecHYtgc\
         yGofACEwb+MbIICtF8talZJtehZYXebFiuK0aAnG2Fft2N4xqRfLCUJYrdDGU5fkOwGAlWckKXBMybtuPKRj\
         UoEcSJgJXpWlEzkePKDuJimSQ6uEqXy8lWQ6j6EdRgLqRUmnngBlkxsZ2E7oODoCaxHlDkx7k4YFA4yfZhnY\
         p5kmmS2UkNgRVGRQS1nsa5+B2UlELEd5EkhQ674ReJDpXrJfLRSFxXkYlBkmeVZY4bxZnkcxZUxTZ5GAe5Yr\
         ztJ3UadGlV8QONWCeRflIVp6UIIVWVKQgpVFWxcXjl+mW1V5RlcWeq0PsF3nSrtUHBV+6FzR5DVftBG0ofxJ\
         0Not53Zdx81IOFT3DRe+mCf+vr9RdYqXQOE2YWlz07ctlbrWN3lNY15mjf5jW/QgrVLWDU0gqCIB6BAOB4Kw\
         sTZCUoDRDA+NiPAxQgAASrCADCsLiHT9PTMzDNPOz9OOsz0yM7zrMC5z6A03zPMi08/MS4L0vC7Tkvi7TjpS\
         0rMuq3LNPKzzwJtGTFMlLTDPhlzBxc1WXODgLxsi3zps2/T5v25b0vW/L9N227jtu87quu5r7vM8rXv+5bOs\
         9HrOCU9TLOIEzIsM4gbPx/TgEW4rosp3HtN84nAup076eS7HzNF0n3sa0X6fK8XIvV2XIca9X2u6+TkcGzT4\
         Yqx3avdxrnfpwcXeD/Xg8a4P6dVl3k/15PGuT+ng5d4v9eLxri/N+HrdR7Tnd+53Hvd8Hnc+zTg9+4PB+D8H\
         g8n5PfuTwfk/B5PJ+L37i8H4vweL6HLf61TO9M7M2PvXY+fcU4DyASLG+I8U5jwgczF+WcaYvxnnAxBCCRY/\
         2QT/FezR0FYPwYgDepMt7t1jlA2mFDc5YITmvBOC8c44JzivHOa8c4LyLjg0uzNAIEKoZXXh1ccF1yEfwmmx\
         CEFh1If/aOFD34M0/gzb+Cdmi8L5u/W26iHbaNfpLd+ktP6S2/kXNRWDlbv2Vp/IOYjf6b1kVQhmOCGYrw5r\
         whmjCl581YfTdh3NeGS24T3Pha8FZiJEcE5Wa8tYgB1jrIAA",
        "915102145131286416713111161284167101529131413543161491311651107122158113751528121631\
         411941063112101129131447165681513847111565291121031416121415123168651110713945169610\
         144731315811122125111389151101216631447107341262149118515161131416163710111315428951\
         215981213451617314610112162143711139865141512106451516132111012913871471011168121541\
         41332516981213951014471621511163",
    );

    const SLOW_THERMO: (&str, &str) = (
        "N4IgzglgXgpiBcBOANCALhNAbO8QGUsB7AdwAIAVACxgCcBbIs/AVwBMiBrFkVAQxZoqRWghAAFKhCwQADmQ\
         ByMEvT4A7XiADmtCGwQBtA6ABufLC1wAWAL7JT5ywgBsdhxdwBWNyDMeEAOw+fk5IwY64AMzh/vAAHDGhAIy\
         JuABMNgC6yMa+EQgJ9nmxQUUhuCll+fAZVbGudaHejVGpCLYtCIhZOe6h3Z3w0YO1fRVt8B1jBRPN0/AN80H\
         ZueWBE6PFocPzU1vjgwPzi/sIc6fxPavV52uXg3t3Oxebdyd3pfNHFykr85VfCbvG4TQpLDYTZ53Wx/C7A2K\
         3arfO5gi6fC6PaoAl6Qq7zKFY0ETZEgkYTTElIF4nEPCbot64wbYu4k2Kou7eTLZcDEEhCOiMegwNB0QygGR\
         qGBgQwGEAAJSsAGFPJo5ZFFVZVWlFZEtRrVerdagFYq0gbTaqlUb5Z59cbbdaTZrjeqVcbtc5zQFLYq4ua/c\
         ald77YrPSHg/LnKHVQFlaqo275bHnfK4jrVWmU3LY46o2auT4JVKZUnFRHs76Y4rEPHqyAC9yi2KQEXpfAjP\
         KlYm1Xb5drHdqs4afWaXRbA+mQ1mHT6h3H3dGx+WlQH5erVyby7awzay7WdxXuwmq1m047M1XcxauagiIIi4\
         qxABiZxWRCeACiABFNCQ9EIEAABgAOkiVAADNaCIehFSINQwDQWg+AgNQ0DEQhSEoGgGGg4VRULFDi3bWUK3\
         LWMN1jGtjSjGsbxAO9sEIx88BfN9Px/VA/zYAD4BAsCQEg6DYPgxDkNQ9DeSwgVcJFUQehAABjCBaAUnBmwU\
         mAsCwNsSK7etUAAIz4MAYGYkBWPfb9NAYh9n1fSyOJALieJAuJUBoCAtCoNDeOAtyBKgmC4IQpCUJ8ghJOoa\
         ShVkkAfA0rSdNLb1uSMkyzIs9jrPvJi7LYqzOP/KggL89yYE87ySv8wSgpE0LxLwDDyCinCYvwzIbCAA",
        "465793812871265349932148567723419658584326791196587234659874123318952476247631985",
    );

    /// The solution as f-puzzles' test suite writes it: the digits' decimal
    /// numbers run together.
    fn digits(solution: &Puzzle) -> String {
        solution.cells().iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn real_f_puzzles_data_solves_to_the_published_solutions() {
        for (data, solution) in [CLASSIC, SELF_CONTAINED, BEHEMOTH] {
            let p = parse(data).unwrap();
            assert_eq!(p.status(), Status::Unique, "{p}");
            assert_eq!(digits(&p.solve().unwrap()), solution, "{p}");
        }
        let classic = parse(CLASSIC.0).unwrap();
        assert!(classic.layout().is_classic());
        assert_eq!(classic.givens().clue_count(), 25);
        // Killer and anti-knight: every cage has a sum.
        let killer = parse(SELF_CONTAINED.0).unwrap();
        assert_eq!(killer.layout().rules(), Rules::NONE.with(Rule::AntiKnight));
        assert_eq!(killer.layout().cages().len(), 9);
        assert!(killer.layout().cages().iter().all(|c| c.sum.is_some()));
        // 16×16: irregular regions, cages without sums, givens above 9.
        let behemoth = parse(BEHEMOTH.0).unwrap();
        assert_eq!(behemoth.layout().side(), 16);
        assert!(behemoth.layout().is_jigsaw());
        assert_eq!(behemoth.layout().cages().len(), 9);
        assert!(behemoth.layout().cages().iter().all(|c| c.sum.is_none()));
        // Arrows and thermometers are refused, by name.
        assert_eq!(
            parse(CLIPPED.0),
            Err(FpuzzlesError::Unsupported(vec![
                "arrow".into(),
                "thermometer".into()
            ]))
        );
        // Its grid holds the solution as values that are not given, and
        // cosmetic lines and circles drawn for the slow thermometers.
        assert_eq!(
            parse(SLOW_THERMO.0),
            Err(FpuzzlesError::Unsupported(vec!["slowthermometer".into()]))
        );
        let json = decompress_base64(SLOW_THERMO.0).unwrap();
        let moved = json.replacen(
            "\"slowthermometer\":[",
            "\"slowthermometer\":[],\"solution\":[",
            1,
        );
        assert_eq!(parse(&moved).unwrap().givens().clue_count(), 0);
    }
}
