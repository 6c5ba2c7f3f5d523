//! Unavoidable sets of a 9×9 solution grid, to reject clue removals without
//! a solver call.
//!
//! A set of cells is *unavoidable* when a second valid grid differs from the
//! solution exactly there: a puzzle with no clue in it has both grids as
//! solutions. So a removal that leaves some known unavoidable set without a
//! clue cannot keep the puzzle unique. The carving pass knows the grid's
//! two-digit unavoidable sets (second solutions the solver reports add
//! nothing: their differences are covered by the clue whose removal failed,
//! which stays).

/// Known unavoidable sets, bit `k` for cell `k`.
#[derive(Clone, Debug, Default)]
pub(super) struct Unavoidable {
    sets: Vec<u128>,
}

impl Unavoidable {
    /// The two-digit unavoidable sets of `grid` (81 values 1–9).
    ///
    /// For digits `a` and `b`, swapping them on a set of their cells keeps
    /// the grid valid exactly when every row, column and box holds both or
    /// neither of the set's cells. Joining the `a`-cell and the `b`-cell of
    /// each row, column and box, the connected parts are the smallest such
    /// sets (the familiar four-cell rectangles among them).
    pub(super) fn two_digit(grid: &[u8]) -> Unavoidable {
        // place[d][u]: the cell of digit d + 1 in unit u (rows, columns, boxes).
        let mut place = [[0u8; 27]; 9];
        for (k, &v) in grid.iter().enumerate() {
            let (r, c) = (k / 9, k % 9);
            for u in [r, 9 + c, 18 + r / 3 * 3 + c / 3] {
                place[v as usize - 1][u] = k as u8;
            }
        }
        let mut sets = Vec::new();
        for a in 0..9 {
            for b in a + 1..9 {
                // Union-find over the 81 cells, only a's and b's cells used.
                let mut parent: [u8; 81] = std::array::from_fn(|k| k as u8);
                for (&pa, &pb) in place[a].iter().zip(&place[b]) {
                    let (x, y) = (root(&mut parent, pa), root(&mut parent, pb));
                    parent[x as usize] = y;
                }
                let mut parts: Vec<(u8, u128)> = Vec::new();
                for &k in place[a][..9].iter().chain(&place[b][..9]) {
                    let r = root(&mut parent, k);
                    match parts.iter_mut().find(|(root, _)| *root == r) {
                        Some((_, mask)) => *mask |= 1 << k,
                        None => parts.push((r, 1 << k)),
                    }
                }
                sets.extend(parts.into_iter().map(|(_, mask)| mask));
            }
        }
        sets.sort_by_key(|s| s.count_ones());
        Unavoidable { sets }
    }

    /// Whether some known set has no clue among `givens`.
    pub(super) fn uncovered(&self, givens: u128) -> bool {
        self.sets.iter().any(|&s| s & givens == 0)
    }
}

/// The representative of `k`'s part, halving paths on the way.
fn root(parent: &mut [u8; 81], mut k: u8) -> u8 {
    while parent[k as usize] != k {
        parent[k as usize] = parent[parent[k as usize] as usize];
        k = parent[k as usize];
    }
    k
}
