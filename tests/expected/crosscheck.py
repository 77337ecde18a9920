"""Independent cross-check of tests/expected/gclogs/*.toml against the log text.

This does NOT use jvmlab: it counts stop-the-world GC pauses, their total time, Full GCs, young (+mixed)
GCs and safepoint lines with plain regular expressions written from the log formats, then compares them
with the figures the expectation files hold (which come from the parser).

    .venv/bin/python tests/expected/crosscheck.py [PATH_SUBSTRING] [--events] [--all]

--events prints every pause found (line, uptime, kind, ms, text) for the selected logs; --all prints the
agreeing logs too; --mark-verified writes the `verified` line into the expectation files it agrees with that
have none (regenerate.py drops it from a file whose figures change). Disagreements on logs whose TOML has a
``note = "parser gap: ..."`` are listed as GAP (known, explained there); the exit status is 1 only for
unexplained disagreements. tests/gclog/test_golden_files.py runs the same check in `make test`.

Compared: pause_count, pause_total_ms (tolerance 0.01 ms per pause, plus the TOML's 3-decimal rounding),
kinds.full, kinds.young + kinds.mixed, safepoint_count. ``error = ...`` files must have no pause.

Unified logging (JDK 9+): a pause is a line ``GC(N) [y: |Y: |O: ]Pause <name> ... <number>ms`` (decimal
point or comma). Lines ending in ``us`` (statistics tables) and ``Concurrent ...`` phases are not pauses.
``Pause Full`` is full; ``Pause Young`` (any variant), ``Pause Mixed`` and, on G1 (JDK 9/10),
``Pause Initial Mark`` are young/mixed. Safepoints: ``Total time for which application threads were
stopped`` and ``Safepoint "..."`` lines. Serial/CMS print ``GC(n+1) Pause Full`` (a promotion failure)
before the ``GC(n) Pause Young`` that contains it; both count, and the nesting is reported.

Legacy logs (JDK 8 and older): every top-level bracketed record ``[GC ...]``/``[Full GC ...]`` (also
``[GC pause``, ``[GC remark``, ``[GC cleanup``, ``[GC--``, CMS ``[GC [1 CMS-initial-mark`` and
``[GC[YG occupancy`` remarks) is one pause; its time is the last ``N secs`` at the record's own bracket
level (nested records such as ``[ParNew: ...]``, ``[CMS-concurrent-...]``, ``[GC ref-proc ...]`` do not
count). ``[GC concurrent-...]`` and ``[CMS-concurrent-...]`` are not pauses. Records span lines: known
interleaved lines (tenuring distribution, heap prints; safepoint / application-time sentences) are removed
first, then brackets are matched over the remaining text stream (G1 detail tables, adaptive-size and FLS
output are balanced or bracket-free). A record that starts a line while another is open is its own
record, except the young GC that CMS runs inside its remark (-XX:+CMSScavengeBeforeRemark): it is a young
pause of its own (its own last ``N secs``), taken out of the remark's time. A ``[GC`` record that also
collects the old generation (a nested ``[CMS:``, ``[CMS (concurrent mode failure)``, ``[CMSbailing out to
foreground collection`` or ``[Tenured:``) counts as full; when its young generation's record says
``(promotion failed)``, that young collection is a young pause of its own (the ``N secs`` in its bracket)
and the full one keeps the rest of the record's time. Without details
(-verbose:gc), CMS prints its initial mark and remark as ``[GC 46468K(83008K), 0.0039 secs]`` (an
occupancy, no ``->``): not young.
JDK 8 Shenandoah: ``[Pause <name>, N ms]`` records are pauses (``[Pause ..., start]`` lines are not).

OpenJ9 / IBM J9 verbose GC (XML), read with xml.etree (count_openj9): every ``<exclusive-end durationms>``
is a pause (full when its window ran a ``global`` or ``global garbage collect`` increment, young when a
``scavenge`` or ``partial gc`` one); a metronome ``<gc-op type="heartbeat">`` is a pause of quantumCount x
meanTimeMs, a ``<gc-op type="syncgc">`` a full pause of its timems; IBM J9 Java 5-6 records (``<af>``,
``<sys>``, ``<con event="collection">``) are a pause each, of their own ``<time totalms>``, full or young by
their ``<gc type="global|scavenger">``.
"""

from __future__ import annotations

import gzip
import re
import sys
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from corpus import corpus  # noqa: E402  (only the list of paths; no parser code)

TOL_PER_PAUSE_MS = 0.01


def read_text(path: Path) -> str:
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            names = sorted(
                n
                for n in z.namelist()
                if not n.endswith("/") and not n.startswith("__MACOSX/") and "/._" not in n
            )
            return "\n".join(z.read(n).decode("utf-8", "replace") for n in names)
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8", "replace")


@dataclass
class Pause:
    line: int  # 1-based line number in the (joined) text
    kind: str  # young | full | other
    ms: float
    text: str
    uptime: float | None = None  # seconds, when the log prints it
    gc_id: int | None = None


@dataclass
class Counts:
    fmt: str
    pauses: list[Pause] = field(default_factory=list)
    safepoints: int = 0
    notes: list[str] = field(default_factory=list)
    nested: list[str] = field(default_factory=list)  # unified: pauses that ran inside another pause
    nested_ms: float = 0.0

    @property
    def pause_count(self) -> int:
        return len(self.pauses)

    @property
    def pause_total_ms(self) -> float:
        # A pause printed inside another (JDK 9-13 Serial/CMS full GC inside a failed young GC) is counted
        # once: the parser keeps only the outer pause's own time (docs/event-table.md).
        return sum(p.ms for p in self.pauses) - self.nested_ms

    def n(self, kind: str) -> int:
        return sum(1 for p in self.pauses if p.kind == kind)


def _num(s: str) -> float:
    return float(s.replace(",", "."))


SAFEPOINT_TOTAL = re.compile(r"Total time for which application threads were stopped")
SAFEPOINT_UNIFIED = re.compile(r'Safepoint "[^"]*"')

# --------------------------------------------------------------------------------------------- unified

UNI_PAUSE = re.compile(r"GC\((\d+)\) (?:[yYO]: )?(Pause [^\n]*?) (\d+(?:[.,]\d+)?)ms\s*$")
UNI_DECOR = re.compile(r"^(?:\[[^\]]*\])+\s*")


def count_unified(text: str) -> Counts:
    c = Counts("unified")
    nested_seen: set[int | None] = set()
    full_by_id: dict[int, list[Pause]] = {}  # the full pauses counted so far, by GC id
    g1 = bool(
        re.search(r"Using G1|G1 Evacuation Pause|G1 Humongous|G1 Compaction|Pause Young \(Normal\)", text)
    )
    for i, line in enumerate(text.splitlines(), 1):
        c.safepoints += len(SAFEPOINT_TOTAL.findall(line)) + len(SAFEPOINT_UNIFIED.findall(line))
        m = UNI_PAUSE.search(line)
        if not m:
            continue
        name = m.group(2)
        if name.startswith("Pause Full"):
            kind = "full"
        elif name.startswith(("Pause Young", "Pause Mixed")) or (
            g1 and name.startswith("Pause Initial Mark")
        ):
            kind = "young"
        else:
            kind = "other"
        gc_id = int(m.group(1))
        name = m.group(2)
        # Serial/CMS (JDK 9+): a young collection that fails to promote runs a full collection inside the
        # same safepoint: "GC(n+1) Pause Full" is printed before "GC(n) Pause Young", whose time includes it.
        inner = [
            p
            for p in full_by_id.get(gc_id + 1, [])
            if name.startswith("Pause Young") and p.gc_id not in nested_seen
        ]
        for p in inner:
            nested_seen.add(p.gc_id)
            what = p.text.split(") ", 1)[-1][:40]
            c.nested.append(f"GC({p.gc_id}) {what} inside GC({gc_id}) (line {i})")
            c.nested_ms += p.ms
        t = re.search(r"\[(\d+[.,]\d+)s\]|\[(\d+)ms\]", line[: m.start()])
        up = (_num(t.group(1)) if t.group(1) else int(t.group(2)) / 1000) if t else None
        c.pauses.append(Pause(i, kind, _num(m.group(3)), line.strip(), up, gc_id))
        if kind == "full":
            full_by_id.setdefault(gc_id, []).append(c.pauses[-1])
    return c


# ---------------------------------------------------------------------------------------------- legacy

# Whole lines that are printed in the middle of (or between) GC records and carry no record brackets.
LEGACY_DROP = [
    re.compile(p)
    for p in (
        r"\[0x[0-9a-fA-F]+",  # heap layout prints: [0x..., 0x..., 0x...)
        r"^\s*\{?Heap (before|after) [Gg][Cc] invocations",
        r"^\s*\}\s*$",
        r"^Heap\s*$",
        r"^\s*(par new generation|def new generation|eden space|from space|to\s+space"
        r"|concurrent mark-sweep generation|concurrent-mark-sweep perm gen|tenured generation|the space"
        r"|compacting perm gen|ro space|rw space|PSYoungGen\s+total|PSOldGen\s+total|ParOldGen\s+total"
        r"|PSPermGen\s+total|object space|garbage-first heap|region size|Metaspace\s+used|class space\s+used"
        r"|No shared spaces)",
        r"^\s*Desired survivor size \d+ bytes",
        r"^\s*- age\s+\d+:",
    )
]

# what follows the '[' of a pause record: "GC" (not "GC concurrent-", "GC Worker", "GC ref-proc"), "Full GC",
# JDK 8 Shenandoah "Pause ..." (not its "..., start]" lines)
REC_START = re.compile(
    r"(?:GC(?![ -]?(?:concurrent|Worker|ref-proc|Ergonomics))"
    r"(?=[\s(\[\-]|\d|$|AdaptiveSize|PSAdaptiveSize|Before GC)"
    r"|Full GC"
    r"|Pause (?!.*, start\]))"
)
SECS = re.compile(r"(\d+(?:[.,]\d+)?)\s*secs?\b")
SHEN_MS = re.compile(r"(\d+(?:[.,]\d+)?) ms\s*$")
NESTED = re.compile(r"\[[^\[\]]*\]")
OLD_GEN_IN_YOUNG = re.compile(
    r"\[(?:(?:AS)?CMS(?=\s*:|\s*\(concurrent mode|\d|\s*$|bailing)|Tenured\s*:)", re.M
)
# the young generation's record inside a young collection (its own text says "(promotion failed)")
YOUNG_GEN = re.compile(r"\[(?:AS)?(?:ParNew|DefNew)")
# -verbose:gc CMS initial mark / remark: an occupancy and a time, no "->"
SIMPLE_MARK = re.compile(r"GC\s+\d+[KMG]?\(\d+[KMG]?\),\s*\d+(?:[.,]\d+)?\s*secs\s*$")
# the young collection inside a CMS remark (-XX:+CMSScavengeBeforeRemark)
INNER_GC = re.compile(r"\[GC(?![A-Za-z])")


def _classify_legacy(body: str) -> str:
    """body: the record's text after its '[' (nested records included)."""
    if body.startswith("Full GC"):
        return "full"
    if body.startswith("Pause "):  # JDK 8 Shenandoah
        return "full" if body.startswith("Pause Full") else "other"
    # CMS initial mark / remark, G1 remark / cleanup
    if re.match(
        r"GC\s*(?:\((?:CMS Final Remark|CMS Initial Mark)\)|remark\b|cleanup\b|\[YG occupancy)", body
    ):
        return "other"
    if re.search(r"\[1 (?:AS)?CMS-(?:initial-mark|remark)", body):
        return "other"
    if SIMPLE_MARK.match(body):
        return "other"
    # a young collection that also collected the old generation (promotion failure, concurrent mode failure)
    if OLD_GEN_IN_YOUNG.search(body):
        return "full"
    return "young"


LINE_PREFIX = re.compile(r"^(?:[\dT:.,+\-]+: ?|#\d+: )*")


@dataclass
class _Frame:
    base: int  # bracket depth outside the record
    line: int
    uptime: float | None
    parts: list[str] = field(default_factory=list)


SAFEPOINT_SENTENCE = re.compile(
    r"(?:[\d\-T:.+]+: )*Total time for which application threads were stopped: "
    r"[\d.,]+ seconds(?:, Stopping threads took: [\d.,]+ seconds)?"
)
APPLICATION_TIME = re.compile(r"(?:[\d\-T:.+]+: )*Application time: [\d.,]+ seconds")
BRACKET = re.compile(r"[\[\]]")
UPTIME_BEFORE = re.compile(r"(\d+[.,]\d+): ?$")


def count_legacy(text: str) -> Counts:
    c = Counts("legacy")
    lines = text.splitlines()
    stream: list[tuple[int, str]] = []
    for i, line in enumerate(lines, 1):
        n = len(SAFEPOINT_TOTAL.findall(line))
        if n:
            c.safepoints += n
            # keep whatever GC text shares the line (interleaving), drop the safepoint sentence itself
            line = SAFEPOINT_SENTENCE.sub("", line)
        if "Application time: " in line:
            line = APPLICATION_TIME.sub("", line)
        if any(p.search(line) for p in LEGACY_DROP):
            continue
        stream.append((i, line))

    depth = 0
    stack: list[_Frame] = []  # open records, innermost last
    for lineno, line in stream:
        pos = 0
        prefix = LINE_PREFIX.match(line)
        prefix_end = prefix.end() if prefix else 0
        if (
            not stack
            and depth
            and line[prefix_end : prefix_end + 1] == "["
            and REC_START.match(line, prefix_end + 1)
        ):
            depth = 0  # an unbalanced '[' before: resynchronise on a line that starts a record
        for m in BRACKET.finditer(line):
            if m.group() == "[":
                if REC_START.match(line, m.end()) and (
                    (depth == 0 and not stack)
                    # a record printed at the start of a line while another one is open is its own record
                    # (interleaved output), except the young collection CMS runs inside its remark pause
                    # (-XX:+CMSScavengeBeforeRemark), which is part of that pause
                    or (stack and m.start() == prefix_end and "YG occupancy" not in "".join(stack[-1].parts))
                ):
                    if stack:
                        stack[-1].parts.append(line[pos : m.start()])
                    t = UPTIME_BEFORE.search(line[: m.start()])
                    stack.append(_Frame(depth, lineno, _num(t.group(1)) if t else None))
                    depth += 1
                    pos = m.end()
                    continue
                depth += 1
            else:
                if depth == 0:
                    continue  # stray ']'
                depth -= 1
                if stack and depth == stack[-1].base:
                    f = stack.pop()
                    f.parts.append(line[pos : m.start()])
                    _finish(c, "\n".join(f.parts), f.line, f.uptime)
                    pos = m.end()
        if stack:
            stack[-1].parts.append(line[pos:])
    for f in stack:
        c.notes.append(f"unterminated record at line {f.line}")
    return c


def _finish(c: Counts, body: str, lineno: int, uptime: float | None) -> None:
    top = body
    while True:
        t = NESTED.sub("", top)
        if t == top:
            break
        top = t
    if body.startswith("Pause "):
        if body.endswith(", start"):
            return
        m = SHEN_MS.search(top)
        ms = _num(m.group(1)) if m else 0.0
        c.pauses.append(Pause(lineno, _classify_legacy(body), ms, _oneline(body), uptime))
        return
    secs = SECS.findall(top)
    ms = _num(secs[-1]) * 1000 if secs else 0.0
    if not secs:
        c.notes.append(f"no time at line {lineno}")
    kind = _classify_legacy(body)
    if kind == "other" and "YG occupancy" in body:
        for m in INNER_GC.finditer(body):
            record = _balanced(body, m.start())
            if not re.search(r"\[(?:ParNew|DefNew)", record):
                continue
            inner = _own_text(record[1:-1])
            inner_secs = SECS.findall(inner)
            if inner_secs:
                young_ms = _num(inner_secs[-1]) * 1000
                c.pauses.append(Pause(lineno, "young", young_ms, _oneline(inner), uptime))
                ms -= young_ms
    young = YOUNG_GEN.search(body) if kind == "full" and body.startswith("GC") else None
    young_own = _own_text(_balanced(body, young.start())[1:-1]) if young else ""
    young_secs = SECS.findall(young_own) if "(promotion failed)" in young_own else []
    if young_secs:
        # a promotion failure: the young collection's own time, then the full collection's, the rest
        young_ms = _num(young_secs[-1]) * 1000
        c.pauses.append(Pause(lineno, "young", young_ms, _oneline(young_own), uptime))
        ms -= young_ms
    c.pauses.append(Pause(lineno, kind, ms, _oneline(body), uptime))


def _balanced(text: str, start: int) -> str:
    """The bracketed record that opens at text[start] ('['), brackets included."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "[":
            depth += 1
        elif text[i] == "]":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return text[start:]


def _own_text(body: str) -> str:
    """A record's text without the records nested in it."""
    while True:
        t = NESTED.sub("", body)
        if t == body:
            return body
        body = t


def _oneline(body: str) -> str:
    return body.replace("\n", " | ")[:200]


def detect(text: str) -> str:
    head = text[:200000]
    if re.search(r"<verbosegc|<af type=|<gc type=|<cycle-start|<exclusive-start", head):
        return "openj9"
    if re.search(r"^(?:\[[^\]\n]*\])+\s*GC\(\d+\)", head, re.M) or re.search(
        r"^\[[^\]\n]*\]\[(?:info|debug|trace|warning|error)\s*\]", head, re.M
    ):
        return "unified"
    return "legacy"


def count(path: Path) -> Counts:
    text = read_text(path)
    fmt = detect(text)
    if fmt == "unified":
        return count_unified(text)
    if fmt == "legacy":
        return count_legacy(text)
    return count_openj9(text)


# ---------------------------------------------------------------------------------------------- openj9

J9_FULL = {"global", "global garbage collect"}
J9_YOUNG = {"scavenge", "partial gc"}


def openj9_elements(text: str) -> list[ET.Element]:
    """The top-level elements of a verbose GC document (its declaration and <verbosegc> wrapper dropped,
    so that files without the closing tag parse too)."""
    body = re.sub(r"<\?xml[^>]*\?>", "", text)
    body = re.sub(r"</?verbosegc[^>]*>", "", body)
    return list(ET.fromstring("<log>" + body + "</log>"))


def count_openj9(text: str) -> Counts:
    c = Counts("openj9")
    increments: list[str] = []
    for n, el in enumerate(openj9_elements(text)):
        if el.tag == "exclusive-start":
            increments = []
        elif el.tag in ("gc-start", "cycle-continue"):
            increments.append(el.get("type") or el.get("newtype") or "")
        elif el.tag == "exclusive-end":
            kind = "full" if J9_FULL & set(increments) else "young" if J9_YOUNG & set(increments) else "other"
            c.pauses.append(Pause(n, kind, float(el.get("durationms", "nan")), "exclusive-end"))
            increments = []
        elif el.tag == "gc-op" and el.get("type") == "heartbeat":
            q = el.find("quanta")
            assert q is not None
            ms = int(q.get("quantumCount", "0")) * float(q.get("meanTimeMs", "0"))
            c.pauses.append(Pause(n, "other", ms, "heartbeat"))
        elif el.tag == "gc-op" and el.get("type") == "syncgc":
            c.pauses.append(Pause(n, "full", float(el.get("timems", "nan")), "syncgc"))
        elif el.tag in ("af", "sys") or (el.tag == "con" and el.get("event") == "collection"):
            totals = [t.get("totalms") for t in el.findall("time") if t.get("totalms")]
            types = {gc.get("type", "") for gc in el.findall("gc")}  # a scavenge may percolate to a global
            kind = "full" if "global" in types else "young" if "scavenger" in types else None
            c.pauses.append(Pause(n, kind or "other", float(totals[-1]), el.tag))
    return c


# --------------------------------------------------------------------------------------------- compare


def compare(exp: dict, got: Counts) -> list[str]:
    if "error" in exp:
        return [] if got.pause_count == 0 else [f"error but {got.pause_count} pauses found"]
    kinds = exp.get("kinds", {})
    diffs = []
    checks = [
        ("pauses", exp["pause_count"], got.pause_count),
        ("full", kinds.get("full", 0), got.n("full")),
        ("young", kinds.get("young", 0) + kinds.get("mixed", 0), got.n("young")),
        ("safepoints", exp["safepoint_count"], got.safepoints),
    ]
    for name, e, g in checks:
        if e != g:
            diffs.append(f"{name} {e}!={g}")
    tol = TOL_PER_PAUSE_MS * max(got.pause_count, 1) + 0.0015
    if abs(exp["pause_total_ms"] - got.pause_total_ms) > tol:
        diffs.append(f"pause_ms {exp['pause_total_ms']:.3f}!={got.pause_total_ms:.3f}")
    return diffs


VERIFIED = 'verified = "crosscheck.py: pause count, pause sum, full, young+mixed, safepoints agree"'


def mark_verified(path: Path) -> bool:
    """Adds the `verified` line under the header comment of an expectation file that has none."""
    lines = path.read_text().splitlines()
    if any(line.startswith("verified") for line in lines):
        return False
    path.write_text("\n".join([lines[0], VERIFIED, *lines[1:]]) + "\n")
    return True


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    show_events = "--events" in argv
    show_all = "--all" in argv
    mark = "--mark-verified" in argv
    pattern = args[0] if args else ""
    agree = disagree = gaps = 0
    for entry in corpus():
        if pattern not in entry.path:
            continue
        if not entry.expected_file.exists():
            print(f"MISSING  {entry.path}")
            continue
        exp = entry.expected()
        got = count(entry.file)
        diffs = compare(exp, got)
        known = str(exp.get("note", "")).startswith("parser gap")
        if not diffs:
            agree += 1
            if mark and "error" not in exp and mark_verified(entry.expected_file):
                print(f"marked verified: {entry.path}")
        elif known:
            gaps += 1
        else:
            disagree += 1
        if diffs or show_all:
            status = ("GAP  " if known else "DIFF ") if diffs else "ok   "
            summary = (
                f"[{got.fmt}] pauses={got.pause_count} ms={got.pause_total_ms:.3f} full={got.n('full')} "
                f"young={got.n('young')} sp={got.safepoints}"
            )
            print(f"{status} {entry.path}\n        {summary}  {'; '.join(diffs)}")
            for note in got.notes[:5]:
                print(f"        note: {note}")
            if got.nested:
                print(
                    f"        nested: {len(got.nested)} pause(s), {got.nested_ms:.3f} ms excluded from the "
                    f"outer pauses; first: {got.nested[0]}"
                )
        if show_events:
            for p in got.pauses:
                up = f"{p.uptime:.3f}" if p.uptime is not None else "-"
                print(f"    {p.line:>7} {up:>11} {p.kind:<6} {p.ms:>10.3f}  {p.text[:160]}")
    print(f"\n{agree} agree, {gaps} disagree with a known parser gap (note), {disagree} unexplained")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
