//! Bytes on a connection: writes that give up when the server stops
//! reading, and reply lines read back.

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

use crate::net::{Failure, STALL};

/// Writes all of `bytes`, failing with [`Failure::TimedOut`] when one write
/// makes no progress for [`STALL`]; the error carries the bytes written.
pub async fn write_progressing<W: AsyncWrite + Unpin>(
    writer: &mut W,
    bytes: &[u8],
) -> Result<(), (usize, Failure)> {
    let mut written = 0;
    while written < bytes.len() {
        match tokio::time::timeout(STALL, writer.write(&bytes[written..])).await {
            Err(_) => return Err((written, Failure::TimedOut)),
            Ok(Err(error)) => return Err((written, Failure::of(&error))),
            Ok(Ok(0)) => return Err((written, Failure::Reset)),
            Ok(Ok(n)) => written += n,
        }
    }
    Ok(())
}

/// The number of complete lines in `bytes`.
pub fn lines_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// Reply lines read from a connection.
pub struct Lines<R> {
    /// The connection's reading side.
    reader: BufReader<R>,
    /// The line being read; a read cancelled half-way (by a timeout) leaves
    /// its bytes here, and the next read goes on from them.
    line: Vec<u8>,
}

impl<R: AsyncRead + Unpin> Lines<R> {
    /// Reads lines from `reader`.
    pub fn new(reader: R) -> Lines<R> {
        Lines {
            reader: BufReader::new(reader),
            line: Vec::new(),
        }
    }

    /// The next line, without its line ending; [`Failure::Closed`] at the
    /// end of the stream. Safe to cancel: the next call resumes the line.
    pub async fn next(&mut self) -> Result<Vec<u8>, Failure> {
        if self.line.ends_with(b"\n") {
            self.line.clear();
        }
        match self.reader.read_until(b'\n', &mut self.line).await {
            Ok(_) if self.line.ends_with(b"\n") => {
                let end = self.line.len() - 1;
                let end = if self.line[..end].ends_with(b"\r") {
                    end - 1
                } else {
                    end
                };
                Ok(self.line[..end].to_vec())
            }
            Ok(_) => Err(Failure::Closed),
            Err(error) => Err(Failure::of(&error)),
        }
    }
}
