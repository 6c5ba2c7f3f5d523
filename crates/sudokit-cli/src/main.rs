//! `sudokit`: the command-line face of the sudokit library.
//!
//! Each subcommand lives in its own module under [`commands`]; they parse
//! flags, call the library and print. Exit status: 0 when every input line was
//! valid, 1 when some were invalid (all others still answered), 2 on a usage or
//! I/O error. Beside them, [`completions`] and [`man`] document the command
//! line itself, and [`color`] decides once whether anything is coloured.

mod color;
mod commands;
mod completions;
mod man;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// The exit status of the commands that answer input lines, for the end of
/// their help (a macro, so that `concat!` can join it to their examples).
macro_rules! line_exit {
    () => {
        "Exit status: 0 every line valid; 1 some lines invalid (all others answered);
2 usage or I/O error."
    };
}

/// Help text after the options of `sudokit` itself.
const TOP_AFTER: &str = "\
Examples (from the repository's root, with its bundled files):
  sudokit analyze examples/challenge-6x6.txt
  sudokit solve --pretty examples/famous-9x9.txt
  sudokit help analyze                  # the flags and examples of one command
  sudokit man | man -l -                # the manual page, every command in it

Exit status: 0 every line valid; 1 some lines invalid (all others answered);
2 usage or I/O error. `sudokit help COMMAND` says what 1 means for serve,
load and generate.

Colour: --color auto (the default) colours a terminal unless NO_COLOR is set
to something; --color always|never overrides both.";

/// Sudoku-family puzzles of every box shape, and sliding puzzles: analyze,
/// solve, count, canon, generate, search, slide, serve, load.
///
/// Puzzles are read one per line (N·N cells, blanks `.` `*` `-` `_` `0`; an
/// optional `id:` prefix is echoed). `analyze` says whether each solution is
/// unique, absent or multiple; `solve` prints one; `count` counts them
/// exactly; `canon` prints 9×9 canonical forms; `generate` makes new
/// puzzles; `search` hunts {-R+A} neighbourhoods for minimal puzzles; `slide`
/// solves 8- and 15-puzzles optimally; `serve` answers them over TCP
/// (muduo's sudoku protocol) and `load` measures such a server.
/// `completions` and `man` document this command line for shells and `man`.
#[derive(Parser, Debug)]
#[command(
    name = "sudokit",
    version,
    propagate_version = true,
    after_help = TOP_AFTER
)]
struct Cli {
    /// When to colour help, errors, logs and progress bars.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_enum,
        value_name = "WHEN",
        default_value_t = color::ColorChoice::Auto
    )]
    color: color::ColorChoice,
    #[command(subcommand)]
    command: Command,
}

/// The subcommands; each one's `after_help` gives runnable examples on the
/// repository's bundled files and its exit status.
#[derive(Subcommand, Debug)]
enum Command {
    /// Say for each puzzle whether its solution is unique, absent or multiple.
    #[command(after_help = concat!("\
Examples:
  sudokit analyze examples/challenge-6x6.txt
  sudokit analyze --minimal --lang zh examples/famous-9x9.txt
  cat examples/famous-9x9.txt | sudokit analyze --format jsonl -

", line_exit!()))]
    Analyze(commands::analyze::AnalyzeArgs),
    /// Print a solution of each puzzle.
    #[command(after_help = concat!("\
Examples:
  sudokit solve examples/famous-9x9.txt
  sudokit solve --pretty '*314*******1**356**621**3*******561*'

", line_exit!()))]
    Solve(commands::solve::SolveArgs),
    /// Print the exact number of solutions of each puzzle.
    #[command(after_help = concat!("\
Examples:
  sudokit count examples/challenge-6x6.txt
  sudokit count --limit 1000 '....................................'   # an empty 6x6 grid

", line_exit!()))]
    Count(commands::count::CountArgs),
    /// Print the canonical (minimum-lexicographic) form of each 9x9 puzzle.
    #[command(after_help = concat!("\
Examples:
  sudokit canon examples/famous-9x9.txt
  sudokit canon examples/famous-9x9.txt | sort -u | wc -l   # distinct classes

", line_exit!()))]
    Canon(commands::canon::CanonArgs),
    /// Rate each puzzle on Sudoku Explainer's scale (ER/EP/ED) by logic.
    #[command(after_help = concat!("\
Examples:
  sudokit rate examples/famous-9x9.txt
  sudokit rate --format jsonl --timeout 10 puzzles.txt
  sudokit rate --techniques hidden-single,naked-single examples/famous-9x9.txt

", line_exit!()))]
    Rate(commands::rate::RateArgs),
    /// Print the next step a person would take on each puzzle, and why.
    #[command(after_help = concat!("\
Examples:
  sudokit hint '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'
  sudokit hint --format jsonl examples/famous-9x9.txt

", line_exit!()))]
    Hint(commands::hint::HintArgs),
    /// Print the whole logical solution of each puzzle, step by step.
    #[command(after_help = concat!("\
Examples:
  sudokit explain examples/challenge-6x6.txt
  sudokit explain --techniques explainer --format jsonl examples/famous-9x9.txt

", line_exit!()))]
    Explain(commands::explain::ExplainArgs),
    /// Generate puzzles with a unique solution (minimal, K clues, symmetric, rated).
    #[command(after_help = "\
Examples:
  sudokit generate -n 5 --minimal --seed 1
  sudokit generate --box 2x3 -n 3 --symmetry rot180
  sudokit generate -n 2 --clues 24 --format jsonl

Exit status: 0 every puzzle made; 1 some puzzle missed its target (--clues,
within --attempts; the others are printed); 2 usage or I/O error.")]
    Generate(commands::generate::GenerateArgs),
    /// Convert f-puzzles links (or their data or JSON) into sudokit's lines.
    #[command(after_help = concat!("\
Examples:
  sudokit import links.txt | sudokit solve
  sudokit import 'https://f-puzzles.com/?load=N4Ig…' > puzzle.txt

", "Exit status: 0 every line converted; 1 some lines not converted (reported on
standard error, the others printed); 2 usage or I/O error."))]
    Import(commands::import::ImportArgs),
    /// Join the out files of a hunt's shards, once every shard is there and finished.
    #[command(after_help = concat!("\
Examples:
  sudokit merge --out finds.txt finds-1.txt finds-2.txt finds-3.txt finds-4.txt
  sudokit merge --out finds.txt finds-*.txt   # the tasks of an array job

", "Every shard 1/N to N/N of one hunt must be given, finished (its checkpoint
says every unit is done) and its out file exactly what its checkpoint records;
the finds are deduplicated by canonical form and sorted.

Exit status: 0 merged; 2 a shard missing, unfinished, of another hunt or
changed since its checkpoint (named on standard error), usage or I/O error."))]
    Merge(commands::merge::MergeArgs),
    /// Hunt the {-R+A} neighbourhoods of seed puzzles for unique minimal puzzles.
    #[command(after_help = concat!("\
Examples:
  sudokit search --out new.txt examples/famous-9x9.txt
  sudokit search --remove 2 --add 2 --shard 1/4 --out new.txt examples/famous-9x9.txt
  sudokit search --resume --out new.txt examples/famous-9x9.txt   # after Ctrl-C

", "Exit status: 0 every seed line valid; 1 some lines invalid (all others searched);
2 usage or I/O error."))]
    Search(commands::search::SearchArgs),
    /// Shortest solutions of 8- and 15-puzzles (sliding tiles).
    #[command(after_help = concat!("\
Examples:
  echo '2 3 4 1 5 x 7 6 8' | sudokit slide
  echo '23415x768' | sudokit slide --stats
  echo '1 2 3 4 5 6 x 8 9 10 7 11 13 14 15 12' | sudokit slide --databases manhattan

", line_exit!()))]
    Slide(commands::slide::SlideArgs),
    /// Serve puzzles over TCP (muduo's sudoku protocol, port 9981).
    #[command(after_help = "\
Addresses: HOST:PORT, localhost:PORT, [::1]:PORT, or :PORT for 127.0.0.1:PORT
(local only); 0.0.0.0:PORT or [::]:PORT listen on every interface. A host name
is resolved to its first IPv4 address (else its first IPv6 one).

Examples:
  sudokit serve                                   # 127.0.0.1:9981
  sudokit serve --listen :9981 --metrics :9982 --threads 4
  sudokit serve --listen 0.0.0.0:9981 2> serve.log

Exit status: 0 stopped by SIGINT/SIGTERM with every request read answered;
1 stopped with requests unanswered (the grace ran out, or a second signal);
2 usage or I/O error (e.g. the address is in use).")]
    Serve(commands::serve::ServeArgs),
    /// Drive a solving server with puzzles from a file and measure it.
    #[command(after_help = "\
Addresses: HOST:PORT, localhost:PORT, [::1]:PORT, or :PORT for 127.0.0.1:PORT.

Examples (with `sudokit serve` running):
  sudokit load examples/famous-9x9.txt
  sudokit load --addr :9981 -c 4 -p 16 --duration 10 examples/famous-9x9.txt
  sudokit load --addr localhost:9981 --rate 2000 -n 20000 examples/famous-9x9.txt

Exit status: 0 every answer checked correct; 1 some answer wrong or missing;
2 usage or I/O error (e.g. the connection refused).")]
    Load(commands::load::LoadArgs),
    /// Print a shell's tab-completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "\
Examples:
  sudokit completions bash > ~/.local/share/bash-completion/completions/sudokit
  sudokit completions zsh > ~/.zfunc/_sudokit     # with fpath+=(~/.zfunc) before compinit
  sudokit completions fish > ~/.config/fish/completions/sudokit.fish

Exit status: 0; 2 usage or I/O error.")]
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff), of every command or of one.
    #[command(after_help = "\
Examples:
  sudokit man | man -l -
  sudokit man serve | man -l -
  sudokit man > sudokit.1

Exit status: 0; 2 usage or I/O error.")]
    Man(man::ManArgs),
}

/// Parses the command line (clap's help and errors coloured as `--color`
/// says), sets the colour decision, runs the command, and turns its result
/// into the exit status: an error is printed as `sudokit: error: …` with
/// status 2, except a closed output pipe, which ends quietly.
fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let matches = Cli::command()
        .color(color::for_clap(&args))
        .get_matches_from(args);
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    color::init(cli.color);
    let result = match &cli.command {
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Solve(args) => commands::solve::run(args),
        Command::Count(args) => commands::count::run(args),
        Command::Canon(args) => commands::canon::run(args),
        Command::Rate(args) => commands::rate::run(args),
        Command::Hint(args) => commands::hint::run(args),
        Command::Explain(args) => commands::explain::run(args),
        Command::Generate(args) => commands::generate::run(args),
        Command::Import(args) => commands::import::run(args),
        Command::Merge(args) => commands::merge::run(args),
        Command::Search(args) => commands::search::run(args),
        Command::Slide(args) => commands::slide::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Load(args) => commands::load::run(args),
        Command::Completions(args) => completions::run(args, Cli::command()),
        Command::Man(args) => man::run(args, Cli::command()),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            if commands::is_broken_pipe(&error) {
                return ExitCode::SUCCESS;
            }
            eprintln!("sudokit: error: {error:#}");
            ExitCode::from(2)
        }
    }
}
