//! Splitting a long run into slices for separate processes or machines
//! (the tasks of a batch scheduler's array job), and joining their outputs.
//!
//! - [`Shard`] is one of `N` slices, written `I/N`.
//! - [`Stripes`] deals numbered items (the puzzles of an input, the
//!   puzzles a generator makes) to the slices in stripes of a fixed width,
//!   so that every slice gets a share of every part of the input.
//! - [`records`] is the out file of a run whose output is one line per
//!   item in item order (`analyze`, `generate`): written with a
//!   checkpoint that lets a killed slice resume exactly.
//! - [`merge`] checks that a set of slices' out files is complete (every
//!   slice there, finished, unchanged since its checkpoint) and joins them:
//!   the hunt's finds deduplicated by canonical form, the records of
//!   `analyze` and `generate` restored to item order.

#[cfg(all(feature = "parallel", feature = "serde"))]
pub mod merge;
#[cfg(all(feature = "parallel", feature = "serde"))]
pub mod records;
#[cfg(all(feature = "parallel", feature = "serde"))]
pub mod sealed;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The checkpoint a run writing to `out` keeps unless told otherwise:
/// `OUT.checkpoint`, beside it (where `sudokit merge` looks for it).
pub fn checkpoint_beside(out: &Path) -> PathBuf {
    let mut checkpoint = out.as_os_str().to_owned();
    checkpoint.push(".checkpoint");
    checkpoint.into()
}

/// One of `count` deterministic slices of a run. Written `I/N` with `I`
/// from 1 to `N`. Made only through [`Shard::new`] or parsing, so that
/// `index < count` always holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Zero-based slice number.
    index: u64,
    /// Number of slices.
    count: u64,
}

impl Shard {
    /// Slice `index` (zero-based) of `count`; `None` unless `index < count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index < count).then_some(Shard { index, count })
    }

    /// The zero-based slice number.
    pub fn index(self) -> u64 {
        self.index
    }

    /// The number of slices.
    pub fn count(self) -> u64 {
        self.count
    }

    /// Whether this is the only slice (`1/1`): the whole run.
    pub fn is_whole(self) -> bool {
        self.count == 1
    }
}

impl Default for Shard {
    /// `1/1`, the whole run.
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `I/N` with `1 ≤ I ≤ N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{text}' is not I/N with 1 <= I <= N");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (u64, u64) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        match i.checked_sub(1) {
            Some(index) => Shard::new(index, n).ok_or_else(bad),
            None => Err(bad()),
        }
    }
}

impl fmt::Display for Shard {
    /// `I/N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// Items numbered from 0 dealt to the slices of a [`Shard`] in stripes of
/// `width`: items `0..width` to slice 1, the next `width` to slice 2, and
/// so on round the slices again. Wide stripes keep each slice's reading
/// and joining cheap; narrow ones spread an input whose hard puzzles
/// cluster, or a handful of slow items, evenly over the slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stripes {
    /// The slice whose items these are.
    shard: Shard,
    /// Items per stripe (at least 1).
    width: u64,
}

impl Stripes {
    /// The stripes of `width` items that belong to `shard`; 0 counts as 1,
    /// and a width so large that `N` stripes would pass `u64::MAX` items
    /// counts as the largest that does not.
    pub fn new(shard: Shard, width: u64) -> Stripes {
        Stripes {
            shard,
            width: width.clamp(1, u64::MAX / shard.count),
        }
    }

    /// Every item: the stripes of the whole run (`1/1`).
    pub fn whole() -> Stripes {
        Stripes::new(Shard::default(), 1)
    }

    /// The slice.
    pub fn shard(self) -> Shard {
        self.shard
    }

    /// Items per stripe.
    pub fn width(self) -> u64 {
        self.width
    }

    /// Whether item `item` (0-based) is this slice's.
    pub fn owns(self, item: u64) -> bool {
        self.shard.is_whole() || (item / self.width) % self.shard.count == self.shard.index
    }

    /// How many of items `0..items` are this slice's.
    pub fn owned_below(self, items: u64) -> u64 {
        let cycle = self.width * self.shard.count;
        let rest = items % cycle;
        let start = self.shard.index * self.width;
        items / cycle * self.width + rest.saturating_sub(start).min(self.width)
    }

    /// This slice's items among `range`, as runs of consecutive items in
    /// order (the whole range as one run for the whole run, `1/1`).
    pub fn runs_in(
        self,
        range: std::ops::Range<u64>,
    ) -> impl Iterator<Item = std::ops::Range<u64>> {
        // The only slice owns every stripe: one stripe as wide as the range.
        let width = match self.shard.is_whole() {
            true => range.end.max(1),
            false => self.width,
        };
        let cycle = width * self.shard.count;
        let offset = self.shard.index * width;
        let first_cycle = range.start / cycle;
        (first_cycle..)
            .map_while(move |c| c.checked_mul(cycle)?.checked_add(offset))
            .take_while(move |&start| start < range.end)
            .map(move |start| start.max(range.start)..start.saturating_add(width).min(range.end))
            .filter(|run| !run.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_print() {
        let s: Shard = "2/5".parse().unwrap();
        assert_eq!((s.index(), s.count()), (1, 5));
        assert_eq!(s.to_string(), "2/5");
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn huge_widths_and_items_do_not_overflow() {
        for count in [1, 2, 3, 7] {
            for width in [u64::MAX, u64::MAX / 2, 1 << 40] {
                let mut all = 0u64;
                for index in 0..count {
                    let s = Stripes::new(Shard::new(index, count).unwrap(), width);
                    all = all.checked_add(s.owned_below(u64::MAX)).unwrap();
                    let runs: Vec<_> = s.runs_in(u64::MAX - 10..u64::MAX).collect();
                    let listed = runs.iter().map(|r| r.end - r.start).sum::<u64>();
                    let owned = (u64::MAX - 10..u64::MAX).filter(|&k| s.owns(k)).count();
                    assert_eq!(listed, owned as u64);
                }
                assert_eq!(all, u64::MAX, "{count} slices of width {width}");
            }
        }
    }

    #[test]
    fn stripes_partition_the_items_and_count_them() {
        for count in 1..5 {
            for width in 1..4 {
                let slices: Vec<Stripes> = (0..count)
                    .map(|i| Stripes::new(Shard::new(i, count).unwrap(), width))
                    .collect();
                for item in (0..40).chain([u64::MAX - 1, u64::MAX]) {
                    let owners = slices.iter().filter(|s| s.owns(item)).count();
                    assert_eq!(owners, 1, "item {item}, {count} slices of width {width}");
                }
                for s in &slices {
                    for items in 0..40 {
                        let counted = (0..items).filter(|&k| s.owns(k)).count() as u64;
                        assert_eq!(s.owned_below(items), counted);
                        for from in 0..=items {
                            let runs: Vec<_> = s.runs_in(from..items).collect();
                            if count == 1 && from < items {
                                assert_eq!(runs, vec![from..items], "one slice: one run");
                            }
                            let listed: Vec<u64> = runs.into_iter().flatten().collect();
                            let owned: Vec<u64> = (from..items).filter(|&k| s.owns(k)).collect();
                            assert_eq!(listed, owned);
                        }
                    }
                }
            }
        }
    }
}
