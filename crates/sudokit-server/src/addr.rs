//! Socket addresses as people type them: `HOST:PORT`, `localhost:PORT`,
//! `[::1]:PORT`, and `:PORT` for the loopback address.
//!
//! `sudokit serve --listen`, `--metrics` and `sudokit load --addr` all read
//! their address here, so that the server and its client accept the same
//! forms and a mistake is reported the same way, naming the value, before
//! anything starts.
//!
//! A bare `:PORT` means `127.0.0.1:PORT` for both the server and the client:
//! the service is local unless asked otherwise (`0.0.0.0:PORT` or `[::]:PORT`
//! bind every interface). A host name is resolved once, here; of its
//! addresses the first IPv4 one is taken (else the first IPv6 one), so that
//! `localhost:9981` means `127.0.0.1:9981` on either side whatever order the
//! system's resolver prefers.

use std::net::{Ipv4Addr, SocketAddr, ToSocketAddrs};

/// Why a text is not a usable socket address; the message says what form
/// is expected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AddrError {
    /// No `:PORT` at the end.
    #[error("no port: write HOST:PORT, [IPv6]:PORT or :PORT (e.g. 127.0.0.1:9981)")]
    NoPort,
    /// The text after the last `:` is not a port number.
    #[error("port '{0}' is not a number from 0 to 65535")]
    BadPort(String),
    /// An IPv6 address without its brackets (`::1:9981` is ambiguous).
    #[error("put an IPv6 address in brackets, e.g. [::1]:9981")]
    Unbracketed,
    /// The host is neither an IP address nor a name the resolver knows.
    #[error("cannot resolve host '{host}': {reason}")]
    Unresolved {
        /// The host part as given.
        host: String,
        /// What the resolver said.
        reason: String,
    },
}

/// Reads `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (the loopback
/// `127.0.0.1:PORT`), resolving a host name (its first IPv4 address, else
/// its first IPv6 one). Suitable as a clap `value_parser`: the error names
/// what is wrong and clap names the value.
pub fn parse_addr(text: &str) -> Result<SocketAddr, AddrError> {
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    if text.ends_with(']') {
        return Err(AddrError::NoPort);
    }
    let (host, port) = text.rsplit_once(':').ok_or(AddrError::NoPort)?;
    if host.contains(':') && !host.starts_with('[') {
        return Err(AddrError::Unbracketed);
    }
    if port.is_empty() {
        return Err(AddrError::NoPort);
    }
    let port: u16 = port
        .parse()
        .map_err(|_| AddrError::BadPort(port.to_string()))?;
    if host.is_empty() {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    }
    let unresolved = |reason: String| AddrError::Unresolved {
        host: host.to_string(),
        reason,
    };
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| unresolved(e.to_string()))?
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or_else(|| addrs.first())
        .copied()
        .ok_or_else(|| unresolved("no address found".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv6Addr;

    #[test]
    fn numeric_forms_parse_as_written() {
        assert_eq!(
            parse_addr("127.0.0.1:9981"),
            Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, 9981)))
        );
        assert_eq!(
            parse_addr("0.0.0.0:9981"),
            Ok(SocketAddr::from((Ipv4Addr::UNSPECIFIED, 9981)))
        );
        assert_eq!(
            parse_addr("[::1]:9981"),
            Ok(SocketAddr::from((Ipv6Addr::LOCALHOST, 9981)))
        );
    }

    #[test]
    fn a_bare_port_is_the_ipv4_loopback() {
        assert_eq!(
            parse_addr(":9981"),
            Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, 9981)))
        );
    }

    #[test]
    fn localhost_is_the_ipv4_loopback() {
        assert_eq!(
            parse_addr("localhost:9981"),
            Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, 9981)))
        );
    }

    #[test]
    fn malformed_addresses_say_what_is_wrong() {
        assert_eq!(parse_addr("127.0.0.1"), Err(AddrError::NoPort));
        assert_eq!(parse_addr("localhost:"), Err(AddrError::NoPort));
        assert_eq!(parse_addr("[::1]"), Err(AddrError::NoPort));
        assert_eq!(
            parse_addr(":http"),
            Err(AddrError::BadPort("http".to_string()))
        );
        assert_eq!(
            parse_addr("localhost:65536"),
            Err(AddrError::BadPort("65536".to_string()))
        );
        assert_eq!(parse_addr("::1:9981"), Err(AddrError::Unbracketed));
    }
}
