//! Helpers for the lab's tests: a `brudno lab` process on a free port of 127.0.0.1, and a
//! plain HTTP/1.1 GET over a socket (no client library: the tests need one verb and one host).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `brudno lab`, stopped when dropped.
pub struct Lab {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Lab {
    /// Starts the lab on a free port with the extra arguments `extra`, and waits for the line
    /// that gives its address.
    pub fn start(extra: &[&str]) -> Lab {
        let mut child = Command::new(env!("CARGO_BIN_EXE_brudno"))
            .args(["lab", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start brudno lab");
        let stdout = child.stdout.take().expect("the lab's stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the lab prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Lab { child, address }
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// GETs `target` (a path with its query); returns the status and the body.
    pub fn get(&self, target: &str) -> (u16, String) {
        get(&self.address, target)
    }

    /// GETs `target` and reads the body as JSON.
    pub fn json(&self, target: &str) -> (u16, serde_json::Value) {
        let (status, body) = self.get(target);
        let value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{target}: not JSON ({e}): {body:.200}"));
        (status, value)
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A GET of `target` from `address` with `Connection: close`.
pub fn get(address: &str, target: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connect to the lab");
    stream
        .set_read_timeout(Some(Duration::from_secs(300)))
        .expect("a read timeout");
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .expect("send the request");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read the answer");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header and a body");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let body = &raw[split + 4..];
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_vec()
    };
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// The body of a chunked answer.
fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = body.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&body[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.trim(), 16).ok())
            .unwrap_or(0);
        let rest = &body[end + 2..];
        if size == 0 || rest.len() < size {
            break;
        }
        out.extend_from_slice(&rest[..size]);
        body = rest[size..].strip_prefix(b"\r\n").unwrap_or(&rest[size..]);
    }
    out
}

/// Percent-encodes a query value (spaces as `%20`).
pub fn encode(value: &str) -> String {
    let mut out = String::new();
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}
