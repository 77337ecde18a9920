//! Parses GC log files and prints throughput: `cargo run --release --example parse_file -- FILE...`.
//! Used for profiling the parser without Python.

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    for path in paths {
        let start = std::time::Instant::now();
        let src = _native::Source {
            path: path.clone(),
            entry: None,
        };
        let p = _native::parse_sources(&[src]).expect("parse");
        let secs = start.elapsed().as_secs_f64();
        let mb = p.diag.bytes_read as f64 / 1e6;
        println!(
            "{path}: {:.0} MB in {secs:.2} s = {:.0} MB/s, {} events, {} unknown lines",
            mb,
            mb / secs,
            p.cols.len(),
            p.diag.lines_unknown
        );
    }
}
