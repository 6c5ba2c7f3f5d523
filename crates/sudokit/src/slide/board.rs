//! Sliding-puzzle positions: parsing, goals, moves and solvability.
//!
//! A [`Board`] is a 3×3 (8-puzzle) or 4×4 (15-puzzle) arrangement of tiles in
//! row-major order, `0` standing for the blank. Moves are named after the
//! direction the *blank* travels (`u d l r`, as in HDU 1043 / POJ 1077).

use std::fmt;

/// Largest board side supported (the 15-puzzle).
const MAX_CELLS: usize = 16;

/// Which arrangement counts as solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Tiles in order, blank in the bottom-right corner (`1 2 … 8 0`), the
    /// online-judge convention (HDU 1043).
    #[default]
    BlankLast,
    /// Blank in the top-left corner, tiles in order after it (`0 1 2 … 15`), the
    /// convention of Korf's 100 15-puzzle instances.
    BlankFirst,
}

/// One step of a solution: the direction the blank moves (it swaps with the
/// tile on that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Blank moves one row up (`u`).
    Up,
    /// Blank moves one row down (`d`).
    Down,
    /// Blank moves one column left (`l`).
    Left,
    /// Blank moves one column right (`r`).
    Right,
}

impl Move {
    /// All four moves, in the order searches try them.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The letter used in solutions: `u`, `d`, `l` or `r`.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'u',
            Move::Down => 'd',
            Move::Left => 'l',
            Move::Right => 'r',
        }
    }

    /// The move that undoes this one.
    pub fn opposite(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// Where the blank lands when it leaves `cell` this way on a board of side
    /// `width`, or `None` at the edge.
    pub fn target(self, cell: usize, width: usize) -> Option<usize> {
        let (row, col) = (cell / width, cell % width);
        match self {
            Move::Up => (row > 0).then(|| cell - width),
            Move::Down => (row + 1 < width).then(|| cell + width),
            Move::Left => (col > 0).then(|| cell - 1),
            Move::Right => (col + 1 < width).then(|| cell + 1),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Moves written as one word of `u d l r` letters (empty when already solved).
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// Why a line is not a sliding puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but separators.
    #[error("no tiles")]
    Empty,
    /// A compact (unspaced) line must hold exactly the 9 tiles of an 8-puzzle.
    #[error("{found} characters in a compact line, expected 9 (separate a 15-puzzle's 16 numbers with spaces)")]
    CompactLength {
        /// Characters on the line.
        found: usize,
    },
    /// Neither 9 nor 16 tiles.
    #[error("{found} tiles, expected 9 (8-puzzle) or 16 (15-puzzle)")]
    TileCount {
        /// Tiles on the line.
        found: usize,
    },
    /// Something that is neither a number nor the blank `x`.
    #[error("unexpected '{token}' at tile {position}")]
    Unexpected {
        /// The offending text.
        token: String,
        /// 1-based tile position on the line.
        position: usize,
    },
    /// A number larger than the puzzle's largest tile.
    #[error("tile {tile} out of range (1 to {max}, 0 or x for the blank)")]
    OutOfRange {
        /// The number read.
        tile: u64,
        /// Largest tile of this puzzle size.
        max: usize,
    },
    /// The same tile twice (so another one is missing).
    #[error("tile {tile} appears twice")]
    Duplicate {
        /// The repeated tile.
        tile: u8,
    },
    /// Two blanks.
    #[error("the blank appears twice")]
    DuplicateBlank,
}

/// A sliding-puzzle position: side 3 or 4, tiles in row-major order, `0` blank.
///
/// Every `Board` is a permutation of `0..width²`; construction checks it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    cells: [u8; MAX_CELLS],
}

impl Board {
    /// A board from its tiles in row-major order (`0` = blank); 9 or 16 tiles
    /// forming a permutation, else the reason it is not a puzzle.
    pub fn from_tiles(tiles: &[u8]) -> Result<Board, ParseError> {
        let width = match tiles.len() {
            0 => return Err(ParseError::Empty),
            9 => 3,
            16 => 4,
            found => return Err(ParseError::TileCount { found }),
        };
        let mut seen = 0u32;
        for &tile in tiles {
            if tile as usize >= tiles.len() {
                return Err(ParseError::OutOfRange {
                    tile: tile.into(),
                    max: tiles.len() - 1,
                });
            }
            if seen & (1 << tile) != 0 {
                return Err(match tile {
                    0 => ParseError::DuplicateBlank,
                    _ => ParseError::Duplicate { tile },
                });
            }
            seen |= 1 << tile;
        }
        let mut cells = [0; MAX_CELLS];
        cells[..tiles.len()].copy_from_slice(tiles);
        Ok(Board { width, cells })
    }

    /// The solved board of side `width` (3 or 4) for `goal`.
    ///
    /// # Panics
    /// If `width` is not 3 or 4 (a programming error, not an input error).
    pub fn solved(width: usize, goal: Goal) -> Board {
        assert!(width == 3 || width == 4, "sliding puzzles are 3×3 or 4×4");
        let n = width * width;
        let tiles: Vec<u8> = match goal {
            Goal::BlankLast => (1..n as u8).chain([0]).collect(),
            Goal::BlankFirst => (0..n as u8).collect(),
        };
        Board::from_tiles(&tiles).expect("a goal is a permutation")
    }

    /// Side of the board: 3 for the 8-puzzle, 4 for the 15-puzzle.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Tiles in row-major order, `0` = blank.
    pub fn tiles(&self) -> &[u8] {
        &self.cells[..self.width() * self.width()]
    }

    /// The cell holding the blank.
    pub fn blank(&self) -> usize {
        self.tiles()
            .iter()
            .position(|&t| t == 0)
            .expect("a board always has a blank")
    }

    /// Whether this is the solved board for `goal`.
    pub fn is_solved(&self, goal: Goal) -> bool {
        *self == Board::solved(self.width(), goal)
    }

    /// The board after one move, or `None` if the blank is at that edge.
    pub fn apply(&self, step: Move) -> Option<Board> {
        let blank = self.blank();
        let to = step.target(blank, self.width())?;
        let mut next = *self;
        next.cells.swap(blank, to);
        Some(next)
    }

    /// The board after every move in turn, or `None` if one leaves the board.
    pub fn replay(&self, moves: &[Move]) -> Option<Board> {
        moves.iter().try_fold(*self, |board, &m| board.apply(m))
    }

    /// Whether `goal` can be reached at all.
    ///
    /// Every move is a transposition of the blank with a tile and moves the
    /// blank one step, so the parity of the permutation (cells → goal cells,
    /// blank included) always equals the parity of the blank's taxicab distance
    /// from its goal cell; the positions where they agree are exactly the
    /// reachable half.
    pub fn is_solvable(&self, goal: Goal) -> bool {
        let width = self.width();
        let target = Board::solved(width, goal);
        let mut goal_cell = [0usize; MAX_CELLS];
        for (cell, &tile) in target.tiles().iter().enumerate() {
            goal_cell[tile as usize] = cell;
        }
        let n = width * width;
        let mut visited = [false; MAX_CELLS];
        let mut transpositions = 0;
        for start in 0..n {
            let mut cell = start;
            let mut length = 0usize;
            while !visited[cell] {
                visited[cell] = true;
                cell = goal_cell[self.cells[cell] as usize];
                length += 1;
            }
            transpositions += length.saturating_sub(1);
        }
        let (from, to) = (self.blank(), target.blank());
        let distance = (from / width).abs_diff(to / width) + (from % width).abs_diff(to % width);
        transpositions % 2 == distance % 2
    }

    /// The board turned half a turn with tiles relabelled `t → n − t`.
    ///
    /// This maps the blank-first goal to the blank-last goal and back, and a
    /// move to its [`Move::opposite`], so one solver (and one set of tables)
    /// serves both goals.
    pub(crate) fn turned(&self) -> Board {
        let n = self.width() * self.width();
        let mut next = *self;
        for (cell, slot) in next.cells[..n].iter_mut().enumerate() {
            let tile = self.cells[n - 1 - cell];
            *slot = if tile == 0 { 0 } else { n as u8 - tile };
        }
        next
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

/// Tiles separated by spaces, `0` for the blank (the form [`parse`] reads).
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, tile) in self.tiles().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{tile}")?;
        }
        Ok(())
    }
}

/// Reads one puzzle body (no `id:` prefix, no line ending).
///
/// Tiles are separated by whitespace or commas (`2 3 4 1 5 x 7 6 8`, any
/// spacing). A first word longer than any tile number is a compact 8-puzzle
/// (`23415x768`), and whatever follows it is a trailing field (a name, a
/// rating) and ignored, as is anything after a `;` in either layout
/// (SPEC §1). The blank is `0`, `x` or `X`.
pub fn parse(body: &str) -> Result<Board, ParseError> {
    let text = tiles_text(body);
    let first = text.split(is_separator).next().unwrap_or_default();
    let values: Vec<u64> = if !is_compact(first) {
        text.split(is_separator)
            .filter(|t| !t.is_empty())
            .enumerate()
            .map(|(i, token)| read_tile(token, i + 1))
            .collect::<Result<_, _>>()?
    } else {
        let found = text.chars().count();
        if found != 9 {
            return Err(ParseError::CompactLength { found });
        }
        let mut buf = [0u8; 4];
        text.chars()
            .enumerate()
            .map(|(i, c)| read_tile(c.encode_utf8(&mut buf), i + 1))
            .collect::<Result<_, _>>()?
    };
    let n = values.len();
    if n == 9 || n == 16 {
        if let Some(&tile) = values.iter().find(|&&v| v >= n as u64) {
            return Err(ParseError::OutOfRange { tile, max: n - 1 });
        }
    }
    let tiles: Vec<u8> = values
        .iter()
        .map(|&v| v.min(u8::MAX.into()) as u8)
        .collect();
    Board::from_tiles(&tiles)
}

/// The text of a puzzle body that [`parse`] reads as tiles: what comes
/// before any `;`, trimmed, and of a compact 8-puzzle only its first word,
/// without the trailing fields. Callers echo it as the puzzle as read.
pub fn tiles_text(body: &str) -> &str {
    let body = body.split(';').next().unwrap_or_default().trim();
    let first = body.split(is_separator).next().unwrap_or_default();
    if is_compact(first) {
        first
    } else {
        body
    }
}

/// Whether a body's first word is a compact 8-puzzle: longer than any tile
/// number.
fn is_compact(first: &str) -> bool {
    first.chars().count() > 2
}

/// What separates spaced tiles: whitespace or commas.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

/// One tile: a decimal number, or `x` for the blank (read as 0).
fn read_tile(token: &str, position: usize) -> Result<u64, ParseError> {
    if token.eq_ignore_ascii_case("x") {
        return Ok(0);
    }
    if !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::Unexpected {
            token: token.to_string(),
            position,
        });
    }
    Ok(token.parse().unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_layouts_and_both_blanks() {
        let spaced = parse("2  3  4  1  5  x  7  6  8").unwrap();
        assert_eq!(spaced, parse("23415x768").unwrap());
        assert_eq!(spaced, parse("234150768").unwrap());
        assert_eq!(spaced.tiles(), &[2, 3, 4, 1, 5, 0, 7, 6, 8]);
        assert_eq!(spaced.blank(), 5);
    }

    #[test]
    fn ignores_trailing_fields() {
        let board = parse("23415x768").unwrap();
        assert_eq!(parse("23415x768 HDU sample, 19 moves").unwrap(), board);
        assert_eq!(parse("2 3 4 1 5 x 7 6 8 ; HDU sample").unwrap(), board);
        assert_eq!(parse("2,3,4,1,5,x,7,6,8").unwrap(), board);
        // Spaced tiles end only at a `;`: a tenth word is a tenth tile.
        assert!(matches!(
            parse("2 3 4 1 5 x 7 6 8 rated"),
            Err(ParseError::Unexpected { position: 10, .. })
        ));
    }

    #[test]
    fn tiles_text_leaves_out_what_parse_ignores() {
        assert_eq!(tiles_text(" 23415x768 HDU sample "), "23415x768");
        assert_eq!(tiles_text("2 3 4 1 5 x 7 6 8 ; HDU"), "2 3 4 1 5 x 7 6 8");
        assert_eq!(tiles_text("2,3,4,1,5,x,7,6,8"), "2,3,4,1,5,x,7,6,8");
        assert_eq!(tiles_text("  "), "");
    }

    #[test]
    fn reports_bad_lines() {
        assert_eq!(
            parse("1 2 3 4 5 6 7 8 8").unwrap_err().to_string(),
            "tile 8 appears twice"
        );
        assert_eq!(parse("x2345678x"), Err(ParseError::DuplicateBlank));
        assert_eq!(parse("1 2 3"), Err(ParseError::TileCount { found: 3 }));
        assert_eq!(
            parse("12345678"),
            Err(ParseError::CompactLength { found: 8 })
        );
        assert!(matches!(
            parse("1 2 3 4 5 6 7 8 9"),
            Err(ParseError::OutOfRange { tile: 9, max: 8 })
        ));
        assert!(matches!(
            parse("1 2 3 4 q 6 7 8 0"),
            Err(ParseError::Unexpected { position: 5, .. })
        ));
        assert!(matches!(
            parse("1 2 3 4 +5 6 7 8 0"),
            Err(ParseError::Unexpected { .. })
        ));
        assert_eq!(parse("  "), Err(ParseError::Empty));
    }

    #[test]
    fn solvability_follows_parity() {
        let goal = Board::solved(3, Goal::BlankLast);
        assert!(goal.is_solvable(Goal::BlankLast));
        let swapped = parse("213456780").unwrap();
        assert!(!swapped.is_solvable(Goal::BlankLast));
        assert!(goal.apply(Move::Up).unwrap().is_solvable(Goal::BlankLast));
        let korf = Board::solved(4, Goal::BlankFirst);
        assert!(korf.is_solvable(Goal::BlankFirst));
        // Blank-first and blank-last 15-puzzle goals are in different halves.
        assert!(!korf.is_solvable(Goal::BlankLast));
    }

    #[test]
    fn turning_swaps_the_goals() {
        for width in [3, 4] {
            let first = Board::solved(width, Goal::BlankFirst);
            assert_eq!(first.turned(), Board::solved(width, Goal::BlankLast));
            assert_eq!(first.turned().turned(), first);
        }
    }
}
