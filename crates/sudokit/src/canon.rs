//! Canonical forms of 9×9 puzzles and grids.
//!
//! Two 9×9 puzzles are *equivalent* when one becomes the other by validity-
//! preserving moves: relabelling the digits, permuting the rows within a
//! band, the bands, the columns within a stack, the stacks, and transposing.
//! The group has 2 · 6⁸ = 3,359,232 cell permutations, each combined with
//! 9! relabellings. The *canonical form* of a puzzle is the smallest of all
//! its equivalent puzzles, read as an 81-digit string with blanks as `0`;
//! every puzzle of an equivalence class has the same one, and puzzles of
//! different classes have different ones.
//!
//! # How it is found without trying 3 million transforms
//!
//! For a fixed cell permutation the best relabelling is forced: digits are
//! numbered 1, 2, 3 … in order of first appearance. So the search only
//! chooses the cell permutation, and it builds the output one cell at a time
//! in reading order, as a depth-first search:
//!
//! 1. output row 0 is any source row (of the grid or of its transpose);
//! 2. its nine cells choose the column permutation: a stack, then a column
//!    of that stack for each of its three places, stack by stack;
//! 3. every further output row chooses a source row: a fresh band every
//!    third row, otherwise an unused row of the current band.
//!
//! Each placed cell is compared with the best form found so far. While the
//! prefix equals the best's prefix a larger cell cuts the branch at once;
//! a smaller one makes the branch the new leader, and when it completes it
//! becomes the best (its prefix is then shared by every open ancestor, so
//! they compare again from there). Puzzles cut most branches in the first
//! row or two. Two things cut the first row's column choices further: the
//! first row of the form is known in advance (it depends only on where a
//! row's clues are), and the second row's source is chosen up front, so
//! each column placed bounds the second row too (see `Search::second`).

use crate::grid::{check_cells, InputError, Puzzle, Shape};

/// A member of the symmetry group: transpose (or not), then take output row
/// `i` from source row `rows[i]` and output column `j` from source column
/// `cols[j]`, then relabel digit `d` as `labels[d]` (`labels[0] = 0` keeps
/// blanks blank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Whether the source is transposed first.
    pub transpose: bool,
    /// Source row of each output row; bands and rows within bands only.
    pub rows: [u8; 9],
    /// Source column of each output column; stacks and columns within stacks.
    pub cols: [u8; 9],
    /// New label of each digit, index 0 (blank) to 9.
    pub labels: [u8; 10],
}

impl Transform {
    /// The identity transform.
    pub fn identity() -> Transform {
        let idx: [u8; 9] = std::array::from_fn(|i| i as u8);
        Transform {
            transpose: false,
            rows: idx,
            cols: idx,
            labels: std::array::from_fn(|d| d as u8),
        }
    }

    /// Whether the row and column orders keep bands and stacks together and
    /// the labels are a permutation of 1–9 fixing the blank.
    pub fn is_valid(&self) -> bool {
        let lines_ok = |order: &[u8; 9]| {
            let mut seen = 0u16;
            for (i, &r) in order.iter().enumerate() {
                let same_group = r / 3 == order[i - i % 3] / 3;
                if r > 8 || seen & 1 << r != 0 || !same_group {
                    return false;
                }
                seen |= 1 << r;
            }
            true
        };
        let mut labels = 0u16;
        for &l in &self.labels[1..] {
            labels |= 1u16.checked_shl(l.into()).unwrap_or(0);
        }
        lines_ok(&self.rows) && lines_ok(&self.cols) && self.labels[0] == 0 && labels == 0x3FE
    }

    /// The image of an 81-cell puzzle (values 0–9) under this transform; an
    /// error when a value exceeds 9 or the transform is not valid
    /// ([`Transform::is_valid`]: its fields are public, so anything can be
    /// written there).
    pub fn apply(&self, cells: &[u8; 81]) -> Result<[u8; 81], InputError> {
        check_cells(nine(), cells)?;
        if !self.is_valid() {
            return Err(InputError::InvalidTransform);
        }
        Ok(self.apply_raw(cells))
    }

    /// [`Transform::apply`] for a valid transform and values 0–9.
    fn apply_raw(&self, cells: &[u8; 81]) -> [u8; 81] {
        let grid = if self.transpose {
            transposed(cells)
        } else {
            *cells
        };
        std::array::from_fn(|k| {
            let (i, j) = (k / 9, k % 9);
            self.labels[grid[self.rows[i] as usize * 9 + self.cols[j] as usize] as usize]
        })
    }
}

impl Puzzle {
    /// The canonical form of a 9×9 puzzle (see [`crate::canon`]): equal for
    /// exactly the puzzles that are equivalent. An error for other shapes.
    pub fn canonical_form(&self) -> Result<Puzzle, InputError> {
        let cells: &[u8; 81] = self
            .cells()
            .try_into()
            .ok()
            .filter(|_| self.shape() == nine())
            .ok_or(InputError::WrongShape {
                found: self.shape(),
                expected: nine(),
            })?;
        Ok(self.with_cells(canonical_raw(cells).to_vec()))
    }
}

/// A puzzle's canonical form and a transform taking the puzzle to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The minimum-lexicographic equivalent puzzle (0 = blank).
    pub form: [u8; 81],
    /// One transform with `transform.apply(puzzle) == Ok(form)`.
    pub transform: Transform,
}

/// The 9×9 shape, the only one this module handles.
fn nine() -> Shape {
    Shape::new(3, 3).expect("3×3 boxes are a valid shape")
}

/// The canonical form of a 9×9 puzzle or grid, `cells` holding 81 values
/// 0–9 (0 = blank), or an error when a value exceeds 9; see the module docs.
pub fn canonical_form(cells: &[u8; 81]) -> Result<[u8; 81], InputError> {
    check_cells(nine(), cells)?;
    Ok(canonical_raw(cells))
}

/// [`canonical_form`] of values known to be 0–9 (the hunt's own puzzles).
pub(crate) fn canonical_raw(cells: &[u8; 81]) -> [u8; 81] {
    canonicalize_raw(cells).form
}

/// The canonical form with a transform that produces it, or an error when a
/// value exceeds 9.
pub fn canonicalize(cells: &[u8; 81]) -> Result<Canonical, InputError> {
    check_cells(nine(), cells)?;
    Ok(canonicalize_raw(cells))
}

/// [`canonicalize`] of values known to be 0–9.
fn canonicalize_raw(cells: &[u8; 81]) -> Canonical {
    // The empty grid is its own form; every transform ties, so skip them.
    if cells.iter().all(|&v| v == 0) {
        return Canonical {
            form: [0; 81],
            transform: Transform::identity(),
        };
    }
    let mut search = Search {
        grid: [0; 81],
        best: [u8::MAX; 81],
        best_path: Transform::identity(),
        generation: 0,
        cur: [0; 81],
        path: Transform::identity(),
        row0: [0; 9],
        second: 0,
    };
    let sources = [*cells, transposed(cells)];
    search.row0 = sources
        .iter()
        .flat_map(|g| g.chunks(9).map(least_first_row))
        .min()
        .expect("18 rows");
    for (transpose, source) in [false, true].into_iter().zip(sources) {
        search.grid = source;
        search.path.transpose = transpose;
        for r0 in 0..9u8 {
            if least_first_row(&source[r0 as usize * 9..][..9]) != search.row0 {
                continue;
            }
            search.path.rows[0] = r0;
            for second in (r0 / 3 * 3..r0 / 3 * 3 + 3).filter(|&r| r != r0) {
                search.second = second;
                search.first_row(0, 0, 0, [0; 10], 1, search.generation > 0);
            }
        }
    }
    Canonical {
        form: search.best,
        transform: search.best_path,
    }
}

fn transposed(cells: &[u8; 81]) -> [u8; 81] {
    std::array::from_fn(|k| cells[(k % 9) * 9 + k / 9])
}

/// The depth-first search of the module docs.
struct Search {
    /// The source (the puzzle or its transpose).
    grid: [u8; 81],
    /// The best form so far (all 255 before the first leaf).
    best: [u8; 81],
    /// The transform giving `best`.
    best_path: Transform,
    /// Bumped whenever `best` changes.
    generation: u64,
    /// The output built along the current path.
    cur: [u8; 81],
    /// The choices along the current path (labels are filled at a leaf).
    path: Transform,
    /// The first row of the canonical form, known in advance: a row's
    /// best arrangement depends only on where its clues are (see
    /// [`least_first_row`]), so it is the least over the 18 source rows.
    row0: [u8; 9],
    /// The source row of output row 1, chosen in advance. With row 0 fixed,
    /// each column placed in row 0 bounds row 1 (a digit not yet labelled
    /// will get at least the next label), which cuts most column choices as
    /// soon as they are made.
    second: u8,
}

/// The least form a row can take as an output first row: its stacks in
/// ascending order of clue count, blanks first within each stack, clues
/// numbered 1, 2, … in order.
fn least_first_row(row: &[u8]) -> [u8; 9] {
    let mut counts: Vec<usize> = row
        .chunks(3)
        .map(|stack| stack.iter().filter(|&&v| v != 0).count())
        .collect();
    counts.sort_unstable();
    let mut out = [0u8; 9];
    let mut label = 1;
    for (s, &c) in counts.iter().enumerate() {
        for slot in &mut out[3 * s + 3 - c..3 * s + 3] {
            *slot = label;
            label += 1;
        }
    }
    out
}

/// The output value of source value `v`, numbering new digits on first use.
#[inline(always)]
fn label(v: u8, labels: &mut [u8; 10], next: &mut u8) -> u8 {
    if v == 0 {
        return 0;
    }
    if labels[v as usize] == 0 {
        labels[v as usize] = *next;
        *next += 1;
    }
    labels[v as usize]
}

impl Search {
    /// Places output cell `(0, j)`: chooses the source column, a new stack
    /// at `j = 0, 3, 6`. `tight`: the prefix so far equals the best's.
    fn first_row(
        &mut self,
        j: usize,
        used: u16,
        stack: u8,
        labels: [u8; 10],
        next: u8,
        tight: bool,
    ) {
        if j == 9 {
            self.next_row(1, 1 << (self.path.rows[0] / 3), labels, next, tight);
            return;
        }
        let candidates: u16 = if j.is_multiple_of(3) {
            !used & 0x1FF
        } else {
            !used & (0b111 << (3 * stack))
        };
        let mut tight = tight;
        let row = self.path.rows[0] as usize * 9;
        let mut set = candidates;
        while set != 0 {
            let c = set.trailing_zeros() as u8;
            set &= set - 1;
            let mut l = labels;
            let mut n = next;
            let v = label(self.grid[row + c as usize], &mut l, &mut n);
            if v != self.row0[j] {
                continue;
            }
            let child_tight = tight;
            self.cur[j] = v;
            self.path.cols[j] = c;
            if child_tight && self.second_row_exceeds(j, &l, n) {
                continue;
            }
            let before = self.generation;
            self.first_row(j + 1, used | 1 << c, c / 3, l, n, child_tight);
            tight |= self.generation != before;
        }
    }

    /// With row 0 equal to the best's: whether
    /// row 1, as far as columns `0..=j` and the labels given so far decide
    /// it, must come out larger than the best's row 1.
    fn second_row_exceeds(&self, j: usize, labels: &[u8; 10], next: u8) -> bool {
        let r1 = self.second;
        for k in 0..=j {
            let d = self.grid[r1 as usize * 9 + self.path.cols[k] as usize];
            let best = self.best[9 + k];
            if labels[d as usize] == 0 && d != 0 {
                return next > best;
            }
            if labels[d as usize] != best {
                return labels[d as usize] > best;
            }
        }
        false
    }

    /// Fills output row `i` from an unused source row: a fresh band when `i`
    /// starts a band, else an unused row of the current band.
    fn next_row(&mut self, i: usize, bands: u8, labels: [u8; 10], next: u8, tight: bool) {
        if i == 9 {
            if !tight {
                self.best = self.cur;
                self.best_path = self.path;
                let mut full = labels;
                let mut n = next;
                for d in 1..10u8 {
                    label(d, &mut full, &mut n);
                }
                self.best_path.labels = full;
                self.generation += 1;
            }
            return;
        }
        let used_rows = |path: &Transform| path.rows[..i].iter().fold(0u16, |acc, &r| acc | 1 << r);
        let candidates: u16 = if i.is_multiple_of(3) {
            (0..3u16)
                .filter(|b| bands & 1 << b == 0)
                .fold(0, |acc, b| acc | 0b111 << (3 * b))
        } else if i == 1 {
            1 << self.second
        } else {
            let band = self.path.rows[i - 1] / 3;
            0b111 << (3 * band) & !used_rows(&self.path)
        };
        let mut tight = tight;
        let mut set = candidates;
        while set != 0 {
            let r = set.trailing_zeros() as u8;
            set &= set - 1;
            let mut l = labels;
            let mut n = next;
            let mut row_tight = tight;
            let mut cut = false;
            for j in 0..9 {
                let src = self.grid[r as usize * 9 + self.path.cols[j] as usize];
                let v = label(src, &mut l, &mut n);
                let k = i * 9 + j;
                if row_tight {
                    if v > self.best[k] {
                        cut = true;
                        break;
                    }
                    row_tight = v == self.best[k];
                }
                self.cur[k] = v;
            }
            if cut {
                continue;
            }
            self.path.rows[i] = r;
            let before = self.generation;
            self.next_row(i + 1, bands | 1 << (r / 3), l, n, row_tight);
            tight |= self.generation != before;
        }
    }
}
