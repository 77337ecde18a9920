//! Parses the GC logs named on the command line as jvmlab._native does (one call, one log), and prints
//! events, bytes, seconds and MB/s. With `--summary`, parses as `summarize_logs` does (the summary made as
//! rows go by, no table kept). With `--count-lines`, only counts the lines (`source::count_lines`: memchr
//! over the reads the parser makes): the floor a parse that touches each byte once cannot beat.
//! Usage: profile-parser [--summary | --count-lines] LOG...
use std::time::Instant;

use _native::parser::{Parser, Stream};
use _native::{parse_into, Source};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--count-lines") {
        let t0 = Instant::now();
        let (mut lines, mut bytes) = (0u64, 0u64);
        for path in &args[1..] {
            let (l, b) = _native::source::count_lines(path, None).unwrap_or_else(|e| {
                eprintln!("error: {path}: {e}");
                std::process::exit(1)
            });
            (lines, bytes) = (lines + l, bytes + b);
        }
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "lines={} bytes={} seconds={:.3} MB/s={:.1}",
            lines,
            bytes,
            secs,
            bytes as f64 / 1e6 / secs
        );
        return;
    }
    let summary = args.first().is_some_and(|a| a == "--summary");
    if summary {
        args.remove(0);
    }
    let sources: Vec<Source> = args.into_iter().map(|path| Source { path, entry: None }).collect();
    if sources.is_empty() {
        eprintln!("usage: profile-parser [--summary | --count-lines] LOG...");
        std::process::exit(2);
    }
    let mut parser = Parser::new();
    if summary {
        parser.stream = Some(Stream::new(None));
    }
    let t0 = Instant::now();
    let parser = match parse_into(parser, &sources) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    let bytes = parser.diag.bytes_read;
    let events = parser.cols.base + parser.cols.len();
    let pauses = parser.stream.as_ref().map_or(0, |s| s.summary.pauses.stat.count);
    println!(
        "events={} bytes={} seconds={:.3} MB/s={:.1} lines_unknown={} summary_pauses={}",
        events,
        bytes,
        secs,
        bytes as f64 / 1e6 / secs,
        parser.diag.lines_unknown,
        pauses
    );
}
