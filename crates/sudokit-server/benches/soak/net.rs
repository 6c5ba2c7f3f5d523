//! Client sockets on loopback: connecting from a chosen 127.x.y.z source
//! address (so that scenarios look like different hosts), and what went
//! wrong when something did.

use std::io::ErrorKind;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use tokio::net::{TcpSocket, TcpStream};

/// How long a connection attempt may take before it counts as refused.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long one write may make no progress before a hostile sender gives
/// up (the server stopped reading): keeps the bytes sent bounded.
pub const STALL: Duration = Duration::from_secs(10);

/// The source address of host `host` of scenario `scenario`: `127.0.S.H`
/// with H in 1..=250. The probe alone uses 127.0.0.1.
pub fn source(scenario: u8, host: usize) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, scenario, (host % 250) as u8 + 1)
}

/// Why a connection attempt or an established connection failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The connection was refused, or did not complete in time.
    Refused,
    /// The server reset the connection (or a write found it gone).
    Reset,
    /// The server closed the connection in an orderly way.
    Closed,
    /// No reply (or no progress) in time.
    TimedOut,
}

impl Failure {
    /// The failure an I/O error stands for.
    pub fn of(error: &std::io::Error) -> Failure {
        match error.kind() {
            ErrorKind::ConnectionRefused => Failure::Refused,
            ErrorKind::TimedOut | ErrorKind::WouldBlock => Failure::TimedOut,
            ErrorKind::UnexpectedEof => Failure::Closed,
            _ => Failure::Reset,
        }
    }
}

/// Connects to `to` from `from` (port chosen by the kernel), giving up
/// after [`CONNECT_TIMEOUT`].
pub async fn connect(from: Ipv4Addr, to: SocketAddr) -> Result<TcpStream, Failure> {
    let attempt = async {
        let socket = TcpSocket::new_v4()?;
        socket.bind(SocketAddr::from((from, 0)))?;
        let stream = socket.connect(to).await?;
        stream.set_nodelay(true)?;
        Ok::<_, std::io::Error>(stream)
    };
    match tokio::time::timeout(CONNECT_TIMEOUT, attempt).await {
        Ok(Ok(stream)) => Ok(stream),
        Ok(Err(_)) | Err(_) => Err(Failure::Refused),
    }
}
