//! Variant layouts as text: the fields after a puzzle's cells.
//!
//! ```text
//! CELLS [regions=MAP] [variant=RULES] [cage=[SUM@]CELLS]… [group=CELLS]…
//! ```
//!
//! `MAP` is one symbol per cell naming its region (any `N` symbols, `N`
//! cells each); `RULES` a comma-separated [`Rules`] list;
//! `CELLS` a run of `rRcC` references, 1-based (`r1c1r1c2r2c1`). Fields are
//! separated by whitespace or `;`; other fields (a rating, a name) are ignored,
//! as on any puzzle line. No field uses `:`, which starts an id in the
//! solving service's requests (muduo's rule: the id is everything before
//! the first `:`).

use super::layout::{Cage, Layout, LayoutError, Rules};
use crate::parse::DEFAULT_SYMBOLS;

/// The keys of the fields that describe a layout.
const KEYS: [&str; 4] = ["regions=", "variant=", "cage=", "group="];

/// Whether `rest` (the bytes after a line's cells) has any layout field.
/// Every key ends in `=`, so text without one (most trailing fields, a
/// rating or a name) is settled by one byte scan. Bytes that are not UTF-8
/// are no layout field.
pub fn has_layout_fields(rest: &[u8]) -> bool {
    rest.contains(&b'=')
        && fields(&String::from_utf8_lossy(rest))
            .any(|f| KEYS.iter().any(|k| starts_with_key(f, k)))
}

fn fields(rest: &str) -> impl Iterator<Item = &str> {
    rest.split(|c: char| c.is_whitespace() || c == ';')
        .filter(|f| !f.is_empty())
}

/// Whether `field` starts with `key` (ASCII, any case); then `key.len()` is
/// a character boundary of `field`.
fn starts_with_key(field: &str, key: &str) -> bool {
    field
        .as_bytes()
        .get(..key.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(key.as_bytes()))
}

/// `layout` with the layout fields of `rest` applied, in order.
pub fn apply_fields(mut layout: Layout, rest: &str) -> Result<Layout, LayoutError> {
    let n = layout.side();
    for field in fields(rest) {
        let Some(key) = KEYS.iter().find(|k| starts_with_key(field, k)) else {
            continue;
        };
        let value = &field[key.len()..];
        layout = match *key {
            "regions=" => layout.with_region_map(value)?,
            "variant=" => layout.with_rules(
                value
                    .parse::<Rules>()
                    .map_err(|e| LayoutError::Syntax(e.to_string()))?,
            ),
            "cage=" => {
                let (sum, cells) = match value.split_once('@') {
                    Some((sum, cells)) => (parse_sum(sum)?, cells),
                    None => (None, value),
                };
                layout.with_cage(Cage {
                    sum,
                    cells: parse_cells(cells, n)?,
                })?
            }
            _ => layout.with_group(parse_cells(value, n)?)?,
        };
    }
    Ok(layout)
}

fn parse_sum(text: &str) -> Result<Option<u32>, LayoutError> {
    if text.is_empty() || text == "?" {
        return Ok(None);
    }
    text.parse::<u32>()
        .map(Some)
        .map_err(|_| LayoutError::Syntax(format!("cage sum '{text}' is not a number")))
}

/// Cells written as `r1c1r1c2…` (either case), 0-based indices.
pub fn parse_cells(text: &str, n: usize) -> Result<Vec<u16>, LayoutError> {
    let bad = || LayoutError::Syntax(format!("cells '{text}' are not of the form r1c1r1c2…"));
    let bytes = text.as_bytes();
    let mut cells = Vec::new();
    let mut i = 0;
    let number = |i: &mut usize| -> Option<usize> {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        text[start..*i].parse().ok()
    };
    while i < bytes.len() {
        if !bytes[i].eq_ignore_ascii_case(&b'r') {
            return Err(bad());
        }
        i += 1;
        let row = number(&mut i).ok_or_else(bad)?;
        if i >= bytes.len() || !bytes[i].eq_ignore_ascii_case(&b'c') {
            return Err(bad());
        }
        i += 1;
        let col = number(&mut i).ok_or_else(bad)?;
        if row == 0 || col == 0 || row > n || col > n {
            return Err(LayoutError::NoSuchCell {
                cell: format!("r{row}c{col}"),
                side: n,
            });
        }
        cells.push(((row - 1) * n + col - 1) as u16);
    }
    if cells.is_empty() {
        return Err(bad());
    }
    Ok(cells)
}

/// Cells as `r1c1r1c2…`.
pub fn write_cells(cells: &[u16], n: usize, out: &mut String) {
    use std::fmt::Write;
    for &c in cells {
        let _ = write!(out, "r{}c{}", c as usize / n + 1, c as usize % n + 1);
    }
}

/// The layout fields of `layout` (empty for classic Sudoku), each preceded
/// by a space: the text [`apply_fields`] reads back.
pub fn layout_fields(layout: &Layout) -> String {
    let n = layout.side();
    let mut out = String::new();
    if layout.is_jigsaw() {
        let symbols: Vec<char> = DEFAULT_SYMBOLS.chars().collect();
        out.push_str(" regions=");
        for cell in 0..n * n {
            let r = layout.region_of(cell);
            // 62 to 64 regions outrun the default symbols; no side that big
            // has a text alphabet either.
            out.push(symbols.get(r).copied().unwrap_or('?'));
        }
    }
    if !layout.rules().is_empty() {
        out.push_str(" variant=");
        out.push_str(&layout.rules().to_string());
    }
    for group in layout.groups() {
        out.push_str(" group=");
        write_cells(group, n, &mut out);
    }
    for cage in layout.cages() {
        out.push_str(" cage=");
        if let Some(sum) = cage.sum {
            out.push_str(&sum.to_string());
            out.push('@');
        }
        write_cells(&cage.cells, n, &mut out);
    }
    out
}
