//! Reading an HTTP/1.1 response as its bytes arrive: the head parsed by httparse, then the body by its
//! framing (Content-Length, chunked, or up to the close), its bytes counted and dropped. The driver needs
//! three things of a response: its status, when its last byte came, and whether the connection can be used
//! again.

/// How far a response has come.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Progress {
    /// More bytes are needed.
    More,
    /// Complete; `keep_alive`: the connection can carry the next request.
    Done { status: u16, keep_alive: bool },
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Head,
    /// Body bytes left of a Content-Length body.
    Fixed(u64),
    /// Waiting for a chunk-size line.
    ChunkSize,
    /// Data bytes left of the current chunk.
    ChunkData(u64),
    /// The CRLF after a chunk's data.
    ChunkEnd,
    /// Trailer lines after the last chunk, up to an empty line.
    Trailers,
    /// A body that runs until the server closes the connection.
    UntilClose,
    Done,
}

const MAX_HEADERS: usize = 96;

pub struct ResponseReader {
    state: State,
    status: u16,
    keep_alive: bool,
    head_only: bool,
    started: bool,
}

impl ResponseReader {
    /// `head_only`: the request was HEAD (a response to it has no body).
    pub fn new(head_only: bool) -> ResponseReader {
        ResponseReader {
            state: State::Head,
            status: 0,
            keep_alive: true,
            head_only,
            started: false,
        }
    }

    /// Whether any byte of the response has come.
    pub fn started(&self) -> bool {
        self.started
    }

    fn done(&mut self) -> Progress {
        self.state = State::Done;
        Progress::Done {
            status: self.status,
            keep_alive: self.keep_alive,
        }
    }

    /// Reads from `buf`: how many of its bytes belong to the response so far, and how far it has come.
    /// Bytes not consumed must be given again with more after them. Err: not a valid HTTP/1.1 response.
    pub fn feed(&mut self, buf: &[u8]) -> Result<(usize, Progress), String> {
        self.started |= !buf.is_empty();
        let mut at = 0;
        loop {
            let rest = &buf[at..];
            match self.state {
                State::Done => return Ok((at, self.done())),
                State::Head => match self.head(rest)? {
                    Some(n) => at += n,
                    None => return Ok((at, Progress::More)),
                },
                State::Fixed(left) => {
                    let n = left.min(rest.len() as u64);
                    at += n as usize;
                    if n == left {
                        return Ok((at, self.done()));
                    }
                    self.state = State::Fixed(left - n);
                    return Ok((at, Progress::More));
                }
                State::ChunkSize => match httparse::parse_chunk_size(rest) {
                    Ok(httparse::Status::Complete((n, 0))) => {
                        at += n;
                        self.state = State::Trailers;
                    }
                    Ok(httparse::Status::Complete((n, size))) => {
                        at += n;
                        self.state = State::ChunkData(size);
                    }
                    Ok(httparse::Status::Partial) => return Ok((at, Progress::More)),
                    Err(_) => return Err("invalid chunk size".into()),
                },
                State::ChunkData(left) => {
                    let n = left.min(rest.len() as u64);
                    at += n as usize;
                    if n < left {
                        self.state = State::ChunkData(left - n);
                        return Ok((at, Progress::More));
                    }
                    self.state = State::ChunkEnd;
                }
                State::ChunkEnd => {
                    if rest.len() < 2 {
                        return Ok((at, Progress::More));
                    }
                    if &rest[..2] != b"\r\n" {
                        return Err("chunk data not followed by CRLF".into());
                    }
                    at += 2;
                    self.state = State::ChunkSize;
                }
                State::Trailers => match memchr::memmem::find(rest, b"\r\n") {
                    Some(0) => {
                        at += 2;
                        return Ok((at, self.done()));
                    }
                    Some(i) => at += i + 2,
                    None => return Ok((at, Progress::More)),
                },
                State::UntilClose => return Ok((buf.len(), Progress::More)),
            }
        }
    }

    /// The server closed the connection: a body that runs to the close is complete; anything else is cut.
    pub fn closed(&mut self) -> Option<Progress> {
        match self.state {
            State::UntilClose => Some(self.done()),
            State::Done => Some(self.done()),
            _ => None,
        }
    }

    /// Parses a response head at the start of `buf`: Some(its length) when complete (an interim 1xx
    /// response leaves the state at Head, for the final one).
    fn head(&mut self, buf: &[u8]) -> Result<Option<usize>, String> {
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut response = httparse::Response::new(&mut headers);
        let n = match response.parse(buf) {
            Ok(httparse::Status::Complete(n)) => n,
            Ok(httparse::Status::Partial) => return Ok(None),
            Err(e) => return Err(format!("invalid response head: {e}")),
        };
        let status = response.code.unwrap_or(0);
        if (100..200).contains(&status) && status != 101 {
            return Ok(Some(n)); // 100 Continue and the like: the final response follows
        }
        self.status = status;
        let mut length: Option<u64> = None;
        let mut chunked = false;
        let mut close = None;
        for h in response.headers.iter() {
            let value = std::str::from_utf8(h.value).unwrap_or("").trim();
            if h.name.eq_ignore_ascii_case("content-length") {
                let n = value
                    .parse::<u64>()
                    .map_err(|_| format!("invalid content-length {value:?}"))?;
                if length.is_some_and(|m| m != n) {
                    return Err("conflicting content-length headers".into());
                }
                length = Some(n);
            } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = value
                    .rsplit(',')
                    .next()
                    .is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked"));
            } else if h.name.eq_ignore_ascii_case("connection") {
                for token in value.split(',') {
                    if token.trim().eq_ignore_ascii_case("close") {
                        close = Some(true);
                    } else if token.trim().eq_ignore_ascii_case("keep-alive") {
                        close.get_or_insert(false);
                    }
                }
            }
        }
        // HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 closes unless told to keep it.
        self.keep_alive = !close.unwrap_or(response.version == Some(0));
        self.state = if self.head_only || status == 204 || status == 304 || status == 101 {
            if status == 101 {
                self.keep_alive = false;
            }
            State::Done
        } else if chunked {
            State::ChunkSize
        } else if let Some(length) = length {
            if length == 0 {
                State::Done
            } else {
                State::Fixed(length)
            }
        } else {
            self.keep_alive = false;
            State::UntilClose
        };
        Ok(Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `bytes` in pieces of `step`, as a connection would; returns the outcome and bytes consumed.
    fn read(bytes: &[u8], step: usize, head_only: bool) -> (Progress, usize) {
        let mut r = ResponseReader::new(head_only);
        let mut pending: Vec<u8> = Vec::new();
        let mut consumed = 0;
        for piece in bytes.chunks(step) {
            pending.extend_from_slice(piece);
            let (n, progress) = r.feed(&pending).unwrap();
            pending.drain(..n);
            consumed += n;
            if progress != Progress::More {
                return (progress, consumed);
            }
        }
        (r.closed().unwrap_or(Progress::More), consumed)
    }

    fn done(status: u16, keep_alive: bool) -> Progress {
        Progress::Done { status, keep_alive }
    }

    #[test]
    fn framings_in_every_split() {
        let cases: [(&[u8], bool, Progress); 8] = [
            (b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n", false, done(200, true)),
            (b"HTTP/1.1 204 No Content\r\n\r\n", false, done(204, true)),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n1;x=y\r\ne\r\n0\r\nT: 1\r\n\r\n",
                false,
                done(200, true),
            ),
            (b"HTTP/1.1 503 Busy\r\ncontent-length: 0\r\nconnection: close\r\n\r\n", false, done(503, false)),
            (b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi", false, done(200, false)),
            (b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", false, done(200, true)),
            (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx", false, done(201, true)),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", true, done(200, true)),
        ];
        for (bytes, head_only, expected) in cases {
            for step in [1, 2, 3, 7, bytes.len()] {
                let (progress, consumed) = read(bytes, step, head_only);
                let text = String::from_utf8_lossy(bytes);
                assert_eq!(progress, expected, "{text:?} in steps of {step}");
                assert_eq!(consumed, bytes.len(), "{text:?} in steps of {step}");
            }
        }
    }

    #[test]
    fn a_body_up_to_the_close() {
        let mut r = ResponseReader::new(false);
        let (n, p) = r.feed(b"HTTP/1.1 200 OK\r\n\r\npartial body").unwrap();
        assert_eq!((n, p), (31, Progress::More));
        assert_eq!(r.closed(), Some(done(200, false)));
        let mut cut = ResponseReader::new(false);
        cut.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
            .unwrap();
        assert_eq!(cut.closed(), None);
        assert!(cut.started() && !ResponseReader::new(false).started());
    }

    #[test]
    fn invalid_responses() {
        for bytes in [
            &b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            b"garbage\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc",
        ] {
            let mut r = ResponseReader::new(false);
            let mut result = r.feed(bytes);
            if let Ok((n, Progress::More)) = result {
                result = r.feed(&bytes[n..]);
            }
            assert!(result.is_err(), "{:?}", String::from_utf8_lossy(bytes));
        }
    }
}
