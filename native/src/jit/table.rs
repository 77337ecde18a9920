//! The two tables of a compilation log as columns: events (one row per compilation, invalidation, trap,
//! deoptimization or code cache event) and inlining decisions (one row per call site considered).
//! Categorical columns hold codes into interned lists (0 = null); nullable integers use `NULL_I64`,
//! nullable floats NaN, as in the GC event table.

use crate::columns::{Interner, NULL_I64};

/// What one event row says; fields left at their defaults are null.
#[derive(Debug, Clone)]
pub struct Event {
    pub uptime_s: f64,
    pub kind: &'static [u8],
    pub compile_id: i64,
    pub level: i64,
    pub compiler: &'static [u8],
    pub method: u32,
    pub signature: u32,
    pub bytecode_bytes: i64,
    pub osr_bci: i64,
    pub bci: i64,
    pub flags: u32,
    pub reason: u32,
    pub action: u32,
}

impl Event {
    pub fn new(kind: &'static [u8]) -> Self {
        Event {
            uptime_s: f64::NAN,
            kind,
            compile_id: NULL_I64,
            level: NULL_I64,
            compiler: b"",
            method: 0,
            signature: 0,
            bytecode_bytes: NULL_I64,
            osr_bci: NULL_I64,
            bci: NULL_I64,
            flags: 0,
            reason: 0,
            action: 0,
        }
    }
}

pub const KIND_COMPILE: &[u8] = b"compile";
pub const KIND_OSR: &[u8] = b"osr";
pub const KIND_NATIVE: &[u8] = b"native_wrapper";
pub const KIND_SKIPPED: &[u8] = b"skipped";
pub const KIND_NOT_ENTRANT: &[u8] = b"not_entrant";
pub const KIND_ZOMBIE: &[u8] = b"zombie";
pub const KIND_UNLOADED: &[u8] = b"unloaded";
pub const KIND_DEOPT: &[u8] = b"deopt";
pub const KIND_TRAP: &[u8] = b"uncommon_trap";
pub const KIND_CODECACHE_FULL: &[u8] = b"codecache_full";

/// The compiler of a tier: 1-3 are C1's, 4 is C2's (or JVMCI's: only LogCompilation tells them apart).
pub fn compiler_of_level(level: i64) -> &'static [u8] {
    match level {
        0 => b"native",
        1..=3 => b"c1",
        4 => b"c2",
        _ => b"",
    }
}

#[derive(Debug, Default)]
pub struct Events {
    pub uptime_s: Vec<f64>,
    pub kind: Vec<u32>,
    pub compile_id: Vec<i64>,
    pub level: Vec<i64>,
    pub compiler: Vec<u32>,
    pub method: Vec<u32>,
    pub signature: Vec<u32>,
    pub bytecode_bytes: Vec<i64>,
    pub native_bytes: Vec<i64>,
    pub insts_bytes: Vec<i64>,
    pub compile_ms: Vec<f64>,
    pub queue_ms: Vec<f64>,
    pub osr_bci: Vec<i64>,
    pub bci: Vec<i64>,
    pub flags: Vec<u32>,
    pub reason: Vec<u32>,
    pub action: Vec<u32>,
    pub invocations: Vec<i64>,
    pub backedges: Vec<i64>,
    pub code_cache_free_bytes: Vec<i64>,
    pub source: Vec<i32>,
    pub kinds: Interner,
    pub compilers: Interner,
}

impl Events {
    pub fn len(&self) -> usize {
        self.uptime_s.len()
    }

    pub fn is_empty(&self) -> bool {
        self.uptime_s.is_empty()
    }

    /// Appends a row; returns its index.
    pub fn push(&mut self, e: &Event, source: i32) -> usize {
        self.uptime_s.push(e.uptime_s);
        self.kind.push(self.kinds.code(e.kind));
        self.compile_id.push(e.compile_id);
        self.level.push(e.level);
        let compiler = if e.compiler.is_empty() {
            0
        } else {
            self.compilers.code(e.compiler)
        };
        self.compiler.push(compiler);
        self.method.push(e.method);
        self.signature.push(e.signature);
        self.bytecode_bytes.push(e.bytecode_bytes);
        self.native_bytes.push(NULL_I64);
        self.insts_bytes.push(NULL_I64);
        self.compile_ms.push(f64::NAN);
        self.queue_ms.push(f64::NAN);
        self.osr_bci.push(e.osr_bci);
        self.bci.push(e.bci);
        self.flags.push(e.flags);
        self.reason.push(e.reason);
        self.action.push(e.action);
        self.invocations.push(NULL_I64);
        self.backedges.push(NULL_I64);
        self.code_cache_free_bytes.push(NULL_I64);
        self.source.push(source);
        self.len() - 1
    }

    pub fn set_kind(&mut self, row: usize, kind: &[u8]) {
        self.kind[row] = self.kinds.code(kind);
    }

    pub fn kind_is(&self, row: usize, kind: &[u8]) -> bool {
        let c = self.kind[row];
        c > 0 && self.kinds.values[c as usize - 1].as_bytes() == kind
    }

    pub fn set_compiler(&mut self, row: usize, compiler: &[u8]) {
        if !compiler.is_empty() {
            self.compiler[row] = self.compilers.code(compiler);
        }
    }
}

/// One inlining decision: a call site of `caller` (at `bci`) to `callee`, inlined or not, and why.
#[derive(Debug, Default)]
pub struct Inlining {
    pub compile_id: Vec<i64>,
    pub caller: Vec<u32>,
    pub callee: Vec<u32>,
    pub bci: Vec<i64>,
    pub inlined: Vec<bool>,
    pub reason: Vec<u32>,
    pub depth: Vec<i64>,
    pub callee_bytes: Vec<i64>,
    pub callee_invocations: Vec<i64>,
    pub call_count: Vec<i64>,
    pub source: Vec<i32>,
}

impl Inlining {
    pub fn len(&self) -> usize {
        self.compile_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.compile_id.is_empty()
    }
}

/// Code heap use as the JVM printed it: `-XX:+PrintCodeCacheOnCompilation` after each compilation,
/// `-XX:+PrintCodeCache` at exit, the report after "CodeCache is full" (JDK 8-25). One row per heap per
/// report; the flat code cache is the heap `CodeCache`.
#[derive(Debug, Default)]
pub struct CodeHeapRows {
    pub uptime_s: Vec<f64>,
    pub heap: Vec<u32>,
    pub size_bytes: Vec<i64>,
    pub used_bytes: Vec<i64>,
    pub max_used_bytes: Vec<i64>,
    pub free_bytes: Vec<i64>,
    pub source: Vec<i32>,
    pub heaps: Interner,
}

/// The interned strings shared by both tables: methods (events.method, inlining.caller/callee),
/// signatures, reasons (events.reason, inlining.reason), actions and flags.
#[derive(Debug, Default)]
pub struct Names {
    pub methods: Interner,
    pub signatures: Interner,
    pub reasons: Interner,
    pub actions: Interner,
    pub flags: Interner,
}

/// `code` for a possibly empty value: empty is null (0).
pub fn code_or_null(i: &mut Interner, s: &[u8]) -> u32 {
    if s.is_empty() {
        0
    } else {
        i.code(s)
    }
}
