//! `sudokit merge --out FILE SHARD…`: joins the out files of a hunt's
//! shards (`sudokit search --shard I/N`, each task of an array job) into
//! one, deduplicated by canonical form and sorted, after checking that
//! every shard `1/N` to `N/N` is there, of the same hunt, finished, and its
//! out file exactly what its checkpoint records. Anything else is refused
//! with the shard named: never a partial result.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use sudokit::search::merge::{merge, ShardFiles};

/// Options of `sudokit merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The shards' out files (`sudokit search --out`), each with its
    /// checkpoint beside it (`OUT.checkpoint`).
    #[arg(value_name = "SHARD_OUT", required = true)]
    pub shards: Vec<PathBuf>,
    /// Write the merged finds here (atomically: a temporary file renamed
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
    let merged = match merge(&files) {
        Ok(merged) => merged,
        Err(error) => {
            eprintln!("sudokit merge: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    let bytes: Vec<u8> = merged.finds.concat();
    match &args.out {
        Some(path) => {
            let mut tmp = path.as_os_str().to_owned();
            tmp.push(".tmp");
            let tmp = PathBuf::from(tmp);
            {
                let mut file = fs::File::create(&tmp)?;
                file.write_all(&bytes)?;
                file.sync_all()?;
            }
            fs::rename(&tmp, path)?;
        }
        None => io::stdout().lock().write_all(&bytes)?,
    }
    if !args.quiet {
        eprintln!(
            "sudokit merge: {} shards of {}: {} units, {} finds read, {} distinct, {:.3} s",
            merged.shards,
            merged.hunt.split(" shard ").next().unwrap_or(&merged.hunt),
            merged.units,
            merged.read,
            merged.finds.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
