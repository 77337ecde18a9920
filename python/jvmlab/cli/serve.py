"""`jvmlab serve`: the results store as a web app (docs/serve.md). Loopback by default; any other address
needs a token; read-only unless --allow-uploads."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from jvmlab.cli.experiments import Db
from jvmlab.serve.settings import (
    DEFAULT_MAX_UPLOAD_BYTES,
    DEFAULT_MAX_UPLOAD_FILES,
    TOKEN_VARIABLE,
    ServeSettings,
    check_bind,
)


def serve_command(
    db: Db = None,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (other than loopback: --token).")
    ] = ("127.0.0.1"),
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    runs: Annotated[
        Path, typer.Option("--runs", help="The trials' folder: their files are served from here only.")
    ] = Path("runs"),
    uploads: Annotated[Path, typer.Option("--uploads", help="Where uploaded GC logs are kept.")] = Path(
        "uploads"
    ),
    token: Annotated[
        str | None,
        typer.Option(
            "--token", envvar=TOKEN_VARIABLE, help="Every request must carry it (Bearer or ?token=)."
        ),
    ] = None,
    allow_uploads: Annotated[
        bool, typer.Option("--allow-uploads", help="Let users upload GC logs (off: read-only).")
    ] = False,
    max_upload_mb: Annotated[
        float, typer.Option("--max-upload-mb", help="Largest upload, all its files together.")
    ] = DEFAULT_MAX_UPLOAD_BYTES / 2**20,
    max_upload_files: Annotated[
        int, typer.Option("--max-upload-files", help="Most files in one upload.")
    ] = DEFAULT_MAX_UPLOAD_FILES,
) -> None:
    """Serve the results store as a web app: experiments, their reports and comparisons, GC logs uploaded
    and analysed, and a JSON API behind every page (/openapi.json)."""
    import uvicorn

    from jvmlab.cli.output import print_text
    from jvmlab.experiment.storage import engine_url
    from jvmlab.serve import create_app

    settings = ServeSettings(
        db=db, runs=runs, uploads=uploads, host=host, port=port, token=token, allow_uploads=allow_uploads,
        max_upload_bytes=int(max_upload_mb * 2**20), max_upload_files=max_upload_files, prerender=True,
    )  # fmt: skip
    check_bind(settings)
    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    print_text(
        f"jvmlab serve: http://{shown}:{port}/ · store {engine_url(db)} · "
        f"{'uploads on' if allow_uploads else 'read-only'} · Ctrl-C stops"
    )
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False)
