//! What a load run does: the target, the arrival rate and durations, the connection bound and the weighted
//! request mix. Validated before anything is sent; errors name the setting.

use bytes::Bytes;
use std::time::Duration;

/// Where requests go: plain HTTP/1.1 to one host and port.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub host: String,
    pub port: u16,
    /// The URL's path and query, used for requests whose path is empty.
    pub path: String,
}

impl Target {
    /// `http://host[:port][/path]`; https is refused with the reason.
    pub fn parse(url: &str) -> Result<Target, String> {
        let rest = match url.split_once("://") {
            Some(("http", rest)) => rest,
            Some(("https", _)) => {
                return Err(format!("{url}: https is not supported; use http://"))
            }
            _ => return Err(format!("{url}: expected an http:// URL")),
        };
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => {
                let port = p
                    .parse::<u16>()
                    .map_err(|_| format!("{url}: port {p:?} is not a number"))?;
                (h, port)
            }
            _ => (authority, 80),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() {
            return Err(format!("{url}: no host"));
        }
        Ok(Target {
            host: host.to_string(),
            port,
            path: path.to_string(),
        })
    }

    pub fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// One kind of request of the mix, chosen with probability weight / sum of weights.
#[derive(Debug, Clone)]
pub struct RequestSpec {
    pub method: String,
    /// Path and query; empty means the target URL's. `{rand:A..B}` is replaced per request by a number
    /// drawn from A..=B.
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Bytes,
    pub weight: f64,
}

#[derive(Debug, Clone)]
pub struct LoadConfig {
    pub target: Target,
    /// Requests per second, started on schedule whatever the server does.
    pub rate: f64,
    pub warmup: Duration,
    /// The measured window, after the warm-up.
    pub duration: Duration,
    /// A request with no complete response this long after its intended send time is a timeout.
    pub timeout: Duration,
    /// At most this many connections are open at once; beyond, requests wait (and their wait counts).
    pub max_connections: usize,
    /// Requests are released at most this often: those due within one tick leave together at its end (up
    /// to a tick late). The default, 200 us: every request at its own due time up to 5,000/s, and at most
    /// 5,000 wake-ups a second above; longer: fewer wake-ups, so less CPU, in bursts.
    pub tick: Duration,
    pub mix: Vec<RequestSpec>,
    /// Seed of the choice of requests from the mix.
    pub seed: u64,
}

impl LoadConfig {
    pub fn validate(&self) -> Result<(), String> {
        if !(self.rate.is_finite() && self.rate > 0.0 && self.rate <= 1_000_000.0) {
            return Err(format!(
                "rate {}: give requests per second, above 0 and at most 1,000,000",
                self.rate
            ));
        }
        if self.duration.is_zero() {
            return Err("duration: must be above 0".into());
        }
        if self.timeout.is_zero() {
            return Err("timeout: must be above 0".into());
        }
        if self.max_connections == 0 {
            return Err("connections: at least 1".into());
        }
        if self.tick < Duration::from_micros(1) || self.tick > Duration::from_secs(1) {
            return Err(format!(
                "tick {:?}: give 1 us to 1 s (200 us keeps every request on its due time up to 5,000/s)",
                self.tick
            ));
        }
        if self.mix.is_empty() {
            return Err("mix: at least one request".into());
        }
        for r in &self.mix {
            if !(r.weight.is_finite() && r.weight > 0.0) {
                return Err(format!(
                    "mix: weight {} of {} {}: must be above 0",
                    r.weight, r.method, r.path
                ));
            }
            // `::http`: the crate (hyper's types, no runtime), not the driver's own `load::http`.
            if ::http::Method::from_bytes(r.method.as_bytes()).is_err() {
                return Err(format!("mix: {:?} is not an HTTP method", r.method));
            }
            if !r.path.is_empty() && !r.path.starts_with('/') {
                return Err(format!("mix: path {:?} must start with /", r.path));
            }
            for (name, value) in &r.headers {
                if name.eq_ignore_ascii_case("transfer-encoding") {
                    return Err(format!(
                        "mix: header {name:?}: not supported (the driver sends bodies with Content-Length)"
                    ));
                }
                if ::http::HeaderName::from_bytes(name.as_bytes()).is_err()
                    || ::http::HeaderValue::from_str(value).is_err()
                {
                    return Err(format!(
                        "mix: header {name:?}: {value:?} is not a valid header"
                    ));
                }
            }
        }
        Ok(())
    }

    /// How many requests the schedule holds: warm-up and measured window at the rate.
    pub fn planned(&self) -> u64 {
        ((self.warmup + self.duration).as_secs_f64() * self.rate).floor() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let t = Target::parse("http://127.0.0.1:8080/api?q=1").unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.path.as_str()),
            ("127.0.0.1", 8080, "/api?q=1")
        );
        let t = Target::parse("http://localhost").unwrap();
        assert_eq!((t.port, t.path.as_str()), (80, "/"));
        let t = Target::parse("http://[::1]:9000/").unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.authority()),
            ("::1", 9000, "[::1]:9000".to_string())
        );
        assert!(Target::parse("https://x")
            .unwrap_err()
            .contains("https is not supported"));
        assert!(Target::parse("x:80").is_err());
        assert!(Target::parse("http://h:port/")
            .unwrap_err()
            .contains("not a number"));
    }

    fn one_request(method: &str, headers: &[(&str, &str)]) -> Result<(), String> {
        LoadConfig {
            target: Target::parse("http://127.0.0.1:8080/").unwrap(),
            rate: 1.0,
            warmup: Duration::ZERO,
            duration: Duration::from_secs(1),
            timeout: Duration::from_secs(1),
            max_connections: 1,
            tick: Duration::from_micros(200),
            mix: vec![RequestSpec {
                method: method.into(),
                path: "/".into(),
                headers: headers
                    .iter()
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect(),
                body: Bytes::new(),
                weight: 1.0,
            }],
            seed: 1,
        }
        .validate()
    }

    #[test]
    fn methods_and_headers_are_checked() {
        // Methods: any token (RFC 9110 5.6.2), extension methods included.
        for ok in ["GET", "PURGE", "M-SEARCH"] {
            assert_eq!(one_request(ok, &[]), Ok(()), "{ok}");
        }
        for bad in ["", "GE T", "GET\r", "GET(1)"] {
            let err = one_request(bad, &[]).unwrap_err();
            assert!(err.contains("is not an HTTP method"), "{bad:?}: {err}");
        }
        // Names: tokens; values: visible characters, spaces and tabs, and bytes above 127 (obs-text).
        for ok in [
            ("X-Id", "a b\tc"),
            ("accept", "*/*"),
            ("X-Name", "caf\u{e9}"),
        ] {
            assert_eq!(one_request("GET", &[ok]), Ok(()), "{ok:?}");
        }
        for bad in [
            ("Bad Name", "v"),
            ("", "v"),
            ("X-A", "a\r\nb"),
            ("X-A", "a\u{7f}"),
        ] {
            let err = one_request("GET", &[bad]).unwrap_err();
            assert!(err.contains("is not a valid header"), "{bad:?}: {err}");
        }
        let err = one_request("POST", &[("Transfer-Encoding", "chunked")]).unwrap_err();
        assert!(err.contains("not supported"), "{err}");
    }
}
