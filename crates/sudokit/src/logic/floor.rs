//! [`Technique::least_difficulty`]: the easiest step each technique can
//! report, which lets a capped [`Solver`](super::Solver) leave out the
//! techniques that could only report steps above its cap.

use super::single_digit::{CHAIN, COLOR_TRAP, EMPTY_RECTANGLE, KITE, SKYSCRAPER};
use super::{Difficulty, Technique};

impl Technique {
    /// The least difficulty of any step the technique reports (a lower
    /// bound: a full house is 1.0 where other hidden singles are 1.2 or
    /// 1.5; a chain's difficulty grows with its length from this base).
    ///
    /// In [`Technique::EXPLAINER`] order these never decrease, so a solver
    /// rating with a cap `B` can stop trying techniques at the first one
    /// whose least difficulty is above `B`: had it applied, the rating
    /// would have been above `B` anyway.
    pub fn least_difficulty(self) -> Difficulty {
        let tenths = match self {
            Technique::HiddenSingle => 10,
            Technique::DirectPointing => 17,
            Technique::DirectHiddenPair | Technique::Cage => 20,
            Technique::NakedSingle => 23,
            Technique::DirectHiddenTriple => 25,
            Technique::Intersection => 26,
            Technique::NakedPair => 30,
            // A finned fish is at least as hard as the plain fish of its size.
            Technique::XWing | Technique::FinnedFish => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple => 40,
            Technique::XyWing => 42,
            Technique::XyzWing | Technique::WWing => 44,
            Technique::UniqueLoop => 45,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::HiddenQuad => 54,
            Technique::Bug => 56,
            Technique::AlignedPair => 62,
            Technique::ForcingChain => 65,
            Technique::AlignedTriple | Technique::Nishio => 75,
            Technique::MultipleForcingChain => 80,
            Technique::DynamicForcingChain => 85,
            Technique::DynamicForcingChainPlus => 90,
            Technique::NestedForcingChain => 95,
            Technique::NestedMultipleChain => 100,
            Technique::NestedDynamicChain => 105,
            Technique::NestedPlusChain => 110,
            Technique::Skyscraper => return SKYSCRAPER,
            Technique::TwoStringKite => return KITE,
            Technique::EmptyRectangle => return EMPTY_RECTANGLE,
            Technique::SimpleColoring => return COLOR_TRAP,
            Technique::Aic => return CHAIN,
            Technique::Leftovers => 28,
        };
        Difficulty(tenths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explainer_floors_never_decrease() {
        for pair in Technique::EXPLAINER.windows(2) {
            assert!(
                pair[0].least_difficulty() <= pair[1].least_difficulty(),
                "{} before {}",
                pair[0],
                pair[1]
            );
        }
    }
}
