//! Progress bars on standard error for long jobs, the same for every command.
//!
//! A bar is drawn only when standard error is a terminal and `--quiet` is not
//! given, and only once the job has run for a second (quick jobs print
//! nothing); it is cleared when the job ends, so it never mixes with output.

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a job runs before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// How often the bar is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// What a bar shows: `{pos}`/`{len}` of what, read from the job as it runs.
pub struct Meter<'a> {
    /// indicatif template when the total is known, e.g.
    /// `"{bar:40} {pos}/{len} parts, eta {eta}"`.
    pub with_total: &'static str,
    /// Template when it is not (a spinner).
    pub without_total: &'static str,
    /// Work done so far.
    pub position: &'a (dyn Fn() -> u64 + Sync),
    /// Work in all, once known.
    pub total: &'a (dyn Fn() -> Option<u64> + Sync),
}

/// Whether bars are drawn: standard error is a terminal and not `quiet`.
pub fn wanted(quiet: bool) -> bool {
    !quiet && io::stderr().is_terminal()
}

/// Runs `job`, with a bar of `meter` on standard error when `show`.
pub fn with_bar<T>(show: bool, meter: &Meter<'_>, job: impl FnOnce() -> T) -> T {
    if !show {
        return job();
    }
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| draw(meter, &finished));
        let result = job();
        finished.store(true, Ordering::Relaxed);
        result
    })
}

/// Draws the bar from [`DELAY`] into the job until `finished`.
fn draw(meter: &Meter<'_>, finished: &AtomicBool) {
    let started = Instant::now();
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    let mut known = None;
    let style = |template| ProgressStyle::with_template(template).expect("valid template");
    bar.set_style(style(meter.without_total));
    while !finished.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        if bar.is_hidden() && started.elapsed() > DELAY {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        let total = (meter.total)();
        if total != known {
            known = total;
            match total {
                Some(len) => {
                    bar.set_length(len);
                    bar.set_style(style(meter.with_total));
                }
                None => bar.set_style(style(meter.without_total)),
            }
        }
        bar.set_position((meter.position)());
    }
    bar.finish_and_clear();
}
