//! [`Constraints`]: the tables every variant engine reads, derived once
//! from a [`Layout`].

use super::layout::{sum_combinations, Layout, Rule, MAX_CAGE_COMBINATIONS};

/// The constraints of a [`Layout`] as flat tables: all-different *houses*
/// (rows, columns, regions, rule groups, extra groups, cages), the peers of
/// every cell (cells that must differ from it, relations included), and the
/// digit sets each cage's sum allows.
///
/// Houses of `N` cells come first and must hold every digit once
/// (*complete*); the rest only forbid repeats.
#[derive(Clone, Debug)]
pub struct Constraints {
    side: usize,
    /// Cells of every house, concatenated; house `h` is
    /// `house_cells[house_start[h]..house_start[h + 1]]`.
    house_cells: Vec<u16>,
    house_start: Vec<u32>,
    /// What each house is, to name it in explanations.
    kinds: Vec<HouseKind>,
    /// Houses `0..complete` have `N` cells.
    complete: usize,
    /// Houses of each cell, CSR like the houses.
    cell_houses: Vec<u32>,
    cell_house_start: Vec<u32>,
    /// Peers of each cell, CSR.
    peers: Vec<u16>,
    peer_start: Vec<u32>,
    /// Cages with a sum: their cells and the digit sets making the sum.
    cages: Vec<CageTable>,
    /// Cage (index into `cages`) of each cell, [`NO_CAGE`] if none.
    cell_cage: Vec<u32>,
    /// Every sum the propagation keeps: the cages, then each complete
    /// house's leftover cells (those outside the cages it wholly holds),
    /// whose total is the house's less those cages' sums.
    sums: Vec<CageTable>,
    /// The sums holding each cell, CSR.
    cell_sums: Vec<u32>,
    cell_sum_start: Vec<u32>,
    /// Pairs of complete houses sharing two or more cells, for locked
    /// candidates.
    overlaps: Vec<Overlap>,
    /// Overlaps whose first house is `h`: `overlap_start[h]..overlap_start[h + 1]`.
    overlap_start: Vec<u32>,
}

/// The cage number of a cell outside every cage with a sum.
pub const NO_CAGE: u32 = u32::MAX;

/// A cage with a sum, as the engines use it.
#[derive(Clone, Debug)]
pub struct CageTable {
    /// Its cells.
    pub cells: Vec<u16>,
    /// Its sum.
    pub sum: u32,
    /// Every set of distinct digits (bit `d − 1` for digit `d`) of the
    /// cage's size making its sum.
    pub combos: Vec<u64>,
    /// Where the sum comes from: a cage, or a house's law of leftovers.
    pub origin: SumOrigin,
}

/// Where a sum of [`Constraints::sums`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SumOrigin {
    /// A killer cage.
    Cage,
    /// The cells of complete house `h` outside the cages it wholly holds
    /// (the *innies*): the house's total less those cages' sums.
    Innies(u32),
    /// The cells outside complete house `h` of the cages that cross it,
    /// when the cages cover the house (the *outies*): those cages' sums
    /// less the house's total. Kept when the cells all see each other.
    Outies(u32),
}

/// What a house is: how explanations name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HouseKind {
    /// Row `r` (0-based).
    Row(u16),
    /// Column `c` (0-based).
    Column(u16),
    /// Box `b` of a rectangular-box grid (0-based, row-major).
    Box(u16),
    /// Region `r` of a jigsaw map (its symbol's index).
    Region(u16),
    /// The main diagonal (top left to bottom right).
    Diagonal,
    /// The anti-diagonal (top right to bottom left).
    AntiDiagonal,
    /// Windoku window `w` (0-based, row-major).
    Window(u16),
    /// Disjoint group `g`: the cells at position `g` of their boxes.
    Disjoint(u16),
    /// Extra group `g` (0-based, in the order of the layout).
    Group(u16),
    /// A cage, named by its first cell (row-major), with its sum if any.
    Cage {
        /// Its first cell.
        first: u16,
        /// Its sum.
        sum: Option<u32>,
    },
}

impl HouseKind {
    /// The house's name in an explanation: `row 3`, `region 2`, `the
    /// main diagonal`, `cage 15 at r1c1`.
    pub fn name(self, side: usize) -> String {
        let one = |i: u16| usize::from(i) + 1;
        match self {
            HouseKind::Row(r) => format!("row {}", one(r)),
            HouseKind::Column(c) => format!("column {}", one(c)),
            HouseKind::Box(b) => format!("box {}", one(b)),
            HouseKind::Region(r) => format!("region {}", one(r)),
            HouseKind::Diagonal => "the main diagonal".to_string(),
            HouseKind::AntiDiagonal => "the anti-diagonal".to_string(),
            HouseKind::Window(w) => format!("window {}", one(w)),
            HouseKind::Disjoint(g) => format!("disjoint group {}", one(g)),
            HouseKind::Group(g) => format!("group {}", one(g)),
            HouseKind::Cage { first, sum } => {
                let at = crate::logic::cell_name(side, usize::from(first));
                match sum {
                    Some(sum) => format!("cage {sum} at {at}"),
                    None => format!("cage at {at}"),
                }
            }
        }
    }

    /// Whether the house is a row or a column (Sudoku Explainer rates
    /// hidden singles and intersections from lines above those from boxes).
    pub fn is_line(self) -> bool {
        matches!(self, HouseKind::Row(_) | HouseKind::Column(_))
    }
}

/// Two complete houses `a` and `b` that share cells: a digit whose places in
/// `a` all lie in the shared cells is not in the rest of `b`.
#[derive(Clone, Debug)]
pub struct Overlap {
    /// The house whose places are looked at.
    pub a: u32,
    /// The house cleared.
    pub b: u32,
    /// Cells of `a` outside `b`.
    pub a_rest: Vec<u16>,
    /// Cells of both.
    pub shared: Vec<u16>,
    /// Cells of `b` outside `a`.
    pub b_rest: Vec<u16>,
}

impl Constraints {
    /// The tables of `layout`.
    pub fn new(layout: &Layout) -> Constraints {
        let n = layout.side();
        let shape = layout.shape();
        let cells = n * n;
        let mut complete_houses: Vec<(Vec<u16>, HouseKind)> = Vec::new();
        let mut partial_houses: Vec<(Vec<u16>, HouseKind)> = Vec::new();
        let cell = |r: usize, c: usize| (r * n + c) as u16;
        for r in 0..n {
            complete_houses.push((
                (0..n).map(|c| cell(r, c)).collect(),
                HouseKind::Row(r as u16),
            ));
        }
        for c in 0..n {
            complete_houses.push((
                (0..n).map(|r| cell(r, c)).collect(),
                HouseKind::Column(c as u16),
            ));
        }
        let mut regions = vec![Vec::new(); n];
        for i in 0..cells {
            regions[layout.region_of(i)].push(i as u16);
        }
        let region_kind = |r: usize| match layout.is_jigsaw() {
            true => HouseKind::Region(r as u16),
            false => HouseKind::Box(r as u16),
        };
        complete_houses.extend(
            regions
                .into_iter()
                .enumerate()
                .map(|(r, members)| (members, region_kind(r))),
        );
        let rules = layout.rules();
        if rules.contains(Rule::Diagonals) {
            complete_houses.push(((0..n).map(|i| cell(i, i)).collect(), HouseKind::Diagonal));
            complete_houses.push((
                (0..n).map(|i| cell(i, n - 1 - i)).collect(),
                HouseKind::AntiDiagonal,
            ));
        }
        let (rows, cols) = (shape.box_rows(), shape.box_cols());
        if rules.contains(Rule::Windoku) {
            let mut windows = 0u16;
            for top in (1..).step_by(rows + 1).take_while(|t| t + rows <= n) {
                for left in (1..).step_by(cols + 1).take_while(|l| l + cols <= n) {
                    let window = (0..rows)
                        .flat_map(|dr| (0..cols).map(move |dc| (top + dr) * n + left + dc))
                        .map(|i| i as u16)
                        .collect();
                    let kind = HouseKind::Window(windows);
                    windows += 1;
                    complete_houses.push((window, kind));
                }
            }
        }
        if rules.contains(Rule::Disjoint) {
            let mut groups = vec![Vec::new(); n];
            for i in 0..cells {
                let (r, c) = (i / n, i % n);
                groups[(r % rows) * cols + c % cols].push(i as u16);
            }
            complete_houses.extend(
                groups
                    .into_iter()
                    .enumerate()
                    .map(|(g, members)| (members, HouseKind::Disjoint(g as u16))),
            );
        }
        for (g, group) in layout.groups().iter().enumerate() {
            let mut group = group.clone();
            group.sort_unstable();
            let kind = HouseKind::Group(g as u16);
            if group.len() == n {
                complete_houses.push((group, kind));
            } else {
                partial_houses.push((group, kind));
            }
        }
        let mut cage_tables = Vec::new();
        let mut cell_cage = vec![NO_CAGE; cells];
        for cage in layout.cages() {
            let mut members = cage.cells.clone();
            members.sort_unstable();
            if let Some(sum) = cage.sum {
                for &c in &members {
                    cell_cage[c as usize] = cage_tables.len() as u32;
                }
                cage_tables.push(CageTable {
                    cells: members.clone(),
                    sum,
                    combos: sum_combinations(n, members.len(), sum, MAX_CAGE_COMBINATIONS),
                    origin: SumOrigin::Cage,
                });
            }
            let kind = HouseKind::Cage {
                first: members[0],
                sum: cage.sum,
            };
            if members.len() == n {
                complete_houses.push((members, kind));
            } else if members.len() > 1 {
                partial_houses.push((members, kind));
            }
        }
        // The same group twice (a cage that is a row, say) is one house.
        let mut seen = std::collections::HashSet::new();
        complete_houses.retain(|(h, _)| seen.insert(h.clone()));
        partial_houses.retain(|(h, _)| seen.insert(h.clone()));
        let complete = complete_houses.len();
        let (houses, kinds): (Vec<Vec<u16>>, Vec<HouseKind>) =
            complete_houses.into_iter().chain(partial_houses).unzip();

        let mut of_cell: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (h, members) in houses.iter().enumerate() {
            for &c in members {
                of_cell[c as usize].push(h as u32);
            }
        }
        let mut related: Vec<Vec<u16>> = vec![Vec::new(); cells];
        let mut steps: Vec<(isize, isize)> = Vec::new();
        if rules.contains(Rule::AntiKnight) {
            steps.extend([
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ]);
        }
        if rules.contains(Rule::AntiKing) {
            steps.extend([
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
                (0, 1),
                (1, 0),
                (0, -1),
                (-1, 0),
            ]);
        }
        for (i, list) in related.iter_mut().enumerate() {
            let (r, c) = ((i / n) as isize, (i % n) as isize);
            for &(dr, dc) in &steps {
                let (rr, cc) = (r + dr, c + dc);
                if (0..n as isize).contains(&rr) && (0..n as isize).contains(&cc) {
                    list.push((rr as usize * n + cc as usize) as u16);
                }
            }
        }
        let mut peers = Vec::new();
        let mut peer_start = vec![0u32];
        let mut mark = vec![false; cells];
        for i in 0..cells {
            let start = peers.len();
            let members = of_cell[i].iter().flat_map(|&h| houses[h as usize].iter());
            for &p in members.chain(related[i].iter()) {
                if p as usize != i && !mark[p as usize] {
                    mark[p as usize] = true;
                    peers.push(p);
                }
            }
            for &p in &peers[start..] {
                mark[p as usize] = false;
            }
            peers[start..].sort_unstable();
            peer_start.push(peers.len() as u32);
        }

        let mut overlaps = Vec::new();
        let mut overlap_start = vec![0u32];
        for a in 0..complete {
            for b in 0..complete {
                if a == b {
                    continue;
                }
                let (ha, hb) = (&houses[a], &houses[b]);
                let shared: Vec<u16> = ha.iter().copied().filter(|c| hb.contains(c)).collect();
                if shared.len() < 2 {
                    continue;
                }
                overlaps.push(Overlap {
                    a: a as u32,
                    b: b as u32,
                    a_rest: ha.iter().copied().filter(|c| !hb.contains(c)).collect(),
                    b_rest: hb.iter().copied().filter(|c| !ha.contains(c)).collect(),
                    shared,
                });
            }
            overlap_start.push(overlaps.len() as u32);
        }

        let peer_sets: Vec<&[u16]> = (0..cells)
            .map(|i| &peers[peer_start[i] as usize..peer_start[i + 1] as usize])
            .collect();
        let sees = |a: u16, b: u16| peer_sets[a as usize].binary_search(&b).is_ok();
        let sums = with_leftovers(&cage_tables, &houses[..complete], n, &sees);
        let mut of_cell_sums: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (k, sum) in sums.iter().enumerate() {
            for &c in &sum.cells {
                of_cell_sums[c as usize].push(k as u32);
            }
        }
        let (cell_sums, cell_sum_start) = flatten(&of_cell_sums);
        let (house_cells, house_start) = flatten(&houses);
        let (cell_houses, cell_house_start) = flatten(&of_cell);
        Constraints {
            side: n,
            house_cells,
            house_start,
            kinds,
            complete,
            cell_houses,
            cell_house_start,
            peers,
            peer_start,
            cages: cage_tables,
            cell_cage,
            sums,
            cell_sums,
            cell_sum_start,
            overlaps,
            overlap_start,
        }
    }

    /// The side `N`.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The number of cells, `N²`.
    pub fn cell_count(&self) -> usize {
        self.side * self.side
    }

    /// The number of houses.
    pub fn house_count(&self) -> usize {
        self.house_start.len() - 1
    }

    /// The number of complete houses (`N` cells, every digit once); they
    /// are houses `0..complete_count()`.
    pub fn complete_count(&self) -> usize {
        self.complete
    }

    /// The cells of house `h`.
    pub fn house(&self, h: usize) -> &[u16] {
        &self.house_cells[self.house_start[h] as usize..self.house_start[h + 1] as usize]
    }

    /// What house `h` is.
    pub fn kind(&self, h: usize) -> HouseKind {
        self.kinds[h]
    }

    /// House `h`'s name in an explanation ([`HouseKind::name`]).
    pub fn house_name(&self, h: usize) -> String {
        self.kinds[h].name(self.side)
    }

    /// The houses of `cell`.
    pub fn houses_of(&self, cell: usize) -> &[u32] {
        &self.cell_houses
            [self.cell_house_start[cell] as usize..self.cell_house_start[cell + 1] as usize]
    }

    /// The cells that must differ from `cell`, in increasing order.
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    /// The cages with a sum.
    pub fn cages(&self) -> &[CageTable] {
        &self.cages
    }

    /// The cage with a sum that holds `cell`, if any.
    pub fn cage_of(&self, cell: usize) -> Option<usize> {
        let c = self.cell_cage[cell];
        (c != NO_CAGE).then_some(c as usize)
    }

    /// Every sum constraint the engines propagate: the cages with a sum,
    /// then the leftovers of complete houses (see [`Constraints::new`]).
    pub fn sums(&self) -> &[CageTable] {
        &self.sums
    }

    /// The sums (indices into [`Constraints::sums`]) holding `cell`.
    pub fn sums_of(&self, cell: usize) -> &[u32] {
        &self.cell_sums[self.cell_sum_start[cell] as usize..self.cell_sum_start[cell + 1] as usize]
    }

    /// The overlaps whose first house is `h`.
    pub fn overlaps_of(&self, h: usize) -> &[Overlap] {
        &self.overlaps[self.overlap_start[h] as usize..self.overlap_start[h + 1] as usize]
    }

    /// Whether the complete grid `grid` (digits `1..=N`) keeps every
    /// constraint: peers differ and every cage makes its sum.
    pub fn is_solution(&self, grid: &[u8]) -> bool {
        if grid.len() != self.cell_count() || grid.iter().any(|&v| v == 0 || v as usize > self.side)
        {
            return false;
        }
        let peers_differ =
            (0..grid.len()).all(|i| self.peers(i).iter().all(|&p| grid[p as usize] != grid[i]));
        let sums_made = self.cages.iter().all(|cage| {
            cage.cells
                .iter()
                .map(|&c| grid[c as usize] as u32)
                .sum::<u32>()
                == cage.sum
        });
        peers_differ && sums_made
    }
}

/// The cages, followed by the laws of leftovers that killer solvers
/// reason with, for each complete house: the *innies* (its cells outside
/// the cages it wholly holds make the house's total, `N(N+1)/2`, less
/// those cages' sums) and, when cages cover the house, the *outies* (the
/// cells outside it of the cages crossing it make those cages' sums, with
/// the held ones', less the house's total; kept when they all see each
/// other, so that their digits differ).
fn with_leftovers(
    cages: &[CageTable],
    complete: &[Vec<u16>],
    n: usize,
    sees: &dyn Fn(u16, u16) -> bool,
) -> Vec<CageTable> {
    let mut sums = cages.to_vec();
    let total = (n * (n + 1) / 2) as u32;
    let push = |sums: &mut Vec<CageTable>, mut cells: Vec<u16>, sum: u32, origin| {
        cells.sort_unstable();
        if cells.is_empty() || cells.len() >= n || sums.iter().any(|s| s.cells == cells) {
            return;
        }
        let combos = sum_combinations(n, cells.len(), sum, MAX_CAGE_COMBINATIONS);
        if combos.len() < MAX_CAGE_COMBINATIONS {
            sums.push(CageTable {
                cells,
                sum,
                combos,
                origin,
            });
        }
    };
    for (h, house) in complete.iter().enumerate() {
        let (held, crossing): (Vec<&CageTable>, Vec<&CageTable>) = cages
            .iter()
            .filter(|cage| cage.cells.iter().any(|c| house.contains(c)))
            .partition(|cage| cage.cells.iter().all(|c| house.contains(c)));
        let held_sum: u32 = held.iter().map(|cage| cage.sum).sum();
        if !held.is_empty() && held_sum <= total {
            let left: Vec<u16> = house
                .iter()
                .copied()
                .filter(|c| held.iter().all(|cage| !cage.cells.contains(c)))
                .collect();
            push(
                &mut sums,
                left,
                total - held_sum,
                SumOrigin::Innies(h as u32),
            );
        }
        let covered = house.iter().all(|c| {
            held.iter()
                .chain(&crossing)
                .any(|cage| cage.cells.contains(c))
        });
        let crossing_sum: u32 = crossing.iter().map(|cage| cage.sum).sum();
        if crossing.is_empty() || !covered || held_sum + crossing_sum <= total {
            continue;
        }
        let out: Vec<u16> = crossing
            .iter()
            .flat_map(|cage| cage.cells.iter().copied())
            .filter(|c| !house.contains(c))
            .collect();
        let distinct = out
            .iter()
            .enumerate()
            .all(|(i, &a)| out[i + 1..].iter().all(|&b| sees(a, b)));
        if distinct {
            let sum = held_sum + crossing_sum - total;
            push(&mut sums, out, sum, SumOrigin::Outies(h as u32));
        }
    }
    sums
}

/// Lists as one concatenated vector and its start offsets.
fn flatten<T: Copy>(lists: &[Vec<T>]) -> (Vec<T>, Vec<u32>) {
    let mut flat = Vec::new();
    let mut start = vec![0u32];
    for list in lists {
        flat.extend_from_slice(list);
        start.push(flat.len() as u32);
    }
    (flat, start)
}
