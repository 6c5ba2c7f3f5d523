//! `sudokit`: the command-line face of the sudokit library.
//!
//! Each subcommand lives in its own module under [`commands`]; they parse
//! flags, call the library and print. Exit status: 0 when every input line was
//! valid, 1 when some were invalid (all others still answered), 2 on a usage or
//! I/O error.

mod commands;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Sudoku-family puzzles of every box shape: analyse, solve, count.
#[derive(Parser, Debug)]
#[command(name = "sudokit", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Say for each puzzle whether its solution is unique, absent or multiple.
    Analyze(commands::analyze::AnalyzeArgs),
    /// Print a solution of each puzzle.
    Solve(commands::solve::SolveArgs),
    /// Print the exact number of solutions of each puzzle.
    Count(commands::count::CountArgs),
    /// Print the canonical (minimum-lexicographic) form of each 9x9 puzzle.
    Canon(commands::canon::CanonArgs),
    /// Generate puzzles with a unique solution (minimal, K clues, symmetric).
    Generate(commands::generate::GenerateArgs),
    /// Hunt the {-R+A} neighbourhoods of seed puzzles for unique minimal puzzles.
    Search(commands::search::SearchArgs),
    /// Shortest solutions of 8- and 15-puzzles (sliding tiles).
    Slide(commands::slide::SlideArgs),
    /// Serve puzzles over TCP (muduo's sudoku protocol, port 9981).
    Serve(commands::serve::ServeArgs),
    /// Drive a solving server with puzzles from a file and measure it.
    Load(commands::load::LoadArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Solve(args) => commands::solve::run(args),
        Command::Count(args) => commands::count::run(args),
        Command::Canon(args) => commands::canon::run(args),
        Command::Generate(args) => commands::generate::run(args),
        Command::Search(args) => commands::search::run(args),
        Command::Slide(args) => commands::slide::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Load(args) => commands::load::run(args),
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
