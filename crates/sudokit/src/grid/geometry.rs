//! [`Geometry`]: the unit and peer tables of a shape, built once.

use super::Shape;

/// Tables derived from a [`Shape`]: which cells form each unit (row, column,
/// box) and which cells see each cell.
///
/// Units are numbered rows `0..N`, columns `N..2N`, boxes `2N..3N`. Keeping the
/// geometry as data means solvers work for every box shape alike, and extra
/// or irregular units could be added here without touching a solver.
#[derive(Clone, Debug)]
pub struct Geometry {
    shape: Shape,
    /// `3N` units of `N` cells each, unit-major.
    unit_cells: Vec<u16>,
    /// For each cell its row, column and box unit numbers.
    cell_units: Vec<[u16; 3]>,
    /// For each cell its `peer_count` peers, cell-major.
    peers: Vec<u16>,
    peer_count: usize,
    /// For each cell its peers in Sudoku Explainer's house order: the box
    /// row by row, then the rest of the row, then the rest of the column.
    houses: Vec<u16>,
}

impl Geometry {
    /// Builds the tables for `shape`.
    pub fn new(shape: Shape) -> Geometry {
        let n = shape.side();
        let cells = shape.cell_count();
        let mut unit_cells = vec![0u16; 3 * n * n];
        let mut fill = vec![0usize; 3 * n];
        let mut cell_units = Vec::with_capacity(cells);
        for cell in 0..cells {
            let units = [
                shape.row_of(cell),
                n + shape.col_of(cell),
                2 * n + shape.box_of(cell),
            ];
            for &u in &units {
                unit_cells[u * n + fill[u]] = cell as u16;
                fill[u] += 1;
            }
            cell_units.push(units.map(|u| u as u16));
        }
        let peer_count = 3 * n - shape.box_rows() - shape.box_cols() - 1;
        let mut peers = Vec::with_capacity(cells * peer_count);
        let mut seen = vec![false; cells];
        for (cell, units) in cell_units.iter().enumerate() {
            let start = peers.len();
            for &u in units {
                for &other in &unit_cells[u as usize * n..(u as usize + 1) * n] {
                    if other as usize != cell && !seen[other as usize] {
                        seen[other as usize] = true;
                        peers.push(other);
                    }
                }
            }
            for &p in &peers[start..] {
                seen[p as usize] = false;
            }
            debug_assert_eq!(peers.len() - start, peer_count);
        }
        let mut houses = Vec::with_capacity(cells * peer_count);
        for (cell, &[row, col, bx]) in cell_units.iter().enumerate() {
            for u in [bx, row, col] {
                for &other in &unit_cells[u as usize * n..(u as usize + 1) * n] {
                    let in_box = cell_units[other as usize][2] == bx;
                    if other as usize != cell && (u == bx || !in_box) {
                        houses.push(other);
                    }
                }
            }
        }
        Geometry {
            shape,
            unit_cells,
            cell_units,
            peers,
            peer_count,
            houses,
        }
    }

    /// The shape these tables describe.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Number of units, `3N`.
    pub fn unit_count(&self) -> usize {
        3 * self.shape.side()
    }

    /// The `N` cells of unit `unit`.
    ///
    /// # Panics
    /// If `unit` is not below [`Geometry::unit_count`], as slice indexing does.
    pub fn unit(&self, unit: usize) -> &[u16] {
        let n = self.shape.side();
        &self.unit_cells[unit * n..(unit + 1) * n]
    }

    /// The row, column and box unit numbers of `cell`.
    ///
    /// # Panics
    /// If `cell` is not below `N²`, as slice indexing does.
    pub fn units_of(&self, cell: usize) -> [u16; 3] {
        self.cell_units[cell]
    }

    /// The cells that share a unit with `cell` (each once, `cell` excluded).
    ///
    /// # Panics
    /// If `cell` is not below `N²`, as slice indexing does.
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }

    /// The peers of `cell` in Sudoku Explainer's house order: its box row
    /// by row, then the rest of its row, then the rest of its column. The
    /// logic engine scans in this order to make SE's choices.
    ///
    /// # Panics
    /// If `cell` is not below `N²`, as slice indexing does.
    pub fn house(&self, cell: usize) -> &[u16] {
        &self.houses[cell * self.peer_count..(cell + 1) * self.peer_count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn house_lists_the_box_then_the_row_then_the_column() {
        let g = Geometry::new(Shape::new(3, 3).unwrap());
        // r2c5: box 2 (r1c4..r3c6 but itself), row 2 outside the box, column 5 outside it.
        let house: Vec<u16> = g.house(13).to_vec();
        assert_eq!(
            house,
            [
                3,
                4,
                5,
                12,
                14,
                21,
                22,
                23,
                9,
                10,
                11,
                15,
                16,
                17,
                4 + 27,
                4 + 36,
                4 + 45,
                4 + 54,
                4 + 63,
                4 + 72
            ]
        );
        let mut sorted = house.clone();
        sorted.sort_unstable();
        let mut peers = g.peers(13).to_vec();
        peers.sort_unstable();
        assert_eq!(sorted, peers);
    }

    #[test]
    fn classic_grid_has_twenty_peers_per_cell() {
        let g = Geometry::new(Shape::new(3, 3).unwrap());
        assert_eq!(g.unit_count(), 27);
        for cell in 0..81 {
            let peers = g.peers(cell);
            assert_eq!(peers.len(), 20);
            assert!(!peers.contains(&(cell as u16)));
        }
        assert_eq!(g.unit(9 + 4), &[4, 13, 22, 31, 40, 49, 58, 67, 76]);
        assert_eq!(g.unit(18 + 4), &[30, 31, 32, 39, 40, 41, 48, 49, 50]);
    }

    #[test]
    fn every_unit_is_a_partition_of_the_grid() {
        for (r, c) in [(2, 3), (3, 2), (1, 5), (4, 4), (3, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let g = Geometry::new(shape);
            for kind in 0..3 {
                let mut hits = vec![0; shape.cell_count()];
                for u in kind * shape.side()..(kind + 1) * shape.side() {
                    for &cell in g.unit(u) {
                        hits[cell as usize] += 1;
                    }
                }
                assert!(hits.iter().all(|&h| h == 1), "{shape} kind {kind}");
            }
        }
    }
}
