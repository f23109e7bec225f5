//! A loopback HTTP/1.1 server for tests and benchmarks: it records every request and answers
//! with whatever its responder says, including faults (delays, dropped connections). It binds
//! 127.0.0.1 only; nothing it does leaves the machine. [`proxy`] is a forward proxy for plain
//! HTTP, for tests of a client's proxy settings. [`ratelimit`] builds a rate-limited
//! OpenAI/Anthropic stand-in on top of it.

pub mod proxy;
pub mod ratelimit;
pub mod vendors;

pub use ratelimit::{Charge, Mode, RateLimiter, RateLimits, ReplyText, Shape, Tally};

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[derive(Debug, Clone)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RecordedRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

#[derive(Debug, Clone)]
pub enum Reply {
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// A body of `chunk` written `times` times under its content-length, or, with `None`,
    /// chunked and never ending (until the client hangs up): a body too large to hold.
    Stream {
        status: u16,
        chunk: Vec<u8>,
        times: Option<u64>,
    },
    /// Wait, then answer.
    Delay(Duration, Box<Reply>),
    /// Close the connection without answering.
    Drop,
    /// Play the inner reply, then call the hook with its status once the response is written
    /// (not called when it drops the connection). For servers that log when each answer
    /// actually left, which a delayed reply decides well before.
    Notify(Box<Reply>, OnSent),
}

/// A hook told the status of a response once it is written; see [`Reply::Notify`].
#[derive(Clone)]
pub struct OnSent(pub Arc<dyn Fn(u16) + Send + Sync>);

impl std::fmt::Debug for OnSent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnSent(..)")
    }
}

impl Reply {
    pub fn json(status: u16, body: serde_json::Value) -> Reply {
        Reply::Respond {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
        }
    }
    pub fn raw(status: u16, body: &str) -> Reply {
        Reply::Respond {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
        }
    }
    pub fn with_header(self, k: &str, v: &str) -> Reply {
        match self {
            Reply::Respond {
                status,
                mut headers,
                body,
            } => {
                headers.push((k.into(), v.into()));
                Reply::Respond {
                    status,
                    headers,
                    body,
                }
            }
            other => other,
        }
    }
}

/// Decides the reply to a request; the second argument counts requests from 0.
pub type Responder = Arc<dyn Fn(&RecordedRequest, usize) -> Reply + Send + Sync>;

pub struct LoopbackServer {
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<RecordedRequest>>>,
    task: tokio::task::JoinHandle<()>,
}

impl LoopbackServer {
    pub async fn start(responder: Responder) -> LoopbackServer {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let count = Arc::new(AtomicUsize::new(0));
        let recorded = requests.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (responder, recorded, count) =
                    (responder.clone(), recorded.clone(), count.clone());
                tokio::spawn(async move {
                    let _ = serve(stream, responder, recorded, count).await;
                });
            }
        });
        LoopbackServer {
            addr,
            requests,
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for LoopbackServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(
    mut stream: TcpStream,
    responder: Responder,
    recorded: Arc<Mutex<Vec<RecordedRequest>>>,
    count: Arc<AtomicUsize>,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    while let Some(req) = read_request(&mut stream, &mut buf).await? {
        recorded.lock().unwrap().push(req.clone());
        let reply = responder(&req, count.fetch_add(1, Ordering::SeqCst));
        if !send(&mut stream, reply).await? {
            return Ok(());
        }
    }
    Ok(())
}

/// The next request on the connection (head, then a body of its content-length); `None` when
/// the client closes it. Bytes past the request stay in `buf` for the next one.
pub(crate) async fn read_request(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<RecordedRequest>> {
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let mut chunk = [0u8; 8192];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split_whitespace();
    let (method, path) = (
        first.next().unwrap_or("").to_string(),
        first.next().unwrap_or("").to_string(),
    );
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| {
            l.split_once(':')
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        })
        .collect();
    let len: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + len {
        let mut chunk = [0u8; 8192];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = buf[head_end..head_end + len].to_vec();
    buf.drain(..head_end + len);
    Ok(Some(RecordedRequest {
        method,
        path,
        headers,
        body,
    }))
}

/// Plays a scripted reply: waits out its delays, then writes the response and tells its hooks;
/// `false` when the script drops the connection instead.
async fn send(stream: &mut TcpStream, mut reply: Reply) -> std::io::Result<bool> {
    let mut hooks = Vec::new();
    loop {
        match reply {
            Reply::Notify(next, hook) => {
                hooks.push(hook);
                reply = *next;
            }
            Reply::Delay(d, next) => {
                tokio::time::sleep(d).await;
                reply = *next;
            }
            Reply::Drop => return Ok(false),
            Reply::Stream {
                status,
                chunk,
                times,
            } => {
                stream_body(stream, status, &chunk, times).await?;
                for hook in hooks {
                    (hook.0)(status);
                }
                return Ok(true);
            }
            Reply::Respond {
                status,
                headers,
                body,
            } => {
                let mut out = format!("HTTP/1.1 {status} X\r\ncontent-length: {}\r\n", body.len());
                for (k, v) in headers {
                    out.push_str(&format!("{k}: {v}\r\n"));
                }
                out.push_str("\r\n");
                out.push_str(&body);
                stream.write_all(out.as_bytes()).await?;
                for hook in hooks {
                    (hook.0)(status);
                }
                return Ok(true);
            }
        }
    }
}

/// Writes [`Reply::Stream`]: `chunk` `times` times under a content-length, or chunked for
/// ever; ends with the client hanging up (an error) when the client stops reading.
async fn stream_body(
    stream: &mut TcpStream,
    status: u16,
    chunk: &[u8],
    times: Option<u64>,
) -> std::io::Result<()> {
    let framing = match times {
        Some(n) => format!("content-length: {}", chunk.len() as u64 * n),
        None => "transfer-encoding: chunked".to_string(),
    };
    let head =
        format!("HTTP/1.1 {status} X\r\ncontent-type: application/json\r\n{framing}\r\n\r\n");
    stream.write_all(head.as_bytes()).await?;
    match times {
        Some(n) => {
            for _ in 0..n {
                stream.write_all(chunk).await?;
            }
        }
        None => {
            let framed = [format!("{:x}\r\n", chunk.len()).as_bytes(), chunk, b"\r\n"].concat();
            loop {
                stream.write_all(&framed).await?;
            }
        }
    }
    Ok(())
}
