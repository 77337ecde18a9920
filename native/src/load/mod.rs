//! The open-model load driver: requests at a constant arrival rate over keep-alive HTTP/1.1 connections,
//! latency from each request's intended send time and service time from its actual send into HDR
//! histograms, a per-second series; and, with the `test-server` feature, a trivial local HTTP server (with
//! stalls and errors on demand) to test and benchmark it against.

pub mod config;
mod conn;
pub mod driver;
mod http;
mod mix;
pub mod record;
#[cfg(feature = "test-server")]
pub mod server;
mod ticker;

// The driver against the local test server: only with the server built in.
#[cfg(all(test, feature = "test-server"))]
mod tests;

pub use config::{LoadConfig, RequestSpec, Target};
pub use driver::{prepare, Load, Report, Shared};
