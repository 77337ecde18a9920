"""The single-file offline HTML report: view-model types (page), plotly figure helpers (charts) and the
rendering of a page through one jinja2 template (templates/report.html.j2)."""

from jvmlab.report.html.page import (
    Block,
    Cell,
    Chart,
    Column,
    KeyValues,
    Links,
    Page,
    Preformatted,
    Section,
    Table,
    Text,
    render,
    slug,
    table,
    write,
)

__all__ = [
    "Block",
    "Cell",
    "Chart",
    "Column",
    "KeyValues",
    "Links",
    "Page",
    "Preformatted",
    "Section",
    "Table",
    "Text",
    "render",
    "slug",
    "table",
    "write",
]
