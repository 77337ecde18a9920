//! The schedule's clock: a tick at every due time, precise to microseconds. A millisecond timer (tokio's,
//! an epoll timeout) would let a request due 0.2 ms from now leave up to a millisecond late, and that
//! lateness would read as the server's latency. On Linux the ticks come from a periodic timerfd: a kernel
//! timer with nanosecond resolution and no timer slack, that spends no CPU spinning and needs no system
//! call to re-arm (one read gives the ticks that have passed). Elsewhere the ticks are computed from the
//! clock and waited for with millisecond timeouts, and `PRECISE` says so.

use std::io;
use std::time::{Duration, Instant};

/// Whether ticks come within microseconds of their time (Linux) or at the next millisecond.
pub const PRECISE: bool = cfg!(target_os = "linux");

pub use imp::Ticker;

#[cfg(target_os = "linux")]
mod imp {
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
    use std::time::{Duration, Instant};

    /// Ticks at `first`, then every `period`.
    pub struct Ticker {
        fd: OwnedFd,
    }

    fn timespec(d: Duration) -> libc::timespec {
        libc::timespec {
            tv_sec: d.as_secs() as libc::time_t,
            tv_nsec: d.subsec_nanos() as libc::c_long,
        }
    }

    impl Ticker {
        pub fn new(first: Instant, period: Duration) -> io::Result<Ticker> {
            // SAFETY: timerfd_create has no memory arguments.
            let raw = unsafe {
                libc::timerfd_create(
                    libc::CLOCK_MONOTONIC,
                    libc::TFD_NONBLOCK | libc::TFD_CLOEXEC,
                )
            };
            if raw < 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: `raw` was just created and is owned by nothing else.
            let fd = unsafe { OwnedFd::from_raw_fd(raw) };
            let mut ticker = Ticker { fd };
            ticker.arm(first, period)?;
            Ok(ticker)
        }

        /// Ticks from `first` on, every `period` (ticks not taken yet are dropped).
        pub fn arm(&mut self, first: Instant, period: Duration) -> io::Result<()> {
            // Relative to now (Instant is CLOCK_MONOTONIC too, so the ticks come at or just after the due
            // times the caller computes); a zero value would disarm the timer.
            let left = first
                .saturating_duration_since(Instant::now())
                .max(Duration::from_nanos(1));
            let spec = libc::itimerspec {
                it_interval: timespec(period),
                it_value: timespec(left),
            };
            let fd = self.fd.as_raw_fd();
            // SAFETY: `spec` outlives the call; the old value is not asked for.
            if unsafe { libc::timerfd_settime(fd, 0, &spec, std::ptr::null_mut()) } < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        }

        /// The descriptor, readable at each tick: for an event loop to wait on with the rest.
        pub fn fd(&self) -> Option<RawFd> {
            Some(self.fd.as_raw_fd())
        }

        /// Ticks since the last call (0 if none); never blocks.
        pub fn take(&mut self) -> io::Result<u64> {
            let mut ticks = [0u8; 8];
            // SAFETY: reads at most 8 bytes into a buffer of 8.
            let n = unsafe { libc::read(self.fd.as_raw_fd(), ticks.as_mut_ptr().cast(), 8) };
            if n == 8 {
                return Ok(u64::from_ne_bytes(ticks));
            }
            let e = io::Error::last_os_error();
            match e.kind() {
                io::ErrorKind::WouldBlock => Ok(0),
                _ => Err(e),
            }
        }

        /// Blocks until the next tick, or at most `limit`.
        pub fn wait(&self, limit: Duration) -> io::Result<()> {
            let mut fd = libc::pollfd {
                fd: self.fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = limit.as_millis().min(i32::MAX as u128) as libc::c_int;
            // SAFETY: one valid pollfd.
            if unsafe { libc::poll(&mut fd, 1, ms) } < 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
            Ok(())
        }

        /// How long an event loop may wait for its other events before the next tick: the timer's
        /// descriptor wakes it at the tick, so only the caller's own limit counts.
        pub fn until_next(&self, limit: Duration) -> Duration {
            limit
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::io;
    use std::time::{Duration, Instant};

    /// Ticks at `first`, then every `period`, read off the clock.
    pub struct Ticker {
        first: Instant,
        period: Duration,
        seen: u64,
    }

    impl Ticker {
        pub fn new(first: Instant, period: Duration) -> io::Result<Ticker> {
            Ok(Ticker {
                first,
                period,
                seen: 0,
            })
        }

        pub fn arm(&mut self, first: Instant, period: Duration) -> io::Result<()> {
            *self = Ticker::new(first, period)?;
            Ok(())
        }

        pub fn fd(&self) -> Option<i32> {
            None
        }

        fn passed(&self) -> u64 {
            let now = Instant::now();
            if now < self.first {
                return 0;
            }
            (now - self.first).as_nanos() as u64 / self.period.as_nanos() as u64 + 1
        }

        pub fn take(&mut self) -> io::Result<u64> {
            let passed = self.passed();
            let new = passed - self.seen;
            self.seen = passed;
            Ok(new)
        }

        pub fn until_next(&self, limit: Duration) -> Duration {
            let next = self.first + self.period * self.seen as u32;
            next.saturating_duration_since(Instant::now()).min(limit)
        }

        pub fn wait(&self, limit: Duration) -> io::Result<()> {
            std::thread::sleep(self.until_next(limit));
            Ok(())
        }
    }
}

/// Ticks that have passed since the clock was (re)set, over a `Ticker`.
pub struct Clock {
    ticker: Ticker,
    period: Duration,
    passed: u64,
}

impl Clock {
    /// Ticks at `first`, then every `period`.
    pub fn new(first: Instant, period: Duration) -> io::Result<Clock> {
        Ok(Clock {
            ticker: Ticker::new(first, period)?,
            period,
            passed: 0,
        })
    }

    pub fn ticker(&self) -> &Ticker {
        &self.ticker
    }

    /// Ticks that have passed since the clock was (re)set (never blocks).
    pub fn passed(&mut self) -> io::Result<u64> {
        self.passed += self.ticker.take()?;
        Ok(self.passed)
    }

    /// Sets the next tick to `first` (the period stays): for a schedule whose times are not whole
    /// multiples of a nanosecond period, to stop the drift.
    pub fn reset(&mut self, first: Instant) -> io::Result<()> {
        self.ticker.arm(first, self.period)?;
        self.passed = 0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How late the ticks come, in microseconds: (median, max) over `n` ticks of `period`.
    fn lateness(n: u64, period: Duration) -> io::Result<(u64, u64)> {
        let first = Instant::now() + Duration::from_millis(2);
        let mut clock = Clock::new(first, period)?;
        let mut late = Vec::new();
        let mut seen = 0;
        while seen < n {
            clock.ticker().wait(Duration::from_millis(100))?;
            let passed = clock.passed()?;
            if passed > seen {
                seen = passed;
                let due = first + period * (seen - 1) as u32;
                late.push(Instant::now().saturating_duration_since(due).as_micros() as u64);
            }
        }
        late.sort_unstable();
        Ok((late[late.len() / 2], late[late.len() - 1]))
    }

    #[test]
    fn ticks_within_a_fraction_of_a_millisecond() {
        let (median, _max) = lateness(400, Duration::from_micros(250)).unwrap();
        if PRECISE {
            // the median holds on a busy machine; a millisecond timer would give ~500 us here
            assert!(median < 200, "median lateness {median} us");
        }
    }

    #[test]
    fn counts_ticks_missed_while_busy() {
        let mut clock = Clock::new(Instant::now(), Duration::from_millis(1)).unwrap();
        clock.ticker().wait(Duration::from_millis(100)).unwrap();
        assert!(clock.passed().unwrap() >= 1);
        std::thread::sleep(Duration::from_millis(10)); // nobody reads: ticks pile up
        let passed = clock.passed().unwrap();
        assert!((10..=13).contains(&passed), "{passed}");
    }
}
