//! Opening one input: a plain file, a gzip file (by its magic bytes, whatever its name) or an entry of a
//! zip archive. Everything is streamed: memory stays bounded whatever the size of the log.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};

const BUFFER: usize = 1 << 20;

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
            maybe_gunzip(&mut r, f)
        }
        None => {
            let mut r = BufReader::with_capacity(BUFFER, file);
            maybe_gunzip(&mut r, f)
        }
    }
}

fn maybe_gunzip<R: BufRead, T>(
    r: &mut R,
    f: impl FnOnce(&mut dyn BufRead) -> io::Result<T>,
) -> io::Result<T> {
    let head = r.fill_buf()?;
    if head.len() >= 2 && head[0] == 0x1f && head[1] == 0x8b {
        let gz = flate2::bufread::MultiGzDecoder::new(r);
        let mut br = BufReader::with_capacity(BUFFER, gz);
        f(&mut br)
    } else {
        f(r)
    }
}

fn to_io(e: zip::result::ZipError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

/// Reads the first `n` bytes (decompressed) for format sniffing.
pub fn head(path: &str, entry: Option<&str>, n: usize) -> io::Result<Vec<u8>> {
    with_reader(path, entry, |r| {
        let mut out = Vec::with_capacity(n);
        r.take(n as u64).read_to_end(&mut out)?;
        Ok(out)
    })
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
