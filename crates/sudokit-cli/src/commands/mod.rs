//! One module per subcommand, and the flags and helpers they share.

pub mod analyze;
pub mod background;
pub mod batch;
pub mod canon;
pub mod count;
pub mod explain;
pub mod generate;
pub mod hint;
pub mod import;
pub mod input;
pub mod load;
pub mod merge;
pub mod output;
pub mod progress;
pub mod rate;
pub mod record_out;
pub mod search;
pub mod serve;
pub mod slide;
pub mod solve;

use std::io;
use std::time::{Duration, Instant};

use anyhow::Context;
use sudokit::budget::Budget;
use sudokit::grid::Shape;
use sudokit::lines::DEFAULT_MAX_LINE;
use sudokit::logic::TechniqueSet;
use sudokit::parse::FormatSpec;
use sudokit::solver::choice::EngineChoice;
use sudokit::solver::Status;
use sudokit::variant::Rules;

/// `--box` and `--symbols`, taken by every Sudoku command.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct FormatArgs {
    /// Box shape RxC (rows x columns per box), e.g. 2x3 or 3x2. Default: from
    /// the cell count of each source's first puzzle (36 cells: 2x3), with
    /// R <= C and R as large as possible.
    #[arg(long = "box", value_name = "RxC")]
    pub shape: Option<Shape>,
    /// The N symbols in digit order, e.g. ABCDEFGHIJKLMNOP or 0123456789ABCDEF.
    /// Default: the first N of 1-9, A-Z, a-z. Blanks are . * - _ 0, except any
    /// of them that is a symbol.
    #[arg(long, value_name = "STRING")]
    pub symbols: Option<String>,
}

impl FormatArgs {
    /// The library's view of these flags.
    pub fn spec(&self) -> FormatSpec {
        FormatSpec {
            shape: self.shape,
            symbols: self.symbols.clone(),
        }
    }
}

/// `--max-line`: the cap on an input line's length, taken by every command
/// that reads lines, so that no input can make it hold unbounded memory.
#[derive(clap::Args, Debug, Clone)]
pub struct LineArgs {
    /// Longest input line, in bytes (not counting the newline). A longer line
    /// is reported invalid by number and skipped without being held in memory.
    #[arg(
        long = "max-line",
        value_name = "BYTES",
        default_value_t = DEFAULT_MAX_LINE,
        value_parser = parse_max_line
    )]
    pub max_line: usize,
}

/// Reads a `--max-line` value: a whole number of bytes, at least 1.
fn parse_max_line(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1 byte".to_string()),
        Ok(bytes) => Ok(bytes),
        Err(e) => Err(format!("{e} (give a whole number of bytes, e.g. 1048576)")),
    }
}

/// `--engine`: which solver runs (for comparisons; `auto` is the fastest).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EngineArgs {
    /// Solver: auto (fastest for the shape and variant), general (plain
    /// Sudoku, any shape), variant (every variant, constraints as data), dlx
    /// (dancing links, every variant), sat (CaDiCaL, a SAT solver; plain
    /// Sudoku), or reference (slow; plain Sudoku).
    #[arg(long, value_name = "NAME", default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,
}

/// `--variant`: rules every puzzle of the run keeps, besides the layout
/// fields (`regions=`, `cage=` …) of its own line.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct VariantArgs {
    /// Variant rules for every puzzle, comma-separated: x (both diagonals),
    /// windoku, disjoint, antiknight, antiking. A line can add its own
    /// layout after its cells: regions=MAP (jigsaw), variant=RULES,
    /// cage=SUM@r1c1r1c2… (killer), group=r1c1r2c2… (see the README).
    #[arg(long, value_name = "RULES", default_value_t = Rules::NONE, hide_default_value = true)]
    pub variant: Rules,
}

impl VariantArgs {
    /// Refuses an engine that does not handle `--variant`'s rules, before
    /// any input is read.
    pub fn check(&self, engine: EngineChoice) -> anyhow::Result<()> {
        let handles_variants = matches!(
            engine,
            EngineChoice::Auto | EngineChoice::Variant | EngineChoice::Dlx
        );
        if !self.variant.is_empty() && !handles_variants {
            anyhow::bail!(
                "--engine {engine} solves plain Sudoku only; --variant takes auto, variant or dlx"
            );
        }
        Ok(())
    }
}

/// `--timeout`: how long one puzzle may take before the command gives up on
/// it (and goes on with the next).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TimeoutArgs {
    /// Give up on a puzzle after this many seconds (decimals allowed, e.g.
    /// 0.5); it is then reported as `timeout` and the exit status is 1.
    /// Default: no limit.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
}

impl TimeoutArgs {
    /// The budget of one puzzle started now.
    pub fn budget(&self) -> Budget {
        match self.timeout {
            Some(limit) => Budget::until(Instant::now() + limit),
            None => Budget::unlimited(),
        }
    }
}

/// Reads a number of seconds, such as `10` or `0.25`.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(Duration::from_secs_f64(s)),
        _ => Err("give a positive number of seconds, e.g. 10 or 0.5".to_string()),
    }
}

/// `--threads`: the size of the worker pool.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ThreadArgs {
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

impl ThreadArgs {
    /// Sizes rayon's global pool; returns the number of threads it has.
    pub fn install(&self) -> anyhow::Result<usize> {
        if let Some(n) = self.threads {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n as usize)
                .build_global()
                .context("starting worker threads")?;
        }
        Ok(rayon::current_num_threads())
    }
}

/// The status word of every record: `unique`, `none`, `multiple`, or
/// `timeout` for a puzzle given up at `--timeout` (`None`).
pub fn status_word(status: Option<Status>) -> &'static str {
    match status {
        Some(Status::Unique) => "unique",
        Some(Status::None) => "none",
        Some(Status::Multiple) => "multiple",
        None => "timeout",
    }
}

/// What text output prints for a puzzle given up at `--timeout` (as the
/// server answers such a request).
pub const TIMEOUT_TEXT: &str = "Timeout";

/// Whether an error is the reader of our output going away (`| head`), which
/// ends the run quietly rather than as a failure.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Appends the decimal digits of `n`, written at the front of a fixed-size
/// array ([`push_prefix`]).
pub fn push_number(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let len = decimal_digits(n);
    for at in (0..len).rev() {
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    push_prefix(out, &digits, len);
}

/// Appends the first `len` bytes of `bytes`: the whole array is appended
/// and the rest cut off, since a copy of fixed size is inlined where one
/// of run-time length is a call to `memcpy`.
pub fn push_prefix<const N: usize>(out: &mut Vec<u8>, bytes: &[u8; N], len: usize) {
    let end = out.len() + len;
    out.extend_from_slice(bytes);
    out.truncate(end);
}

/// How many decimal digits `n` has (1 for 0).
fn decimal_digits(n: u64) -> usize {
    let mut len = 1;
    let mut bound = 10u64;
    while len < 20 && n >= bound {
        len += 1;
        bound = bound.saturating_mul(10);
    }
    len
}

/// `--techniques`: which logic techniques `rate`, `hint` and `explain` use.
#[derive(clap::Args, Debug)]
pub struct TechniqueArgs {
    /// The techniques, tried in order at each step: `explainer` (Sudoku
    /// Explainer's, in its order: its ER/EP/ED; `rate`'s default), `human`
    /// (every technique, easiest first; `hint`'s and `explain`'s default), or
    /// a comma-separated list of technique names (`hidden-single,naked-single`
    /// solves with singles only). On variants the variant logic engine uses
    /// its own techniques, easiest first, for `explainer` and `human`, and
    /// those of a list that it has (`cage` and `leftovers` are its own).
    #[arg(long, value_name = "SET", value_parser = parse_technique_set)]
    pub techniques: Option<TechniqueSet>,
}

impl TechniqueArgs {
    /// The set asked for, or the command's `default`.
    pub fn set(&self, default: TechniqueSet) -> TechniqueSet {
        self.techniques.clone().unwrap_or(default)
    }
}

/// Parses `--techniques`.
fn parse_technique_set(text: &str) -> Result<TechniqueSet, String> {
    match text {
        "explainer" => Ok(TechniqueSet::Explainer),
        "human" => Ok(TechniqueSet::Human),
        list => list
            .split(',')
            .map(|name| name.parse().map_err(|e| format!("{e}")))
            .collect::<Result<Vec<_>, _>>()
            .map(TechniqueSet::Only),
    }
}

/// Parses `--shard`: `I/N`, or `slurm` for this task's slice of a Slurm
/// array job (`sbatch --array`), read from the task's environment.
pub fn parse_shard(text: &str) -> Result<sudokit::search::Shard, String> {
    if text.trim() == "slurm" {
        slurm_shard(|name| std::env::var(name).ok())
    } else {
        text.parse()
    }
}

/// The shard of a Slurm array task from its environment (`var`): task ids
/// `MIN, MIN + STEP, …, MAX` are shards `1/N` to `N/N`, `N` the array's
/// task count. An array of other ids (a list such as `1,3,7`) is refused:
/// its tasks would not make up the whole hunt.
pub fn slurm_shard(var: impl Fn(&str) -> Option<String>) -> Result<sudokit::search::Shard, String> {
    let number = |name: &str| -> Result<Option<u64>, String> {
        match var(name) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| format!("{name}={v:?} is not a number")),
        }
    };
    let needed = |name: &str| {
        number(name)?.ok_or_else(|| {
            format!(
                "--shard slurm needs {name} in the environment: run it as a task of `sbatch --array` \
                 (or give --shard I/N)"
            )
        })
    };
    let id = needed("SLURM_ARRAY_TASK_ID")?;
    let count = needed("SLURM_ARRAY_TASK_COUNT")?;
    let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
    let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
    let max = number("SLURM_ARRAY_TASK_MAX")?.unwrap_or(min + (count.max(1) - 1) * step);
    let regular = count > 0 && max >= min && max - min == (count - 1) * step;
    let offset = id
        .checked_sub(min)
        .filter(|o| o % step == 0 && o / step < count);
    match (regular, offset) {
        (true, Some(offset)) => {
            Ok(sudokit::search::Shard::new(offset / step, count).expect("offset / step < count"))
        }
        _ => Err(format!(
            "--shard slurm needs an array of evenly spaced task ids (such as --array=1-{count}); \
             this task is {id} of {count} from {min} to {max} by {step}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{push_number, slurm_shard};

    #[test]
    fn numbers_are_written_as_std_writes_them() {
        let mut powers: Vec<u64> = (0..20).map(|k| 10u64.pow(k)).collect();
        powers.extend(powers.clone().iter().map(|p| p - 1));
        powers.extend([u64::MAX, u64::MAX - 1, 12_345_678_901_234_567_890]);
        let mut out = b"x".to_vec();
        let mut expected = String::from("x");
        for n in powers {
            push_number(&mut out, n);
            out.push(b' ');
            expected.push_str(&format!("{n} "));
        }
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    /// The shard of a task with these Slurm variables (name=value pairs).
    fn shard(vars: &[(&str, u64)]) -> Result<String, String> {
        let env = |name: &str| {
            vars.iter()
                .find(|(n, _)| *n == name.trim_start_matches("SLURM_ARRAY_TASK_"))
                .map(|(_, v)| v.to_string())
        };
        slurm_shard(env).map(|s| s.to_string())
    }

    #[test]
    fn slurm_array_tasks_map_onto_shards() {
        // --array=1-4 and --array=0-3: four shards either way.
        let one_based = |id| shard(&[("ID", id), ("COUNT", 4), ("MIN", 1), ("MAX", 4)]);
        let zero_based = |id| shard(&[("ID", id), ("COUNT", 4), ("MIN", 0), ("MAX", 3)]);
        for i in 1..=4 {
            assert_eq!(one_based(i), Ok(format!("{i}/4")));
            assert_eq!(zero_based(i - 1), Ok(format!("{i}/4")));
        }
        // --array=0-6:2 (ids 0, 2, 4, 6).
        let stepped = |id| {
            shard(&[
                ("ID", id),
                ("COUNT", 4),
                ("MIN", 0),
                ("MAX", 6),
                ("STEP", 2),
            ])
        };
        assert_eq!(stepped(4), Ok("3/4".to_string()));
        assert!(stepped(3).is_err());
        // Without MIN and MAX (older Slurm): ids from 0.
        assert_eq!(shard(&[("ID", 2), ("COUNT", 3)]), Ok("3/3".to_string()));
        // --array=1,3,7: not evenly spaced.
        let listed = shard(&[("ID", 3), ("COUNT", 3), ("MIN", 1), ("MAX", 7)]);
        assert!(listed.unwrap_err().contains("evenly spaced"));
        // Not in an array job.
        let outside = shard(&[]).unwrap_err();
        assert!(outside.contains("SLURM_ARRAY_TASK_ID"), "{outside}");
        assert!(shard(&[("ID", 9), ("COUNT", 4), ("MIN", 1), ("MAX", 4)]).is_err());
    }
}
