//! The requests of a load: the weighted mix, each request's HTTP/1.1 bytes prepared once but for its path,
//! which may carry `{rand:A..B}` pieces drawn per request (so that requests spread over ids, as real traffic
//! does).

use rand::rngs::SmallRng;
use rand::Rng;
use std::io::Write;

use super::config::{LoadConfig, RequestSpec};

pub struct Mix {
    requests: Vec<Prepared>,
    cumulative: Vec<f64>,
}

/// One request of the mix on the wire: `head` + path + `tail` (the rest of the request line, the headers
/// and the body).
struct Prepared {
    head: Vec<u8>,
    path: PathTemplate,
    tail: Vec<u8>,
    /// A HEAD request: its response has no body whatever its headers say.
    head_only: bool,
}

enum PathTemplate {
    Fixed(String),
    Drawn(Vec<Piece>),
}

enum Piece {
    Text(String),
    Rand(u64, u64),
}

impl PathTemplate {
    fn parse(path: &str) -> Result<PathTemplate, String> {
        let mut pieces = Vec::new();
        let mut rest = path;
        while let Some(open) = rest.find("{rand:") {
            let close = rest[open..]
                .find('}')
                .ok_or(format!("mix: path {path:?}: unclosed {{rand:"))?
                + open;
            let range = &rest[open + 6..close];
            let (lo, hi) = range
                .split_once("..")
                .and_then(|(a, b)| {
                    Some((a.trim().parse::<u64>().ok()?, b.trim().parse::<u64>().ok()?))
                })
                .filter(|(a, b)| a <= b)
                .ok_or(format!(
                    "mix: path {path:?}: {{rand:{range}}} is not a range like {{rand:1..1000}}"
                ))?;
            pieces.push(Piece::Text(rest[..open].to_string()));
            pieces.push(Piece::Rand(lo, hi));
            rest = &rest[close + 1..];
        }
        pieces.push(Piece::Text(rest.to_string()));
        // The path as a request target (origin form), checked with a number in place of each range by the
        // `http` crate (the parser of hyper's servers).
        let sample: String = pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Rand(lo, _) => lo.to_string(),
            })
            .collect();
        match sample.parse::<::http::Uri>() {
            Ok(uri) if uri.scheme().is_none() && sample.starts_with('/') => {}
            Ok(_) => return Err(format!("mix: path {path:?} must start with /")),
            Err(e) => return Err(format!("mix: path {path:?}: {e}")),
        }
        Ok(match pieces.as_slice() {
            [Piece::Text(only)] => PathTemplate::Fixed(only.clone()),
            _ => PathTemplate::Drawn(pieces),
        })
    }

    fn write(&self, rng: &mut SmallRng, out: &mut Vec<u8>) {
        match self {
            PathTemplate::Fixed(path) => out.extend_from_slice(path.as_bytes()),
            PathTemplate::Drawn(pieces) => {
                for p in pieces {
                    match p {
                        Piece::Text(t) => out.extend_from_slice(t.as_bytes()),
                        Piece::Rand(lo, hi) => {
                            let _ = write!(out, "{}", rng.gen_range(*lo..=*hi));
                        }
                    }
                }
            }
        }
    }
}

impl Prepared {
    fn new(spec: &RequestSpec, config: &LoadConfig) -> Result<Prepared, String> {
        let path = if spec.path.is_empty() {
            config.target.path.as_str()
        } else {
            spec.path.as_str()
        };
        let method = spec.method.as_str();
        let has = |name: &str| {
            spec.headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        let mut tail = b" HTTP/1.1\r\n".to_vec();
        if !has("host") {
            tail.extend_from_slice(format!("host: {}\r\n", config.target.authority()).as_bytes());
        }
        for (name, value) in &spec.headers {
            tail.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
        }
        let sends_body = !spec.body.is_empty() || matches!(method, "POST" | "PUT" | "PATCH");
        if sends_body && !has("content-length") {
            tail.extend_from_slice(format!("content-length: {}\r\n", spec.body.len()).as_bytes());
        }
        tail.extend_from_slice(b"\r\n");
        tail.extend_from_slice(&spec.body);
        Ok(Prepared {
            head: format!("{method} ").into_bytes(),
            path: PathTemplate::parse(path)?,
            tail,
            head_only: method == "HEAD",
        })
    }
}

impl Mix {
    /// The mix of `config`, checked: paths, and headers the driver cannot send as given.
    pub fn new(config: &LoadConfig) -> Result<Mix, String> {
        let mut requests = Vec::new();
        let mut cumulative = Vec::new();
        let mut total = 0.0;
        for spec in &config.mix {
            requests.push(Prepared::new(spec, config)?);
            total += spec.weight;
            cumulative.push(total);
        }
        Ok(Mix {
            requests,
            cumulative,
        })
    }

    /// The index of a request drawn with probability proportional to its weight.
    pub fn pick(&self, rng: &mut SmallRng) -> usize {
        let x = rng.gen::<f64>() * self.cumulative.last().copied().unwrap_or(1.0);
        self.cumulative
            .partition_point(|&c| c <= x)
            .min(self.requests.len() - 1)
    }

    /// Request `index` as bytes, appended to `out`, its path's numbers drawn from `rng`.
    pub fn encode(&self, index: usize, rng: &mut SmallRng, out: &mut Vec<u8>) {
        let r = &self.requests[index];
        out.extend_from_slice(&r.head);
        r.path.write(rng, out);
        out.extend_from_slice(&r.tail);
    }

    pub fn head_only(&self, index: usize) -> bool {
        self.requests[index].head_only
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::config::Target;
    use bytes::Bytes;
    use rand::SeedableRng;
    use std::time::Duration;

    fn config(mix: Vec<RequestSpec>) -> LoadConfig {
        LoadConfig {
            target: Target::parse("http://127.0.0.1:8080/default?q=1").unwrap(),
            rate: 1.0,
            warmup: Duration::ZERO,
            duration: Duration::from_secs(1),
            timeout: Duration::from_secs(1),
            max_connections: 1,
            tick: Duration::from_micros(200),
            mix,
            seed: 1,
        }
    }

    fn spec(method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> RequestSpec {
        RequestSpec {
            method: method.into(),
            path: path.into(),
            headers: headers
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            body: Bytes::copy_from_slice(body),
            weight: 1.0,
        }
    }

    fn encoded(s: RequestSpec) -> String {
        let mix = Mix::new(&config(vec![s])).unwrap();
        let mut out = Vec::new();
        mix.encode(0, &mut SmallRng::seed_from_u64(1), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn requests_on_the_wire() {
        assert_eq!(
            encoded(spec("GET", "", &[], b"")),
            "GET /default?q=1 HTTP/1.1\r\nhost: 127.0.0.1:8080\r\n\r\n"
        );
        assert_eq!(
            encoded(spec(
                "POST",
                "/orders",
                &[("Content-Type", "application/json")],
                b"{}"
            )),
            "POST /orders HTTP/1.1\r\nhost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n\
             content-length: 2\r\n\r\n{}"
        );
        assert_eq!(
            encoded(spec("DELETE", "/x", &[("Host", "api")], b"")),
            "DELETE /x HTTP/1.1\r\nHost: api\r\n\r\n"
        );
        let drawn = encoded(spec("GET", "/p/{rand:5..5}/q/{rand:1..3}", &[], b""));
        assert!(drawn.starts_with("GET /p/5/q/"), "{drawn}");
    }

    #[test]
    fn bad_paths_are_refused() {
        for (path, message) in [
            ("/x/{rand:9..1}", "is not a range"),
            ("/x/{rand:1..2", "unclosed"),
            ("/a b", "/a b"),
        ] {
            let err = Mix::new(&config(vec![spec("GET", path, &[], b"")]))
                .err()
                .unwrap();
            assert!(err.contains(message), "{path}: {err}");
        }
    }

    #[test]
    fn weights() {
        let mut a = spec("GET", "/a", &[], b"");
        a.weight = 3.0;
        let mix = Mix::new(&config(vec![a, spec("GET", "/b", &[], b"")])).unwrap();
        let mut rng = SmallRng::seed_from_u64(7);
        let firsts = (0..4000).filter(|_| mix.pick(&mut rng) == 0).count();
        assert!((2800..3200).contains(&firsts), "{firsts}");
    }
}
