//! Every solution of a 9×9 puzzle, for the hunt: the reduced puzzle's
//! solutions are the only possible solutions of any puzzle made from it by
//! adding clues.
//!
//! A plain depth-first search: candidate sets as 9-bit masks, naked singles
//! propagated to a fixpoint, then a branch on the cell with the fewest
//! candidates. Puzzles one or two clues short of a minimal puzzle have few
//! solutions and many clues, so this is quick where it is used.

/// Row, column and box of each cell.
const fn units() -> [[u8; 3]; 81] {
    let mut out = [[0u8; 3]; 81];
    let mut k = 0;
    while k < 81 {
        let (r, c) = (k / 9, k % 9);
        out[k] = [r as u8, 9 + c as u8, 18 + (r / 3 * 3 + c / 3) as u8];
        k += 1;
    }
    out
}

const UNITS: [[u8; 3]; 81] = units();

/// Search state: the digits placed and the digits each unit already holds.
#[derive(Clone, Copy)]
struct State {
    cells: [u8; 81],
    used: [u16; 27],
}

impl State {
    fn free(&self, k: usize) -> u16 {
        let [a, b, c] = UNITS[k];
        !(self.used[a as usize] | self.used[b as usize] | self.used[c as usize]) & 0x1FF
    }

    /// Places digit `d` (1–9) at `k`; `false` if a unit already has it.
    fn place(&mut self, k: usize, d: u8) -> bool {
        let bit = 1u16 << (d - 1);
        if UNITS[k].iter().any(|&u| self.used[u as usize] & bit != 0) {
            return false;
        }
        self.cells[k] = d;
        for &u in &UNITS[k] {
            self.used[u as usize] |= bit;
        }
        true
    }
}

/// All solutions of `givens` (81 values, 0 = blank), or `None` when there
/// are more than `cap`.
pub fn all_solutions(givens: &[u8; 81], cap: usize) -> Option<Vec<[u8; 81]>> {
    let mut state = State {
        cells: [0; 81],
        used: [0; 27],
    };
    for (k, &d) in givens.iter().enumerate() {
        if d != 0 && !state.place(k, d) {
            return Some(Vec::new());
        }
    }
    let mut out = Vec::new();
    search(state, cap, &mut out).then_some(out)
}

/// Extends `state` to every solution; `false` once more than `cap` are found.
fn search(mut state: State, cap: usize, out: &mut Vec<[u8; 81]>) -> bool {
    loop {
        // Naked singles to a fixpoint, remembering the tightest open cell.
        let mut best = (10u32, usize::MAX);
        let mut placed = false;
        for k in 0..81 {
            if state.cells[k] != 0 {
                continue;
            }
            let free = state.free(k);
            match free.count_ones() {
                0 => return true,
                1 => {
                    state.place(k, free.trailing_zeros() as u8 + 1);
                    placed = true;
                }
                n if n < best.0 => best = (n, k),
                _ => {}
            }
        }
        if placed {
            continue;
        }
        if best.1 == usize::MAX {
            out.push(state.cells);
            return out.len() <= cap;
        }
        let k = best.1;
        let mut free = state.free(k);
        while free != 0 {
            let d = free.trailing_zeros() as u8 + 1;
            free &= free - 1;
            let mut child = state;
            child.place(k, d);
            if !search(child, cap, out) {
                return false;
            }
        }
        return true;
    }
}
