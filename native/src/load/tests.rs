//! The load driver against the local test server: schedule, stalls, error kinds, the connection bound.

use super::server::{Server, ServerConfig};
use super::{prepare, LoadConfig, Report, RequestSpec, Target};
use bytes::Bytes;
use std::time::Duration;

fn config(port: u16, path: &str, rate: f64, seconds: f64) -> LoadConfig {
    LoadConfig {
        target: Target::parse(&format!("http://127.0.0.1:{port}{path}")).unwrap(),
        rate,
        warmup: Duration::ZERO,
        duration: Duration::from_secs_f64(seconds),
        timeout: Duration::from_secs(2),
        max_connections: 64,
        tick: Duration::from_micros(200),
        mix: vec![RequestSpec {
            method: "GET".into(),
            path: String::new(),
            headers: vec![],
            body: Bytes::new(),
            weight: 1.0,
        }],
        seed: 1,
    }
}

fn drive(c: &LoadConfig) -> Report {
    prepare(c).unwrap().run().unwrap()
}

#[test]
fn every_planned_request_is_sent_and_answered() {
    let server = Server::start(ServerConfig::default()).unwrap();
    let r = drive(&config(server.port, "/", 500.0, 1.0));
    assert_eq!(r.planned, 500);
    assert_eq!((r.window.sent, r.window.completed), (500, 500));
    assert!(r.window.errors.is_empty(), "{:?}", r.window.errors);
    assert!(r.window.latency.p50_ms.unwrap() < 50.0);
}

#[test]
fn a_stall_shows_in_the_tail_and_does_not_slow_the_arrivals() {
    let stall = ServerConfig {
        stall_every: Duration::from_millis(1000),
        stall: Duration::from_millis(200),
        ..Default::default()
    };
    let server = Server::start(stall).unwrap();
    let r = drive(&config(server.port, "/", 200.0, 2.0));
    assert_eq!(r.window.sent, 400);
    assert!(
        r.window.latency.p99_ms.unwrap() >= 150.0,
        "{:?}",
        r.window.latency
    );
    assert!(
        r.window.latency.p50_ms.unwrap() < 100.0,
        "{:?}",
        r.window.latency
    );
    assert!(
        r.seconds
            .iter()
            .take(2)
            .all(|s| (195..=205).contains(&s.sent)),
        "{:?}",
        r.seconds
    );
}

#[test]
fn errors_by_kind() {
    let server = Server::start(ServerConfig::default()).unwrap();
    let r = drive(&config(server.port, "/status/503", 100.0, 0.5));
    assert_eq!(r.window.errors.get("status_503"), Some(&50));
    assert_eq!(r.window.completed, 50); // a 5xx is a response: its latency counts
    let r = drive(&config(server.port, "/drop", 100.0, 0.5));
    assert_eq!(r.window.errors.get("io"), Some(&50));
    let mut slow = config(server.port, "/delay/300", 50.0, 0.5);
    slow.timeout = Duration::from_millis(100);
    let r = drive(&slow);
    assert_eq!(r.window.errors.get("timeout"), Some(&25));
    let port = server.port;
    drop(server);
    let r = drive(&config(port, "/", 100.0, 0.3));
    assert_eq!(r.window.errors.get("connect"), Some(&30));
}

#[test]
fn beyond_the_connection_bound_requests_wait_and_their_wait_counts() {
    let server = Server::start(ServerConfig::default()).unwrap();
    let mut c = config(server.port, "/delay/50", 100.0, 1.0);
    c.max_connections = 2; // 2 connections serve at most 40 requests/s of 50 ms: the queue grows
    let r = drive(&c);
    assert_eq!(r.connections_opened, 2);
    assert!(
        r.window.latency.max_ms.unwrap() > 500.0,
        "{:?}",
        r.window.latency
    );
}

#[test]
fn connections_closed_by_the_server_are_replaced() {
    let server = Server::start(ServerConfig::default()).unwrap();
    let r = drive(&config(server.port, "/close", 100.0, 0.5));
    assert_eq!((r.window.completed, r.window.errors.len()), (50, 0));
    assert!(r.connections_opened >= 40, "{}", r.connections_opened);
}

#[test]
fn a_weighted_mix_with_drawn_ids() {
    let server = Server::start(ServerConfig::default()).unwrap();
    let mut c = config(server.port, "/", 400.0, 1.0);
    let request = |path: &str, weight: f64| RequestSpec {
        method: "GET".into(),
        path: path.into(),
        headers: vec![("Accept".into(), "application/json".into())],
        body: Bytes::new(),
        weight,
    };
    c.mix = vec![
        request("/status/{rand:500..503}", 1.0),
        request("/items/{rand:1..9}?q=x", 3.0),
    ];
    let r = drive(&c);
    let errors: u64 = r.window.errors.values().sum();
    assert_eq!(r.window.completed, 400);
    assert!(
        (60..140).contains(&errors),
        "about a quarter are /status/50x: {:?}",
        r.window.errors
    );
    assert!(r.window.errors.keys().all(|k| [
        "status_500",
        "status_501",
        "status_502",
        "status_503"
    ]
    .contains(&k.as_str())));
    assert_eq!(r.window.errors.len(), 4);
    c.mix = vec![request("/items/{rand:9..1}", 1.0)];
    assert!(prepare(&c).err().unwrap().contains("not a range"));
}

#[test]
fn the_measured_window_holds_duration_times_rate_requests() {
    // 1/300 s is no whole number of nanoseconds: the due times must still fall on the window's bounds
    let server = Server::start(ServerConfig::default()).unwrap();
    let mut c = config(server.port, "/", 300.0, 1.0);
    c.warmup = Duration::from_millis(500);
    let r = drive(&c);
    assert_eq!(r.planned, 450);
    assert_eq!((r.window.sent, r.window.completed), (300, 300));
    assert_eq!(r.window.send_lag.count, 300);
}

#[test]
fn a_longer_tick_releases_requests_in_bursts() {
    // The median gap, not a low quantile: a virtual machine that deschedules the driver for milliseconds
    // now and then (seen here: send lag p99 6 ms) releases what fell due meanwhile at once, and those
    // gaps near zero can be a tenth of all, whatever the tick.
    let server = Server::start(ServerConfig::default()).unwrap();
    let mut even = config(server.port, "/", 4000.0, 1.0);
    let r = drive(&even);
    let spread = server.arrivals.lock().unwrap().gaps.value_at_quantile(0.5);
    server.arrivals.lock().unwrap().reset();
    assert_eq!(r.window.completed, 4000);
    assert!(
        spread >= 150,
        "median gap {spread} us: 250 us apart expected"
    );
    even.tick = Duration::from_millis(1);
    let r = drive(&even);
    let bursty = server.arrivals.lock().unwrap().gaps.value_at_quantile(0.5);
    assert_eq!(r.window.completed, 4000);
    assert!(bursty < 100, "median gap {bursty} us: 4 at a time expected");
    // due times spread over the tick, released at its end: on average half a tick late
    let lag = r.window.send_lag.p50_ms.unwrap();
    assert!((0.2..1.5).contains(&lag), "{lag}");
}
