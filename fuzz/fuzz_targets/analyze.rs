//! The batch analyzer on arbitrary input: every puzzle line gets one verdict,
//! numbered in order, the totals add up, and every solution kept is a
//! complete grid; no input may panic (an unusable `--symbols`-free alphabet is
//! the only error the analyzer may return).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudokit::analyze::{analyze_stream, AnalyzeError, AnalyzeOptions};
use sudokit::grid::Shape;

fuzz_target!(|data: &[u8]| {
    let options = AnalyzeOptions {
        minimal: true,
        solutions: true,
        ..AnalyzeOptions::default()
    };
    let mut verdicts = 0u64;
    let mut last_line = 0u64;
    let result = analyze_stream(data, &options, |format, block| {
        for verdict in block {
            assert!(verdict.line > last_line, "verdicts come in line order");
            last_line = verdict.line;
            verdicts += 1;
            if let Ok(analysis) = &verdict.result {
                if let Some(solution) = &analysis.solution {
                    assert_is_grid(format.unwrap().shape(), solution);
                }
            }
        }
        Ok(())
    });
    match result {
        Ok(summary) => assert_eq!(summary.puzzles(), verdicts, "one verdict per puzzle line"),
        Err(AnalyzeError::Alphabet(_)) => {}
        Err(other) => panic!("reading from memory cannot fail: {other}"),
    }
});

/// Panics unless `cells` is a complete grid of `shape`: every row, column and
/// box holds each digit once.
fn assert_is_grid(shape: Shape, cells: &[u8]) {
    let n = shape.side();
    assert_eq!(cells.len(), n * n, "a solution has every cell");
    let mut seen = vec![0u64; 3 * n];
    for (k, &digit) in cells.iter().enumerate() {
        assert!(
            (1..=n as u8).contains(&digit),
            "digit {digit} in a {n}-grid"
        );
        let bit = 1u64 << (digit - 1);
        for unit in [
            shape.row_of(k),
            n + shape.col_of(k),
            2 * n + shape.box_of(k),
        ] {
            assert_eq!(seen[unit] & bit, 0, "digit {digit} twice in unit {unit}");
            seen[unit] |= bit;
        }
    }
}
