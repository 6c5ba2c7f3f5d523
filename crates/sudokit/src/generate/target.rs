//! Rating targets for the generator: [`RatingRange`] (`4.1..6.0`) and the
//! named [`Level`]s, on Sudoku Explainer's ER scale.

use std::fmt;
use std::str::FromStr;

use crate::logic::{Difficulty, Rating};

/// The easiest step there is (a full house), so the least ER of any puzzle.
const EASIEST: Difficulty = Difficulty::tenths(10);

/// A range of ER ratings, both ends included; the upper end may be open.
///
/// Parses from `A..B`, `A..` (A or harder), `..B` (B or easier) and `A`
/// (exactly A), with ratings of one decimal such as `4.1`; displays back in
/// the same form.
///
/// ```
/// use sudokit::generate::RatingRange;
///
/// let range: RatingRange = "4.1..6".parse()?;
/// assert_eq!(range.to_string(), "4.1..6.0");
/// assert!("3..2".parse::<RatingRange>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RatingRange {
    /// The least ER accepted.
    pub min: Difficulty,
    /// The greatest ER accepted; `None` for no limit.
    pub max: Option<Difficulty>,
}

impl RatingRange {
    /// Whether a rating lies in the range. A rating whose techniques got
    /// stuck is never in range: its ER is only the hardest step taken
    /// before that, not the puzzle's.
    pub fn contains(&self, rating: &Rating) -> bool {
        rating.solved && rating.er >= self.min && self.max.is_none_or(|max| rating.er <= max)
    }
}

impl fmt::Display for RatingRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.max {
            Some(max) if max == self.min => write!(f, "{max}"),
            Some(max) => write!(f, "{}..{max}", self.min),
            None => write!(f, "{}..", self.min),
        }
    }
}

/// Why a text is not a [`RatingRange`] or a [`Level`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// Not of the form `A..B`, `A..`, `..B` or `A`.
    #[error("{0:?} is not a rating range such as 4.1..6.0, 8.0.., ..2.5 or 3.4")]
    Syntax(String),
    /// A bound below 1.0, the easiest step (a full house).
    #[error("{0} is below 1.0, the least rating of any puzzle (a full house)")]
    TooLow(Difficulty),
    /// The lower bound is above the upper one.
    #[error("{min}..{max} is empty: {min} is above {max}")]
    Empty {
        /// The lower bound given.
        min: Difficulty,
        /// The upper bound given.
        max: Difficulty,
    },
    /// Not one of the level names.
    #[error("unknown level {0:?} (easy, medium, hard, expert or extreme)")]
    Level(String),
}

impl FromStr for RatingRange {
    type Err = TargetError;

    fn from_str(s: &str) -> Result<RatingRange, TargetError> {
        let text = s.trim();
        let bound = |part: &str| -> Result<Option<Difficulty>, TargetError> {
            let part = part.trim();
            if part.is_empty() {
                return Ok(None);
            }
            let d: Difficulty = part.parse().map_err(|_| TargetError::Syntax(s.into()))?;
            if d < EASIEST {
                return Err(TargetError::TooLow(d));
            }
            Ok(Some(d))
        };
        let (min, max) = match text.split_once("..") {
            Some((lo, hi)) => (bound(lo)?, bound(hi)?),
            None => {
                let exact = bound(text)?;
                (exact, exact)
            }
        };
        if min.is_none() && max.is_none() {
            return Err(TargetError::Syntax(s.into()));
        }
        let min = min.unwrap_or(EASIEST);
        if let Some(max) = max.filter(|&max| max < min) {
            return Err(TargetError::Empty { min, max });
        }
        Ok(RatingRange { min, max })
    }
}

/// A named difficulty level: a [`RatingRange`] of Sudoku Explainer's ER.
///
/// | level     | ER        | what it takes                                           |
/// |-----------|-----------|---------------------------------------------------------|
/// | `easy`    | 1.0–2.5   | singles (and SE's "direct" shortcuts to a single)       |
/// | `medium`  | 2.6–4.0   | intersections, pairs, triples, X-Wing, Swordfish        |
/// | `hard`    | 4.1–6.0   | XY- and XYZ-Wings, unique rectangles, quads, BUG        |
/// | `expert`  | 6.1–7.9   | aligned exclusions, forcing chains and cycles, Nishio   |
/// | `extreme` | 8.0 and up| multiple, dynamic and nested forcing chains             |
///
/// The ends follow SE's technique steps: every level but `easy` starts just
/// above the hardest technique of the level below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// ER 1.0 to 2.5.
    Easy,
    /// ER 2.6 to 4.0.
    Medium,
    /// ER 4.1 to 6.0.
    Hard,
    /// ER 6.1 to 7.9.
    Expert,
    /// ER 8.0 and up.
    Extreme,
}

/// Every level, easiest first, for help texts and tests.
pub const ALL_LEVELS: [Level; 5] = [
    Level::Easy,
    Level::Medium,
    Level::Hard,
    Level::Expert,
    Level::Extreme,
];

impl Level {
    /// The level's ER range (see the table on [`Level`]).
    pub fn range(self) -> RatingRange {
        let (min, max) = match self {
            Level::Easy => (10, Some(25)),
            Level::Medium => (26, Some(40)),
            Level::Hard => (41, Some(60)),
            Level::Expert => (61, Some(79)),
            Level::Extreme => (80, None),
        };
        RatingRange {
            min: Difficulty::tenths(min),
            max: max.map(Difficulty::tenths),
        }
    }

    /// The level's name on the command line (`hard`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = TargetError;

    fn from_str(s: &str) -> Result<Level, TargetError> {
        ALL_LEVELS
            .into_iter()
            .find(|level| level.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| TargetError::Level(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(s: &str) -> Result<RatingRange, TargetError> {
        s.parse()
    }

    #[test]
    fn ranges_parse_and_display_back() {
        for (text, shown) in [
            ("4.1..6.0", "4.1..6.0"),
            ("4.1..6", "4.1..6.0"),
            (" 8.. ", "8.0.."),
            ("..2.5", "1.0..2.5"),
            ("3.4", "3.4"),
            ("3.4..3.4", "3.4"),
        ] {
            let parsed = range(text).unwrap();
            assert_eq!(parsed.to_string(), shown, "{text}");
            assert_eq!(range(shown).unwrap(), parsed, "{shown}");
        }
        let open = range("8..").unwrap();
        assert_eq!((open.min, open.max), (Difficulty(80), None));
    }

    #[test]
    fn bad_ranges_say_why() {
        assert_eq!(
            range("3..2").unwrap_err().to_string(),
            "3.0..2.0 is empty: 3.0 is above 2.0"
        );
        assert_eq!(
            range("0..").unwrap_err().to_string(),
            "0.0 is below 1.0, the least rating of any puzzle (a full house)"
        );
        for bad in ["abc", "", "..", "1...2", "4.15..5", "a..5", "3..b", "-1..2"] {
            assert!(
                matches!(range(bad), Err(TargetError::Syntax(_))),
                "{bad}: {:?}",
                range(bad)
            );
        }
    }

    #[test]
    fn levels_map_to_documented_ranges_that_tile_the_scale() {
        let shown: Vec<String> = ALL_LEVELS.iter().map(|l| l.range().to_string()).collect();
        assert_eq!(
            shown,
            ["1.0..2.5", "2.6..4.0", "4.1..6.0", "6.1..7.9", "8.0.."]
        );
        for pair in ALL_LEVELS.windows(2) {
            let below = pair[0].range().max.unwrap();
            assert_eq!(below.0 + 1, pair[1].range().min.0);
        }
        for level in ALL_LEVELS {
            assert_eq!(level.name().parse::<Level>().unwrap(), level);
            assert_eq!(
                level.to_string().to_uppercase().parse::<Level>().unwrap(),
                level
            );
        }
        assert!("insane".parse::<Level>().is_err());
    }

    #[test]
    fn stuck_ratings_are_never_in_range() {
        let rating = Rating {
            er: Difficulty(30),
            ep: Difficulty(12),
            ed: Difficulty(12),
            solved: false,
            steps: 10,
            hardest: None,
        };
        assert!(!range("1..").unwrap().contains(&rating));
        assert!(range("1..").unwrap().contains(&Rating {
            solved: true,
            ..rating.clone()
        }));
        assert!(!range("3.1..").unwrap().contains(&Rating {
            solved: true,
            ..rating
        }));
    }
}
