//! Opening one input: a plain file, a gzip file (by its magic bytes, whatever its name) or an entry of a
//! zip archive. Everything is streamed: memory stays bounded whatever the size of the log. A gzip file is
//! inflated on a thread of its own while the caller parses what was inflated before.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::mpsc::{self, Receiver, SyncSender};

const BUFFER: usize = 1 << 20;
/// Inflated buffers waiting for the parser: enough to ride out a slow line, few enough to keep memory flat.
const INFLATED_AHEAD: usize = 4;

/// Opens `path` (or the entry `entry` of the zip archive at `path`) and calls `f` with a buffered reader.
pub fn with_reader<T>(
    path: &str,
    entry: Option<&str>,
    f: impl FnOnce(&mut dyn BufRead) -> io::Result<T>,
) -> io::Result<T> {
    let file = File::open(path)?;
    match entry {
        Some(name) => {
            let mut archive = zip::ZipArchive::new(BufReader::new(file)).map_err(to_io)?;
            let zf = archive.by_name(name).map_err(to_io)?;
            let mut r = BufReader::with_capacity(BUFFER, zf);
            if is_gzip(&mut r)? {
                // inline: a zip entry's reader borrows its archive
                let mut br =
                    BufReader::with_capacity(BUFFER, flate2::bufread::MultiGzDecoder::new(r));
                return f(&mut br);
            }
            f(&mut r)
        }
        None => {
            let mut r = BufReader::with_capacity(BUFFER, file);
            if is_gzip(&mut r)? {
                return overlapped(flate2::bufread::MultiGzDecoder::new(r), f);
            }
            overlapped(r, f)
        }
    }
}

fn is_gzip<R: BufRead>(r: &mut R) -> io::Result<bool> {
    let head = r.fill_buf()?;
    Ok(head.len() >= 2 && head[0] == 0x1f && head[1] == 0x8b)
}

/// Calls `f` with a reader of what `source` gives, read on a thread of its own (scoped: it ends before this
/// returns, also when `f` stops reading early).
fn overlapped<S: Read + Send, T>(
    source: S,
    f: impl FnOnce(&mut dyn BufRead) -> io::Result<T>,
) -> io::Result<T> {
    let (full, ready) = mpsc::sync_channel(INFLATED_AHEAD);
    let (give_back, spare) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || fill(source, &full, &spare));
        let mut reader = BufReader::with_capacity(
            BUFFER,
            Chunks {
                ready,
                give_back,
                chunk: Vec::new(),
                at: 0,
            },
        );
        f(&mut reader) // then `reader` is dropped: a thread still sending sees the channel closed and ends
    })
}

/// Reads `source` into buffers of BUFFER bytes and sends them, reusing the buffers the reader gave back; an
/// error is sent after the data read before it, and ends the thread.
fn fill<S: Read>(mut source: S, full: &SyncSender<io::Result<Vec<u8>>>, spare: &Receiver<Vec<u8>>) {
    loop {
        let mut chunk = spare.try_recv().unwrap_or_default();
        chunk.resize(BUFFER, 0);
        let (mut n, mut end, mut failed) = (0, false, None);
        while n < chunk.len() {
            match source.read(&mut chunk[n..]) {
                Ok(0) => {
                    end = true;
                    break;
                }
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        chunk.truncate(n);
        if n > 0 && full.send(Ok(chunk)).is_err() {
            return; // the reader is gone
        }
        if let Some(e) = failed {
            let _ = full.send(Err(e));
            return;
        }
        if end {
            return;
        }
    }
}

/// The reader's side of `overlapped`: the buffers in the order they were filled, then the end.
struct Chunks {
    ready: Receiver<io::Result<Vec<u8>>>,
    give_back: mpsc::Sender<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for Chunks {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            let next = match self.ready.recv() {
                Ok(next) => next?,
                Err(_) => return Ok(0), // the thread ended: no more data
            };
            let used = std::mem::replace(&mut self.chunk, next);
            let _ = self.give_back.send(used);
            self.at = 0;
        }
        let n = out.len().min(self.chunk.len() - self.at);
        out[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn to_io(e: zip::result::ZipError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

/// Lines (newlines) and bytes of one input, read as the parser reads it (2 MiB at a time, decompressed):
/// the floor of a parse that touches each byte once (bench/gclog_parse.py prints it beside the parse).
pub fn count_lines(path: &str, entry: Option<&str>) -> io::Result<(u64, u64)> {
    with_reader(path, entry, |r| {
        let mut buf = vec![0u8; 2 << 20];
        let (mut lines, mut bytes) = (0u64, 0u64);
        loop {
            let n = match r.read(&mut buf) {
                Ok(0) => return Ok((lines, bytes)),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            bytes += n as u64;
            lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source that gives `data` a few bytes at a time, then fails when `fails`.
    struct Trickle {
        data: Vec<u8>,
        at: usize,
        fails: bool,
    }

    impl Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.at == self.data.len() {
                return match self.fails {
                    true => Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "corrupt deflate stream",
                    )),
                    false => Ok(0),
                };
            }
            let n = out.len().min(7919).min(self.data.len() - self.at);
            out[..n].copy_from_slice(&self.data[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    fn data(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 31 % 251) as u8).collect()
    }

    #[test]
    fn the_reader_gets_every_byte_in_order() {
        for len in [0, 1, BUFFER - 1, BUFFER, 3 * BUFFER + 17] {
            let source = Trickle {
                data: data(len),
                at: 0,
                fails: false,
            };
            let mut got = Vec::new();
            overlapped(source, |r| r.read_to_end(&mut got)).unwrap();
            assert_eq!(got, data(len), "{len} bytes");
        }
    }

    #[test]
    fn an_error_arrives_after_the_data_read_before_it() {
        let source = Trickle {
            data: data(2 * BUFFER + 5),
            at: 0,
            fails: true,
        };
        let mut got = Vec::new();
        let err = overlapped(source, |r| r.read_to_end(&mut got)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(got, data(2 * BUFFER + 5));
    }

    #[test]
    fn a_reader_that_stops_early_ends_the_thread() {
        // far more than the buffers in flight: the thread must see the reader gone, not block on a send
        let source = Trickle {
            data: data(40 * BUFFER),
            at: 0,
            fails: false,
        };
        let mut first = [0u8; 100];
        overlapped(source, |r| r.read_exact(&mut first)).unwrap();
        assert_eq!(first[..], data(100)[..]);
    }
}
