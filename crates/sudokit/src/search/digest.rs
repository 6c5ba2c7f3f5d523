//! FNV-1a, 64 bits: the digest of a hunt's identity, of its checkpoint and
//! of the out file's checkpointed prefix.
//!
//! Not a cryptographic hash, and it need not be: it guards against damage
//! and mix-ups, not against forgery. It is streaming (the out file's digest
//! grows with every find appended, never rereading the file) and it catches
//! any change confined to one byte for certain: each step
//! `h ← (h ⊕ byte) · p` is a bijection of `h` for a fixed byte and of the
//! byte for a fixed `h`, so two inputs that differ in one byte have
//! different states from that byte on. Other changes go unnoticed with a
//! chance of about 2⁻⁶⁴.

/// A running FNV-1a digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv1a(u64);

impl Fnv1a {
    /// The FNV-1a 64-bit offset basis.
    const BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    /// The FNV 64-bit prime.
    const PRIME: u64 = 0x0100_0000_01b3;

    /// The digest of no bytes.
    pub fn new() -> Fnv1a {
        Fnv1a(Self::BASIS)
    }

    /// Takes in `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(Self::PRIME);
        }
    }

    /// The digest of everything taken in so far.
    pub fn value(&self) -> u64 {
        self.0
    }

    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> u64 {
        let mut h = Fnv1a::new();
        h.update(bytes);
        h.value()
    }
}

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a::new()
    }
}

#[cfg(test)]
mod tests {
    use super::Fnv1a;

    #[test]
    fn known_values() {
        // The FNV reference values for "" and "a".
        assert_eq!(Fnv1a::of(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(Fnv1a::of(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn streaming_equals_one_go() {
        let mut h = Fnv1a::new();
        h.update(b"sudo");
        h.update(b"kit");
        assert_eq!(h.value(), Fnv1a::of(b"sudokit"));
    }
}
