//! The open-model schedule: request i is due at start + i / rate and is sent then, whatever happened to the
//! ones before (a stalled server does not slow the arrivals down). Latency runs from the due time, so time
//! spent waiting for a connection or behind a stall is counted: no coordinated omission. Service time runs
//! from the moment the request had its connection (or began opening one) to the end of its response: what
//! a closed-model tool would report.
//!
//! One thread, one event loop. Requests leave at ticks of a precise clock (ticker.rs), within microseconds
//! of their due time. Between ticks the thread sleeps on the clock alone: a response that comes meanwhile
//! wakes nobody, and is read at the next tick with the kernel's receive time of its last byte (conn.rs),
//! so it is timed as precisely as if the driver had been waiting for it, for one wake-up per tick instead
//! of two per request. The driver waits on its sockets as well whenever one needs prompt care: a connect
//! under way, a request only partly written, requests waiting for a connection, the last responses after
//! the schedule, or a kernel that gives no receive times.

use mio::{Events, Interest, Poll, Token};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use slab::Slab;
use std::collections::VecDeque;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::config::LoadConfig;
use super::conn::{enable_timestamps, Conn, Received, Scratch, State, WallToMonotonic};
use super::mix::Mix;
use super::record::{Outcome, Recorder, Second, Window};
use super::ticker::{Clock, PRECISE};

/// What the caller shares with a running load: a way to stop it, and the recorder to watch it.
pub struct Shared {
    pub cancel: AtomicBool,
    pub recorder: Mutex<Recorder>,
    pub start: Instant,
    /// The same moment as `start`, as wall-clock time: where the run sits on other clocks (a GC log's).
    pub start_unix_s: f64,
}

/// A finished run: the measured window, the per-second series, and how well the driver kept to its
/// schedule (a driver starved of CPU sends late; its latencies still run from the due times).
#[derive(Debug, Clone)]
pub struct Report {
    pub window: Window,
    pub seconds: Vec<Second>,
    pub planned: u64,
    pub connections_opened: u64,
    pub retries: u64,
    /// Whether the schedule's clock is precise to microseconds (else to the next millisecond).
    pub precise_timer: bool,
    /// Responses timed when the driver read them, for want of the kernel's receive time.
    pub timed_at_read: u64,
    pub elapsed_s: f64,
    pub start_unix_s: f64,
}

/// A load ready to run: its configuration checked, the target's address resolved, the clock set to start
/// a little ahead (so that the first requests are not late).
pub struct Load {
    config: LoadConfig,
    mix: Mix,
    addr: SocketAddr,
    pub shared: Arc<Shared>,
}

pub fn prepare(config: &LoadConfig) -> Result<Load, String> {
    config.validate()?;
    let mix = Mix::new(config)?;
    let target = &config.target;
    let addr = (target.host.as_str(), target.port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut addrs| addrs.next())
        .ok_or_else(|| format!("{}: cannot resolve the host", target.host))?;
    let lead = Duration::from_millis(20);
    let start = Instant::now() + lead;
    let unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        + lead;
    let recorder = Recorder::new(start, config.warmup, config.duration);
    let shared = Arc::new(Shared {
        cancel: AtomicBool::new(false),
        recorder: Mutex::new(recorder),
        start,
        start_unix_s: unix.as_secs_f64(),
    });
    Ok(Load {
        config: config.clone(),
        mix,
        addr,
        shared,
    })
}

impl Load {
    /// Runs the load to its end (or until `shared.cancel`), in this thread.
    pub fn run(self) -> Result<Report, String> {
        let shared = self.shared.clone();
        let planned = self.config.planned();
        let mut driver =
            Driver::new(self).map_err(|e| format!("cannot start the load driver: {e}"))?;
        driver.run()?;
        let elapsed_s = shared.start.elapsed().as_secs_f64();
        let (window, seconds) = shared.recorder.lock().unwrap().finish();
        Ok(Report {
            window,
            seconds,
            planned,
            connections_opened: driver.opened,
            retries: driver.retries,
            precise_timer: PRECISE,
            timed_at_read: driver.timed_at_read,
            elapsed_s,
            start_unix_s: shared.start_unix_s,
        })
    }
}

/// The loop wakes at least this often, whatever the rate: to see Ctrl-C and to enforce timeouts.
const MAX_WAIT: Duration = Duration::from_millis(100);

/// At most this many connects at once: a burst of hundreds overflows a server's accept backlog, and every
/// dropped SYN costs a second (the kernel's first retransmission).
const MAX_CONNECTING: usize = 8;

/// Beyond this many responses without a kernel receive time, the driver wakes for every response.
const UNTIMED_TOLERANCE: u64 = 10;

const CLOCK: Token = Token(usize::MAX);

/// Every this many ticks the clock is set again to the exact due time of the next one: its period is a
/// whole number of nanoseconds, the schedule's is not (1/300 s), and 1,024 ticks drift by at most 0.5 us.
const RESYNC: u64 = 1024;

/// The due times: request i at `start + i / rate` (to the nanosecond), released by the ticks of a clock,
/// `per_tick` requests each, each tick at the due time of the last request of its group (so none leaves
/// early).
struct Schedule {
    start: Instant,
    rate: f64,
    per_tick: u64,
    clock: Clock,
    /// Ticks before the clock was last set.
    ticks_before: u64,
}

impl Schedule {
    /// Ticks at most every `tick`: with the default 200 us, up to 5,000 requests per second each has a tick
    /// of its own at its due time; above, the requests due within a tick leave together at its end.
    fn new(start: Instant, rate: f64, tick: Duration) -> std::io::Result<Schedule> {
        let period_ns = 1e9 / rate;
        let per_tick = (tick.as_nanos() as f64 / period_ns).ceil().max(1.0) as u64;
        let tick = Duration::from_nanos((period_ns * per_tick as f64).round().max(1.0) as u64);
        let first =
            start + Duration::from_nanos(((per_tick - 1) as f64 * period_ns).round() as u64);
        Ok(Schedule {
            start,
            rate,
            per_tick,
            clock: Clock::new(first, tick)?,
            ticks_before: 0,
        })
    }

    fn due(&self, i: u64) -> Instant {
        self.start + Duration::from_nanos((i as f64 * 1e9 / self.rate).round() as u64)
    }

    /// How many requests the ticks so far have released.
    fn released(&mut self) -> std::io::Result<u64> {
        let passed = self.clock.passed()?;
        let ticks = self.ticks_before + passed;
        if passed >= RESYNC {
            self.clock
                .reset(self.due((ticks + 1) * self.per_tick - 1))?;
            self.ticks_before = ticks;
        }
        Ok(ticks * self.per_tick)
    }
}

/// A request between its due time and its outcome.
struct Pending {
    /// Its place in the schedule: tells it apart from a later request under the same key.
    serial: u64,
    due: Instant,
    mix: usize,
    bytes: Vec<u8>,
    /// When it had its connection (or began opening one): where its service time starts.
    began: Option<Instant>,
    conn: Option<usize>,
    /// Sent again after a kept-alive connection turned out closed.
    retried: bool,
}

struct Driver {
    config: LoadConfig,
    mix: Mix,
    addr: SocketAddr,
    shared: Arc<Shared>,
    schedule: Schedule,
    poll: Poll,
    events: Events,
    conns: Slab<Conn>,
    idle: Vec<usize>,
    connecting: usize,
    /// Connections with part of their request not written yet.
    writing: usize,
    requests: Slab<Pending>,
    /// Requests waiting for a connection, first come first served: (key, serial).
    waiting: VecDeque<(usize, u64)>,
    /// Requests by deadline (due time + timeout, so in the order they were released): (deadline, key,
    /// serial). One queue swept at every wake-up, rather than a timer per request.
    deadlines: VecDeque<(Instant, usize, u64)>,
    rng: SmallRng,
    scratch: Scratch,
    /// Ready sockets of the last wait: (connection key, readable, writable).
    ready: Vec<(usize, bool, bool)>,
    opened: u64,
    retries: u64,
    timed_at_read: u64,
    /// Kept open for the run: the kernel turns receive time stamps on for good only a little while after
    /// the first socket asks for them, and the first responses should have them too.
    _stamps: Option<std::net::UdpSocket>,
}

impl Driver {
    fn new(load: Load) -> std::io::Result<Driver> {
        let schedule = Schedule::new(load.shared.start, load.config.rate, load.config.tick)?;
        let poll = Poll::new()?;
        if let Some(fd) = schedule.clock.ticker().fd() {
            poll.registry()
                .register(&mut mio::unix::SourceFd(&fd), CLOCK, Interest::READABLE)?;
        }
        let stamps = std::net::UdpSocket::bind(("127.0.0.1", 0)).ok();
        if let Some(socket) = &stamps {
            let _ = enable_timestamps(socket);
        }
        Ok(Driver {
            rng: SmallRng::seed_from_u64(load.config.seed),
            config: load.config,
            mix: load.mix,
            addr: load.addr,
            shared: load.shared,
            schedule,
            poll,
            events: Events::with_capacity(1024),
            conns: Slab::new(),
            idle: Vec::new(),
            connecting: 0,
            writing: 0,
            requests: Slab::new(),
            waiting: VecDeque::new(),
            deadlines: VecDeque::new(),
            scratch: Scratch::default(),
            ready: Vec::new(),
            opened: 0,
            retries: 0,
            timed_at_read: 0,
            _stamps: stamps,
        })
    }

    fn run(&mut self) -> Result<(), String> {
        let planned = self.config.planned();
        let mut next = 0;
        loop {
            self.wait(next >= planned)
                .map_err(|e| format!("the load driver failed: {e}"))?;
            self.handle_ready();
            let released = self
                .schedule
                .released()
                .map_err(|e| format!("the load driver's clock failed: {e}"))?
                .min(planned);
            for i in next..released {
                self.release(i);
            }
            next = released;
            self.expire(Instant::now());
            if self.shared.cancel.load(Ordering::Relaxed) {
                return Err("interrupted".into());
            }
            if next >= planned && self.requests.is_empty() {
                return Ok(());
            }
        }
    }

    /// Sleeps on the clock alone, or on the clock and the sockets when one needs prompt care (see the
    /// module's comment); then takes the sockets' events.
    fn wait(&mut self, schedule_done: bool) -> std::io::Result<()> {
        let prompt = schedule_done
            || self.connecting > 0
            || self.writing > 0
            || !self.waiting.is_empty()
            || self.timed_at_read > UNTIMED_TOLERANCE
            || self.schedule.clock.ticker().fd().is_none();
        let ticker = self.schedule.clock.ticker();
        let timeout = if prompt {
            ticker.until_next(MAX_WAIT)
        } else {
            ticker.wait(MAX_WAIT)?;
            Duration::ZERO
        };
        match self.poll.poll(&mut self.events, Some(timeout)) {
            Err(e) if e.kind() != std::io::ErrorKind::Interrupted => return Err(e),
            _ => {}
        }
        self.ready.clear();
        for event in self.events.iter() {
            if event.token() != CLOCK {
                let readable = event.is_readable() || event.is_read_closed() || event.is_error();
                self.ready
                    .push((event.token().0, readable, event.is_writable()));
            }
        }
        Ok(())
    }

    fn handle_ready(&mut self) {
        if self.ready.is_empty() {
            return;
        }
        let clocks = WallToMonotonic::now();
        let ready = std::mem::take(&mut self.ready);
        for &(key, readable, writable) in &ready {
            self.on_ready(key, readable, writable, &clocks);
        }
        self.ready = ready;
        self.serve_waiting();
    }

    fn on_ready(&mut self, key: usize, readable: bool, writable: bool, clocks: &WallToMonotonic) {
        let Some(conn) = self.conns.get_mut(key) else {
            return; // closed earlier in this round
        };
        match conn.state {
            State::Connecting => match conn.connected() {
                Ok(false) => {}
                Ok(true) => {
                    self.connecting -= 1;
                    self.opened += 1;
                    match conn.request {
                        Some(request) => self.send(key, request),
                        None => self.make_idle(key),
                    }
                }
                Err(_) => {
                    let conn = self.close(key);
                    if let Some(request) = conn.request {
                        self.finish(request, Outcome::Failed("connect"), Instant::now());
                    }
                }
            },
            State::Idle => {
                if readable && conn.check_idle().is_err() {
                    self.close(key); // the server closed it while idle
                }
            }
            State::Busy => {
                if writable && conn.writing() {
                    let flushed = conn.flush();
                    if flushed.is_err() {
                        return self.broken(key, false);
                    }
                    if !conn.writing() {
                        self.writing -= 1;
                    }
                }
                if readable {
                    match conn.read(&mut self.scratch) {
                        Received::More => {}
                        Received::Done {
                            status,
                            keep_alive,
                            at,
                        } => {
                            let request = conn.request.expect("a busy connection has a request");
                            let end = match at {
                                Some(at) => clocks.instant(at),
                                None => {
                                    self.timed_at_read += 1;
                                    Instant::now()
                                }
                            };
                            self.finish(request, Outcome::Response(status), end);
                            if keep_alive {
                                self.conns[key].release();
                                self.make_idle(key);
                            } else {
                                self.close(key);
                            }
                        }
                        Received::Broken { started } => self.broken(key, started),
                    }
                }
            }
        }
    }

    /// Request `i` of the schedule is due: on its way.
    fn release(&mut self, i: u64) {
        let due = self.schedule.due(i);
        self.shared
            .recorder
            .lock()
            .unwrap()
            .sent(due, Instant::now());
        let mix = self.mix.pick(&mut self.rng);
        let mut bytes = Vec::with_capacity(128);
        self.mix.encode(mix, &mut self.rng, &mut bytes);
        let key = self.requests.insert(Pending {
            serial: i,
            due,
            mix,
            bytes,
            began: None,
            conn: None,
            retried: false,
        });
        self.deadlines
            .push_back((due + self.config.timeout, key, i));
        if self.waiting.is_empty() {
            self.dispatch(key);
        } else {
            self.waiting.push_back((key, i)); // behind those already waiting
        }
    }

    /// Sends a request on an idle connection, or on a new one, or queues it for the next one free.
    fn dispatch(&mut self, request: usize) {
        if let Some(conn) = self.idle.pop() {
            return self.send(conn, request);
        }
        if self.conns.len() < self.config.max_connections && self.connecting < MAX_CONNECTING {
            return self.open(request);
        }
        let serial = self.requests[request].serial;
        self.waiting.push_back((request, serial));
    }

    /// Sends waiting requests while connections are free or can be opened.
    fn serve_waiting(&mut self) {
        while let Some(&(request, serial)) = self.waiting.front() {
            if self
                .requests
                .get(request)
                .is_none_or(|p| p.serial != serial)
            {
                self.waiting.pop_front(); // ended meanwhile (a timeout)
                continue;
            }
            let can_open =
                self.conns.len() < self.config.max_connections && self.connecting < MAX_CONNECTING;
            if self.idle.is_empty() && !can_open {
                return;
            }
            self.waiting.pop_front();
            self.dispatch(request);
        }
    }

    fn open(&mut self, request: usize) {
        let now = Instant::now();
        let entry = self.conns.vacant_entry();
        let key = entry.key();
        let opened = Conn::connect(self.addr).and_then(|mut conn| {
            self.poll.registry().register(
                &mut conn.stream,
                Token(key),
                Interest::READABLE | Interest::WRITABLE,
            )?;
            Ok(conn)
        });
        match opened {
            Ok(mut conn) => {
                conn.request = Some(request);
                entry.insert(conn);
                self.connecting += 1;
                let pending = &mut self.requests[request];
                pending.conn = Some(key);
                pending.began.get_or_insert(now);
            }
            Err(_) => self.finish(request, Outcome::Failed("connect"), now),
        }
    }

    fn send(&mut self, conn: usize, request: usize) {
        let pending = &mut self.requests[request];
        pending.conn = Some(conn);
        pending.began.get_or_insert_with(Instant::now);
        let head_only = self.mix.head_only(pending.mix);
        let c = &mut self.conns[conn];
        if c.start(request, &pending.bytes, head_only).is_err() {
            return self.broken(conn, false);
        }
        if c.writing() {
            self.writing += 1;
        }
    }

    /// A free connection: to the first waiting request, else among the idle ones.
    fn make_idle(&mut self, conn: usize) {
        self.idle.push(conn);
        self.serve_waiting();
    }

    /// A connection failed; its request is sent again (once) if the failure is a kept-alive connection the
    /// server had closed (nothing of a response came), else it failed with "io".
    fn broken(&mut self, conn: usize, started: bool) {
        let c = self.close(conn);
        if let Some(request) = c.request {
            let pending = &mut self.requests[request];
            if c.reused && !started && !pending.retried {
                pending.retried = true;
                pending.conn = None;
                self.retries += 1;
                self.dispatch(request);
            } else {
                self.finish(request, Outcome::Failed("io"), Instant::now());
            }
        }
    }

    fn close(&mut self, key: usize) -> Conn {
        let mut conn = self.conns.remove(key);
        let _ = self.poll.registry().deregister(&mut conn.stream);
        match conn.state {
            State::Connecting => self.connecting -= 1,
            State::Idle => {
                if let Some(i) = self.idle.iter().position(|&k| k == key) {
                    self.idle.swap_remove(i);
                }
            }
            State::Busy => {
                if conn.writing() {
                    self.writing -= 1;
                }
            }
        }
        conn
    }

    fn finish(&mut self, request: usize, outcome: Outcome, end: Instant) {
        let p = self.requests.remove(request);
        let mut recorder = self.shared.recorder.lock().unwrap();
        recorder.finished(p.due, p.began, end, &outcome);
    }

    /// Requests past their deadline end as timeouts; their connections are closed (a late response would
    /// arrive on them).
    fn expire(&mut self, now: Instant) {
        let mut any = false;
        while let Some(&(deadline, request, serial)) = self.deadlines.front() {
            if deadline > now {
                break;
            }
            self.deadlines.pop_front();
            let Some(pending) = self.requests.get(request) else {
                continue;
            };
            if pending.serial != serial {
                continue;
            }
            if let Some(conn) = pending.conn {
                self.close(conn);
            }
            self.finish(request, Outcome::Failed("timeout"), now);
            any = true;
        }
        if any {
            self.serve_waiting();
        }
    }
}
