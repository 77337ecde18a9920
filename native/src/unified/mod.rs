//! JDK 9+ unified logging (`-Xlog:gc*`): a line is its decorators (`[0.295s][info][gc]`, read by
//! decorators.rs) and a message, read by the rules of `messages` for Serial, Parallel, CMS, G1, ZGC
//! (single-generation and generational), Shenandoah and Epsilon.
//!
//! What this parser keeps across lines: how the log's decorators are laid out and what its lone integer and
//! nanosecond decorators turned out to be, the details of each recent GC id that arrive on lines of their
//! own (generation sizes, region counts, failures; `Pending`), and the last pause row (to spot a pause
//! printed inside the next one).

mod messages;

use crate::columns::{Event, FastMap, Space, CAT_SAFEPOINT, NULL_I64};
use crate::decorators;
use crate::diagnostics::LineClass;
use crate::numbers::Change;
use crate::table::{FormatParser, Table};

/// Details of one GC id that arrive on lines of their own (generation sizes, region counts).
#[derive(Debug, Default, Clone)]
struct Pending {
    spaces: [Option<Change>; 4],
    /// G1 regions before/after/capacity: eden, survivor, old, humongous, archive.
    regions: [Option<Change>; 5],
    phase_suffix: Option<&'static [u8]>,
    start_uptime_s: Option<f64>,
    row: Option<usize>,
}

impl Pending {
    fn has_details(&self) -> bool {
        self.spaces.iter().any(Option::is_some)
            || self.regions.iter().any(Option::is_some)
            || self.phase_suffix.is_some()
    }
}

/// GC ids whose details are kept: past this many, the ones far below the latest are dropped.
const PENDING_IDS: usize = 256;
const PENDING_KEEP_BELOW_LATEST: i64 = 128;

#[derive(Default)]
pub struct UnifiedParser {
    layout: decorators::Layout,
    first_nanos: Option<i64>,
    nanos_is_uptime: Option<bool>,
    first_int_value: Option<i64>,
    lone_int_is_tid: bool,
    pending: FastMap<i64, Pending>,
    /// The last pause row (to spot a pause printed inside the next one).
    last_pause_row: Option<usize>,
}

impl FormatParser for UnifiedParser {
    /// A line with decorators, or the bare message of a log without them (`GC(3) Pause Young ...`).
    #[inline]
    fn line(&mut self, t: &mut Table, line: &[u8]) -> Option<LineClass> {
        let decorated = match self.layout.parse(line, t.fmt.decorators) {
            Some(d) => Some(d),
            None if line.first() == Some(&b'[') => decorators::parse(line).map(|(d, layout)| {
                self.layout = layout;
                d
            }),
            None => None,
        };
        match decorated {
            Some(d) => {
                t.fmt.unified_lines += 1;
                t.fmt.decorators |= d.seen;
                t.fmt.gc_detail_tags |= d.gc_detail_tag;
                self.note_int_decorator(&d);
                let uptime = d.uptime_s.or_else(|| self.nanos_time(t, &d)).or(d.mono_s);
                t.set_line_time(uptime, d.wall_ms, line);
                let msg = &line[d.message_at..];
                Some(self.unified_message(t, msg, d.stats_tag))
            }
            None if line.starts_with(b"GC(") => {
                // -Xlog with the `none` decorator: the message alone.
                t.fmt.unified_lines += 1;
                Some(self.unified_message(t, line, false))
            }
            None => None,
        }
    }

    /// Nothing ends with a file: the next one of a rotated set goes on with the same decorators, and a GC
    /// cut by the rotation gets its details from there.
    fn end_of_source(&mut self, _t: &mut Table) {}

    /// A lone integer decorator that changed from line to line was the thread id, not the process id.
    fn finish(&mut self, t: &mut Table) {
        use decorators::{D_PID, D_TID};
        if self.lone_int_is_tid && t.fmt.decorators & (D_PID | D_TID) == D_PID {
            t.fmt.decorators = t.fmt.decorators & !D_PID | D_TID;
        }
    }
}

impl UnifiedParser {
    /// A single integer decorator is `pid` unless its value changes from line to line: then it is `tid`.
    fn note_int_decorator(&mut self, d: &decorators::Decorated) {
        if d.seen & decorators::D_TID != 0 {
            return;
        }
        if let Some(v) = d.first_int {
            match self.first_int_value {
                None => self.first_int_value = Some(v),
                Some(first) if first != v => self.lone_int_is_tid = true,
                _ => {}
            }
        }
    }

    /// Time from a single nanosecond decorator. `uptimenanos` starts near 0 at JVM start; `timenanos` is a
    /// monotonic clock (seconds since boot). Decided on the first such line of the log: a value over 100 s
    /// with a date decorator present is `timenanos` (the date then gives the time), else it counts from
    /// the first line as uptime does.
    fn nanos_time(&mut self, t: &mut Table, d: &decorators::Decorated) -> Option<f64> {
        let ns = d.lone_nanos?;
        let first = *self.first_nanos.get_or_insert(ns);
        let is_uptime = *self.nanos_is_uptime.get_or_insert(first < 100_000_000_000);
        if is_uptime {
            t.fmt.decorators |= decorators::D_UPTIMENANOS;
            Some(ns as f64 / 1e9)
        } else {
            t.fmt.decorators |= decorators::D_TIMENANOS;
            if d.wall_ms.is_some() {
                None
            } else {
                t.fmt.uptime_from_wall_clock = true;
                Some((ns - first) as f64 / 1e9)
            }
        }
    }

    /// Notes a GC id seen in the log; a new latest id lets the details of ids long past go.
    fn saw_gc_id(&mut self, t: &mut Table, id: i64) {
        if t.saw_gc_id(id) && self.pending.len() > PENDING_IDS {
            let keep_from = id - PENDING_KEEP_BELOW_LATEST;
            self.pending.retain(|k, _| *k >= keep_from);
        }
    }

    /// Appends an event row, attaching details already seen for its GC id.
    fn emit(&mut self, t: &mut Table, e: Event, ends_at_line_time: bool) -> usize {
        let row = t.push(e, ends_at_line_time);
        self.attach_pending(t, row);
        row
    }

    fn attach_pending(&mut self, t: &mut Table, row: usize) {
        let slot = row - t.cols.base; // the row just pushed
        let gc_id = t.cols.gc_id[slot];
        let category = &t.cols.categories.values[t.cols.category[slot] as usize - 1];
        if gc_id == NULL_I64 || category.as_bytes() == CAT_SAFEPOINT {
            return;
        }
        if self.pending.len() > PENDING_IDS {
            let keep_from = gc_id - PENDING_KEEP_BELOW_LATEST;
            self.pending.retain(|k, _| *k >= keep_from);
        }
        let region = t.fmt.region_size_bytes;
        let p = self.pending.entry(gc_id).or_default();
        if !p.has_details() {
            p.row = Some(row); // most rows: nothing to attach, no copy of the (large) entry
            return;
        }
        let taken = std::mem::take(p);
        p.row = Some(row);
        p.start_uptime_s = taken.start_uptime_s;
        apply_pending(t, row, &taken, region);
    }

    /// Records a detail for a GC id: applied to its row now if the row exists, else when it is emitted.
    fn detail_space(&mut self, t: &mut Table, gc_id: i64, space: Space, c: Change) {
        let p = self.pending.entry(gc_id).or_default();
        p.spaces[space as usize] = Some(c);
        if let Some(row) = p.row {
            t.cols.set_space(row, space, &c);
        }
    }

    fn detail_regions(&mut self, t: &mut Table, gc_id: i64, which: usize, c: Change) {
        let region = t.fmt.region_size_bytes;
        let p = self.pending.entry(gc_id).or_default();
        p.regions[which] = Some(c);
        if let (Some(row), Some(region)) = (p.row, region) {
            let regions = p.regions;
            apply_regions(t, row, &regions, region);
        }
    }
}

fn apply_pending(t: &mut Table, row: usize, p: &Pending, region: Option<i64>) {
    for (i, space) in [Space::Heap, Space::Young, Space::Old, Space::Metaspace]
        .into_iter()
        .enumerate()
    {
        if let Some(c) = &p.spaces[i] {
            t.cols.set_space(row, space, c);
        }
    }
    if let Some(region) = region {
        apply_regions(t, row, &p.regions, region);
    }
    if let Some(suffix) = p.phase_suffix {
        let mut phase = t.cols.phase_of(row).as_bytes().to_vec();
        phase.extend_from_slice(suffix);
        t.cols.set_phase(row, &phase);
    }
}

/// G1's region counts as sizes: young = eden + survivor, old = old + humongous + archive.
fn apply_regions(t: &mut Table, row: usize, r: &[Option<Change>; 5], region: i64) {
    let sum = |idx: &[usize], k: usize| -> Option<i64> {
        let mut total = 0;
        let mut any = false;
        for &i in idx {
            let c = r[i]?;
            let v = [c.before, c.after, c.capacity][k];
            if let Some(v) = v {
                total += v;
                any = true;
            } else if k < 2 {
                return None;
            }
        }
        any.then_some(total * region)
    };
    if r[0].is_some() && r[1].is_some() {
        let c = Change {
            before: sum(&[0, 1], 0),
            after: sum(&[0, 1], 1),
            capacity: sum(&[0, 1], 2),
        };
        t.cols.set_space(row, Space::Young, &c);
    }
    if r[2].is_some() {
        let old: Vec<usize> = [2, 3, 4].into_iter().filter(|&i| r[i].is_some()).collect();
        let c = Change {
            before: sum(&old, 0),
            after: sum(&old, 1),
            capacity: None,
        };
        t.cols.set_space(row, Space::Old, &c);
    }
}
