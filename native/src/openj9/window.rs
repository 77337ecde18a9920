//! One stop-the-world window of the modern format, from `<exclusive-start>` (or the first sign of one) to
//! `<exclusive-end>`: what ran in it (its increments), why (its trigger), and the heap before and after.

use super::sizes::Sizes;
use crate::columns::NULL_I64;

pub const ALLOCATION_FAILURE: &[u8] = b"Allocation Failure";
pub const SYSTEM_GC: &[u8] = b"System.gc()";
pub const ALLOCATION_TAXATION: &[u8] = b"Allocation Taxation";
pub const CONCURRENT_COLLECTION: &[u8] = b"concurrent collection";

/// What a window's collections make of its pause: `pause-other` < `young` < `full`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    #[default]
    Other,
    Young,
    Full,
}

impl Weight {
    pub fn kind(self) -> &'static [u8] {
        match self {
            Weight::Other => b"pause-other",
            Weight::Young => b"young",
            Weight::Full => b"full",
        }
    }
}

/// A cycle or increment type as printed -> its weight, and the policy that alone prints it.
pub fn collection(kind: &[u8]) -> Option<(Weight, Option<&'static str>)> {
    Some(match kind {
        b"scavenge" => (Weight::Young, Some("gencon")),
        b"partial gc" => (Weight::Young, Some("balanced")),
        b"global" => (Weight::Full, None),
        b"global garbage collect" => (Weight::Full, Some("balanced")),
        b"global mark phase" => (Weight::Other, Some("balanced")),
        _ => return None,
    })
}

#[derive(Default)]
pub struct Window {
    pub open: bool,
    /// Wall time of `<exclusive-start>`, NULL_I64 when the log did not show it.
    pub start_ms: i64,
    pub gc_id: i64,
    pub weight: Weight,
    /// Types of the increments (`<gc-start type>`) as printed, joined by " + " (a percolated scavenge:
    /// "scavenge + global").
    collections: Vec<u8>,
    /// Type of a cycle started here with no increment (gencon's kickoff: "global").
    cycle_started: Vec<u8>,
    /// A gencon global cycle started by `<concurrent-kickoff>`: (its id, the kickoff reason); its
    /// concurrent mark begins at this window's end.
    pub kickoff_cycle: Option<(i64, Vec<u8>)>,
    pub suffix: &'static [u8],
    pub cause: Vec<u8>,
    /// `<af-start totalBytesRequested>` of the window's trigger, NULL_I64 when none.
    pub request: i64,
    pub before: Option<Sizes>,
    pub after: Option<Sizes>,
}

impl Window {
    pub fn reset(&mut self) {
        self.open = false;
        self.start_ms = NULL_I64;
        self.gc_id = NULL_I64;
        self.weight = Weight::Other;
        self.collections.clear();
        self.cycle_started.clear();
        self.kickoff_cycle = None;
        self.suffix = b"";
        self.cause.clear();
        self.request = NULL_I64;
        self.before = None;
        self.after = None;
    }

    pub fn open_at(&mut self, start_ms: i64) {
        self.reset();
        self.open = true;
        self.start_ms = start_ms;
    }

    /// The first trigger seen is the cause (and its allocation request, if any, the request).
    pub fn set_cause(&mut self, cause: &[u8]) {
        self.set_trigger(cause, NULL_I64);
    }

    pub fn set_trigger(&mut self, cause: &[u8], request: i64) {
        if self.cause.is_empty() {
            self.cause.extend_from_slice(cause);
            self.request = request;
        }
    }

    pub fn replace_cause(&mut self, cause: &[u8]) {
        self.cause.clear();
        self.cause.extend_from_slice(cause);
    }

    pub fn note_id(&mut self, id: Option<i64>) {
        if let (NULL_I64, Some(id)) = (self.gc_id, id) {
            self.gc_id = id;
        }
    }

    /// An increment of type `kind` ran in the window.
    pub fn add_collection(&mut self, kind: &[u8], weight: Weight) {
        self.weight = self.weight.max(weight);
        let seen = self
            .collections
            .split(|&b| b == b'+')
            .any(|part| crate::numbers::trim(part) == kind);
        if !seen {
            if !self.collections.is_empty() {
                self.collections.extend_from_slice(b" + ");
            }
            self.collections.extend_from_slice(kind);
        }
    }

    /// A cycle of type `kind` started in the window.
    pub fn start_cycle(&mut self, kind: &[u8]) {
        if self.collections.is_empty() {
            self.cycle_started.clear();
            self.cycle_started.extend_from_slice(kind);
        }
    }

    pub fn phase(&self, out: &mut Vec<u8>) {
        out.clear();
        if !self.collections.is_empty() {
            out.extend_from_slice(&self.collections);
            out.extend_from_slice(self.suffix);
        } else if self.kickoff_cycle.is_some() {
            out.extend_from_slice(b"concurrent kickoff");
        } else if !self.cycle_started.is_empty() {
            out.extend_from_slice(&self.cycle_started);
            out.extend_from_slice(b" cycle start");
        } else {
            out.extend_from_slice(b"exclusive access");
        }
    }
}
