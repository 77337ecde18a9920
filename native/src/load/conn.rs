//! One keep-alive connection to the target: a non-blocking socket, the request being written, and the
//! response being read. Reads carry the kernel's receive time of their last byte (SO_TIMESTAMPNS on
//! Linux), so a response's end is known to the microsecond however late the driver gets to read it.

use mio::net::TcpStream;
use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::time::Instant;

use super::http::{Progress, ResponseReader};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum State {
    /// The TCP handshake is under way.
    Connecting,
    Idle,
    /// Carries a request: writing it, or waiting for its response.
    Busy,
}

/// What a read brought.
pub enum Received {
    /// Nothing yet (the response is not complete).
    More,
    /// The response is complete; `at`: when its last byte came.
    Done {
        status: u16,
        keep_alive: bool,
        at: Option<i128>,
    },
    /// The connection closed or broke before the response was complete; `started`: some of it came.
    Broken { started: bool },
}

pub struct Conn {
    pub stream: TcpStream,
    pub state: State,
    /// The request this connection carries (a key of the driver's requests).
    pub request: Option<usize>,
    /// It has carried a request before (the server may have closed it while it was idle).
    pub reused: bool,
    out: Vec<u8>,
    written: usize,
    pending: Vec<u8>,
    reader: ResponseReader,
}

/// A read buffer shared by every connection (the driver is single-threaded): body bytes are counted and
/// dropped, never kept.
pub struct Scratch(Vec<u8>);

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch(vec![0; 64 * 1024])
    }
}

impl Conn {
    /// Starts connecting to `addr` (the handshake completes when the socket becomes writable).
    pub fn connect(addr: SocketAddr) -> io::Result<Conn> {
        let stream = TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        enable_timestamps(&stream)?;
        Ok(Conn {
            stream,
            state: State::Connecting,
            request: None,
            reused: false,
            out: Vec::new(),
            written: 0,
            pending: Vec::new(),
            reader: ResponseReader::new(false),
        })
    }

    /// After a writable event while connecting: Ok(true) once connected, Ok(false) still under way.
    pub fn connected(&mut self) -> io::Result<bool> {
        if let Some(e) = self.stream.take_error()? {
            return Err(e);
        }
        match self.stream.peer_addr() {
            Ok(_) => {
                self.state = State::Idle;
                Ok(true)
            }
            Err(e) if e.kind() == io::ErrorKind::NotConnected => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Takes request `key`, whose bytes are in `request`: writes what the socket takes now.
    pub fn start(&mut self, key: usize, request: &[u8], head_only: bool) -> io::Result<()> {
        self.state = State::Busy;
        self.request = Some(key);
        self.out.clear();
        self.out.extend_from_slice(request);
        self.written = 0;
        self.pending.clear();
        self.reader = ResponseReader::new(head_only);
        self.flush()
    }

    /// Whether part of the request waits for the socket to take it.
    pub fn writing(&self) -> bool {
        self.written < self.out.len()
    }

    /// Writes what is left of the request, as far as the socket takes it.
    pub fn flush(&mut self) -> io::Result<()> {
        while self.written < self.out.len() {
            match self.stream.write(&self.out[self.written..]) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => self.written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The request is done with: the connection is free for the next one.
    pub fn release(&mut self) {
        self.state = State::Idle;
        self.request = None;
        self.reused = true;
    }

    /// Reads all there is (the socket is edge-triggered) and moves the response on.
    pub fn read(&mut self, scratch: &mut Scratch) -> Received {
        let mut last_at = None;
        loop {
            match timestamps::recv(&self.stream, &mut scratch.0) {
                Ok((0, _)) => {
                    return match self.reader.closed() {
                        Some(Progress::Done { status, .. }) => Received::Done {
                            status,
                            keep_alive: false,
                            at: last_at,
                        },
                        _ => Received::Broken {
                            started: self.reader.started(),
                        },
                    };
                }
                Ok((n, at)) => {
                    last_at = at.or(last_at);
                    match self.consume(&scratch.0[..n]) {
                        Ok(Progress::More) => {}
                        Ok(Progress::Done { status, keep_alive }) => {
                            // Bytes beyond the response (none are expected before the next request):
                            // the connection is not used again.
                            let clean = self.pending.is_empty();
                            return Received::Done {
                                status,
                                keep_alive: keep_alive && clean,
                                at: last_at,
                            };
                        }
                        Err(_) => {
                            return Received::Broken {
                                started: self.reader.started(),
                            }
                        }
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Received::More,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    return Received::Broken {
                        started: self.reader.started(),
                    }
                }
            }
        }
    }

    /// Feeds newly read bytes to the response reader; keeps what it could not consume yet.
    fn consume(&mut self, bytes: &[u8]) -> Result<Progress, String> {
        if self.state != State::Busy {
            return Err("bytes from the server with no request".into());
        }
        if self.pending.is_empty() {
            let (n, progress) = self.reader.feed(bytes)?;
            self.pending.extend_from_slice(&bytes[n..]);
            return Ok(progress);
        }
        self.pending.extend_from_slice(bytes);
        let (n, progress) = self.reader.feed(&self.pending)?;
        self.pending.drain(..n);
        Ok(progress)
    }

    /// Drains an idle connection: Err if the server closed it (or sent what nobody asked for).
    pub fn check_idle(&mut self) -> Result<(), ()> {
        let mut byte = [0u8; 1];
        match self.stream.read(&mut byte) {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(()),
            _ => Err(()),
        }
    }
}

/// Converts the kernel's receive times (wall clock, ns since the Unix epoch) to the monotonic clock of
/// the schedule, from one reading of both clocks.
#[derive(Clone, Copy)]
pub struct WallToMonotonic {
    now: Instant,
    wall_ns: i128,
}

impl WallToMonotonic {
    pub fn now() -> WallToMonotonic {
        let now = Instant::now();
        let wall = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        WallToMonotonic {
            now,
            wall_ns: wall.as_nanos() as i128,
        }
    }

    /// `at` on the monotonic clock; never later than the reading (a wall clock that stepped back).
    pub fn instant(&self, at: i128) -> Instant {
        let ago = (self.wall_ns - at).max(0);
        self.now
            .checked_sub(std::time::Duration::from_nanos(
                ago.min(u64::MAX as i128) as u64
            ))
            .unwrap_or(self.now)
    }
}

pub use timestamps::enable as enable_timestamps;

#[cfg(target_os = "linux")]
mod timestamps {
    use mio::net::TcpStream;
    use std::io;
    use std::os::fd::AsRawFd;

    /// Asks the kernel for the receive time of what `socket` reads.
    pub fn enable(socket: &impl AsRawFd) -> io::Result<()> {
        let on: libc::c_int = 1;
        // SAFETY: a valid socket and a c_int option value of the size given.
        let r = unsafe {
            libc::setsockopt(
                socket.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_TIMESTAMPNS,
                (&on as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            )
        };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// recv with the kernel's receive time of the last byte read (ns since the Unix epoch), when it
    /// gives one.
    pub fn recv(stream: &TcpStream, buf: &mut [u8]) -> io::Result<(usize, Option<i128>)> {
        let mut iov = libc::iovec {
            iov_base: buf.as_mut_ptr().cast(),
            iov_len: buf.len(),
        };
        let mut control = [0u64; 16]; // aligned for cmsghdr; room for one timespec message
                                      // SAFETY: msghdr is plain data; every pointer set below outlives the call.
        let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = std::mem::size_of_val(&control) as _;
        // SAFETY: `msg` describes `buf` and `control`, both valid for writes of their lengths.
        let n = unsafe { libc::recvmsg(stream.as_raw_fd(), &mut msg, 0) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        let mut at = None;
        // SAFETY: the control messages are those the kernel wrote into `control`, walked with its macros.
        unsafe {
            let mut c = libc::CMSG_FIRSTHDR(&msg);
            while !c.is_null() {
                if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_TIMESTAMPNS {
                    let t: libc::timespec = std::ptr::read_unaligned(libc::CMSG_DATA(c).cast());
                    at = Some(t.tv_sec as i128 * 1_000_000_000 + t.tv_nsec as i128);
                }
                c = libc::CMSG_NXTHDR(&msg, c);
            }
        }
        Ok((n as usize, at))
    }
}

#[cfg(not(target_os = "linux"))]
mod timestamps {
    use mio::net::TcpStream;
    use std::io::{self, Read};

    pub fn enable<T>(_: &T) -> io::Result<()> {
        Ok(())
    }

    pub fn recv(stream: &TcpStream, buf: &mut [u8]) -> io::Result<(usize, Option<i128>)> {
        let mut s = stream;
        Ok((s.read(buf)?, None))
    }
}
