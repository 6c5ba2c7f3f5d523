//! The {−R+A} neighbourhood hunt (`sudokit search`): from seed puzzles to
//! every unique, minimal puzzle made by removing `R` of a seed's clues and
//! adding `A` new ones.
//!
//! - [`neighbours`] does one *unit* — one seed, one removal — choosing for
//!   each puzzle on the way by its number of solutions: few are listed and
//!   the added clues chosen to rule out all but one; with many, each
//!   possible clue is added in turn (see there).
//! - [`run()`] drives the whole hunt: units numbered seed by seed, removals in
//!   lexicographic order; `--shard I/N` keeps units `u ≡ I−1 (mod N)`, so
//!   the shards partition the hunt; units run in parallel batches; finds are
//!   deduplicated by canonical form and appended to the out file as found;
//!   after each batch a checkpoint is written atomically (see [`checkpoint`]),
//!   and the last one, written when the hunt completes, says so (every
//!   unit done) for `--resume` and for
//!   [`shard::merge`](crate::shard::merge), which joins the out files of a
//!   hunt's shards once every shard is there and complete.
//! - [`out_file`] locks the out file for the run and checks it against the
//!   checkpoint before a resume changes it.
//! - [`digest`] is the FNV-1a digest both use.

pub mod checkpoint;
pub mod digest;
pub mod neighbours;
pub mod out_file;
mod run;

pub use neighbours::{unit_neighbours, UnitCounts};
pub use run::{
    neighbourhood, run, Batch, Find, Hunt, HuntError, HuntOptions, Progress, Shard, Start, Stats,
};

/// The removals of `r` cells from the clue cells `clues`, in lexicographic
/// order of positions in `clues`.
pub fn removals(clues: &[u8], r: usize) -> impl Iterator<Item = Vec<u8>> + '_ {
    let n = clues.len();
    let mut idx: Vec<usize> = (0..r).collect();
    let mut done = r > n;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let item = idx.iter().map(|&i| clues[i]).collect();
        // Next combination: bump the last index that can still move.
        match (0..r).rev().find(|&i| idx[i] < n - r + i) {
            Some(i) => {
                idx[i] += 1;
                for j in i + 1..r {
                    idx[j] = idx[j - 1] + 1;
                }
            }
            None => done = true,
        }
        Some(item)
    })
}

/// Number of removals of `r` clues from `n`: the binomial coefficient.
pub fn removal_count(n: usize, r: usize) -> u64 {
    if r > n {
        return 0;
    }
    (0..r as u64).fold(1, |acc, i| acc * (n as u64 - i) / (i + 1))
}
