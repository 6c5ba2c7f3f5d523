//! `sudokit completions SHELL`: the tab-completion script for bash, zsh,
//! fish, elvish or PowerShell, made by `clap_complete` from the same
//! definitions as `--help`, so completions never drift from the flags.

use std::io::{self, Write};
use std::process::ExitCode;

use clap_complete::Shell;

/// Options of `sudokit completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Prints the completion script of `command` (the whole `sudokit` command
/// tree) for the chosen shell on standard output.
pub fn run(args: &CompletionsArgs, mut command: clap::Command) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "sudokit", &mut script);
    let mut stdout = io::stdout().lock();
    stdout.write_all(&script)?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}
