//! Input read line by line, or in blocks of whole lines, with a cap on the
//! length of a line.
//!
//! Every command that reads puzzles reads them through a [`LineReader`], so
//! that no input can make it hold an unbounded amount of memory: a line longer
//! than the cap is never held whole. Once more than the cap is buffered
//! without a `\n`, the rest of the line is read and dropped, a buffer at a
//! time, up to its `\n`; the reader hands out [`TooLong`] in the line's place
//! and reads the next line as usual. A runaway line (`/dev/zero`, a file
//! without newlines) costs one invalid line, not the machine's memory.
//!
//! The buffer holds at most the cap and what one read brings in beside it
//! (it grows by doubling, so up to about three times the cap, or the block
//! size for [`LineReader::next_block`], whichever is larger).

use std::io::{self, Read};

/// The cap on a line's length unless the user sets one: far more than any
/// puzzle line (a 64×64 grid is 4096 cells), far less than memory.
pub const DEFAULT_MAX_LINE: usize = 1 << 20;

/// Size of the first read buffer; it grows as lines or blocks need.
const FIRST_READ_BYTES: usize = 64 << 10;

/// A line longer than the cap: it was skipped, not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("longer than {max} bytes")]
pub struct TooLong {
    /// The cap the line went over (bytes, not counting its `\n`).
    pub max: usize,
}

/// One line (without its `\n`), a block of whole lines, or the [`TooLong`]
/// that stands for a skipped line.
pub type Item<'a> = Result<&'a [u8], TooLong>;

/// Reads lines of at most `max` bytes (not counting the `\n`) from a stream.
///
/// `buffer[start..filled]` holds input read but not yet handed out; the bytes
/// before `start` were handed out by the last call.
pub struct LineReader<R> {
    input: R,
    buffer: Vec<u8>,
    start: usize,
    filled: usize,
    max: usize,
    eof: bool,
    consumed: u64,
}

impl<R: Read> LineReader<R> {
    /// A reader of `input` whose lines may be at most `max` bytes long.
    pub fn new(input: R, max: usize) -> Self {
        LineReader {
            input,
            buffer: Vec::new(),
            start: 0,
            filled: 0,
            max,
            eof: false,
            consumed: 0,
        }
    }

    /// The cap on a line's length, in bytes.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Bytes of input handed out or skipped so far (for a progress display).
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// The next line without its `\n` (the last one may have none), or
    /// [`TooLong`] for a line longer than the cap; `None` at the end of input.
    ///
    /// A line is handed out as soon as its `\n` has been read, so input typed
    /// line by line is answered line by line.
    pub fn next_line(&mut self) -> io::Result<Option<Item<'_>>> {
        // Bytes after `start` already known to hold no `\n`.
        let mut searched = 0;
        loop {
            let unread = &self.buffer[self.start..self.filled];
            if let Some(p) = memchr::memchr(b'\n', &unread[searched..]) {
                let (begin, len) = (self.start, searched + p);
                self.start += len + 1;
                self.consumed += len as u64 + 1;
                if len > self.max {
                    return Ok(Some(Err(self.too_long())));
                }
                return Ok(Some(Ok(&self.buffer[begin..begin + len])));
            }
            searched = unread.len();
            if unread.len() > self.max {
                self.skip_line()?;
                return Ok(Some(Err(self.too_long())));
            }
            if self.eof {
                if unread.is_empty() {
                    return Ok(None);
                }
                let begin = self.start;
                self.start = self.filled;
                self.consumed += unread.len() as u64;
                return Ok(Some(Ok(&self.buffer[begin..self.filled])));
            }
            self.compact();
            self.fill(FIRST_READ_BYTES)?;
        }
    }

    /// The next block of whole lines (the last one may lack its `\n`), or
    /// [`TooLong`] for a line longer than the cap that did not fit in a block;
    /// `None` at the end of input.
    ///
    /// A block is cut once `target` bytes are buffered, or earlier when the
    /// input has no more bytes ready (a pipe fed line by line), so that
    /// interactive input is answered without waiting for a full block. A line
    /// longer than the cap can still end inside a block, whole: the caller
    /// checks the length of each line it takes from a block.
    pub fn next_block(&mut self, target: usize) -> io::Result<Option<Item<'_>>> {
        let working = target + target / 4;
        self.compact();
        let mut complete_lines = memchr::memchr(b'\n', &self.buffer[..self.filled]).is_some();
        while !self.eof && self.filled < target {
            let (start, short) = (self.filled, self.fill(working)?);
            complete_lines =
                complete_lines || memchr::memchr(b'\n', &self.buffer[start..self.filled]).is_some();
            if short && complete_lines {
                break;
            }
        }
        // A single line longer than a block: read on until it ends, or until
        // it is longer than the cap.
        while !self.eof && !complete_lines && self.filled <= self.max {
            let start = self.filled;
            self.fill(working)?;
            complete_lines = memchr::memchr(b'\n', &self.buffer[start..self.filled]).is_some();
        }
        if !complete_lines && self.filled > self.max {
            self.skip_line()?;
            return Ok(Some(Err(self.too_long())));
        }
        let data = &self.buffer[..self.filled];
        let cut = if self.eof {
            data.len()
        } else {
            memchr::memrchr(b'\n', data).map_or(0, |p| p + 1)
        };
        if cut == 0 {
            return Ok(None);
        }
        self.start = cut;
        self.consumed += cut as u64;
        Ok(Some(Ok(&self.buffer[..cut])))
    }

    fn too_long(&self) -> TooLong {
        TooLong { max: self.max }
    }

    /// Drops the rest of the line that `buffer[start..filled]` begins (it
    /// holds no `\n`), reading into the buffer as it stands and keeping only
    /// what follows the line's `\n`.
    fn skip_line(&mut self) -> io::Result<()> {
        self.consumed += (self.filled - self.start) as u64;
        (self.start, self.filled) = (0, 0);
        if self.buffer.is_empty() {
            self.buffer = vec![0; FIRST_READ_BYTES];
        }
        while !self.eof {
            self.read_more()?;
            if let Some(p) = memchr::memchr(b'\n', &self.buffer[..self.filled]) {
                self.start = p + 1;
                self.consumed += p as u64 + 1;
                return Ok(());
            }
            self.consumed += self.filled as u64;
            self.filled = 0;
        }
        Ok(())
    }

    /// Moves the unread bytes to the front of the buffer.
    fn compact(&mut self) {
        self.buffer.copy_within(self.start..self.filled, 0);
        self.filled -= self.start;
        self.start = 0;
    }

    /// Appends one read's worth of input, first growing the buffer when less
    /// than a quarter of it is free (to `FIRST_READ_BYTES`, then to
    /// `working`, doubling beyond that); `true` when the read returned less
    /// than there was room for.
    fn fill(&mut self, working: usize) -> io::Result<bool> {
        // A fresh zeroed allocation comes zeroed from the kernel, which is far
        // cheaper than zeroing a grown buffer by hand.
        if self.buffer.len() - self.filled < self.buffer.len() / 4 + 1 {
            let grown = match self.buffer.len() {
                0 => FIRST_READ_BYTES,
                len => (len * 2).max(working),
            };
            let mut bigger = vec![0u8; grown];
            bigger[..self.filled].copy_from_slice(&self.buffer[..self.filled]);
            self.buffer = bigger;
        }
        let room = self.buffer.len() - self.filled;
        Ok(self.read_more()? < room)
    }

    /// Reads once into the free end of the buffer; returns the bytes read.
    fn read_more(&mut self) -> io::Result<usize> {
        let read = loop {
            match self.input.read(&mut self.buffer[self.filled..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => break other?,
            }
        };
        self.filled += read;
        self.eof = read == 0;
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out its data in reads that end at the given offsets, then in
    /// reads of `step` bytes.
    struct Pieces<'a> {
        data: &'a [u8],
        at: usize,
        cuts: Vec<usize>,
        step: usize,
    }

    impl Read for Pieces<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let end = match self.cuts.iter().find(|&&c| c > self.at) {
                Some(&cut) => cut,
                None => self.at + self.step,
            };
            let n = (end - self.at)
                .min(buf.len())
                .min(self.data.len() - self.at);
            buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    fn pieces<'a>(data: &'a [u8], cuts: &[usize], step: usize) -> Pieces<'a> {
        Pieces {
            data,
            at: 0,
            cuts: cuts.to_vec(),
            step,
        }
    }

    /// What a reader capped at `max` must hand out: each line, or `None` for
    /// one longer than `max`.
    fn expected(data: &[u8], max: usize) -> Vec<Option<Vec<u8>>> {
        let body = data.strip_suffix(b"\n").unwrap_or(data);
        if data.is_empty() {
            return Vec::new();
        }
        body.split(|&b| b == b'\n')
            .map(|l| (l.len() <= max).then(|| l.to_vec()))
            .collect()
    }

    fn by_lines(input: impl Read, max: usize) -> Vec<Option<Vec<u8>>> {
        let mut reader = LineReader::new(input, max);
        let mut seen = Vec::new();
        while let Some(item) = reader.next_line().unwrap() {
            seen.push(item.ok().map(<[u8]>::to_vec));
        }
        seen
    }

    /// The lines of every block, each checked against the cap as a caller
    /// of `next_block` must; also the largest the buffer grew.
    fn by_blocks(input: impl Read, max: usize, target: usize) -> (Vec<Option<Vec<u8>>>, usize) {
        let mut reader = LineReader::new(input, max);
        let mut seen = Vec::new();
        let mut largest = 0;
        while let Some(item) = reader.next_block(target).unwrap() {
            let block = item.map(<[u8]>::to_vec);
            largest = largest.max(reader.buffer.len());
            let block = match block {
                Ok(block) => block,
                Err(too_long) => {
                    assert_eq!(too_long, TooLong { max });
                    seen.push(None);
                    continue;
                }
            };
            assert!(block.ends_with(b"\n") || reader.eof, "{block:?}");
            let body = block.strip_suffix(b"\n").unwrap_or(&block);
            seen.extend(
                body.split(|&b| b == b'\n')
                    .map(|l| (l.len() <= max).then(|| l.to_vec())),
            );
        }
        (seen, largest)
    }

    /// Lines of every length around a cap of 8, split into two reads at
    /// every byte, and in reads of a few bytes.
    #[test]
    fn lines_at_and_past_the_cap_split_at_every_byte() {
        let max = 8;
        let inputs: [&[u8]; 4] = [
            b"1234567\n12345678\n123456789\n1234567890\n\n12345678901234567890123\nab\r\nlast",
            b"123456789",
            b"12345678",
            b"\n\n123456789\n",
        ];
        for data in inputs {
            let want = expected(data, max);
            for cut in 0..=data.len() {
                for step in [1, 2, 3, 64] {
                    let input = pieces(data, &[cut], step);
                    assert_eq!(by_lines(input, max), want, "cut {cut} step {step}");
                    for target in [1, 5, 16, 4096] {
                        let input = pieces(data, &[cut], step);
                        let (seen, _) = by_blocks(input, max, target);
                        assert_eq!(seen, want, "cut {cut} step {step} target {target}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_line_far_past_the_cap_is_skipped_without_being_held() {
        let mut data = vec![b'0'; 3 << 20];
        data.extend_from_slice(b"\nnext\n");
        for step in [1000, 1 << 16, 1 << 20] {
            let mut reader = LineReader::new(pieces(&data, &[], step), 100);
            assert_eq!(reader.next_line().unwrap(), Some(Err(TooLong { max: 100 })));
            assert_eq!(reader.next_line().unwrap(), Some(Ok(&b"next"[..])));
            assert_eq!(reader.next_line().unwrap(), None);
            assert_eq!(reader.consumed(), data.len() as u64);
            assert!(
                reader.buffer.len() <= FIRST_READ_BYTES,
                "{}",
                reader.buffer.len()
            );

            let (seen, largest) = by_blocks(pieces(&data, &[], step), 100, 1 << 10);
            assert_eq!(seen, vec![None, Some(b"next".to_vec())]);
            assert!(largest <= FIRST_READ_BYTES, "{largest}");
        }
    }

    #[test]
    fn blocks_hold_whole_lines_and_stop_at_a_short_read() {
        let data = b"aa\nbb\ncc\ndd";
        let mut reader = LineReader::new(pieces(data, &[4, 7], 100), 10);
        assert_eq!(reader.next_block(1 << 20).unwrap(), Some(Ok(&b"aa\n"[..])));
        assert_eq!(reader.next_block(1 << 20).unwrap(), Some(Ok(&b"bb\n"[..])));
        assert_eq!(reader.next_block(1 << 20).unwrap(), Some(Ok(&b"cc\n"[..])));
        assert_eq!(reader.next_block(1 << 20).unwrap(), Some(Ok(&b"dd"[..])));
        assert_eq!(reader.next_block(1 << 20).unwrap(), None);
        assert_eq!(reader.consumed(), data.len() as u64);
    }
}
