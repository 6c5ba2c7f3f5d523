//! [`Layout`]: which groups of cells must hold distinct digits, as data.

use std::fmt;
use std::str::FromStr;

use crate::grid::Shape;

/// A rule that adds groups or relations to a grid, named as on the command
/// line (`--variant x,windoku,antiknight`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// Sudoku X: both main diagonals hold every digit once (`x`).
    Diagonals,
    /// Windoku (hyper): the windows one cell in from the box grid, boxes
    /// of the same shape separated by one row and one column, hold every
    /// digit once (`windoku`; four windows on 9×9).
    Windoku,
    /// Disjoint groups: the cells at the same position in every box hold
    /// every digit once (`disjoint`).
    Disjoint,
    /// Anti-knight: cells a chess knight's move apart differ (`antiknight`).
    AntiKnight,
    /// Anti-king: cells that touch, diagonally included, differ (`antiking`).
    AntiKing,
}

impl Rule {
    /// Every rule, in the order [`Layout`]'s text lists them.
    pub const ALL: [Rule; 5] = [
        Rule::Diagonals,
        Rule::Windoku,
        Rule::Disjoint,
        Rule::AntiKnight,
        Rule::AntiKing,
    ];

    /// The rule's name in text: `x`, `windoku`, `disjoint`, `antiknight`, `antiking`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Diagonals => "x",
            Rule::Windoku => "windoku",
            Rule::Disjoint => "disjoint",
            Rule::AntiKnight => "antiknight",
            Rule::AntiKing => "antiking",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is none of [`Rule::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant rule '{0}' (known: x, windoku, disjoint, antiknight, antiking)")]
pub struct UnknownRule(pub String);

impl FromStr for Rule {
    type Err = UnknownRule;

    /// Accepts the names of [`Rule::name`] and common aliases (`diagonal`,
    /// `hyper`, `anti-knight` …), in any case.
    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        let key: String = s
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .collect::<String>()
            .to_ascii_lowercase();
        Ok(match key.as_str() {
            "x" | "diagonal" | "diagonals" | "diag" => Rule::Diagonals,
            "windoku" | "hyper" | "window" | "windows" => Rule::Windoku,
            "disjoint" | "disjointgroups" => Rule::Disjoint,
            "antiknight" | "knight" => Rule::AntiKnight,
            "antiking" | "king" => Rule::AntiKing,
            _ => return Err(UnknownRule(s.to_string())),
        })
    }
}

/// A set of [`Rule`]s, printed and parsed as a comma-separated list
/// (`x,antiknight`; the empty set prints as nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules(u8);

impl Rules {
    /// No rule: plain Sudoku (or jigsaw and killer, which are data of their own).
    pub const NONE: Rules = Rules(0);

    /// Whether `rule` is in the set.
    pub fn contains(self, rule: Rule) -> bool {
        self.0 & (1 << rule as u8) != 0
    }

    /// The set with `rule` added.
    pub fn with(self, rule: Rule) -> Rules {
        Rules(self.0 | 1 << rule as u8)
    }

    /// Both sets' rules.
    pub fn union(self, other: Rules) -> Rules {
        Rules(self.0 | other.0)
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The members, in [`Rule::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Rule> {
        Rule::ALL.into_iter().filter(move |&r| self.contains(r))
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, rule) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(rule.name())?;
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = UnknownRule;

    /// A comma-separated list of rule names; `none` and the empty string
    /// are the empty set.
    fn from_str(s: &str) -> Result<Rules, UnknownRule> {
        let mut rules = Rules::NONE;
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name.eq_ignore_ascii_case("none") {
                continue;
            }
            rules = rules.with(name.parse()?);
        }
        Ok(rules)
    }
}

/// A killer cage: cells whose digits differ and, when `sum` is given, add up
/// to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    /// Total of the cage's digits; `None` for a cage that only asks for
    /// distinct digits.
    pub sum: Option<u32>,
    /// Cell indices (row-major, 0-based), in the order given.
    pub cells: Vec<u16>,
}

/// The full rule set of a grid: its side, its regions (boxes or a jigsaw
/// map), extra [`Rules`], extra all-different groups and killer cages.
///
/// A layout is plain data, built once per puzzle layout; the engines read
/// the tables [`Constraints::new`](super::Constraints::new) derives from it.
/// Classic Sudoku is `Layout::classic(shape)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    shape: Shape,
    /// Region of each cell, `0..N`; `None` for the shape's boxes.
    regions: Option<Vec<u8>>,
    rules: Rules,
    /// Extra groups of at most `N` cells whose digits differ.
    groups: Vec<Vec<u16>>,
    cages: Vec<Cage>,
}

/// Why a layout cannot be built: every inconsistency named with where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// A region map of another length than `N²`.
    #[error("region map of {found} cells, expected {expected}")]
    RegionMapLength {
        /// Symbols in the map.
        found: usize,
        /// Cells of the grid.
        expected: usize,
    },
    /// A region map naming another number of regions than `N`.
    #[error("region map names {found} regions, a grid of side {side} needs {side}")]
    RegionCount {
        /// Distinct region symbols.
        found: usize,
        /// The side `N`.
        side: usize,
    },
    /// A region of another size than `N`.
    #[error("region '{region}' has {size} cells, every region needs {side}")]
    RegionSize {
        /// The region's symbol.
        region: char,
        /// Its cells.
        size: usize,
        /// The side `N`.
        side: usize,
    },
    /// A cage or group cell beyond the grid.
    #[error("cell {cell} is outside a grid of side {side}")]
    NoSuchCell {
        /// The cell as written (`r10c1`) or its 1-based index.
        cell: String,
        /// The side `N`.
        side: usize,
    },
    /// A cage or group with no cell, with more cells than digits, or with a
    /// cell twice.
    #[error("{what} {name} is empty, has a repeated cell or has more than {side} cells")]
    BadGroup {
        /// `cage` or `group`.
        what: &'static str,
        /// 1-based number of the cage or group.
        name: usize,
        /// The side `N`.
        side: usize,
    },
    /// A cell in two cages.
    #[error("cell r{row}c{col} is in two cages")]
    CellInTwoCages {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A cage whose sum no set of distinct digits of its size makes.
    #[error("cage {cage} of {size} cells cannot sum to {sum} with distinct digits 1 to {side}")]
    ImpossibleSum {
        /// 1-based cage number.
        cage: usize,
        /// Its cells.
        size: usize,
        /// Its sum.
        sum: u32,
        /// The side `N`.
        side: usize,
    },
    /// A cage with more digit sets making its sum than the engines keep.
    #[error("cage {cage} of {size} cells has over {limit} digit sets making {sum}: too large to analyse")]
    CageTooLarge {
        /// 1-based cage number.
        cage: usize,
        /// Its cells.
        size: usize,
        /// Its sum.
        sum: u32,
        /// The most digit sets a cage may have.
        limit: usize,
    },
    /// A text field that does not parse (see [`VariantPuzzle`](super::VariantPuzzle)).
    #[error("{0}")]
    Syntax(String),
}

impl Layout {
    /// Plain Sudoku of `shape`: rows, columns and boxes.
    pub fn classic(shape: Shape) -> Layout {
        Layout {
            shape,
            regions: None,
            rules: Rules::NONE,
            groups: Vec::new(),
            cages: Vec::new(),
        }
    }

    /// The box shape: the boxes when there is no region map, and the
    /// windows and disjoint groups of [`Rule::Windoku`] and [`Rule::Disjoint`].
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The side `N`.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// The layout with irregular regions (jigsaw): `map` has one symbol per
    /// cell, any `N` distinct symbols naming `N` regions of `N` cells each.
    /// A map that repeats the shape's boxes is stored as no map.
    pub fn with_region_map(mut self, map: &str) -> Result<Layout, LayoutError> {
        let n = self.side();
        let symbols: Vec<char> = map.chars().collect();
        if symbols.len() != n * n {
            return Err(LayoutError::RegionMapLength {
                found: symbols.len(),
                expected: n * n,
            });
        }
        let mut names: Vec<char> = Vec::new();
        let mut sizes: Vec<usize> = Vec::new();
        let mut regions = Vec::with_capacity(n * n);
        for &s in &symbols {
            let index = match names.iter().position(|&x| x == s) {
                Some(i) => i,
                None => {
                    names.push(s);
                    sizes.push(0);
                    names.len() - 1
                }
            };
            sizes[index] += 1;
            regions.push(index.min(u8::MAX as usize) as u8);
        }
        if names.len() != n {
            return Err(LayoutError::RegionCount {
                found: names.len(),
                side: n,
            });
        }
        if let Some(i) = sizes.iter().position(|&size| size != n) {
            return Err(LayoutError::RegionSize {
                region: names[i],
                size: sizes[i],
                side: n,
            });
        }
        self.regions = Some(regions);
        if self.is_box_map() {
            self.regions = None;
        }
        Ok(self)
    }

    /// Whether the region map, numbered by first appearance, is the boxes.
    fn is_box_map(&self) -> bool {
        let Some(map) = &self.regions else {
            return true;
        };
        let mut renumber = vec![u8::MAX; self.side()];
        let mut next = 0;
        for (cell, &r) in map.iter().enumerate() {
            let b = self.shape.box_of(cell);
            if renumber[b] == u8::MAX {
                renumber[b] = next;
                next += 1;
            }
            if renumber[b] != r {
                return false;
            }
        }
        true
    }

    /// The layout with `rules` added.
    pub fn with_rules(mut self, rules: Rules) -> Layout {
        self.rules = self.rules.union(rules);
        self
    }

    /// The layout with one more group of cells whose digits differ (an
    /// extra region: `N` cells must then hold every digit).
    pub fn with_group(mut self, cells: Vec<u16>) -> Result<Layout, LayoutError> {
        check_group(&cells, self.side(), "group", self.groups.len() + 1)?;
        self.groups.push(cells);
        Ok(self)
    }

    /// The layout with one more killer cage. Its cells must be distinct,
    /// inside the grid and in no other cage, and its sum (if any) makable
    /// from distinct digits.
    pub fn with_cage(mut self, cage: Cage) -> Result<Layout, LayoutError> {
        let n = self.side();
        let number = self.cages.len() + 1;
        check_group(&cage.cells, n, "cage", number)?;
        for other in &self.cages {
            if let Some(&cell) = cage.cells.iter().find(|c| other.cells.contains(c)) {
                return Err(LayoutError::CellInTwoCages {
                    row: cell as usize / n + 1,
                    col: cell as usize % n + 1,
                });
            }
        }
        if let Some(sum) = cage.sum {
            let combos = sum_combinations(n, cage.cells.len(), sum, MAX_CAGE_COMBINATIONS + 1);
            if combos.is_empty() {
                return Err(LayoutError::ImpossibleSum {
                    cage: number,
                    size: cage.cells.len(),
                    sum,
                    side: n,
                });
            }
            if combos.len() > MAX_CAGE_COMBINATIONS {
                return Err(LayoutError::CageTooLarge {
                    cage: number,
                    size: cage.cells.len(),
                    sum,
                    limit: MAX_CAGE_COMBINATIONS,
                });
            }
        }
        self.cages.push(cage);
        Ok(self)
    }

    /// The region of each cell (`0..N`), from the map or the boxes.
    pub fn region_of(&self, cell: usize) -> usize {
        match &self.regions {
            Some(map) => map[cell] as usize,
            None => self.shape.box_of(cell),
        }
    }

    /// Whether the regions are irregular (a jigsaw map).
    pub fn is_jigsaw(&self) -> bool {
        self.regions.is_some()
    }

    /// The extra rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The extra all-different groups.
    pub fn groups(&self) -> &[Vec<u16>] {
        &self.groups
    }

    /// The killer cages.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// Whether this is plain Sudoku of its shape (no map, rule, group or cage),
    /// which the classic engines solve faster.
    pub fn is_classic(&self) -> bool {
        self.regions.is_none()
            && self.rules.is_empty()
            && self.groups.is_empty()
            && self.cages.is_empty()
    }

    /// Whether every constraint is an exact-cover one or a "these differ"
    /// relation, so that dancing links needs no arithmetic: no cage has a sum.
    pub fn is_exact_cover(&self) -> bool {
        self.cages.iter().all(|c| c.sum.is_none())
    }
}

/// The most digit sets one cage may have for its sum (a 16×16 cage of eight
/// cells has at most a few hundred; a 36×36 cage of eighteen millions).
pub const MAX_CAGE_COMBINATIONS: usize = 1 << 16;

fn check_group(
    cells: &[u16],
    n: usize,
    what: &'static str,
    name: usize,
) -> Result<(), LayoutError> {
    if let Some(&cell) = cells.iter().find(|&&c| c as usize >= n * n) {
        return Err(LayoutError::NoSuchCell {
            cell: (cell as usize + 1).to_string(),
            side: n,
        });
    }
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if cells.is_empty() || cells.len() > n || sorted.len() != cells.len() {
        return Err(LayoutError::BadGroup {
            what,
            name,
            side: n,
        });
    }
    Ok(())
}

/// The sets of `size` distinct digits `1..=n` (as bit `d − 1` per digit)
/// whose sum is `sum`, at most `cap` of them, in increasing order of their
/// smallest digits.
pub(crate) fn sum_combinations(n: usize, size: usize, sum: u32, cap: usize) -> Vec<u64> {
    fn walk(next: u32, n: u32, left: usize, sum: u32, set: u64, out: &mut Vec<u64>, cap: usize) {
        if out.len() >= cap {
            return;
        }
        if left == 0 {
            if sum == 0 {
                out.push(set);
            }
            return;
        }
        let l = left as u32;
        // The largest total of `left` digits, whatever the next one.
        if l * n - l * (l - 1) / 2 < sum {
            return;
        }
        for d in next..=n {
            // Too few digits left, or the smallest total from `d` too large.
            if n + 1 - d < l || l * d + l * (l - 1) / 2 > sum {
                break;
            }
            walk(d + 1, n, left - 1, sum - d, set | 1 << (d - 1), out, cap);
        }
    }
    let mut out = Vec::new();
    if size <= n && size > 0 {
        walk(1, n as u32, size, sum, 0, &mut out, cap);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_print_and_parse_back() {
        let rules: Rules = "X, Hyper,anti-knight".parse().unwrap();
        assert_eq!(rules.to_string(), "x,windoku,antiknight");
        assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
        assert_eq!("none".parse::<Rules>().unwrap(), Rules::NONE);
        assert!("xx".parse::<Rules>().is_err());
    }

    #[test]
    fn sum_combinations_match_a_brute_force_count() {
        for n in 1..=9usize {
            for size in 1..=n {
                for sum in 0..=50u32 {
                    let got = sum_combinations(n, size, sum, usize::MAX);
                    let want: Vec<u64> = (0u64..1 << n)
                        .filter(|s| s.count_ones() as usize == size)
                        .filter(|s| {
                            (0..n)
                                .filter(|d| s >> d & 1 == 1)
                                .map(|d| d as u32 + 1)
                                .sum::<u32>()
                                == sum
                        })
                        .collect();
                    let mut sorted = got.clone();
                    sorted.sort_unstable();
                    assert_eq!(sorted, want, "n {n} size {size} sum {sum}");
                }
            }
        }
    }

    #[test]
    fn inconsistent_layouts_are_refused_with_the_reason() {
        let shape = Shape::new(2, 2).unwrap();
        let classic = Layout::classic(shape);
        assert!(matches!(
            classic.clone().with_region_map("AAAABBBBCCCCDDD"),
            Err(LayoutError::RegionMapLength {
                found: 15,
                expected: 16
            })
        ));
        assert!(matches!(
            classic.clone().with_region_map("AAAAABBBCCCCDDDD"),
            Err(LayoutError::RegionSize {
                region: 'A',
                size: 5,
                ..
            })
        ));
        assert!(matches!(
            classic.clone().with_region_map("AAAABBBBCCCCCCCC"),
            Err(LayoutError::RegionCount { found: 3, .. })
        ));
        let cage = |sum, cells: &[u16]| Cage {
            sum,
            cells: cells.to_vec(),
        };
        assert!(matches!(
            classic.clone().with_cage(cage(Some(8), &[0, 1])),
            Err(LayoutError::ImpossibleSum { cage: 1, .. })
        ));
        assert!(matches!(
            classic.clone().with_cage(cage(Some(3), &[0, 0])),
            Err(LayoutError::BadGroup { .. })
        ));
        assert!(matches!(
            classic.clone().with_cage(cage(Some(10), &[0, 1, 2, 3, 4])),
            Err(LayoutError::BadGroup { .. })
        ));
        assert!(matches!(
            classic.clone().with_cage(cage(None, &[16])),
            Err(LayoutError::NoSuchCell { .. })
        ));
        let one = classic.clone().with_cage(cage(Some(3), &[0, 1])).unwrap();
        assert!(matches!(
            one.with_cage(cage(Some(7), &[1, 5])),
            Err(LayoutError::CellInTwoCages { row: 1, col: 2 })
        ));
        // The boxes written as a map are no jigsaw.
        let boxes = classic.clone().with_region_map("AABBAABBCCDDCCDD").unwrap();
        assert!(boxes.is_classic());
        let jigsaw = classic.with_region_map("AAABABBBCCCDCDDD").unwrap();
        assert!(jigsaw.is_jigsaw());
    }
}
