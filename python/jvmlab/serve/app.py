"""The web app of `jvmlab serve`: pages and a JSON API over the results store (the same documents as the
commands' --json), trials' files from the runs folder only, and GC logs uploaded under a name.

Every page and document is made by the library the commands use (report pages, results, comparisons, GC
summaries and advice); this module only routes, checks what a request names, and keeps uploads."""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
import shutil
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from jvmlab.errors import JvmLabError
from jvmlab.experiment.storage import ExperimentOverview, ExperimentRow, GcUploadRow, Store
from jvmlab.report import units
from jvmlab.serve.guard import Guard
from jvmlab.serve.kept import SizedCache
from jvmlab.serve.settings import ServeSettings

# The app's own pages run no script; forms post here only.
APP_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
STATUSES = ("planned", "running", "done", "interrupted")
LIVE = ("planned", "running")  # an experiment in these follows its run; the others have ended
TEXT_SUFFIXES = {".log", ".txt", ".json", ".xml", ".csv", ".toml", ".collapsed", ".html", ".svg"}
CHUNK_BYTES = 1 << 20
PICKER_EXPERIMENTS = 200  # the newest experiments whose variants the compare page offers
# Uploads kept parsed (the next page of events, a comparison, the JSON beside the page) while their event
# tables weigh this much together: a 520 MB G1 log's is 187 MB
KEPT_LOG_BYTES = 512 * 2**20
# Ended experiments' reports kept rendered (about 5 MB each: plotly.js is inline), and how many of the
# newest are rendered when the server starts (with ServeSettings.prerender): their first view is then
# served from memory.
REPORT_BYTES = 64 * 2**20
PRERENDERED = 8
EVENTS_PAGE, MAX_EVENTS_PAGE = 100, 1000
_FILE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def _templates() -> Environment:
    return Environment(
        loader=PackageLoader("jvmlab.serve", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _page(env: Environment, template: str, **values: Any) -> HTMLResponse:
    html = env.get_template(template).render(**values)
    return HTMLResponse(html, headers={"Content-Security-Policy": APP_CSP})


def _when(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


def not_found(what: str) -> HTTPException:
    return HTTPException(404, f"no {what}")


def experiment_json(o: ExperimentOverview) -> dict[str, Any]:
    return {
        "id": o.id,
        "name": o.name,
        "status": o.status,
        "created_at": o.created_at,
        "host": o.host,
        "nodes": list(o.nodes),
        "trials": o.trials,
        "jdks": list(o.jdks),
        "flag_sets": list(o.flag_sets),
        "containers": list(o.containers),
    }


def matches(o: ExperimentOverview, q: str, status: str) -> bool:
    if status and o.status != status:
        return False
    if not q:
        return True
    needle = q.lower()
    haystack = (o.name, str(o.id), *o.jdks, *o.flag_sets, *o.containers, o.host or "", *o.nodes)
    return any(needle in h.lower() for h in haystack)


def optional_number(text: str, name: str) -> float | None:
    if not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        raise HTTPException(400, f"{name}={text}: not a number") from None


def inside(path: Path, folder: Path) -> bool:
    """Whether `path` (symbolic links followed) lies in `folder`."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return False


def safe_file_name(name: str, taken: set[str]) -> str:
    """An uploaded file's name as kept: its last path component, plain characters only, unique."""
    base = _FILE_NAME.sub("_", Path(name.replace("\\", "/")).name).lstrip(".") or "gc.log"
    kept, n = base[:120], 1
    while kept in taken:
        n += 1
        kept = f"{n}-{base[:110]}"
    taken.add(kept)
    return kept


def create_app(settings: ServeSettings) -> FastAPI:
    """The app over `settings.db`. One store (one connection pool) for the app's life."""
    from jvmlab import __version__

    store = Store.open(settings.db)
    env = _templates()

    stopping = threading.Event()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.prerender:
            ended = [o.id for o in store.experiment_overviews() if o.status not in LIVE]
            prerender(ended[:PRERENDERED])
        yield
        stopping.set()
        store.close()

    app = FastAPI(
        title="jvmlab",
        version=__version__,
        description="jvmlab's results store as a web app: experiments, comparisons, GC logs.",
        docs_url=None,  # the interactive docs load scripts from a CDN: /openapi.json is the description
        redoc_url=None,
        lifespan=lifespan,
    )
    app.add_middleware(Guard, token=settings.token, max_body_bytes=settings.max_upload_bytes)

    def experiment_row(ref: str) -> ExperimentRow:
        if not ref.isdigit():
            raise not_found(f"experiment {ref}")
        exp = store.experiment(int(ref))
        if exp is None:
            raise not_found(f"experiment {ref}")
        return exp

    def upload_row(ref: str) -> GcUploadRow:
        row = store.upload(int(ref)) if ref.isdigit() else None
        if row is None or not inside(Path(row.folder), settings.uploads):
            raise not_found(f"GC log upload {ref}")
        return row

    # ---- experiments ----------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/experiments", status_code=303)

    @app.get("/api/experiments", summary="Experiments, newest first (filter: q, status)")
    def experiments_api(q: str = "", status: str = "") -> JSONResponse:
        rows = [experiment_json(o) for o in store.experiment_overviews() if matches(o, q, status)]
        return JSONResponse({"format_version": 1, "experiments": rows})

    @app.get("/experiments", response_class=HTMLResponse, include_in_schema=False)
    def experiments_page(q: str = "", status: str = "") -> HTMLResponse:
        overviews = store.experiment_overviews()
        rows = []
        for o in overviews:
            if not matches(o, q, status):
                continue
            trials = " · ".join(f"{n} {state}" for state, n in sorted(o.trials.items()))
            where = o.host or ""
            if o.nodes:
                where += f" (Ray: {', '.join(o.nodes)})"
            rows.append(
                {**experiment_json(o), "trials_text": trials, "when": _when(o.created_at), "where": where}
            )
        return _page(
            env, "experiments.html.j2", title="Experiments", nav="experiments", rows=rows,
            total=len(overviews), q=q, status=status, statuses=STATUSES,
        )  # fmt: skip

    @app.get("/api/experiments/{ref}", summary="An experiment's results (`jvmlab results --json`)")
    def experiment_api(ref: str) -> JSONResponse:
        from jvmlab.experiment.analysis.results import stored_results
        from jvmlab.report.experiment.results_export import results_json

        exp = experiment_row(ref)
        return JSONResponse(results_json(stored_results(store, exp.id)))

    @app.get(
        "/api/experiments/{ref}/comparison",
        summary="The variants compared with CIs (`jvmlab compare --format json`)",
    )
    def comparison_api(
        ref: str, baseline: str | None = None, alpha: float | None = None, threshold: float | None = None
    ) -> Response:
        from jvmlab.experiment.analysis.comparison import stored_comparison
        from jvmlab.report.experiment.comparison_export import to_json

        exp = experiment_row(ref)
        if alpha is not None and not 0 < alpha < 0.5:
            raise HTTPException(400, "alpha: a significance level between 0 and 0.5, e.g. 0.01")
        try:
            c = stored_comparison(
                store, str(exp.id), baseline=baseline, alpha=alpha, threshold_percent=threshold
            )
        except JvmLabError as e:
            raise HTTPException(400, str(e)) from None
        return Response(to_json(c), media_type="application/json")

    @app.get("/experiments/{ref}", response_class=HTMLResponse, include_in_schema=False)
    def experiment_page(ref: str, baseline: str | None = None) -> HTMLResponse:
        exp = experiment_row(ref)
        if exp.status in LIVE:
            return HTMLResponse(report_page(exp, baseline))
        return HTMLResponse(ended_reports(ended_key(exp, baseline)))

    def ended_key(exp: ExperimentRow, baseline: str | None) -> tuple[Any, ...]:
        """An ended experiment's report changes only with its trials (a resumed run) or its environment (a
        verification added): kept rendered under what those were."""
        version = (store.trials_version(exp.id), json.dumps(exp.environment, sort_keys=True, default=str))
        return exp.id, baseline, exp.status, version

    ended_reports: SizedCache[tuple[Any, ...], str] = SizedCache(
        lambda key: report_page(experiment_row(str(key[0])), key[1]), len, max_bytes=REPORT_BYTES
    )

    def prerender(experiments: list[int]) -> None:
        """Renders the reports of `experiments` in the background (500 trials: about 0.8 s each), so that
        their first view is served from memory; a request for one meanwhile waits for that render."""

        def render_all() -> None:
            for ref in experiments:
                if stopping.is_set():
                    return
                try:
                    exp = experiment_row(str(ref))
                    if exp.status not in LIVE:
                        ended_reports(ended_key(exp, None))
                except Exception:  # noqa: BLE001 - a page that fails here fails again, said, when asked for
                    continue

        threading.Thread(target=render_all, name="jvmlab-prerender", daemon=True).start()

    def report_page(exp: ExperimentRow, baseline: str | None) -> str:
        """The experiment's HTML report; a running experiment's follows the run (and a study's charts)."""
        from jvmlab.experiment.analysis.report_data import report_data
        from jvmlab.report.experiment.page import experiment_page as page_of
        from jvmlab.report.html.page import render
        from jvmlab.tune.session import stored_result

        try:
            data = report_data(store, str(exp.id), baseline=baseline)
        except JvmLabError as e:
            raise HTTPException(400, str(e)) from None
        run_dir = Path(exp.run_dir)

        def href(path: str) -> str:
            p = Path(path)
            if not p.is_absolute() or not inside(p, run_dir):
                return ""
            return f"/experiments/{exp.id}/files/{p.resolve().relative_to(run_dir.resolve()).as_posix()}"

        study = stored_result(store, exp)
        page = page_of(data, tuning=study, file_href=href)
        if exp.status in LIVE:
            progress = f"/api/experiments/{exp.id}/progress"
            page = dataclasses.replace(page, live=progress, live_charts=study is not None)
        return render(page)

    @app.get(
        "/api/experiments/{ref}/progress",
        summary="Where a running experiment stands: trials by state, the running trials' metric so far",
    )
    def progress_api(ref: str) -> JSONResponse:
        from jvmlab.experiment.analysis.progress import experiment_progress
        from jvmlab.report.experiment.tune_section import live_tuning
        from jvmlab.tune.session import stored_result

        exp = experiment_row(ref)
        doc = experiment_progress(store, exp).to_json()
        ended = exp.status not in LIVE
        if settings.prerender and ended and ended_key(exp, None) not in ended_reports:
            prerender([exp.id])  # it just ended: its page is reloaded next
        study = stored_result(store, exp)  # a tuning study: where it stands, its charts
        doc["tuning"] = live_tuning(study) if study is not None else None
        return JSONResponse(doc)

    @app.get(
        "/api/experiments/{ref}/gate",
        summary="The gate: every goal, and with `against` each variant's regressions (`jvmlab gate`)",
    )
    def gate_api(
        ref: str, against: str = "", threshold: float | None = None, inconclusive: str = "fail"
    ) -> Any:
        from jvmlab.experiment.analysis.comparison import stored_comparison
        from jvmlab.experiment.analysis.gate import INCONCLUSIVE_FAILS, INCONCLUSIVE_PASSES, gate
        from jvmlab.report.experiment.comparison_view import default_measures
        from jvmlab.report.experiment.gate_export import gate_document

        if inconclusive not in (INCONCLUSIVE_FAILS, INCONCLUSIVE_PASSES):
            raise HTTPException(400, "inconclusive: fail or pass")
        exp = experiment_row(ref)
        baseline_exp = experiment_row(against) if against else None
        try:
            current = stored_comparison(store, str(exp.id), threshold_percent=threshold)
            baseline = (
                stored_comparison(store, str(baseline_exp.id), threshold_percent=threshold)
                if baseline_exp is not None
                else None
            )
        except JvmLabError as e:
            raise HTTPException(400, str(e)) from None
        result = gate(
            current,
            baseline,
            measures=default_measures(current),
            threshold_percent=current.threshold_percent,
            inconclusive=inconclusive,
        )
        return JSONResponse(gate_document(result))

    def regression(ref: str, base: str, new: str) -> Any:
        from jvmlab.regress import analyse
        from jvmlab.regress.plan import Side

        exp = experiment_row(ref)
        variants = list(
            dict.fromkeys(t.variant for t in sorted(store.trials(exp.id), key=lambda t: t.position))
        )
        if not base and not new and len(variants) == 2:
            base, new = variants
        sides = []
        for given, what in ((base, "base"), (new, "new")):
            jdk, sep, flag_set = given.partition("/")
            if given not in variants or not sep or "/" in flag_set:
                have = ", ".join(variants)
                raise HTTPException(
                    400, f"{what}={given}: name a variant JDK/FLAGS of the experiment ({have})"
                )
            sides.append(Side(jdk, flag_set, given))
        try:
            return analyse(store, exp.id, sides[0], sides[1])
        except JvmLabError as e:
            raise HTTPException(400, str(e)) from None

    @app.get(
        "/api/experiments/{ref}/regress",
        summary="Two variants as a regression hunt: measures, frames, JFR events, hints (`regress.json`)",
    )
    def regress_api(ref: str, base: str = "", new: str = "") -> Response:
        from jvmlab.report.regress.json_export import to_json

        return Response(to_json(regression(ref, base, new), {}, None), media_type="application/json")

    @app.get("/experiments/{ref}/regress", response_class=HTMLResponse, include_in_schema=False)
    def regress_page(ref: str, base: str = "", new: str = "") -> HTMLResponse:
        from jvmlab.report.html.page import render
        from jvmlab.report.regress.html import regress_page as page_of

        return HTMLResponse(render(page_of(regression(ref, base, new), {}, None)))

    @app.get("/experiments/{ref}/files/{path:path}", include_in_schema=False)
    def trial_file(ref: str, path: str) -> FileResponse:
        exp = experiment_row(ref)
        run_dir = Path(exp.run_dir)
        wanted = run_dir / path
        if not (inside(wanted, run_dir) and inside(wanted, settings.runs)) or not wanted.is_file():
            raise not_found(f"file {path} of experiment {exp.id}")
        if wanted.suffix.lower() in TEXT_SUFFIXES:  # shown as text, never run as a page
            return FileResponse(wanted, media_type="text/plain; charset=utf-8")
        return FileResponse(wanted, media_type="application/octet-stream", filename=wanted.name)

    # ---- comparisons across experiments -----------------------------------------------------------------

    def picked(v: list[str], alpha: float | None, threshold: float | None) -> Any:
        from jvmlab.experiment.analysis.comparison import picked_comparison

        picks = []
        for item in v:
            exp_id, sep, variant = item.partition(":")
            if not sep or not exp_id.isdigit() or not variant:
                raise HTTPException(400, f"v={item}: write EXPERIMENT:VARIANT, e.g. 3:temurin-21/default")
            picks.append((int(exp_id), variant))
        if alpha is not None and not 0 < alpha < 0.5:
            raise HTTPException(400, "alpha: a significance level between 0 and 0.5, e.g. 0.01")
        try:
            return picked_comparison(store, picks, alpha=alpha, threshold_percent=threshold)
        except JvmLabError as e:
            raise HTTPException(400, str(e)) from None

    @app.get(
        "/api/compare",
        summary="Variants of experiments of one workload, each against the first (v=ID:VARIANT, repeated)",
    )
    def compare_api(
        v: Annotated[list[str], Query()], alpha: float | None = None, threshold: float | None = None
    ) -> Response:
        from jvmlab.report.experiment.comparison_export import to_json

        return Response(to_json(picked(v, alpha, threshold)), media_type="application/json")

    @app.get("/compare", response_class=HTMLResponse, include_in_schema=False)
    def compare_page(
        v: Annotated[list[str] | None, Query()] = None, alpha: str = "", threshold: str = ""
    ) -> HTMLResponse:
        if not v:
            choices = [
                (f"{o.id}:{variant}", f"#{o.id} {o.name} · {variant}")
                for o in store.experiment_overviews()[:PICKER_EXPERIMENTS]
                for variant in o.variants
            ]
            return _page(env, "compare.html.j2", title="Compare variants", nav="compare", choices=choices)
        from jvmlab.report.experiment.comparison_page import comparison_page
        from jvmlab.report.html.page import render

        # the form sends its empty fields as "": the spec's settings
        c = picked(v, optional_number(alpha, "alpha"), optional_number(threshold, "threshold"))
        return HTMLResponse(render(comparison_page(c)))

    # ---- GC logs ---------------------------------------------------------------------------------------

    def uploads_json() -> list[dict[str, Any]]:
        return [
            {"id": u.id, "name": u.name, "files": list(u.files), "size_bytes": u.size_bytes,
             "created_at": u.created_at}
            for u in store.uploads()
        ]  # fmt: skip

    def gclogs_page(error: str = "", status_code: int = 200) -> HTMLResponse:
        uploads = [
            {**u, "size": units.size(u["size_bytes"]), "when": _when(u["created_at"])} for u in uploads_json()
        ]
        response = _page(
            env, "gclogs.html.j2", title="GC logs", nav="gclogs", uploads=uploads, error=error,
            allow_uploads=settings.allow_uploads, max_files=settings.max_upload_files, runs=settings.runs,
            max_mib=f"{settings.max_upload_bytes / 2**20:,.0f}",
        )  # fmt: skip
        response.status_code = status_code
        return response

    @app.get("/api/gclogs", summary="Uploaded GC logs, newest first")
    def gclogs_api() -> JSONResponse:
        return JSONResponse({"format_version": 1, "uploads": uploads_json()})

    @app.get("/gclogs", response_class=HTMLResponse, include_in_schema=False)
    def gclogs() -> HTMLResponse:
        return gclogs_page()

    def analysed(name: str, folder: Path) -> Any:
        from jvmlab.advise import advise_parsed
        from jvmlab.metrics import load_summarized
        from jvmlab.report.gclog.page import LabelledLog

        # One parse: the summary reads the parser's columns before they become the table (summarising the
        # table instead copies its columns back out: +135 MB for a 520 MB log).
        log, summary = load_summarized(folder)
        return LabelledLog(name, log, summary, advise_parsed(log, summary))

    @app.post("/gclogs", include_in_schema=False)
    @app.post("/api/gclogs", summary="Upload GC log files under a name (multipart: name, files)")
    async def upload(request: Request) -> Response:
        wants_json = request.url.path.startswith("/api/")
        if not settings.allow_uploads:
            raise HTTPException(403, "uploads are off on this server (jvmlab serve --allow-uploads)")
        form = await request.form(max_files=settings.max_upload_files, max_fields=8)
        name = str(form.get("name") or "").strip()
        files = [f for f in form.getlist("files") if isinstance(f, UploadFile) and f.filename]
        problem = (
            "give the upload a name (1-200 characters)" if not 0 < len(name) <= 200
            else "choose one or more GC log files" if not files else ""
        )  # fmt: skip
        if problem:
            if wants_json:
                raise HTTPException(400, problem)
            return gclogs_page(problem, 400)
        folder = settings.uploads / f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"
        folder.mkdir(parents=True)
        taken: set[str] = set()
        kept, size = [], 0
        try:
            for f in files:
                target = folder / safe_file_name(f.filename or "", taken)
                with target.open("wb") as out:
                    while chunk := await f.read(CHUNK_BYTES):
                        out.write(chunk)
                        size += len(chunk)
                kept.append(target.name)
            await run_in_threadpool(analysed, name, folder)  # not a GC log: said now, nothing kept
        except JvmLabError as e:
            shutil.rmtree(folder, ignore_errors=True)
            message = f"{name}: {e}"
            if wants_json:
                raise HTTPException(422, message) from None
            return gclogs_page(message, 422)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        upload_id = store.add_upload(name, str(folder), kept, size)
        if wants_json:
            return JSONResponse(
                {"id": upload_id, "name": name, "files": kept, "size_bytes": size}, status_code=201
            )
        return RedirectResponse(f"/gclogs/{upload_id}", status_code=303)

    def analyse_upload(upload_id: int) -> Any:
        """An upload's log, summary and findings."""
        row = store.upload(upload_id)
        assert row is not None
        return analysed(row.name, Path(row.folder))

    analysed_upload = SizedCache(
        analyse_upload, lambda item: item.log.events.estimated_size(), KEPT_LOG_BYTES
    )

    def upload_item(ref: str) -> Any:
        row = upload_row(ref)
        try:
            return analysed_upload(row.id)
        except JvmLabError as e:
            raise HTTPException(422, str(e)) from None

    def server_item(path: str) -> Any:
        """A log (a file, a folder of rotated files, a .gz or .zip) under --runs, by its path there."""
        wanted = settings.runs / path
        if not path or not inside(wanted, settings.runs) or not wanted.exists():
            raise not_found(f"GC log {path} in the runs folder")
        try:
            return analysed(path, wanted)
        except JvmLabError as e:
            raise HTTPException(422, str(e)) from None

    def items_of(u: list[str]) -> list[Any]:
        if len(u) < 2 or len(set(u)) != len(u):
            raise HTTPException(400, "u: give two uploads or more, each once (u=1&u=2)")
        return [upload_item(ref) for ref in u]

    def summary_json(item: Any) -> dict[str, Any]:
        from jvmlab.report.gclog.json_export import summary_document

        doc = summary_document([item.summary])
        doc["advice"] = item.advice.model_dump(mode="json") if item.advice is not None else None
        return doc

    def report_of(items: list[Any]) -> HTMLResponse:
        from jvmlab.report.gclog.page import gc_report_page
        from jvmlab.report.html.page import render

        return HTMLResponse(render(gc_report_page(items)))

    @app.get("/api/gclogs/compare", summary="Uploaded logs side by side (`jvmlab gc compare --json`)")
    def gclogs_compare_api(u: Annotated[list[str], Query()]) -> JSONResponse:
        from jvmlab.metrics.comparison import compare
        from jvmlab.report.gclog.json_export import compare_document

        items = items_of(u)
        summaries = [item.summary for item in items]
        return JSONResponse(compare_document(compare(summaries, [i.label for i in items]), summaries))

    @app.get("/gclogs/compare", response_class=HTMLResponse, include_in_schema=False)
    def gclogs_compare_page(u: Annotated[list[str], Query()]) -> HTMLResponse:
        return report_of(items_of(u))

    @app.get("/api/gclogs/at", summary="A log under the runs folder by its path there (`gc summary --json`)")
    def gclog_at_api(path: str) -> JSONResponse:
        return JSONResponse(summary_json(server_item(path)))

    @app.get("/gclogs/at", response_class=HTMLResponse, include_in_schema=False)
    def gclog_at_page(path: str) -> HTMLResponse:
        return report_of([server_item(path)])

    @app.get("/api/gclogs/{ref}", summary="An uploaded log's summary (`jvmlab gc summary --json`)")
    def gclog_api(ref: str) -> JSONResponse:
        return JSONResponse(summary_json(upload_item(ref)))

    @app.get("/gclogs/{ref}", response_class=HTMLResponse, include_in_schema=False)
    def gclog_page(ref: str) -> HTMLResponse:
        return report_of([upload_item(ref)])

    def page_bounds(offset: int, limit: int) -> None:
        if offset < 0 or not 0 < limit <= MAX_EVENTS_PAGE:
            raise HTTPException(400, f"offset >= 0 and limit 1-{MAX_EVENTS_PAGE}")

    @app.get("/api/gclogs/{ref}/events", summary="A page of an uploaded log's event table")
    def gclog_events_api(ref: str, offset: int = 0, limit: int = EVENTS_PAGE) -> Response:
        from jvmlab.report.gclog.events_export import portable

        page_bounds(offset, limit)
        events = upload_item(ref).log.events
        rows = portable(events.slice(offset, limit)).to_dicts()
        doc = {"format_version": 1, "total": events.height, "offset": offset, "limit": limit, "events": rows}
        return Response(json.dumps(doc, default=str, allow_nan=False), media_type="application/json")

    @app.get(
        "/api/gclogs/{ref}/events.csv", summary="An uploaded log's whole event table (`gc events --csv`)"
    )
    def gclog_events_csv(ref: str) -> Response:
        from jvmlab.report.gclog.events_export import events_bytes

        item = upload_item(ref)
        return Response(
            events_bytes(item.log.events, "csv"),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="gc-events-{ref}.csv"'},
        )

    @app.get("/gclogs/{ref}/events", response_class=HTMLResponse, include_in_schema=False)
    def gclog_events_page(ref: str, offset: int = 0, limit: int = EVENTS_PAGE) -> HTMLResponse:
        from jvmlab.report.gclog.events_page import events_page
        from jvmlab.report.html.page import render

        page_bounds(offset, limit)
        item = upload_item(ref)
        page = events_page(
            item.label, item.log.events, offset=offset, limit=limit, href=f"/gclogs/{ref}/events",
            csv_href=f"/api/gclogs/{ref}/events.csv",
        )  # fmt: skip
        return HTMLResponse(render(page))

    return app
