//! [`CodePath`]: which compiled form of the 9×9 engine runs, chosen once per
//! solver from what the CPU reports at run time.

use std::fmt;
use std::str::FromStr;

/// A compiled form of the 9×9 engine. The x86-64 forms are built with
/// `#[target_feature]` and only ever run after `is_x86_feature_detected!`
/// has confirmed every feature they use; all forms give identical answers
/// (the tests run each one this CPU has).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CodePath {
    /// Plain Rust: any CPU.
    Portable,
    /// x86-64 with AVX2, BMI1/2, POPCNT and LZCNT (Haswell, Zen and later).
    Avx2,
    /// [`CodePath::Avx2`] plus AVX-512 F, BW and VL (Skylake-SP, Ice Lake,
    /// Zen 4 and later).
    Avx512,
}

impl CodePath {
    /// Every path, slowest first.
    pub const ALL: [CodePath; 3] = [CodePath::Portable, CodePath::Avx2, CodePath::Avx512];

    /// Whether this CPU can run the path.
    pub fn is_available(self) -> bool {
        match self {
            CodePath::Portable => true,
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx2 => {
                is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("bmi1")
                    && is_x86_feature_detected!("bmi2")
                    && is_x86_feature_detected!("popcnt")
                    && is_x86_feature_detected!("lzcnt")
            }
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => {
                CodePath::Avx2.is_available()
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
                    && is_x86_feature_detected!("avx512vl")
            }
            #[cfg(not(target_arch = "x86_64"))]
            CodePath::Avx2 | CodePath::Avx512 => false,
        }
    }

    /// The fastest path this CPU can run.
    pub fn best() -> CodePath {
        CodePath::ALL
            .into_iter()
            .rev()
            .find(|path| path.is_available())
            .unwrap_or(CodePath::Portable)
    }

    /// The paths this CPU can run, slowest first.
    pub fn available() -> Vec<CodePath> {
        CodePath::ALL
            .into_iter()
            .filter(|path| path.is_available())
            .collect()
    }
}

impl fmt::Display for CodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CodePath::Portable => "portable",
            CodePath::Avx2 => "avx2",
            CodePath::Avx512 => "avx512",
        })
    }
}

/// A name that is not one of `portable`, `avx2`, `avx512`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown code path `{0}`: expected portable, avx2 or avx512")]
pub struct UnknownCodePath(String);

impl FromStr for CodePath {
    type Err = UnknownCodePath;

    fn from_str(s: &str) -> Result<CodePath, UnknownCodePath> {
        CodePath::ALL
            .into_iter()
            .find(|path| path.to_string() == s)
            .ok_or_else(|| UnknownCodePath(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::CodePath;

    #[test]
    fn names_round_trip_and_unknown_names_are_errors() {
        for path in CodePath::ALL {
            assert_eq!(path.to_string().parse::<CodePath>(), Ok(path));
        }
        let err = "sse".parse::<CodePath>().unwrap_err();
        assert!(err.to_string().contains("`sse`"), "{err}");
    }

    #[test]
    fn the_best_path_is_available_and_the_portable_one_always_is() {
        assert!(CodePath::Portable.is_available());
        assert!(CodePath::best().is_available());
        assert_eq!(CodePath::available().last(), Some(&CodePath::best()));
        // AVX-512 builds on the AVX2 path's features.
        if CodePath::Avx512.is_available() {
            assert!(CodePath::Avx2.is_available());
        }
    }
}
