//! `sudokit man [COMMAND]`: the manual page in roff, made by `clap_mangen`
//! from the same definitions as `--help` (read it with `sudokit man | man -l -`).
//!
//! Without COMMAND the page is `sudokit(1)`: the global options, the list of
//! commands, then a section for each command (its synopsis, description,
//! options, examples and exit status), so that one page documents the whole
//! tool without installing a page per command. With COMMAND it is that
//! command's own page, `sudokit-COMMAND(1)`.

use std::io::{self, Write};
use std::process::ExitCode;

use clap_mangen::Man;

/// Options of `sudokit man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Print only this command's page (`sudokit-COMMAND(1)`).
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// Prints the page of `command` (the whole `sudokit` command tree), or of
/// the subcommand asked for, on standard output.
pub fn run(args: &ManArgs, mut command: clap::Command) -> anyhow::Result<ExitCode> {
    command.build();
    let mut page = Vec::new();
    match &args.command {
        Some(name) => {
            let sub = commands(&command)
                .find(|sub| sub.get_name() == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = commands(&command).map(|c| c.get_name()).collect();
                    anyhow::anyhow!("no command '{name}' (one of: {})", names.join(", "))
                })?;
            page_of(sub, &mut page)?;
        }
        None => whole_page(&command, &mut page)?,
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(&page)?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The documented subcommands of `command` (not `help`, not hidden ones).
fn commands(command: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    command
        .get_subcommands()
        .filter(|sub| sub.get_name() != "help" && !sub.is_hide_set())
}

/// How a subcommand is called: `sudokit analyze`.
fn bin_name(sub: &clap::Command) -> String {
    sub.get_bin_name()
        .map_or_else(|| format!("sudokit {}", sub.get_name()), str::to_string)
}

/// A subcommand's own page, `sudokit-NAME(1)`.
fn page_of(sub: &clap::Command, out: &mut Vec<u8>) -> io::Result<()> {
    let source = format!("sudokit {}", sub.get_version().unwrap_or_default());
    let man = Man::new(sub.clone()).source(source);
    man.render_title(out)?;
    man.render_name_section(out)?;
    body(&man, sub, ".SH", out)
}

/// `sudokit(1)`: the top command's sections, the list of commands, then one
/// section per command (its own sections demoted to subsections), then the
/// examples and exit status of the top command and the version.
fn whole_page(command: &clap::Command, out: &mut Vec<u8>) -> io::Result<()> {
    let man = Man::new(command.clone());
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    writeln!(out, ".SH COMMANDS")?;
    for sub in commands(command) {
        writeln!(out, ".TP\n\\fB{}\\fR", escape(&bin_name(sub)))?;
        if let Some(about) = sub.get_about() {
            writeln!(out, "{}", escape(&about.to_string()))?;
        }
    }
    for sub in commands(command) {
        writeln!(out, ".SH \"{}\"", escape(&bin_name(sub).to_uppercase()))?;
        body(&Man::new(sub.clone()), sub, ".SS", out)?;
    }
    if let Some(after) = after_help(command) {
        verbatim(".SH", "EXAMPLES AND EXIT STATUS", &after, out)?;
    }
    man.render_version_section(out)
}

/// A command's synopsis, description, options and [`after_help`]
/// (examples, exit status), under headings made with `heading` (`.SH` for a
/// page, `.SS` inside the section of the whole page).
fn body(man: &Man, command: &clap::Command, heading: &str, out: &mut Vec<u8>) -> io::Result<()> {
    let mut sections = Vec::new();
    man.render_synopsis_section(&mut sections)?;
    man.render_description_section(&mut sections)?;
    man.render_options_section(&mut sections)?;
    for line in String::from_utf8_lossy(&sections).lines() {
        match line.strip_prefix(".SH ") {
            Some(title) => writeln!(out, "{heading} {title}")?,
            None => writeln!(out, "{line}")?,
        }
    }
    if let Some(after) = after_help(command) {
        verbatim(heading, "EXAMPLES AND EXIT STATUS", &after, out)?;
    }
    Ok(())
}

/// The text `--help` shows after the options: the examples and exit status.
fn after_help(command: &clap::Command) -> Option<String> {
    command
        .get_after_long_help()
        .or_else(|| command.get_after_help())
        .map(|text| text.to_string())
}

/// `text` under a heading, line for line (examples must not be refilled).
fn verbatim(heading: &str, title: &str, text: &str, out: &mut Vec<u8>) -> io::Result<()> {
    writeln!(out, "{heading} \"{title}\"")?;
    writeln!(out, ".nf")?;
    for line in text.lines() {
        writeln!(out, "{}", escape(line))?;
    }
    writeln!(out, ".fi")
}

/// `text` made safe as a roff text line: backslashes and hyphens escaped, and
/// a leading `.` or `'` kept from being read as a request.
fn escape(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
