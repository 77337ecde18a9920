"""`jvmlab serve`: the lab as a web app for a team, over the shared results store (docs/serve.md).

from jvmlab.serve import ServeSettings, create_app
app = create_app(ServeSettings(db="postgresql://lab@db/jvmlab", runs=Path("runs"), uploads=Path("up")))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jvmlab.serve.settings import ServeSettings, check_bind

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["ServeSettings", "check_bind", "create_app"]


def create_app(settings: ServeSettings) -> FastAPI:
    """The app (FastAPI, the store and the report views load here: the CLI starts without them)."""
    from jvmlab.serve.app import create_app as app_of

    return app_of(settings)
