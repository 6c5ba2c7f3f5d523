//! An independent reference for variant layouts: plain backtracking and a
//! solution checker that recompute every rule from the [`Layout`]'s public
//! accessors, without the library's `Constraints` tables or any engine.
//!
//! Included with `#[path = "common/variant_reference.rs"] mod variant_reference;`
//! (not through `common/mod.rs`, so other test targets are unaffected).

#![allow(dead_code)]

use sudokit::variant::{Layout, Rule};

/// The windoku windows of `layout`'s box shape, as `(top, left)` corners
/// (0-based): boxes of `R × C` cells starting one row and one column in,
/// separated by one row and one column, as many as fit.
fn window_corners(layout: &Layout) -> Vec<(usize, usize)> {
    let n = layout.side();
    let (r, c) = (layout.shape().box_rows(), layout.shape().box_cols());
    let mut tops = Vec::new();
    let mut top = 1;
    while top + r <= n {
        tops.push(top);
        top += r + 1;
    }
    let mut lefts = Vec::new();
    let mut left = 1;
    while left + c <= n {
        lefts.push(left);
        left += c + 1;
    }
    let mut corners = Vec::new();
    for &t in &tops {
        for &l in &lefts {
            corners.push((t, l));
        }
    }
    corners
}

/// Whether two cells `(r1, c1)`, `(r2, c2)` are a knight's move apart.
fn knight_apart(r1: usize, c1: usize, r2: usize, c2: usize) -> bool {
    let dr = r1.abs_diff(r2);
    let dc = c1.abs_diff(c2);
    dr * dr + dc * dc == 5
}

/// Whether two distinct cells touch, diagonally included.
fn king_apart(r1: usize, c1: usize, r2: usize, c2: usize) -> bool {
    let dr = r1.abs_diff(r2);
    let dc = c1.abs_diff(c2);
    dr <= 1 && dc <= 1 && (dr, dc) != (0, 0)
}

/// Plain backtracking over a layout: cells in row-major order, digits
/// `1..=N` in order, each new digit checked against every cell that holds
/// one (earlier cells and the givens).
pub struct Reference {
    n: usize,
    /// Cell groups whose digits must differ (rows, columns, regions, rule
    /// groups, extra groups, cages).
    groups: Vec<Vec<usize>>,
    /// The groups each cell is in.
    groups_of: Vec<Vec<usize>>,
    /// Cells that must differ from each cell by a knight or king relation.
    related: Vec<Vec<usize>>,
    /// Cages with a sum: (sum, cells).
    sums: Vec<(u32, Vec<usize>)>,
    /// The cage with a sum each cell is in.
    sum_of: Vec<Option<usize>>,
}

impl Reference {
    /// The reference for `layout`, every rule derived here.
    pub fn new(layout: &Layout) -> Reference {
        let n = layout.side();
        let cells = n * n;
        let rules = layout.rules();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for r in 0..n {
            groups.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            groups.push((0..n).map(|r| r * n + c).collect());
        }
        for region in 0..n {
            groups.push(
                (0..cells)
                    .filter(|&i| layout.region_of(i) == region)
                    .collect(),
            );
        }
        if rules.contains(Rule::Diagonals) {
            groups.push((0..n).map(|i| i * n + i).collect());
            groups.push((0..n).map(|i| i * n + (n - 1 - i)).collect());
        }
        let (br, bc) = (layout.shape().box_rows(), layout.shape().box_cols());
        if rules.contains(Rule::Windoku) {
            for (top, left) in window_corners(layout) {
                let mut window = Vec::new();
                for r in top..top + br {
                    for c in left..left + bc {
                        window.push(r * n + c);
                    }
                }
                groups.push(window);
            }
        }
        if rules.contains(Rule::Disjoint) {
            for pr in 0..br {
                for pc in 0..bc {
                    groups.push(
                        (0..cells)
                            .filter(|&i| (i / n) % br == pr && (i % n) % bc == pc)
                            .collect(),
                    );
                }
            }
        }
        for group in layout.groups() {
            groups.push(group.iter().map(|&c| c as usize).collect());
        }
        let mut sums = Vec::new();
        let mut sum_of = vec![None; cells];
        for cage in layout.cages() {
            let members: Vec<usize> = cage.cells.iter().map(|&c| c as usize).collect();
            if let Some(sum) = cage.sum {
                for &c in &members {
                    sum_of[c] = Some(sums.len());
                }
                sums.push((sum, members.clone()));
            }
            groups.push(members);
        }
        let mut groups_of = vec![Vec::new(); cells];
        for (g, members) in groups.iter().enumerate() {
            for &c in members {
                groups_of[c].push(g);
            }
        }
        let knight = rules.contains(Rule::AntiKnight);
        let king = rules.contains(Rule::AntiKing);
        let mut related = vec![Vec::new(); cells];
        for (a, list) in related.iter_mut().enumerate() {
            for b in 0..cells {
                let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
                if (knight && knight_apart(r1, c1, r2, c2)) || (king && king_apart(r1, c1, r2, c2))
                {
                    list.push(b);
                }
            }
        }
        Reference {
            n,
            groups,
            groups_of,
            related,
            sums,
            sum_of,
        }
    }

    /// Whether the digit at `cell` differs from every other digit placed in
    /// its groups and relations, and its cage (if it has a sum) can still
    /// make it: each blank cell adds 1 to N, a full cage the exact sum.
    fn fits(&self, grid: &[u8], cell: usize) -> bool {
        let d = grid[cell];
        for &g in &self.groups_of[cell] {
            for &other in &self.groups[g] {
                if other != cell && grid[other] == d {
                    return false;
                }
            }
        }
        for &other in &self.related[cell] {
            if grid[other] == d {
                return false;
            }
        }
        if let Some(cage) = self.sum_of[cell] {
            let (sum, members) = &self.sums[cage];
            let placed: u32 = members.iter().map(|&c| grid[c] as u32).sum();
            let blank = members.iter().filter(|&&c| grid[c] == 0).count() as u32;
            if placed + blank > *sum || placed + blank * (self.n as u32) < *sum {
                return false;
            }
        }
        true
    }

    /// The number of solutions of `givens` (0 = blank), up to `limit`, and
    /// the first one found.
    pub fn solve(&self, givens: &[u8], limit: u64) -> (u64, Option<Vec<u8>>) {
        assert_eq!(givens.len(), self.n * self.n);
        let mut grid = givens.to_vec();
        // The givens must agree with each other first.
        for cell in 0..grid.len() {
            if grid[cell] != 0 && !self.fits(&grid, cell) {
                return (0, None);
            }
        }
        let blanks: Vec<usize> = (0..grid.len()).filter(|&c| givens[c] == 0).collect();
        let mut count = 0;
        let mut first = None;
        self.search(&mut grid, &blanks, 0, limit.max(1), &mut count, &mut first);
        (count, first)
    }

    /// The number of solutions, up to `limit`.
    pub fn count(&self, givens: &[u8], limit: u64) -> u64 {
        self.solve(givens, limit).0
    }

    fn search(
        &self,
        grid: &mut [u8],
        blanks: &[usize],
        next: usize,
        limit: u64,
        count: &mut u64,
        first: &mut Option<Vec<u8>>,
    ) {
        let Some(&cell) = blanks.get(next) else {
            *count += 1;
            if first.is_none() {
                *first = Some(grid.to_vec());
            }
            return;
        };
        for d in 1..=self.n as u8 {
            grid[cell] = d;
            if self.fits(grid, cell) {
                self.search(grid, blanks, next + 1, limit, count, first);
                if *count >= limit {
                    grid[cell] = 0;
                    return;
                }
            }
        }
        grid[cell] = 0;
    }
}

/// Whether `grid` is a complete solution of `layout`: every value in
/// `1..=N`, every row, column and region a permutation, every rule group
/// distinct, no two cells a forbidden knight's or king's move apart, extra
/// groups and cages distinct and cage sums exact. Written with direct loops,
/// independently of [`Reference`]'s tables.
pub fn is_solution(layout: &Layout, grid: &[u8]) -> bool {
    let n = layout.side();
    let cells = n * n;
    if grid.len() != cells || grid.iter().any(|&v| v == 0 || v as usize > n) {
        return false;
    }
    let at = |r: usize, c: usize| grid[r * n + c];
    let distinct = |values: &mut dyn Iterator<Item = u8>| {
        let mut seen = [false; 65];
        for v in values {
            if seen[v as usize] {
                return false;
            }
            seen[v as usize] = true;
        }
        true
    };
    for r in 0..n {
        if !distinct(&mut (0..n).map(|c| at(r, c))) {
            return false;
        }
    }
    for c in 0..n {
        if !distinct(&mut (0..n).map(|r| at(r, c))) {
            return false;
        }
    }
    // Regions: each region id names exactly N cells holding N distinct digits.
    let mut region_cells = vec![Vec::new(); n];
    for (i, &value) in grid.iter().enumerate() {
        let region = layout.region_of(i);
        if region >= n {
            return false;
        }
        region_cells[region].push(value);
    }
    for members in &region_cells {
        if members.len() != n || !distinct(&mut members.iter().copied()) {
            return false;
        }
    }
    let rules = layout.rules();
    if rules.contains(Rule::Diagonals)
        && (!distinct(&mut (0..n).map(|i| at(i, i)))
            || !distinct(&mut (0..n).map(|i| at(i, n - 1 - i))))
    {
        return false;
    }
    let (br, bc) = (layout.shape().box_rows(), layout.shape().box_cols());
    if rules.contains(Rule::Windoku) {
        for (top, left) in window_corners(layout) {
            let mut values = (0..br * bc).map(|k| at(top + k / bc, left + k % bc));
            if !distinct(&mut values) {
                return false;
            }
        }
    }
    if rules.contains(Rule::Disjoint) {
        // The cell at (pr, pc) inside every box.
        for pr in 0..br {
            for pc in 0..bc {
                let mut values = (0..n).map(|b| {
                    let (box_row, box_col) = (b / br, b % br);
                    at(box_row * br + pr, box_col * bc + pc)
                });
                if !distinct(&mut values) {
                    return false;
                }
            }
        }
    }
    let knight = rules.contains(Rule::AntiKnight);
    let king = rules.contains(Rule::AntiKing);
    if knight || king {
        for a in 0..cells {
            for b in a + 1..cells {
                let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
                let related = (knight && knight_apart(r1, c1, r2, c2))
                    || (king && king_apart(r1, c1, r2, c2));
                if related && grid[a] == grid[b] {
                    return false;
                }
            }
        }
    }
    for group in layout.groups() {
        if !distinct(&mut group.iter().map(|&c| grid[c as usize])) {
            return false;
        }
    }
    for cage in layout.cages() {
        if !distinct(&mut cage.cells.iter().map(|&c| grid[c as usize])) {
            return false;
        }
        if let Some(sum) = cage.sum {
            if cage
                .cells
                .iter()
                .map(|&c| grid[c as usize] as u32)
                .sum::<u32>()
                != sum
            {
                return false;
            }
        }
    }
    true
}
