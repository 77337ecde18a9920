"""The HTML report's view model: a page of sections, each a list of blocks (tables, charts, text, ...), and
its rendering into one self-contained HTML file that works offline (templates/report.html.j2).

Every value is a plain string (or, for charts, a plotly figure as a plain dict; for flame graphs, a tree
from flamegraph.py): the builders of a page format figures with jvmlab.report.units; the template only
lays them out, with autoescaping on. Chart figures and flame graph trees go into the page as JSON "islands"
(`<script type="application/json">`) escaped so that no text from a log can end the script element (see
`json_island`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, Literal

from markupsafe import Markup

from jvmlab.errors import write_file

Status = Literal["", "pass", "fail", "inconclusive", "better", "worse", "muted"]
Tone = Literal["plain", "note", "warning"]
ID_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
SAFE_SCHEMES = frozenset({"http", "https", "file", "mailto"})


@dataclass(frozen=True)
class Cell:
    """A table cell; `status` colours it: pass / better green, fail / worse red, inconclusive amber."""

    text: str
    status: Status = ""


@dataclass(frozen=True)
class Column:
    """A table column; numeric columns are right-aligned with tabular figures."""

    title: str
    numeric: bool = False


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    caption: str = ""
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"table row has {len(row)} cells for {len(self.columns)} columns: {row}")

    def column(self, title: str) -> list[str]:
        """The texts of one column (for tests and other renderers)."""
        i = [c.title for c in self.columns].index(title)
        return [row[i].text for row in self.rows]


@dataclass(frozen=True)
class Chart:
    """A plotly figure as a plain dict ({"data": [...], "layout": {...}}), drawn on load (SVG)."""

    id: str
    title: str
    figure: dict[str, Any] = field(hash=False)
    caption: str = ""

    def trace(self, name: str) -> dict[str, Any]:
        return next(t for t in self.figure["data"] if t.get("name") == name)

    @property
    def trace_names(self) -> list[str]:
        return [str(t.get("name", "")) for t in self.figure["data"]]


@dataclass(frozen=True)
class Text:
    paragraphs: tuple[str, ...]
    tone: Tone = "plain"


@dataclass(frozen=True)
class KeyValues:
    rows: tuple[tuple[str, str], ...]
    caption: str = ""


@dataclass(frozen=True)
class Links:
    """(label, href) pairs; hrefs other than relative, http(s), file and mailto are shown as text."""

    items: tuple[tuple[str, str], ...]
    caption: str = ""


@dataclass(frozen=True)
class Preformatted:
    """Lines shown as they are (log samples), in a monospace box."""

    lines: tuple[str, ...]
    caption: str = ""


@dataclass(frozen=True)
class FlameGraph:
    """A flame graph drawn on a <canvas> by templates/flamegraph.js: `data` is a tree prepared by
    flamegraph.py (FlameTree.to_json); `unit` names its weights; `diff` colours by change against a base."""

    id: str
    title: str
    data: dict[str, Any] = field(hash=False)
    caption: str = ""
    unit: str = "samples"
    diff: bool = False


Block = Table | Chart | Text | KeyValues | Links | Preformatted | FlameGraph


@dataclass(frozen=True)
class Section:
    """A heading with blocks, then its child sections (one level of nesting reads best)."""

    id: str
    title: str
    blocks: tuple[Block, ...] = ()
    children: tuple[Section, ...] = ()

    def walk(self) -> Iterator[Section]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class Page:
    title: str
    subtitle: str
    sections: tuple[Section, ...]
    generated_by: str
    generated_at: str = ""  # shown in the footer; "" -> the time of rendering (UTC)
    # A server's progress document of the experiment shown (`jvmlab serve`): the page polls it and shows
    # the trials as they finish, and the running ones' metric, until the experiment ends
    live: str | None = None
    # ... and the document carries a tuning study's charts, drawn in the panel as the study goes on
    live_charts: bool = False

    def all_sections(self) -> list[Section]:
        return [s for top in self.sections for s in top.walk()]

    def section(self, id: str) -> Section:
        return next(s for s in self.all_sections() if s.id == id)

    def charts(self) -> list[Chart]:
        return [b for s in self.all_sections() for b in s.blocks if isinstance(b, Chart)]

    def flamegraphs(self) -> list[FlameGraph]:
        return [b for s in self.all_sections() for b in s.blocks if isinstance(b, FlameGraph)]


def table(
    columns: Sequence[str | Column],
    rows: Sequence[Sequence[str | Cell]],
    caption: str = "",
    notes: Sequence[str] = (),
) -> Table:
    """A Table from plain strings: a str column is a text column, a str cell has no status."""
    cols = tuple(c if isinstance(c, Column) else Column(c) for c in columns)
    cells = tuple(tuple(c if isinstance(c, Cell) else Cell(c) for c in row) for row in rows)
    return Table(cols, cells, caption, tuple(notes))


def slug(text: str) -> str:
    """An HTML id from any text: letters, digits and dashes, starting with a letter."""
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return s if s and s[0].isalpha() else f"s-{s}"


def json_island(value: Any) -> Markup:
    """JSON safe to put inside a <script> element: <, >, & and U+2028/2029 are written as \\u escapes, so
    no string in the data (log text included) can close the element or start markup. NaN is not JSON:
    callers give None instead."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for char, escape in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return Markup(text)


def safe_href(href: str) -> str | None:
    """`href` when it is relative or its scheme is harmless (no javascript: or data: links), else None.
    Control characters are refused: browsers drop tabs and newlines inside a URL ("java\tscript:")."""
    href = href.strip(" ")
    if any(ord(c) < 32 or ord(c) == 127 for c in href):
        return None
    head = re.split(r"[/?#]", href, maxsplit=1)[0]
    if ":" not in head:
        return href
    return href if head.split(":", 1)[0].lower() in SAFE_SCHEMES else None


def csp_hash(script: str) -> str:
    """The Content-Security-Policy source that allows exactly this inline script."""
    import base64

    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


@cache
def plotly_js() -> str:
    """plotly.js of the installed plotly package (4.6 MB), inlined so that the page needs no network."""
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


@cache
def flamegraph_js() -> str:
    """The flame graph drawing code (templates/flamegraph.js), inlined once per page that has any."""
    from importlib.resources import files

    return (files("jvmlab.report.html") / "templates" / "flamegraph.js").read_text(encoding="utf-8")


@cache
def live_js() -> str:
    """The live panel's polling code (templates/live.js), on pages of a running experiment only."""
    from importlib.resources import files

    return (files("jvmlab.report.html") / "templates" / "live.js").read_text(encoding="utf-8")


def _block_kind(block: Block) -> str:
    return type(block).__name__.lower()


def check_ids(page: Page) -> None:
    """Section, chart and flame graph ids become HTML ids: each must be well formed and used once."""
    ids = [s.id for s in page.all_sections()] + [c.id for c in page.charts()]
    ids += [f.id for f in page.flamegraphs()]
    for id in ids:
        if not ID_PATTERN.match(id):
            raise ValueError(f"id {id!r} is not a valid HTML id (letters, digits, - and _)")
    duplicates = sorted({id for id in ids if ids.count(id) > 1})
    if duplicates:
        raise ValueError(f"ids used twice on the page: {duplicates}")


@cache
def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("jvmlab.report.html", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["json_island"] = json_island
    env.filters["safe_href"] = safe_href
    env.filters["csp_hash"] = csp_hash
    env.filters["block_kind"] = _block_kind
    return env


def render(page: Page) -> str:
    """The page as one HTML document: plotly.js (if it has charts), the flame graph code (if it has
    flame graphs), the styles and the data inline; no network needed."""
    check_ids(page)
    generated_at = page.generated_at or datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    template = _environment().get_template("report.html.j2")
    js, flame_js = plotly_js(), flamegraph_js()
    return str(
        template.render(
            page=page,
            generated_at=generated_at,
            plotly_js=Markup(js),
            plotly_hash=csp_hash(js),
            has_charts=bool(page.charts()) or (page.live is not None and page.live_charts),
            flamegraph_js=Markup(flame_js),
            flamegraph_hash=csp_hash(flame_js),
            has_flamegraphs=bool(page.flamegraphs()),
            live_js=Markup(live_js()) if page.live else "",
            live_hash=csp_hash(live_js()) if page.live else "",
        )
    )


def write(page: Page, path: str | Path) -> int:
    """Writes the rendered page to `path` and returns its size in bytes. A folder that does not exist, or
    a file that cannot be written, raises InputError naming the path."""
    data = render(page).encode("utf-8")
    write_file(path, data, what="report")
    return len(data)
