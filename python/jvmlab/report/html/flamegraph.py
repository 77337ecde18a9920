"""Flame graphs for the HTML report: a Profile's stacks as a compact tree that templates/flamegraph.js draws
(page.FlameGraph), and the differential tree of two profiles. Data only: nothing here draws.

The tree's nodes are in depth-first order, a parent before its children and siblings by frame name, each
node with its frame (an index into a table of distinct frames, interned, each with its kind), its depth and
its total weight. Its self weight is its total less its children's; parents, x offsets and subtree ends
follow from the depths in one linear pass, so the page draws the tree in one pass too. Frames narrower than
a minimum weight are folded: the folded children of a node become one "(others)" node when that is at
least the minimum weight, else their weight stays in the node's self weight; totals never change.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from jvmlab.errors import JvmLabError
from jvmlab.profile.model import Profile, Stack, frame_kind, frame_name
from jvmlab.report.html.page import FlameGraph, Page, Section

FORMAT_VERSION = 1
KINDS = ("root", "java", "inlined", "interpreted", "c1", "native", "kernel", "other")
ROOT = "all"
OTHERS = "(others)"
DEFAULT_MAX_NODES = 250_000  # about 2.5 MB of JSON, drawn in well under a second


def kind_of(frame: str) -> str:
    """The model's kind, with C1-compiled Java (`_[1]`) apart: it is drawn lighter than JIT Java."""
    return "c1" if frame.endswith("_[1]") else frame_kind(frame)


@dataclass(frozen=True)
class FlameTree:
    """Nodes in depth-first order; node 0 is the root ("all"). In a differential tree `node_base` holds,
    per node, the weight of the same path (same frames from the root) in the base profile."""

    frames: tuple[str, ...]  # distinct frames, names without their annotation
    frame_kinds: tuple[int, ...]  # per frame, an index into KINDS
    node_frame: tuple[int, ...]
    node_depth: tuple[int, ...]
    node_total: tuple[int, ...]
    unit: str = "samples"
    folded_nodes: int = 0  # nodes of the full tree left out (folded into "(others)" or a parent's self)
    node_base: tuple[int, ...] | None = None
    base_total: int = 0

    def __len__(self) -> int:
        return len(self.node_total)

    @property
    def total(self) -> int:
        return self.node_total[0]

    @property
    def diff(self) -> bool:
        return self.node_base is not None

    def name(self, node: int) -> str:
        return self.frames[self.node_frame[node]]

    def kind(self, node: int) -> str:
        return KINDS[self.frame_kinds[self.node_frame[node]]]

    def parents(self) -> list[int]:
        return _parents(self.node_depth)

    def self_weights(self) -> list[int]:
        weights = list(self.node_total)
        for i, parent in enumerate(self.parents()):
            if parent >= 0:
                weights[parent] -= self.node_total[i]
        return weights

    def find(self, *names: str) -> int:
        """The node at this path of frame names below the root (tests, other renderers); KeyError if none."""
        parents, node = self.parents(), 0
        for name in names:
            node = next(
                (i for i in range(node + 1, len(self)) if parents[i] == node and self.name(i) == name), -1
            )
            if node < 0:
                raise KeyError(names)
        return node

    def share(self, node: int) -> float:
        return self.node_total[node] / self.total if self.total else 0.0

    def base_share(self, node: int) -> float:
        if self.node_base is None or not self.base_total:
            return 0.0
        return self.node_base[node] / self.base_total

    def to_json(self) -> dict[str, object]:
        """The JSON island flamegraph.js reads: columns of plain ints, frame names once."""
        data: dict[str, object] = {
            "format_version": FORMAT_VERSION,
            "kinds": list(KINDS),
            "frames": list(self.frames),
            "frameKinds": list(self.frame_kinds),
            "frame": list(self.node_frame),
            "depth": list(self.node_depth),
            "total": list(self.node_total),
        }
        if self.node_base is not None:
            data["base"] = list(self.node_base)
            data["baseTotal"] = self.base_total
        return data


@dataclass
class _Full:
    """Every distinct path of a profile once, depth-first with siblings by frame; node 0 is the root."""

    frame: list[str]  # annotated, as in the profile
    depth: list[int]
    total: list[int]


def _parents(depths: Sequence[int]) -> list[int]:
    """In depth-first order a node's parent is the last node seen one level up."""
    parents, last_at = [-1] * len(depths), [0] * (max(depths) + 1)
    for i, depth in enumerate(depths):
        if depth:
            parents[i] = last_at[depth - 1]
        last_at[depth] = i
    return parents


def _ends(depths: Sequence[int]) -> list[int]:
    """Per node, the index just past its subtree."""
    ends, open_ = [len(depths)] * len(depths), list[int]()
    for i, depth in enumerate(depths):
        while open_ and depths[open_[-1]] >= depth:
            ends[open_.pop()] = i
        open_.append(i)
    return ends


def _common(a: Stack, b: Stack) -> int:
    n, i = min(len(a), len(b)), 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _close(full: _Full, path: list[int], keep: int) -> None:
    while len(path) > keep:
        node = path.pop()
        full.total[path[-1]] += full.total[node]


def _full_tree(stacks: Mapping[Stack, int]) -> _Full:
    """Sorted stacks are the tree's depth-first order (a stack before its extensions, siblings by frame):
    each stack closes the previous one's nodes past their common prefix and opens its own."""
    full, path, previous = _Full([ROOT], [0], [0]), [0], Stack()
    for stack in sorted(stacks):
        weight = stacks[stack]
        if weight < 0:
            raise JvmLabError(f"stack weights count samples, bytes or ns: {weight} for {';'.join(stack)}")
        common = _common(previous, stack)
        _close(full, path, common + 1)
        for depth in range(common + 1, len(stack) + 1):
            path.append(len(full.frame))
            full.frame.append(stack[depth - 1])
            full.depth.append(depth)
            full.total.append(0)
        full.total[path[-1]] += weight
        previous = stack
    _close(full, path, 1)
    return full


def min_weight(totals: list[int], min_share: float, max_nodes: int | None) -> int:
    """The smallest total a node keeps: `min_share` of the whole, raised so that at most `max_nodes` nodes
    (the heaviest) are kept. Ancestors weigh at least as much as their descendants: what is kept is a tree."""
    floor = max(1, math.ceil(min_share * totals[0]))
    if max_nodes is None or len(totals) <= max_nodes:
        return floor
    return max(floor, sorted(totals, reverse=True)[max_nodes] + 1)


@dataclass
class _Kept:
    """The nodes drawn: per node its full-tree node (-1 for "(others)"), depth and total."""

    source: list[int] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    total: list[int] = field(default_factory=list)
    folded: dict[int, list[int]] = field(default_factory=dict)  # "(others)" node -> full nodes in it

    def add(self, source: int, depth: int, total: int) -> None:
        self.source.append(source)
        self.depth.append(depth)
        self.total.append(total)


def _close_kept(full: _Full, kept: _Kept, open_: list[tuple[int, list[int]]], depth: int, floor: int) -> None:
    """Closes the open nodes at `depth` or deeper: the children each folded become its last child,
    "(others)", when they weigh `floor` together (else their weight stays in its self weight)."""
    while open_ and open_[-1][0] >= depth:
        parent_depth, folded = open_.pop()
        weight = sum(full.total[f] for f in folded)
        if folded and weight >= floor:
            kept.folded[len(kept.source)] = folded
            kept.add(-1, parent_depth + 1, weight)


def _prune(full: _Full, floor: int) -> _Kept:
    """The full tree without the subtrees of nodes lighter than `floor` (the root always stays)."""
    kept, ends = _Kept(), _ends(full.depth)
    open_: list[tuple[int, list[int]]] = []  # kept nodes being visited: (depth, children folded)
    i = 0
    while i < len(full.frame):
        _close_kept(full, kept, open_, full.depth[i], floor)
        if i and full.total[i] < floor:
            open_[-1][1].append(i)
            i = ends[i]
            continue
        kept.add(i, full.depth[i], full.total[i])
        open_.append((full.depth[i], []))
        i += 1
    _close_kept(full, kept, open_, 0, floor)
    return kept


class _Frames:
    """The interned frame table: one entry per distinct annotated frame, the root first, "(others)" apart
    from any real frame of that name."""

    def __init__(self) -> None:
        self.names, self.kinds = [ROOT], [KINDS.index("root")]
        self.index: dict[str, int] = {}
        self.others = -1

    def _add(self, name: str, kind: str) -> int:
        self.names.append(name)
        self.kinds.append(KINDS.index(kind))
        return len(self.names) - 1

    def of(self, full: _Full, source: int) -> int:
        if source == 0:
            return 0
        if source < 0:
            if self.others < 0:
                self.others = self._add(OTHERS, "other")
            return self.others
        frame = full.frame[source]
        found = self.index.get(frame)
        if found is None:
            found = self.index[frame] = self._add(frame_name(frame), kind_of(frame))
        return found


def _tree(full: _Full, kept: _Kept, unit: str) -> FlameTree:
    frames = _Frames()
    node_frame = tuple(frames.of(full, s) for s in kept.source)
    return FlameTree(
        frames=tuple(frames.names),
        frame_kinds=tuple(frames.kinds),
        node_frame=node_frame,
        node_depth=tuple(kept.depth),
        node_total=tuple(kept.total),
        unit=unit,
        folded_nodes=len(full.frame) - (len(kept.source) - len(kept.folded)),
    )


def flame_tree(
    profile: Profile, min_share: float = 0.0, max_nodes: int | None = DEFAULT_MAX_NODES
) -> FlameTree:
    """The profile's tree; nodes lighter than `min_share` of the total are folded, and so are the lightest
    ones beyond `max_nodes` (None: no limit)."""
    full = _full_tree(profile.stacks)
    return _tree(full, _prune(full, min_weight(full.total, min_share, max_nodes)), profile.unit)


def _base_weights(new: _Full, kept: _Kept, base: _Full) -> tuple[int, ...]:
    """Per kept node, the base profile's weight of the same path(s) from the root; 0 where it has none."""
    index = {(p, base.frame[i]): i for i, p in enumerate(_parents(base.depth)) if p >= 0}
    parents, match = _parents(new.depth), [-1] * len(new.frame)
    match[0] = 0

    def find(i: int) -> int:
        if i and match[parents[i]] >= 0:
            match[i] = index.get((match[parents[i]], new.frame[i]), -1)
        return match[i]

    weights = []
    for k, source in enumerate(kept.source):
        found = [find(i) for i in (kept.folded[k] if source < 0 else [source])]
        weights.append(sum(base.total[m] for m in found if m >= 0))
    return tuple(weights)


def diff_tree(
    base: Profile, new: Profile, min_share: float = 0.0, max_nodes: int | None = DEFAULT_MAX_NODES
) -> FlameTree:
    """The tree of `new` (its shape, its weights) with each node's weight in `base` beside it: the page
    colours a node by the change of its share of the total, new_total/new_all - base_total/base_all."""
    if (base.event, base.unit) != (new.event, new.unit):
        raise JvmLabError(
            f"a differential flame graph compares profiles of one event and unit: "
            f"{base.event} ({base.unit}) against {new.event} ({new.unit})"
        )
    new_full, base_full = _full_tree(new.stacks), _full_tree(base.stacks)
    kept = _prune(new_full, min_weight(new_full.total, min_share, max_nodes))
    weights = _base_weights(new_full, kept, base_full)
    return replace(_tree(new_full, kept, new.unit), node_base=weights, base_total=base_full.total[0])


def _count(n: int, unit: str) -> str:
    return f"{n:,} {unit}"


def _facts(profile: Profile) -> list[str]:
    facts = [
        f"event {profile.event}",
        f"total {_count(profile.total, profile.unit)}",
        f"{len(profile.stacks):,} distinct stacks",
    ]
    if profile.interval:
        facts.append(f"interval {profile.interval}")
    if profile.source:
        facts.append(f"source: {profile.source}")
    return facts


def _folded(tree: FlameTree) -> list[str]:
    return [f"{tree.folded_nodes:,} frames too narrow to see folded"] if tree.folded_nodes else []


def flamegraph_block(
    id: str, title: str, profile: Profile, min_share: float = 0.0, max_nodes: int | None = DEFAULT_MAX_NODES
) -> FlameGraph:
    """One profile's flame graph block, for any page (one per variant and event)."""
    tree = flame_tree(profile, min_share, max_nodes)
    text = "; ".join(_facts(profile) + _folded(tree)) + "."
    return FlameGraph(id, title, tree.to_json(), text, profile.unit)


def diff_block(
    id: str,
    title: str,
    base: Profile,
    new: Profile,
    min_share: float = 0.0,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> FlameGraph:
    """The differential flame graph of `new` against `base`."""
    tree = diff_tree(base, new, min_share, max_nodes)
    text = (
        "Shape and widths: the new profile; colour: the change of each frame's share of the total "
        f"(red: more, blue: less). Base: {'; '.join(_facts(base))}. "
        f"New: {'; '.join(_facts(new) + _folded(tree))}."
    )
    return FlameGraph(id, title, tree.to_json(), text, new.unit, diff=True)


def _page(title: str, subtitle: str, block: FlameGraph) -> Page:
    from jvmlab import __version__

    section = Section("flame-graph", block.title, (block,))
    return Page(title, subtitle, (section,), f"jvmlab {__version__}")


def flamegraph_page(profile: Profile, title: str) -> Page:
    """A page with one flame graph, for `jvmlab profile` to write as a standalone file."""
    block = flamegraph_block("flame", f"{profile.event} flame graph", profile)
    return _page(title, f"{profile.event}, {_count(profile.total, profile.unit)}", block)


def diff_page(base: Profile, new: Profile, title: str) -> Page:
    """A page with the differential flame graph of `new` against `base`."""
    block = diff_block("flame-diff", f"{new.event}: new against base", base, new)
    return _page(title, f"differential flame graph, {new.event} ({new.unit})", block)
