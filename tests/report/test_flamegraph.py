"""Flame graphs: the tree prepared from a hand-made profile (totals, self weights, interning, folding,
differential shares), frame names kept as text in the page, and the drawing in Debian's Chromium (network
off): 50,000 distinct stacks drawn in under 2 s, zoom by click, search with the matched share, hover."""

from __future__ import annotations

import json
import os
import random
import re

import pytest
from browser import CHROMIUM_GROUP, VIEWPORT, PageResult, _keep_screenshot, _route, chromium

from jvmlab.errors import JvmLabError
from jvmlab.profile.model import Profile
from jvmlab.report.html import render, write
from jvmlab.report.html.flamegraph import OTHERS, ROOT, diff_page, diff_tree, flame_tree, flamegraph_page
from jvmlab.report.html.page import csp_hash, flamegraph_js

HOSTILE = "</script><img src=x onerror=alert(1)>"
RUN, WORK, HASH = "java/lang/Thread.run_[j]", "app/Main.work_[j]", "app/Main.hash_[i]"
STACKS = {
    (RUN, WORK, HASH): 30,
    (RUN, WORK): 10,
    (RUN, WORK, WORK, HASH): 10,
    ("start_thread", "GCTask::run", "clear_page_erms_[k]"): 45,
    ("start_thread", "os::sleep_[1]"): 3,
    ("start_thread", "Interp.loop_[0]"): 2,
}
PROFILE = Profile("cpu", STACKS, source="async-profiler 4.1, itimer 10ms", interval="10ms")


def _rows(tree) -> list[tuple[int, str, str, int, int]]:
    selfs = tree.self_weights()
    return [
        (tree.node_depth[i], tree.name(i), tree.kind(i), tree.node_total[i], selfs[i])
        for i in range(len(tree))
    ]


def test_tree_depth_first_with_totals_self_weights_and_kinds():
    tree = flame_tree(PROFILE)
    assert _rows(tree) == [
        (0, ROOT, "root", 100, 0),
        (1, "java/lang/Thread.run", "java", 50, 0),
        (2, "app/Main.work", "java", 50, 10),
        (3, "app/Main.hash", "inlined", 30, 30),
        (3, "app/Main.work", "java", 10, 0),
        (4, "app/Main.hash", "inlined", 10, 10),
        (1, "start_thread", "native", 50, 0),
        (2, "GCTask::run", "native", 45, 0),
        (3, "clear_page_erms", "kernel", 45, 45),
        (2, "Interp.loop", "interpreted", 2, 2),
        (2, "os::sleep", "c1", 3, 3),
    ]
    assert tree.parents()[:6] == [-1, 0, 1, 2, 2, 4]
    assert tree.find("start_thread", "GCTask::run") == 7
    assert tree.share(7) == 0.45 and tree.total == PROFILE.total and not tree.diff


def test_frames_are_interned_once_each():
    named_all = Profile("cpu", {("all", "x"): 1, ("y", "x"): 2, ("y", "x_[j]"): 3})
    tree = flame_tree(named_all)
    assert len(tree.frames) == 5  # the root, the frame named "all", x, y, and x as Java
    assert tree.node_frame[tree.find("all", "x")] == tree.node_frame[tree.find("y", "x")]
    assert tree.kind(tree.find("all")) == "native" and tree.kind(0) == "root"
    assert [tree.kind(i) for i in range(len(tree)) if tree.name(i) == "x"] == ["native", "native", "java"]
    data = flame_tree(PROFILE).to_json()
    assert (
        data["frames"].count("app/Main.hash") == 1
        and data["frame"].count(data["frames"].index("app/Main.hash")) == 2
    )
    assert {len(data[k]) for k in ("frame", "depth", "total")} == {11}
    assert len(data["frameKinds"]) == len(data["frames"]) and "base" not in data


def test_folding_keeps_every_total():
    # 4 % of 100: the 3 and 2 of start_thread's children fold into "(others)" (5); so do hash (10) etc.
    tree = flame_tree(PROFILE, min_share=0.04)
    rows = _rows(tree)
    assert (2, OTHERS, "other", 5, 5) in rows and tree.folded_nodes == 2
    assert sum(tree.self_weights()) == tree.total == 100
    # 6 %: the folded 5 is too light for an "(others)" node: it stays in start_thread's self weight
    tree = flame_tree(PROFILE, min_share=0.06)
    assert (1, "start_thread", "native", 50, 5) in _rows(tree) and OTHERS not in tree.frames
    assert sum(tree.self_weights()) == 100
    capped = flame_tree(PROFILE, max_nodes=4)
    assert len(capped) - capped.frames.count(OTHERS) <= 4 + 1 and capped.total == 100
    assert sum(capped.self_weights()) == 100


def test_diff_tree_has_the_shape_of_new_and_the_shares_of_both():
    base = Profile(
        "cpu",
        {
            (RUN, WORK, HASH): 20,
            ("start_thread", "GCTask::run"): 173,
            ("start_thread", "os::sleep_[1]"): 7,
            ("gone",): 50,
        },
    )
    tree = diff_tree(base, PROFILE)
    assert tree.diff and tree.base_total == 250 and len(tree) == len(flame_tree(PROFILE))
    hash_ = tree.find("java/lang/Thread.run", "app/Main.work", "app/Main.hash")
    assert tree.node_base[hash_] == 20 and tree.share(hash_) == 0.30 and tree.base_share(hash_) == 0.08
    gc = tree.find("start_thread", "GCTask::run")
    assert tree.base_share(gc) == 0.692 and tree.share(gc) == 0.45  # less: blue
    assert tree.node_base[tree.find("start_thread", "GCTask::run", "clear_page_erms")] == 0
    assert tree.node_base[0] == 250 and "gone" not in tree.frames  # the shape of new only
    folded = diff_tree(base, PROFILE, min_share=0.04)
    others = folded.node_frame.index(folded.frames.index(OTHERS))  # os::sleep and Interp.loop
    assert folded.node_total[others] == 5 and folded.node_base[others] == 7
    with pytest.raises(JvmLabError, match="one event and unit: alloc"):
        diff_tree(Profile("alloc", {}, unit="bytes"), PROFILE)


def test_bad_weights_and_empty_profiles():
    with pytest.raises(JvmLabError, match="-3 for a;b"):
        flame_tree(Profile("cpu", {("a", "b"): -3}))
    empty = flame_tree(Profile("wall", {}))
    assert _rows(empty) == [(0, ROOT, "root", 0, 0)]
    assert "<canvas" in render(flamegraph_page(Profile("wall", {}), "empty"))


def _islands(html: str) -> list[str]:
    return re.findall(r'<script type="application/json" id="[^"]+">(.*?)</script>', html, re.S)


def test_frame_names_stay_text_in_the_page():
    hostile = Profile("cpu", {(RUN, HOSTILE): 5, (HOSTILE + "_[k]",): 1}, source=HOSTILE)
    html = render(flamegraph_page(hostile, f"profile {HOSTILE}"))
    assert "<img" not in html and HOSTILE not in html
    assert "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in html  # title and caption
    (island,) = _islands(html)
    assert "<" not in island and ">" not in island and "&" not in island
    assert json.loads(island)["frames"].count(HOSTILE) == 2  # once native, once kernel
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert scripts == [flamegraph_js()]  # no plotly.js without charts
    assert csp_hash(flamegraph_js()) in html.replace("&#39;", "'")
    assert "</script" not in flamegraph_js() and ".innerHTML" not in flamegraph_js()


def test_pages_name_event_unit_source_and_total():
    html = render(flamegraph_page(PROFILE, "cpu profile"))
    assert 'data-unit="samples" data-diff="false"' in html
    assert "event cpu; total 100 samples; 6 distinct stacks; interval 10ms" in html
    assert "source: async-profiler 4.1, itimer 10ms" in html
    new = Profile("cpu", {(RUN,): 3})
    diff_html = render(diff_page(PROFILE, new, "before and after"))
    assert 'data-diff="true"' in diff_html and "red: more, blue: less" in diff_html
    assert json.loads(_islands(diff_html)[0])["baseTotal"] == 100


# ---- in the browser -------------------------------------------------------------------------------------

PACKAGES = (
    "java/util", "java/util/concurrent", "java/lang", "sun/nio/ch", "org/springframework/web/servlet",
    "org/apache/catalina/core", "com/fasterxml/jackson/databind", "io/netty/channel", "com/example/shop",
    "org/hibernate/engine/internal", "jdk/internal/misc", "com/zaxxer/hikari/pool",
)  # fmt: skip
CLASSES = ("HashMap", "ThreadPoolExecutor", "Service", "Controller", "Repository", "Serializer", "Handler")
METHODS = (
    "run",
    "get",
    "invoke",
    "process",
    "handle",
    "write",
    "apply",
    "doFilter",
    "lambda$submit$0",
    "<init>",
)
SUFFIXES = ("_[j]",) * 6 + ("_[i]",) * 3 + ("_[0]", "_[1]", "")
NATIVE = ("JVM_Sleep", "os::javaTimeNanos", "__memmove_avx_unaligned", "do_syscall_64_[k]", "schedule_[k]")
DRAW_BUDGET_MS = 2000


def synthetic_profile(count: int = 50_000, seed: int = 14) -> Profile:
    """`count` distinct stacks 10 to 40 frames deep over 3,000 Java-like methods; like a service, they
    branch little near the root and much near the leaves. Weights have a long tail."""
    rng = random.Random(seed)
    names = sorted(
        {
            f"{rng.choice(PACKAGES)}/{rng.choice(CLASSES)}{rng.randint(1, 40)}.{rng.choice(METHODS)}"
            f"{rng.choice(SUFFIXES)}"
            for _ in range(3100)
        }
    )[:3000] + list(NATIVE)
    stacks: dict[tuple[str, ...], int] = {}
    while len(stacks) < count:
        depth, thread = rng.randint(10, 40), rng.randrange(2)
        stack, h = [(RUN, "start_thread")[thread]], thread
        for level in range(1, depth):
            branch = min(int(rng.paretovariate(0.6 + 4.0 * (1 - level / depth) ** 2)) - 1, 16)
            h = (h * 1_000_003 + branch * 7919 + level) % 2**32
            stack.append(names[h % len(names)])
        key = tuple(stack)
        stacks[key] = stacks.get(key, 0) + int(rng.paretovariate(1.1))
    return Profile("cpu", stacks, source="synthetic")


def need_chromium() -> None:
    if chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: `make chromium` installs it (Debian package)")
        pytest.skip("chromium is not installed: run `make chromium` (Debian package) to run this test")


def _x_of(tree, node: int) -> float:
    """The node's left edge as a share of the root's width (siblings before it, then its parent's)."""
    parents, left = tree.parents(), 0
    while node:
        parent = parents[node]
        left += sum(tree.node_total[i] for i in range(parent + 1, node) if parents[i] == parent)
        node = parent
    return left / tree.total


def _matched_share(tree, pattern: str) -> float:
    """The share the page must report: matching frames, a match inside a match counted once."""
    parents, matched, counted = tree.parents(), 0, set()
    for i in range(1, len(tree)):
        hit = tree.kind(i) not in ("root", "other") and re.search(pattern, tree.name(i))
        if hit and parents[i] not in counted:
            matched += tree.node_total[i]
        if hit or parents[i] in counted:
            counted.add(i)
    return matched / tree.total


class Session:
    """One page in Chromium with the network off: errors collected, the flame graph's canvas at hand."""

    def __init__(self, browser, html, result: PageResult):
        self.context = browser.new_context(offline=True, viewport=VIEWPORT)
        self.context.route("**/*", _route(result))
        self.page = page = self.context.new_page()
        page.on("console", lambda m: m.type == "error" and result.console_errors.append(m.text))
        page.on("pageerror", lambda e: result.page_errors.append(str(e)))
        page.on("dialog", lambda d: (result.dialogs.append(d.message), d.dismiss()))
        page.goto(html.resolve().as_uri(), wait_until="load")
        page.wait_for_function("() => window.__flamegraphDrawMs !== undefined", timeout=10_000)
        self.box = page.locator("figure.flame-box").first
        self.canvas = self.box.locator("canvas.flame")

    def attr(self, name: str) -> str | None:
        return self.box.get_attribute(name)

    def pixels(self) -> str:
        return self.canvas.evaluate("c => c.toDataURL()")

    def point(self, tree, node: int, at: float = 0.5) -> tuple[float, float]:
        """Page coordinates inside the node's frame, as drawn at the root's zoom (root at the bottom)."""
        box = self.canvas.bounding_box()
        assert box is not None
        x = box["x"] + box["width"] * (_x_of(tree, node) + at * tree.share(node))
        y = box["y"] + (max(tree.node_depth) - tree.node_depth[node] + 0.5) * 16
        return x, y


def _widest(tree, depth: int) -> int:
    return max((i for i in range(len(tree)) if tree.node_depth[i] == depth), key=tree.node_total.__getitem__)


def _check_large(session: Session, tree, shot) -> float:
    draw_ms = session.page.evaluate("window.__flamegraphDrawMs")
    assert draw_ms < DRAW_BUDGET_MS
    assert int(session.attr("data-drawn") or 0) > 1000
    before, drawn = session.pixels(), session.attr("data-drawn")
    node = _widest(tree, 3)
    session.page.mouse.click(*session.point(tree, node))
    assert session.attr("data-zoom") == str(node)  # the clicked frame fills the width now
    assert session.pixels() != before and session.attr("data-drawn") != drawn
    session.page.mouse.move(*session.point(tree, 0, at=0.2))  # the root, drawn faded across the width
    tip = session.box.locator(".flame-tip")
    assert tip.is_visible() and "all" in tip.inner_text() and "100.00 % of all" in tip.inner_text()
    session.box.locator(".flame-reset").click()
    assert session.attr("data-zoom") == "0"
    session.box.locator(".flame-search").fill(r"HashMap\d+\.get")
    match = session.box.locator(".flame-match").inner_text()
    assert match.startswith("matched: ") and "samples" in match
    assert float(session.attr("data-matched") or "nan") == pytest.approx(
        _matched_share(tree, r"HashMap\d+\.get")
    )
    session.page.screenshot(path=str(shot), full_page=True)
    _keep_screenshot(shot)
    return draw_ms


def _check_diff(session: Session, tree) -> None:
    node = tree.find("java/lang/Thread.run", "app/Main.work", "app/Main.hash")
    session.page.mouse.move(*session.point(tree, node))
    text = session.box.locator(".flame-tip").inner_text()
    assert "app/Main.hash" in text and "base 60.00 % \u2192 new 30.00 % (\u221230.00 pp)" in text
    assert "share of the total" in session.box.locator(".flame-legend").inner_text()


@pytest.mark.chromium
@pytest.mark.xdist_group(CHROMIUM_GROUP)  # one Chromium for the worker's browser tests
def test_flame_graphs_in_chromium(tmp_path, shared_chromium):
    import time

    need_chromium()
    started = time.monotonic()
    profile = synthetic_profile()
    page = flamegraph_page(profile, "50,000 stacks")
    tree = flame_tree(profile)
    size = write(page, tmp_path / "flame.html")
    base = Profile("cpu", {(RUN, WORK, HASH): 60, (RUN, WORK): 40})
    write(diff_page(base, PROFILE, "diff"), tmp_path / "diff.html")
    large, diff = PageResult(), PageResult()
    large_session = Session(shared_chromium, tmp_path / "flame.html", large)
    try:
        draw_ms = _check_large(large_session, tree, tmp_path / "flame.png")
    finally:
        large_session.context.close()
    diff_session = Session(shared_chromium, tmp_path / "diff.html", diff)
    try:
        _check_diff(diff_session, diff_tree(base, PROFILE))
    finally:
        diff_session.context.close()
    assert large.errors == [] and diff.errors == []
    assert large.blocked_requests == [] and diff.blocked_requests == []
    took = time.monotonic() - started  # a figure to read, not a budget: the suite's load varies
    print(f"50,000 stacks: {len(tree):,} nodes drawn in {draw_ms:.0f} ms; file {size:,} bytes; {took:.1f} s")
