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

    /// Takes in the next bytes of `reader`, at most `limit` of them (fewer
    /// at its end), handing each chunk read to `also` too (to count lines,
    /// say); returns how many were read.
    pub fn update_from(
        &mut self,
        reader: &mut impl std::io::Read,
        limit: u64,
        mut also: impl FnMut(&[u8]),
    ) -> std::io::Result<u64> {
        let mut buffer = vec![0; 1 << 16];
        let mut read = 0;
        while read < limit {
            let want = buffer
                .len()
                .min((limit - read).try_into().unwrap_or(usize::MAX));
            let n = match reader.read(&mut buffer[..want]) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.update(&buffer[..n]);
            also(&buffer[..n]);
            read += n as u64;
        }
        Ok(read)
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
    fn reading_stops_at_the_limit_and_shows_every_chunk() {
        let text = vec![b'x'; 200_000];
        let mut h = Fnv1a::new();
        let mut seen = 0;
        let read = h
            .update_from(&mut &text[..], 150_001, |chunk| seen += chunk.len())
            .unwrap();
        assert_eq!((read, seen), (150_001, 150_001));
        assert_eq!(h.value(), Fnv1a::of(&text[..150_001]));
        let mut whole = Fnv1a::new();
        assert_eq!(
            whole.update_from(&mut &text[..], u64::MAX, |_| {}).unwrap(),
            200_000
        );
        assert_eq!(whole.value(), Fnv1a::of(&text));
    }

    #[test]
    fn streaming_equals_one_go() {
        let mut h = Fnv1a::new();
        h.update(b"sudo");
        h.update(b"kit");
        assert_eq!(h.value(), Fnv1a::of(b"sudokit"));
    }
}
