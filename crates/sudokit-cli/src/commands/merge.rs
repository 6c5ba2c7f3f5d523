//! `sudokit merge --out FILE SHARD_OUT…`: joins the out files of a sharded
//! run's slices (each task of an array job) into one, after checking that
//! every slice `1/N` to `N/N` is there, of the same run, finished, and its
//! out file exactly what its checkpoint records. A hunt's finds (`sudokit
//! search`) are deduplicated by canonical form and sorted; the lines of
//! `sudokit analyze` and `sudokit generate` are put back in item order,
//! exactly as one unsharded run writes them. Anything else is refused with
//! the slice named: never a partial result.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use sudokit::shard::merge::{kind, merge, merge_records, Kind, MergeError, ShardFiles};

/// Options of `sudokit merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The slices' out files (`--out` of `sudokit search`, `analyze` or
    /// `generate` with `--shard`), each with its checkpoint beside it
    /// (`OUT.checkpoint`).
    #[arg(value_name = "SHARD_OUT", required = true)]
    pub shards: Vec<PathBuf>,
    /// Write the merged output here (atomically: a temporary file renamed
    /// over it); default: standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// No summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs `sudokit merge`.
pub fn run(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let files: Vec<ShardFiles> = args.shards.iter().map(|p| ShardFiles::new(p)).collect();
    let merged = match &args.out {
        Some(path) => write_atomically(path, |out| join(&files, out))?,
        None => join(&files, &mut io::stdout().lock()),
    };
    let summary = match merged {
        Ok(summary) => summary,
        Err(error) => {
            eprintln!("sudokit merge: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    if !args.quiet {
        eprintln!(
            "sudokit merge: {summary}, {:.3} s",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Checks the slices `files` and writes them joined to `out`; returns what
/// was joined, in words.
fn join(files: &[ShardFiles], out: &mut dyn Write) -> Result<String, MergeError> {
    match kind(files)? {
        Kind::Hunt => {
            let merged = merge(files)?;
            out.write_all(&merged.finds.concat())
                .and_then(|()| out.flush())
                .map_err(MergeError::Write)?;
            Ok(format!(
                "{} shards of {}: {} units, {} finds read, {} distinct",
                merged.shards,
                merged.hunt.split(" shard ").next().unwrap_or(&merged.hunt),
                merged.units,
                merged.read,
                merged.finds.len(),
            ))
        }
        Kind::Records => {
            let merged = merge_records(files, out)?;
            let counts: Vec<String> = merged
                .counts
                .iter()
                .filter(|(_, &n)| n > 0)
                .map(|(name, n)| format!("{n} {name}"))
                .collect();
            Ok(format!(
                "{} shards of {}: {} items in input order ({})",
                merged.shards,
                merged.run.split(", shard ").next().unwrap_or(&merged.run),
                merged.items,
                counts.join(", ")
            ))
        }
    }
}

/// Runs `write` on a temporary file beside `path`, synced and renamed over
/// `path` only when `write` succeeds (else removed): a failed merge leaves
/// no partial output.
fn write_atomically<T, E>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> anyhow::Result<Result<T, E>> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let file = fs::File::create(&tmp)?;
    let mut out = BufWriter::new(file);
    let result = write(&mut out);
    if result.is_err() {
        drop(out);
        fs::remove_file(&tmp)?;
        return Ok(result);
    }
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    fs::rename(&tmp, path)?;
    Ok(result)
}
