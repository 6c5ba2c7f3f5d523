//! [`Mask`]: a set of candidate digits as the smallest unsigned integer that
//! holds `N` bits, so 4×4 … 16×16 grids work on `u16`, up to 32×32 on `u32`
//! and up to 64×64 on `u64`.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// Bit `d` set means digit `d + 1` is still possible.
pub trait Mask:
    Copy
    + Eq
    + Send
    + Sync
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + 'static
{
    /// The empty set.
    const EMPTY: Self;
    /// The set `{bit}`.
    fn bit(bit: u32) -> Self;
    /// The set of the low `n` bits (every digit of an `N`-grid).
    fn low_bits(n: u32) -> Self;
    /// Number of members.
    fn count(self) -> u32;
    /// Index of the lowest member (undefined for the empty set).
    fn lowest(self) -> u32;
    /// Whether the set has exactly one member.
    fn is_single(self) -> bool;
}

macro_rules! impl_mask {
    ($t:ty) => {
        impl Mask for $t {
            const EMPTY: Self = 0;
            #[inline(always)]
            fn bit(bit: u32) -> Self {
                1 << bit
            }
            #[inline(always)]
            fn low_bits(n: u32) -> Self {
                if n >= <$t>::BITS {
                    <$t>::MAX
                } else {
                    (1 << n) - 1
                }
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn is_single(self) -> bool {
                self != 0 && self & (self - 1) == 0
            }
        }
    };
}

impl_mask!(u16);
impl_mask!(u32);
impl_mask!(u64);
