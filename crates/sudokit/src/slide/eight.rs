//! The 8-puzzle, solved by table look-up.
//!
//! The 8-puzzle has only 9!/2 = 181,440 reachable positions, so instead of a
//! search per query we run one breadth-first search backwards from the goal and
//! record, for every position, its distance and the first move of a shortest
//! path. A query then walks that path: it costs one look-up per move.
//!
//! Layout: one byte per permutation of the 9 cells, indexed by the permutation's
//! lexicographic rank (Lehmer code, `0..9!`): `distance << 2 | move`, or
//! `UNREACHABLE` (255) for the 181,440 positions of the other parity. The longest
//! shortest path is 31 moves, so the distance fits in 6 bits.
//!
//! The table is built for the blank-last goal the first time it is needed
//! (tens of milliseconds) and then shared by every thread; the blank-first goal is
//! answered by turning the board half a turn (see `Board::turned`).

use std::sync::OnceLock;

use super::board::{Board, Goal, Move};

/// Cells of the 8-puzzle.
const CELLS: usize = 9;
/// 9!, the number of permutations of the cells.
const PERMUTATIONS: usize = 362_880;
/// Table entry of a position that cannot reach the goal.
const UNREACHABLE: u8 = u8::MAX;

/// Distances and first moves towards the blank-last goal for every 8-puzzle
/// position (see the module documentation for the layout).
pub struct EightTable {
    entries: Vec<u8>,
}

/// The shared table, built on first use.
pub fn table() -> &'static EightTable {
    static TABLE: OnceLock<EightTable> = OnceLock::new();
    TABLE.get_or_init(EightTable::build)
}

impl EightTable {
    /// Breadth-first search backwards from the blank-last goal.
    fn build() -> EightTable {
        let mut entries = vec![UNREACHABLE; PERMUTATIONS];
        let goal = Board::solved(3, Goal::BlankLast);
        let start = rank(goal.tiles());
        entries[start] = 0;
        let mut queue = Vec::with_capacity(PERMUTATIONS / 2);
        queue.push(start as u32);
        let mut head = 0;
        while let Some(&index) = queue.get(head) {
            head += 1;
            let board = unrank(index as usize);
            let distance = entries[index as usize] >> 2;
            for step in Move::ALL {
                let Some(next) = board.apply(step) else {
                    continue;
                };
                let slot = &mut entries[rank(next.tiles())];
                if *slot == UNREACHABLE {
                    *slot = (distance + 1) << 2 | step.opposite() as u8;
                    queue.push(rank(next.tiles()) as u32);
                }
            }
        }
        EightTable { entries }
    }

    /// Moves to the blank-last goal from `board`, or `None` if it is
    /// unreachable (or not a 3×3 board).
    pub fn distance(&self, board: &Board) -> Option<u8> {
        if board.width() != 3 {
            return None;
        }
        match self.entries[rank(board.tiles())] {
            UNREACHABLE => None,
            entry => Some(entry >> 2),
        }
    }

    /// A shortest solution to the blank-last goal from `board`, or `None` if
    /// it is unreachable (or not a 3×3 board).
    pub fn solve(&self, board: &Board) -> Option<Vec<Move>> {
        let mut moves = Vec::with_capacity(self.distance(board)?.into());
        let mut current = *board;
        loop {
            let entry = self.entries[rank(current.tiles())];
            if entry == 0 {
                return Some(moves);
            }
            let step = Move::ALL[(entry & 3) as usize];
            moves.push(step);
            current = current
                .apply(step)
                .expect("the table only stores moves that stay on the board");
        }
    }

    /// Every reachable position with its distance to the blank-last goal.
    pub fn positions(&self) -> impl Iterator<Item = (Board, u8)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter(|&(_, &entry)| entry != UNREACHABLE)
            .map(|(index, &entry)| (unrank(index), entry >> 2))
    }
}

/// `n!` for `n < CELLS`.
const fn factorial(n: usize) -> usize {
    if n == 0 {
        1
    } else {
        n * factorial(n - 1)
    }
}

/// Lexicographic rank of a permutation of `0..9` (its Lehmer code).
fn rank(tiles: &[u8]) -> usize {
    let mut index = 0;
    let mut used = 0u16;
    for (i, &tile) in tiles.iter().enumerate() {
        let smaller_unused = tile as u32 - (used & ((1 << tile) - 1)).count_ones();
        index += smaller_unused as usize * factorial(CELLS - 1 - i);
        used |= 1 << tile;
    }
    index
}

/// The permutation of `0..9` with lexicographic rank `index`.
fn unrank(mut index: usize) -> Board {
    let mut tiles = [0u8; CELLS];
    let mut unused: Vec<u8> = (0..CELLS as u8).collect();
    for (i, slot) in tiles.iter_mut().enumerate() {
        let f = factorial(CELLS - 1 - i);
        *slot = unused.remove(index / f);
        index %= f;
    }
    Board::from_tiles(&tiles).expect("an unranked permutation is a board")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse() {
        for index in [0, 1, 2, 1000, 181_439, PERMUTATIONS - 1] {
            assert_eq!(rank(unrank(index).tiles()), index);
        }
        assert_eq!(rank(&[0, 1, 2, 3, 4, 5, 6, 7, 8]), 0);
        assert_eq!(rank(&[8, 7, 6, 5, 4, 3, 2, 1, 0]), PERMUTATIONS - 1);
    }

    #[test]
    fn other_sizes_are_not_in_the_table() {
        let fifteen = Board::solved(4, Goal::BlankLast);
        assert_eq!(table().distance(&fifteen), None);
        assert_eq!(table().solve(&fifteen), None);
    }
}
