//! The service's request handling on arbitrary bytes: each `\n`-separated
//! piece is one request line, answered by the same `Workspace` a worker uses.
//! Every request must get exactly one reply line, ending `\r\n`, that starts
//! with the request's id; no input may panic.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use sudokit_server::protocol::{split_id, Workspace};

fuzz_target!(|data: &[u8]| {
    // A short solve timeout keeps sparse large grids from stalling the
    // fuzzer; `Timeout` is a reply like any other.
    let mut workspace = Workspace::with_solve_timeout(Some(Duration::from_millis(50)));
    for line in data.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let mut reply = Vec::new();
        workspace.respond(line, &mut reply);
        let body = reply
            .strip_suffix(b"\r\n")
            .expect("every reply ends with \\r\\n");
        assert!(
            !body.contains(&b'\n'),
            "a reply is one line: {:?}",
            String::from_utf8_lossy(&reply)
        );
        if let (Some(id), _) = split_id(line) {
            assert!(body.starts_with(id), "the reply starts with the id");
            assert_eq!(body.get(id.len()), Some(&b':'), "the id ends with ':'");
        }
    }
});
