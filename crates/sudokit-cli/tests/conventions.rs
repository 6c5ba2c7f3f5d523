//! The command line's own documentation, run through the real binary: the
//! top-level help names every command, every command's help ends with
//! examples and the exit status (and the examples on the bundled files run),
//! `sudokit completions SHELL` knows every command in every shell,
//! `sudokit man` has a section per command, and `--color` governs clap's
//! own messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The work commands, in the order `--help` lists them.
const WORK: [&str; 9] = [
    "analyze", "solve", "count", "canon", "generate", "search", "slide", "serve", "load",
];

/// Every command, the work ones and those that document the command line.
const ALL: [&str; 11] = [
    "analyze",
    "solve",
    "count",
    "canon",
    "generate",
    "search",
    "slide",
    "serve",
    "load",
    "completions",
    "man",
];

/// Runs `sudokit` with `args` from the repository's root (where the help's
/// examples expect to be), with `NO_COLOR` unset so that only `--color`
/// decides.
fn sudokit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(args)
        .current_dir(repository())
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs")
}

/// The repository's root.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Standard output as text, after checking the exit status is 0.
fn stdout_of(args: &[&str]) -> String {
    let output = sudokit(args);
    assert!(
        output.status.success(),
        "sudokit {args:?} failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

#[test]
fn the_top_help_names_every_command_in_its_description() {
    let help = stdout_of(&["--help"]);
    let description = help.split("\n\n").next().unwrap();
    for name in WORK {
        assert!(
            description.contains(name),
            "the description does not name `{name}`:\n{description}"
        );
    }
    for name in ALL {
        assert!(
            help.contains(&format!("\n  {name} ")),
            "`{name}` not listed:\n{help}"
        );
    }
    assert!(help.contains("Exit status: 0"), "{help}");
}

#[test]
fn every_command_help_ends_with_examples_and_the_exit_status() {
    for name in ALL {
        let help = stdout_of(&["help", name]);
        assert!(
            help.contains("\nExamples"),
            "`{name}`: no examples:\n{help}"
        );
        assert!(
            help.contains(&format!("  sudokit {name}"))
                || help.contains(&format!("| sudokit {name}")),
            "`{name}`: no example runs it:\n{help}"
        );
        assert!(
            help.contains("Exit status: 0") && help.contains("2 usage or I/O error"),
            "`{name}`: no exit status:\n{help}"
        );
    }
}

/// The example lines (`  sudokit …` or `  echo … | sudokit …`) of a
/// command's help.
fn examples(name: &str) -> Vec<String> {
    stdout_of(&["help", name])
        .split("\nExamples")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .map(|line| line.trim().to_string())
        .collect()
}

#[cfg(unix)]
#[test]
fn the_examples_on_the_bundled_files_run_and_succeed() {
    // The commands whose examples only read (search writes new.txt, serve
    // and load need each other, completions and man write files).
    let bin = Path::new(env!("CARGO_BIN_EXE_sudokit")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    for name in ["analyze", "solve", "count", "canon", "generate", "slide"] {
        let lines = examples(name);
        assert!(!lines.is_empty(), "`{name}` has no examples");
        for line in lines {
            let output = Command::new("sh")
                .args(["-c", &format!("set -e; {line}")])
                .current_dir(repository())
                .env("PATH", &path)
                .output()
                .expect("sh runs");
            assert!(
                output.status.success() && !output.stdout.is_empty(),
                "example `{line}` failed: {}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }
}

#[test]
fn completions_know_every_command_in_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        for name in ALL {
            assert!(
                script.contains(name),
                "the {shell} completions do not know `{name}`"
            );
        }
        assert!(script.contains("color"), "{shell}: no --color");
    }
}

#[test]
fn completions_for_an_unknown_shell_are_a_usage_error() {
    let output = sudokit(&["completions", "tcsh"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("'tcsh'"));
}

#[test]
fn the_man_page_has_a_section_for_each_command() {
    let page = stdout_of(&["man"]);
    assert!(page.contains("\n.TH sudokit 1 "), "{}", &page[..200]);
    for name in ALL {
        let heading = format!(".SH \"SUDOKIT {}\"", name.to_uppercase());
        assert!(page.contains(&heading), "no section `{heading}`");
    }
    // The flags of a command are in its section, its examples verbatim.
    let serve = page.split(".SH \"SUDOKIT SERVE\"").nth(1).unwrap();
    let serve = serve.split(".SH \"SUDOKIT LOAD\"").next().unwrap();
    assert!(serve.contains("\\-\\-listen"), "{serve}");
    assert!(serve.contains(".nf\nAddresses:"), "{serve}");
}

#[test]
fn the_man_page_of_one_command_is_its_own_page() {
    let page = stdout_of(&["man", "load"]);
    let title = format!(
        "\n.TH sudokit-load 1  \"sudokit {}\"",
        env!("CARGO_PKG_VERSION")
    );
    assert!(page.contains(&title), "{}", &page[..200]);
    assert!(page.contains("\\-\\-addr"));
    assert!(!page.contains("SUDOKIT SERVE"));
    let output = sudokit(&["man", "nosuch"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no command 'nosuch'"), "{stderr}");
}

#[test]
fn color_always_and_never_govern_clap_errors_and_help() {
    let coloured = sudokit(&["--color", "always", "analyze", "--no-such-flag"]);
    assert_eq!(coloured.status.code(), Some(2));
    assert!(coloured.stderr.windows(2).any(|w| w == b"\x1b["));
    let plain = sudokit(&["analyze", "--no-such-flag", "--color=never"]);
    assert_eq!(plain.status.code(), Some(2));
    assert!(!plain.stderr.windows(2).any(|w| w == b"\x1b["));
    // Into a pipe, `auto` (the default) does not colour.
    let auto = sudokit(&["analyze", "--no-such-flag"]);
    assert!(!auto.stderr.windows(2).any(|w| w == b"\x1b["));
    let help = sudokit(&["--color", "always", "help", "serve"]);
    assert!(help.stdout.windows(2).any(|w| w == b"\x1b["));
}

#[test]
fn a_bad_color_value_is_a_usage_error() {
    let output = sudokit(&["--color", "sometimes", "analyze"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("'sometimes'"), "{stderr}");
}

#[test]
fn color_always_overrides_no_color() {
    let output = Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(["--color", "always", "analyze", "--no-such-flag"])
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stderr.windows(2).any(|w| w == b"\x1b["));
}
