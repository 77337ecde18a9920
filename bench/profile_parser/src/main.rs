//! Parses the GC logs named on the command line as jvmlab._native.parse_logs does (one call, one log),
//! and prints events, bytes, seconds and MB/s. Usage: profile-parser LOG...
use std::time::Instant;

use _native::{parse_sources, Source};

fn main() {
    let sources: Vec<Source> = std::env::args().skip(1).map(|path| Source { path, entry: None }).collect();
    if sources.is_empty() {
        eprintln!("usage: profile-parser LOG...");
        std::process::exit(2);
    }
    let t0 = Instant::now();
    let parser = match parse_sources(&sources) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    let bytes = parser.diag.bytes_read;
    println!(
        "events={} bytes={} seconds={:.3} MB/s={:.1} lines_unknown={}",
        parser.cols.uptime_s.len(),
        bytes,
        secs,
        bytes as f64 / 1e6 / secs,
        parser.diag.lines_unknown
    );
}
