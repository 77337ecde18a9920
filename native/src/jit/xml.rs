//! LogCompilation XML (`-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation`, JDK 8-25). HotSpot writes one
//! element per line: the `<tty>` part holds what the VM threads log (`<nmethod>`, `<make_not_entrant>`,
//! runtime `<uncommon_trap>`, `<deoptimized>`, `<code_cache_full>`), then each compiler thread's log is
//! merged at exit as `<compilation_log thread=...>` with one `<task>` ... `<task_done>` per compile and,
//! inside it, the parse tree (`<parse>`, `<call>`, `<inline_success>` / `<inline_fail>`). A JVM that is
//! killed never merges them: what is there is parsed and the file is reported truncated.
//! Sizes come from `size`/`insts_bytes` attributes, never from offsets (negative in JDK 25).

use super::table::{
    code_or_null, Event, KIND_CODECACHE_FULL, KIND_COMPILE, KIND_DEOPT, KIND_NATIVE,
};
use super::table::{
    KIND_NOT_ENTRANT, KIND_OSR, KIND_SKIPPED, KIND_TRAP, KIND_UNLOADED, KIND_ZOMBIE,
};
use super::JitParser;
use crate::columns::{FastMap, NULL_I64};
use crate::numbers::{parse_decimal, parse_int, trim};

/// The attributes of one element line: `name='value'` pairs (HotSpot quotes with `'`).
pub struct Attrs<'a> {
    line: &'a [u8],
    spans: Vec<(u32, u32, u32, u32)>,
}

impl<'a> Attrs<'a> {
    pub fn parse(line: &'a [u8]) -> Self {
        let mut spans = Vec::with_capacity(12);
        let mut p = 0;
        while let Some(eq) = memchr::memchr(b'=', &line[p..]).map(|i| i + p) {
            let quote = match line.get(eq + 1) {
                Some(&q @ (b'\'' | b'"')) => q,
                _ => {
                    p = eq + 1;
                    continue;
                }
            };
            let Some(end) = memchr::memchr(quote, &line[eq + 2..]).map(|i| i + eq + 2) else {
                break;
            };
            let mut start = eq;
            while start > p && line[start - 1] != b' ' {
                start -= 1;
            }
            spans.push((start as u32, eq as u32, eq as u32 + 2, end as u32));
            p = end + 1;
        }
        Attrs { line, spans }
    }

    pub fn get(&self, name: &[u8]) -> Option<&'a [u8]> {
        self.spans
            .iter()
            .find(|s| &self.line[s.0 as usize..s.1 as usize] == name)
            .map(|s| &self.line[s.2 as usize..s.3 as usize])
    }

    pub fn int(&self, name: &[u8]) -> Option<i64> {
        let v = self.get(name)?;
        let (neg, digits) = match v.strip_prefix(b"-") {
            Some(d) => (true, d),
            None => (false, v),
        };
        let (n, used) = parse_int(digits)?;
        (used == digits.len()).then_some(if neg { -n } else { n })
    }

    pub fn float(&self, name: &[u8]) -> Option<f64> {
        parse_decimal(self.get(name)?).map(|(v, _)| v)
    }

    fn id(&self, name: &[u8]) -> Option<u64> {
        self.int(name).map(|v| v as u64)
    }
}

/// Replaces XML entities (`&lt;` `&gt;` `&amp;` `&apos;` `&quot;`) into `out`.
pub fn unescape(s: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'&' {
            const ENTITIES: [(&[u8], u8); 5] = [
                (b"&lt;", b'<'),
                (b"&gt;", b'>'),
                (b"&amp;", b'&'),
                (b"&apos;", b'\''),
                (b"&quot;", b'"'),
            ];
            if let Some((e, c)) = ENTITIES.iter().find(|(e, _)| s[i..].starts_with(e)) {
                out.push(*c);
                i += e.len();
                continue;
            }
        }
        out.push(s[i]);
        i += 1;
    }
}

/// `java/lang/String hashCode ()I` (JDK 8) or `java.lang.String hashCode ()I` into `out` as
/// `java.lang.String::hashCode` (the PrintCompilation spelling); returns the signature's start in `raw`.
pub fn method_name(raw: &[u8], out: &mut Vec<u8>) -> usize {
    let mut words = raw.splitn(3, |&c| c == b' ');
    let holder = words.next().unwrap_or(b"");
    out.clear();
    out.extend(holder.iter().map(|&c| if c == b'/' { b'.' } else { c }));
    match words.next() {
        Some(name) => {
            out.extend_from_slice(b"::");
            out.extend_from_slice(name);
            (holder.len() + name.len() + 2).min(raw.len())
        }
        None => raw.len(),
    }
}

#[derive(Debug, Clone, Copy)]
struct Method {
    code: u32,
    bytes: i64,
    iicount: i64,
}

#[derive(Debug)]
struct Task {
    row: usize,
    stamp: f64,
    done: bool,
}

#[derive(Debug, Default)]
pub struct XmlState {
    complete: bool,
    text_for: Option<&'static str>,
    in_compile_log: bool,
    thread_compiler: &'static [u8],
    task: Option<Task>,
    klasses: FastMap<u64, Vec<u8>>,
    methods: FastMap<u64, Method>,
    parse_stack: Vec<u64>,
    last_bci: i64,
    last_call: Option<(u64, i64)>,
    open_row: Option<usize>,
    rows: FastMap<i64, usize>,
    // compile id -> stamp of its `<task_queued>` (the VM's part of the log, before the compiler threads')
    queued: FastMap<i64, f64>,
    stamp: f64,
    /// LogCompilation's elements were seen: the PrintCompilation lines of the tty part are copies.
    log_compilation: bool,
}

/// `c1`, `c2`, `jvmci` (JDK 9+) or `C1`, `C2` (JDK 8) as lower case; anything else is null.
fn compiler_name(v: Option<&[u8]>) -> &'static [u8] {
    match v.map(|v| v.to_ascii_lowercase()).as_deref() {
        Some(b"c1") => b"c1",
        Some(b"c2") => b"c2",
        Some(b"jvmci") => b"jvmci",
        _ => b"",
    }
}

fn tag(line: &[u8]) -> (&[u8], bool) {
    let (closing, start) = if line.get(1) == Some(&b'/') {
        (true, 2)
    } else {
        (false, 1)
    };
    let rest = &line[start.min(line.len())..];
    let end = rest
        .iter()
        .position(|&c| c == b' ' || c == b'>' || c == b'/')
        .unwrap_or(rest.len());
    (&rest[..end], closing)
}

fn self_closing(line: &[u8]) -> bool {
    trim(line).ends_with(b"/>")
}

impl JitParser {
    pub(super) fn xml_line(&mut self, line: &[u8]) {
        self.fmt.xml_lines += 1;
        self.set_format("log_compilation");
        let t = trim(line);
        if t.first() != Some(&b'<') {
            self.xml_text(t);
            return;
        }
        let (name, closing) = tag(t);
        let matched = if closing {
            self.xml_close(name)
        } else {
            self.xml_open(name, t)
        };
        if matched {
            self.diag.lines_matched += 1;
        } else {
            self.diag.lines_ignored += 1;
        }
    }

    /// Text between elements: a header value, or what the VM printed on its tty (-XX:+LogVMOutput, as
    /// jvmlab runs JDK 8): PrintCompilation lines (copies of LogCompilation's rows once its elements were
    /// seen), code heap reports; the rest is ignored.
    fn xml_text(&mut self, t: &[u8]) {
        if self.xml.text_for.is_none() && self.tty_text(t) {
            return;
        }
        self.diag.lines_ignored += 1;
        match self.xml.text_for.take() {
            Some("release") => self.fmt.jdk_version = Some(String::from_utf8_lossy(t).into_owned()),
            Some(key) => {
                self.fmt
                    .header
                    .insert(key.to_string(), String::from_utf8_lossy(t).into_owned());
            }
            None => {
                if let Some(rest) = t
                    .strip_prefix(b"compilation: ")
                    .or(t.strip_prefix(b"Compilation: "))
                {
                    self.codecache_action(rest);
                }
            }
        }
    }

    fn tty_text(&mut self, t: &[u8]) -> bool {
        let mut text = std::mem::take(&mut self.scratch);
        unescape(t, &mut text);
        let mut known = false;
        if let Some((heap, sizes)) = super::text::parse_code_heap_line(&text) {
            let at = if self.last_uptime_s.is_nan() {
                self.xml.stamp
            } else {
                self.last_uptime_s.max(self.xml.stamp)
            };
            self.code_heap_row(heap, sizes, at);
            known = true;
        } else if !self.xml.log_compilation {
            if let Some(c) = super::text::parse_compile_line(&text, true) {
                let at = c.time_ms.map_or(f64::NAN, |ms| ms as f64 / 1000.0);
                self.compile_row(&c, at, None);
                known = true;
            }
        }
        self.scratch = text;
        known
    }

    fn codecache_action(&mut self, rest: &[u8]) {
        let what = trim(rest.split(|&c| c == b',').next().unwrap_or(rest));
        if let Some(row) = self.last_codecache_row {
            if self.events.action[row] == 0 {
                self.events.action[row] = code_or_null(&mut self.names.actions, what);
            }
        }
    }

    fn xml_close(&mut self, name: &[u8]) -> bool {
        match name {
            b"task" => {
                if let Some(task) = self.xml.task.take() {
                    if !task.done {
                        self.diag.unfinished_tasks += 1;
                    }
                }
                self.xml.klasses.clear();
                self.xml.methods.clear();
                self.xml.parse_stack.clear();
                false
            }
            b"parse" => {
                self.xml.parse_stack.pop();
                false
            }
            b"uncommon_trap" | b"deoptimized" => {
                self.xml.open_row = None;
                false
            }
            b"compilation_log" => {
                self.xml.in_compile_log = false;
                false
            }
            b"hotspot_log" => {
                self.xml.complete = true;
                false
            }
            _ => false,
        }
    }

    fn xml_open(&mut self, name: &[u8], t: &[u8]) -> bool {
        if matches!(name, b"task_queued" | b"nmethod" | b"task") {
            self.xml.log_compilation = true;
        }
        match name {
            b"hotspot_log" => {
                let a = Attrs::parse(t);
                for key in ["version", "process", "time_ms"] {
                    if let Some(v) = a.get(key.as_bytes()) {
                        self.fmt.header.insert(
                            format!("hotspot_log.{key}"),
                            String::from_utf8_lossy(v).into_owned(),
                        );
                    }
                }
                true
            }
            b"release" => {
                self.xml.text_for = Some("release");
                false
            }
            b"args" => {
                self.xml.text_for = Some("vm_arguments");
                false
            }
            b"command" => {
                self.xml.text_for = Some("command");
                false
            }
            b"hotspot_log_done" => {
                self.xml.complete = true;
                false
            }
            b"compilation_log" => {
                self.xml.in_compile_log = true;
                self.xml.thread_compiler = b"";
                false
            }
            b"start_compile_thread" => {
                let a = Attrs::parse(t);
                let n = a.get(b"name").unwrap_or(b"");
                self.xml.thread_compiler = if n.starts_with(b"C1 ") {
                    b"c1"
                } else if n.starts_with(b"C2 ") {
                    b"c2"
                } else if n.starts_with(b"JVMCI") {
                    b"jvmci"
                } else {
                    b""
                };
                false
            }
            b"task" if !self_closing(t) => self.task_start(&Attrs::parse(t)),
            b"task_done" => self.task_done(&Attrs::parse(t)),
            b"failure" => self.task_failure(&Attrs::parse(t)),
            b"klass" if self.xml.task.is_some() => {
                let a = Attrs::parse(t);
                if let (Some(id), Some(n)) = (a.id(b"id"), a.get(b"name")) {
                    let name = n
                        .iter()
                        .map(|&c| if c == b'/' { b'.' } else { c })
                        .collect();
                    self.xml.klasses.insert(id, name);
                }
                false
            }
            b"method" if self.xml.task.is_some() => {
                self.task_method(&Attrs::parse(t));
                false
            }
            b"parse" => {
                if let Some(id) = Attrs::parse(t).id(b"method") {
                    self.xml.parse_stack.push(id);
                }
                false
            }
            b"bc" => {
                self.xml.last_bci = Attrs::parse(t).int(b"bci").unwrap_or(NULL_I64);
                false
            }
            b"call" => {
                let a = Attrs::parse(t);
                self.xml.last_call = a
                    .id(b"method")
                    .map(|m| (m, a.int(b"count").unwrap_or(NULL_I64)));
                false
            }
            b"inline_success" | b"inline_fail" => {
                self.inline_row(name == b"inline_success", &Attrs::parse(t))
            }
            b"code_cache" => {
                if let Some(task) = &self.xml.task {
                    let free = Attrs::parse(t).int(b"free_code_cache").unwrap_or(NULL_I64);
                    self.events.code_cache_free_bytes[task.row] = free;
                }
                false
            }
            b"nmethod" => self.nmethod(&Attrs::parse(t)),
            b"make_not_entrant" | b"make_unloaded" => self.not_entrant(name, &Attrs::parse(t)),
            b"uncommon_trap" | b"deoptimized" => self.runtime_trap(name, t),
            b"jvms" => self.jvms(&Attrs::parse(t)),
            b"code_cache_full" => self.codecache_full(&Attrs::parse(t)),
            b"task_queued" | b"sweeper" => {
                let a = Attrs::parse(t);
                if let Some(s) = a.float(b"stamp") {
                    self.xml.stamp = s;
                    if let (b"task_queued", Some(id)) = (name, a.int(b"compile_id")) {
                        self.xml.queued.insert(id, s);
                    }
                }
                false
            }
            _ => false,
        }
    }

    fn method_code(&mut self, raw: &[u8]) -> (u32, u32) {
        let mut unescaped = std::mem::take(&mut self.scratch);
        unescape(raw, &mut unescaped);
        let mut name = Vec::with_capacity(unescaped.len() + 2);
        let sig_at = method_name(&unescaped, &mut name);
        let method = self.names.methods.code(&name);
        let sig = trim(&unescaped[sig_at..]);
        let signature = code_or_null(&mut self.names.signatures, sig);
        self.scratch = unescaped;
        (method, signature)
    }

    fn compile_row_for(&mut self, id: i64) -> usize {
        if let Some(&row) = self.xml.rows.get(&id) {
            return row;
        }
        let mut e = Event::new(KIND_COMPILE);
        e.compile_id = id;
        let row = self.events.push(&e, self.source);
        self.xml.rows.insert(id, row);
        row
    }

    /// Method, signature and bytecode size of a row from `method=` and `bytes=`, unless it has them.
    fn set_method(&mut self, row: usize, a: &Attrs) {
        if self.events.method[row] != 0 {
            return;
        }
        if let Some(m) = a.get(b"method") {
            let (method, sig) = self.method_code(m);
            self.events.method[row] = method;
            self.events.signature[row] = sig;
        }
        if let Some(b) = a.int(b"bytes") {
            self.events.bytecode_bytes[row] = b;
        }
    }

    fn task_start(&mut self, a: &Attrs) -> bool {
        let Some(id) = a.int(b"compile_id") else {
            return false;
        };
        let row = self.compile_row_for(id);
        let stamp = a.float(b"stamp").unwrap_or(f64::NAN);
        let e = &mut self.events;
        e.uptime_s[row] = stamp;
        if let Some(queued) = self.xml.queued.get(&id) {
            e.queue_ms[row] = (stamp - queued) * 1000.0; // waited in the compile queue
        }
        let osr = a.get(b"compile_kind") == Some(b"osr") || a.get(b"osr_bci").is_some();
        if osr {
            e.set_kind(row, KIND_OSR);
            e.osr_bci[row] = a.int(b"osr_bci").unwrap_or(NULL_I64);
        }
        let compiler = self.xml.thread_compiler;
        let level = a.int(b"level").unwrap_or(match compiler {
            b"c2" | b"jvmci" => 4,
            _ => NULL_I64,
        });
        if e.level[row] == NULL_I64 {
            e.level[row] = level;
        }
        e.set_compiler(row, compiler);
        e.invocations[row] = a.int(b"count").unwrap_or(NULL_I64);
        e.backedges[row] = a.int(b"backedge_count").unwrap_or(NULL_I64);
        self.set_method(row, a);
        self.xml.task = Some(Task {
            row,
            stamp,
            done: false,
        });
        self.xml.klasses.clear();
        self.xml.methods.clear();
        self.xml.parse_stack.clear();
        self.xml.last_call = None;
        true
    }

    fn task_done(&mut self, a: &Attrs) -> bool {
        let Some(task) = self.xml.task.as_mut() else {
            return false;
        };
        task.done = true;
        let row = task.row;
        let e = &mut self.events;
        if let Some(stamp) = a.float(b"stamp") {
            e.compile_ms[row] = (stamp - task.stamp) * 1000.0;
        }
        if a.get(b"success") == Some(b"0") {
            e.set_kind(row, KIND_SKIPPED);
        } else if e.insts_bytes[row] == NULL_I64 {
            e.insts_bytes[row] = a.int(b"nmsize").unwrap_or(NULL_I64);
        }
        true
    }

    fn task_failure(&mut self, a: &Attrs) -> bool {
        let Some(task) = &self.xml.task else {
            return false;
        };
        let row = task.row;
        self.events.set_kind(row, KIND_SKIPPED);
        if self.events.reason[row] == 0 {
            unescape(a.get(b"reason").unwrap_or(b""), &mut self.scratch);
            self.events.reason[row] = code_or_null(&mut self.names.reasons, &self.scratch);
        }
        true
    }

    fn task_method(&mut self, a: &Attrs) {
        let (Some(id), Some(holder), Some(name)) = (a.id(b"id"), a.id(b"holder"), a.get(b"name"))
        else {
            return;
        };
        let mut full = self.xml.klasses.get(&holder).cloned().unwrap_or_default();
        full.extend_from_slice(b"::");
        unescape(name, &mut self.scratch);
        full.extend_from_slice(&self.scratch);
        let code = self.names.methods.code(&full);
        let m = Method {
            code,
            bytes: a.int(b"bytes").unwrap_or(NULL_I64),
            iicount: a.int(b"iicount").unwrap_or(NULL_I64),
        };
        self.xml.methods.insert(id, m);
    }

    fn inline_row(&mut self, inlined: bool, a: &Attrs) -> bool {
        let Some(task) = &self.xml.task else {
            return false;
        };
        let compile_id = self.events.compile_id[task.row];
        let x = &self.xml;
        let caller = x
            .parse_stack
            .last()
            .and_then(|id| x.methods.get(id))
            .map_or(0, |m| m.code);
        let callee = x.last_call.and_then(|(id, _)| x.methods.get(&id).copied());
        let depth = x.parse_stack.len() as i64;
        let call_count = x.last_call.map_or(NULL_I64, |(_, c)| c);
        let bci = x.last_bci;
        unescape(a.get(b"reason").unwrap_or(b""), &mut self.scratch);
        let reason = code_or_null(&mut self.names.reasons, &self.scratch);
        let i = &mut self.inlining;
        i.compile_id.push(compile_id);
        i.caller.push(caller);
        i.callee.push(callee.map_or(0, |m| m.code));
        i.bci.push(bci);
        i.inlined.push(inlined);
        i.reason.push(reason);
        i.depth.push(depth);
        i.callee_bytes.push(callee.map_or(NULL_I64, |m| m.bytes));
        i.callee_invocations
            .push(callee.map_or(NULL_I64, |m| m.iicount));
        i.call_count.push(call_count);
        i.source.push(self.source);
        true
    }

    fn nmethod(&mut self, a: &Attrs) -> bool {
        let Some(id) = a.int(b"compile_id") else {
            return false;
        };
        let stamp = a.float(b"stamp").unwrap_or(f64::NAN);
        if !stamp.is_nan() {
            self.xml.stamp = stamp;
        }
        let row = self.compile_row_for(id);
        self.set_method(row, a);
        let e = &mut self.events;
        if e.uptime_s[row].is_nan() {
            e.uptime_s[row] = stamp; // no <task> (yet): the time the nmethod was installed
        }
        e.native_bytes[row] = a.int(b"size").unwrap_or(NULL_I64);
        if let Some(insts) = a.int(b"insts_bytes") {
            e.insts_bytes[row] = insts;
        }
        if let Some(level) = a.int(b"level") {
            e.level[row] = level;
        }
        let wrapper = a.get(b"compile_kind") == Some(b"c2n") || a.int(b"level") == Some(0);
        match a.get(b"compile_kind") {
            _ if wrapper => {
                e.set_kind(row, KIND_NATIVE);
                e.set_compiler(row, b"native");
            }
            Some(b"osr") => {
                e.set_kind(row, KIND_OSR);
                e.set_compiler(row, compiler_name(a.get(b"compiler")));
            }
            _ => e.set_compiler(row, compiler_name(a.get(b"compiler"))),
        }
        true
    }

    /// An event of the tty part that names a compiled method by its compile id.
    fn tty_event(&mut self, kind: &'static [u8], a: &Attrs) -> usize {
        let stamp = a.float(b"stamp");
        if let Some(s) = stamp {
            self.xml.stamp = s;
        }
        let mut e = Event::new(kind);
        e.uptime_s = stamp.unwrap_or(self.xml.stamp);
        e.compile_id = a.int(b"compile_id").unwrap_or(NULL_I64);
        e.level = a.int(b"level").unwrap_or(NULL_I64);
        e.compiler = compiler_name(a.get(b"compiler"));
        unescape(a.get(b"reason").unwrap_or(b""), &mut self.scratch);
        e.reason = code_or_null(&mut self.names.reasons, &self.scratch);
        e.action = code_or_null(&mut self.names.actions, a.get(b"action").unwrap_or(b""));
        self.events.push(&e, self.source)
    }

    fn not_entrant(&mut self, name: &[u8], a: &Attrs) -> bool {
        let kind = if name == b"make_unloaded" {
            KIND_UNLOADED
        } else if a.get(b"zombie") == Some(b"1") {
            KIND_ZOMBIE
        } else {
            KIND_NOT_ENTRANT
        };
        self.tty_event(kind, a);
        true
    }

    /// A runtime `<uncommon_trap thread=...>` or `<deoptimized>`; the `<jvms>` lines inside name the
    /// method and bci. (An `<uncommon_trap>` without `thread` sits in a compile's parse tree: where the
    /// compiled code will trap, not a trap taken.)
    fn runtime_trap(&mut self, name: &[u8], t: &[u8]) -> bool {
        let a = Attrs::parse(t);
        if name == b"uncommon_trap" && a.get(b"thread").is_none() {
            return false;
        }
        let kind = if name == b"uncommon_trap" {
            KIND_TRAP
        } else {
            KIND_DEOPT
        };
        let row = self.tty_event(kind, &a);
        if !self_closing(t) {
            self.xml.open_row = Some(row);
        }
        true
    }

    fn jvms(&mut self, a: &Attrs) -> bool {
        let Some(row) = self.xml.open_row else {
            return false;
        };
        if self.events.method[row] == 0 {
            self.set_method(row, a);
            self.events.bci[row] = a.int(b"bci").unwrap_or(NULL_I64);
        }
        false
    }

    fn codecache_full(&mut self, a: &Attrs) -> bool {
        let row = self.tty_event(KIND_CODECACHE_FULL, a);
        let heap = a.get(b"heap").unwrap_or(b"CodeCache");
        self.events.reason[row] = code_or_null(&mut self.names.reasons, heap);
        self.events.code_cache_free_bytes[row] = a.int(b"free_code_cache").unwrap_or(NULL_I64);
        self.last_codecache_row = Some(row);
        true
    }

    pub(super) fn end_xml_source(&mut self) {
        if let Some(task) = self.xml.task.take() {
            if !task.done {
                self.diag.unfinished_tasks += 1;
            }
        }
        if !self.xml.complete {
            self.diag.truncated = true;
            self.diag.warnings.push(format!(
                "source {}: LogCompilation ends before </hotspot_log> (the JVM was killed?): the compiler \
                 threads' logs may be missing; the {} lines before the cut are kept",
                self.source, self.fmt.xml_lines
            ));
        }
    }
}
