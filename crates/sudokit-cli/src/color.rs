//! Whether to colour what we print: one decision, made once from `--color`
//! and `NO_COLOR`, that clap's help and errors, the `serve` log and the
//! progress bars (indicatif, through `console`) all follow.
//!
//! `--color auto` (the default) colours a stream only when it is a terminal
//! and `NO_COLOR` is unset or empty (<https://no-color.org>), so that
//! `sudokit serve 2> log` writes no escape codes into the file;
//! `always` and `never` override both.
//!
//! Clap prints help and usage errors before the parsed flags exist, so
//! [`for_clap`] reads `--color` from the raw arguments first and the parser
//! is configured with it; [`init`] then puts the parsed flag in force for
//! everything else.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::sync::OnceLock;

/// The values of `--color`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour a stream that is a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    /// Always colour, even into files and pipes.
    Always,
    /// Never colour.
    Never,
}

/// The choice in force, set once by [`init`].
static CHOICE: OnceLock<ColorChoice> = OnceLock::new();

/// The colour setting for clap's own help and usage errors, which clap
/// prints before the parsed flags exist: the last `--color VALUE` or
/// `--color=VALUE` before a `--` in the raw arguments (a value that is not
/// ours counts as `auto`; clap then reports it), and `NO_COLOR` under `auto`.
pub fn for_clap(args: &[OsString]) -> clap::ColorChoice {
    match choice_from_args(args) {
        ColorChoice::Always => clap::ColorChoice::Always,
        ColorChoice::Never => clap::ColorChoice::Never,
        ColorChoice::Auto if no_color() => clap::ColorChoice::Never,
        ColorChoice::Auto => clap::ColorChoice::Auto,
    }
}

/// The `--color` value in the raw arguments, as [`for_clap`] reads it.
fn choice_from_args(args: &[OsString]) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut args = args.iter().skip(1).map(|a| a.to_str().unwrap_or(""));
    while let Some(arg) = args.next() {
        let value = match arg {
            "--" => break,
            "--color" => args.next().unwrap_or(""),
            _ => match arg.strip_prefix("--color=") {
                Some(value) => value,
                None => continue,
            },
        };
        choice = match value {
            "always" => ColorChoice::Always,
            "never" => ColorChoice::Never,
            _ => ColorChoice::Auto,
        };
    }
    choice
}

/// Makes the parsed `--color` the choice in force, for [`stderr`] and for
/// `console` (which indicatif's progress bars draw with).
pub fn init(choice: ColorChoice) {
    let choice = *CHOICE.get_or_init(|| choice);
    console::set_colors_enabled(decide(choice, std::io::stdout().is_terminal()));
    console::set_colors_enabled_stderr(decide(choice, std::io::stderr().is_terminal()));
}

/// Whether to colour what goes to standard error (logs, progress, messages):
/// the one function every command asks.
pub fn stderr() -> bool {
    let choice = CHOICE.get().copied().unwrap_or_default();
    decide(choice, std::io::stderr().is_terminal())
}

/// The rule: `always` and `never` decide alone; `auto` colours a terminal
/// unless `NO_COLOR` is set to something.
fn decide(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && !no_color(),
    }
}

/// Whether `NO_COLOR` asks for no colour (any non-empty value does).
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The raw arguments of a command line.
    fn args(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn the_flag_is_found_in_either_form_and_the_last_wins() {
        assert_eq!(choice_from_args(&args("sudokit help")), ColorChoice::Auto);
        assert_eq!(
            choice_from_args(&args("sudokit --color never serve")),
            ColorChoice::Never
        );
        assert_eq!(
            choice_from_args(&args("sudokit serve --color=always")),
            ColorChoice::Always
        );
        assert_eq!(
            choice_from_args(&args("sudokit --color=always serve --color never")),
            ColorChoice::Never
        );
    }

    #[test]
    fn arguments_after_a_double_dash_are_not_flags() {
        assert_eq!(
            choice_from_args(&args("sudokit count -- --color=always")),
            ColorChoice::Auto
        );
    }

    #[test]
    fn always_and_never_ignore_the_terminal() {
        assert!(decide(ColorChoice::Always, false));
        assert!(!decide(ColorChoice::Never, true));
        assert!(!decide(ColorChoice::Auto, false));
    }
}
