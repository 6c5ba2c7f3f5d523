//! Property tests of the text layer: no input makes it panic, and what the
//! alphabet writes it reads back.

use proptest::prelude::*;
use sudokit::grid::Shape;
use sudokit::parse::{classify, Format, FormatSpec, Line};

proptest! {
    /// Any bytes at all: classified and parsed without a panic; a line that
    /// parses has only digits in range.
    #[test]
    fn arbitrary_lines_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..200)) {
        if let Line::Puzzle { cells, .. } = classify(&raw) {
            if let Ok(format) = FormatSpec::default().resolve(cells) {
                if let Ok(puzzle) = format.parse(cells) {
                    let side = format.shape().side() as u8;
                    prop_assert!(puzzle.cells().iter().all(|&v| v <= side));
                }
            }
        }
    }

    /// Cells written by the alphabet (any side, blanks as `.`) read back the
    /// same, with an id and a trailing field around them.
    #[test]
    fn written_cells_read_back(
        (rows, cols) in (1usize..=4, 1usize..=4),
        seed in proptest::collection::vec(any::<u8>(), 256),
    ) {
        let shape = Shape::new(rows, cols).unwrap();
        let n = shape.side() as u8;
        let values: Vec<u8> = (0..shape.cell_count()).map(|i| seed[i % seed.len()] % (n + 1)).collect();
        let format = Format::new(shape, None).unwrap();
        let mut text = b"id-7:".to_vec();
        format.alphabet().write_cells(&values, &mut text);
        text.extend_from_slice(b" ; rating 3.5\r");
        let Line::Puzzle { id, cells } = classify(&text) else {
            return Err(TestCaseError::fail("not a puzzle line"));
        };
        prop_assert_eq!(id, Some("id-7"));
        let puzzle = format.parse(cells).unwrap();
        prop_assert_eq!(puzzle.cells(), &values[..]);
    }
}
