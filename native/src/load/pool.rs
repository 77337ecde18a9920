//! Keep-alive HTTP/1.1 connections to the target, opened as needed up to a bound. Beyond the bound a request
//! waits for a connection to come free; the wait is part of its latency (it started at its intended time).
//! At most `MAX_CONNECTING` connections are opened at once: a burst of hundreds of connects overflows a
//! server's accept backlog, and every dropped SYN costs a second (the kernel's first retransmission).

use bytes::Bytes;
use http_body_util::Full;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::net::TcpStream;
use tokio::sync::Notify;

use super::config::Target;

pub type Sender = SendRequest<Full<Bytes>>;

const MAX_CONNECTING: usize = 8;

struct State {
    idle: Vec<Sender>,
    /// Connections that exist or are being opened, idle or in use.
    open: usize,
    /// Connections being opened now.
    connecting: usize,
}

pub struct Pool {
    target: Target,
    max: usize,
    state: Mutex<State>,
    freed: Notify,
    pub opened: AtomicU64,
}

/// A connection slot held by one request. Dropped without `release` (an error, a timeout), the connection
/// is closed and the slot freed.
pub struct Lease {
    pool: Arc<Pool>,
    pub sender: Option<Sender>,
    /// The connection served an earlier request (the server may have closed it meanwhile).
    pub reused: bool,
    /// Given back for the next request: the slot stays taken by the idle connection.
    kept: bool,
}

impl Lease {
    fn new(pool: &Arc<Pool>, sender: Option<Sender>, reused: bool) -> Lease {
        Lease {
            pool: pool.clone(),
            sender,
            reused,
            kept: false,
        }
    }

    pub fn release(mut self) {
        if let Some(sender) = self.sender.take() {
            self.pool.state.lock().unwrap().idle.push(sender);
            self.kept = true;
            self.pool.freed.notify_one();
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if !self.kept {
            self.pool.state.lock().unwrap().open -= 1;
            self.pool.freed.notify_one();
        }
    }
}

/// One of the connects under way; its end (done, failed or abandoned) lets a waiting request open one.
struct Connecting<'a>(&'a Pool);

impl Drop for Connecting<'_> {
    fn drop(&mut self) {
        self.0.state.lock().unwrap().connecting -= 1;
        self.0.freed.notify_one();
    }
}

impl Pool {
    pub fn new(target: Target, max: usize) -> Arc<Pool> {
        Arc::new(Pool {
            target,
            max,
            state: Mutex::new(State {
                idle: Vec::new(),
                open: 0,
                connecting: 0,
            }),
            freed: Notify::new(),
            opened: AtomicU64::new(0),
        })
    }

    /// An idle connection, a new one if below the bound, else the next one freed. Err: no connection
    /// could be opened.
    pub async fn acquire(self: &Arc<Self>) -> Result<Lease, std::io::Error> {
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            freed.as_mut().enable(); // registered before looking, so no release is missed
            let open_new = {
                let mut s = self.state.lock().unwrap();
                let mut found = None;
                while let Some(sender) = s.idle.pop() {
                    if sender.is_closed() {
                        s.open -= 1; // closed by the server while idle
                    } else {
                        found = Some(sender);
                        break;
                    }
                }
                if let Some(sender) = found {
                    return Ok(Lease::new(self, Some(sender), true));
                }
                let can = s.open < self.max && s.connecting < MAX_CONNECTING;
                if can {
                    s.open += 1;
                    s.connecting += 1;
                }
                can
            };
            if open_new {
                let mut lease = Lease::new(self, None, false); // on error it frees the slot
                let connecting = Connecting(self);
                lease.sender = Some(self.connect().await?);
                drop(connecting);
                return Ok(lease);
            }
            freed.await;
        }
    }

    async fn connect(&self) -> Result<Sender, std::io::Error> {
        let stream = TcpStream::connect((self.target.host.as_str(), self.target.port)).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(std::io::Error::other)?;
        tokio::spawn(async move {
            let _ = connection.await; // ends when the sender is dropped or the server closes
        });
        self.opened.fetch_add(1, Ordering::Relaxed);
        Ok(sender)
    }
}
