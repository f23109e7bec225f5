//! A forward proxy for plain HTTP on loopback, for tests of a client's proxy settings: it
//! records every request it is asked to carry (its absolute-form target and headers, as the
//! client sent them), sends it on to its origin in origin form, and writes the origin's answer
//! back. Answers must carry a content-length (every [`crate::Reply::json`] does). It binds
//! 127.0.0.1 only and carries requests only to 127.0.0.1; nothing leaves the machine.

use crate::{read_request, RecordedRequest};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub struct ForwardProxy {
    pub addr: SocketAddr,
    seen: Arc<Mutex<Vec<RecordedRequest>>>,
    task: tokio::task::JoinHandle<()>,
}

impl ForwardProxy {
    pub async fn start() -> ForwardProxy {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recorded = seen.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let recorded = recorded.clone();
                tokio::spawn(async move {
                    let _ = carry(stream, recorded).await;
                });
            }
        });
        ForwardProxy { addr, seen, task }
    }

    /// The proxy's URL, as a `HTTP_PROXY` value.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The requests it was asked to carry, as the client sent them (`path` is the target).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for ForwardProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Every request on one client connection: recorded, sent to its origin, answered.
async fn carry(
    mut client: TcpStream,
    seen: Arc<Mutex<Vec<RecordedRequest>>>,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    while let Some(req) = read_request(&mut client, &mut buf).await? {
        seen.lock().unwrap().push(req.clone());
        let Some((authority, path)) = req
            .path
            .strip_prefix("http://")
            .map(|rest| rest.split_at(rest.find('/').unwrap_or(rest.len())))
        else {
            client
                .write_all(b"HTTP/1.1 400 X\r\ncontent-length: 0\r\n\r\n")
                .await?;
            continue;
        };
        if !authority.starts_with("127.0.0.1:") {
            client
                .write_all(b"HTTP/1.1 403 X\r\ncontent-length: 0\r\n\r\n")
                .await?;
            continue;
        }
        let mut origin = TcpStream::connect(authority).await?;
        let path = if path.is_empty() { "/" } else { path };
        let mut head = format!("{} {path} HTTP/1.1\r\n", req.method);
        for (k, v) in req.headers.iter().filter(|(k, _)| !k.starts_with("proxy-")) {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        origin.write_all(head.as_bytes()).await?;
        origin.write_all(&req.body).await?;
        let answer = read_answer(&mut origin).await?;
        client.write_all(&answer).await?;
    }
    Ok(())
}

/// One answer from the origin: its head and a body of its content-length.
async fn read_answer(origin: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let mut chunk = [0u8; 8192];
        let n = origin.read(&mut chunk).await?;
        if n == 0 {
            return Ok(buf);
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + len {
        let mut chunk = [0u8; 8192];
        let n = origin.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Ok(buf)
}
