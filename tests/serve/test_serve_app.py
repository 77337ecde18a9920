"""`jvmlab serve` through Starlette's test client: the experiment list (filtered), an experiment's report
and its JSON documents (the same as `jvmlab results --json` and `jvmlab compare --format json`), the files of
its trials and nothing else, GC logs uploaded under a name and analysed (the same summary as `jvmlab gc
summary --json`, the same findings), and the guard: the token, uploads off by default, path parameters that
name nothing."""

from __future__ import annotations

import json
from pathlib import Path

from lab import HOSTILE, HOSTILE_LINES, TOKEN, Variant, store_experiment
from starlette.testclient import TestClient

from jvmlab.cli.main import main
from jvmlab.experiment.storage import Store
from jvmlab.serve import ServeSettings, create_app


def client(lab, **settings) -> TestClient:
    s = ServeSettings(db=str(lab["db"]), runs=Path(lab["runs"]), uploads=Path(lab["uploads"]), **settings)
    return TestClient(create_app(s))


def test_the_experiment_list_and_its_filters(lab):
    with client(lab) as c:
        page = c.get("/experiments")
        assert page.status_code == 200
        assert page.headers["content-security-policy"].startswith("default-src 'none'")
        assert ">synthetic</a>" in page.text and ">levels</a>" in page.text
        # 2 variants x 3 repetitions; 2 x 5 with the levels run within each trial
        assert "jdk25" in page.text and "6 ok" in page.text and "10 ok" in page.text
        doc = c.get("/api/experiments").json()
        assert [e["name"] for e in doc["experiments"]] == ["levels", "synthetic"]  # newest first
        first = doc["experiments"][1]
        assert first["jdks"] == ["jdk21"] and sorted(first["flag_sets"]) == ["default", "tuned"]
        assert first["trials"] == {"ok": 6} and first["status"] == "done"
        assert [e["name"] for e in c.get("/api/experiments", params={"q": "zgc"}).json()["experiments"]] == [
            "levels"
        ]
        assert c.get("/api/experiments", params={"status": "running"}).json()["experiments"] == []
        assert "0 of 2 experiments" in c.get("/experiments", params={"status": "running"}).text


def test_an_experiments_report_and_documents_are_the_commands(lab, capsys):
    with client(lab) as c:
        page = c.get("/experiments/1")
        assert page.status_code == 200 and "<title>jvmlab: synthetic</title>" in page.text
        assert HOSTILE not in page.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
        results = c.get("/api/experiments/1").json()
        comparison = c.get("/api/experiments/2/comparison").json()
    assert main(["results", "1", "--db", str(lab["db"]), "--json"]) == 0
    assert results == json.loads(capsys.readouterr().out)
    assert main(["compare", "2", "--db", str(lab["db"]), "--format", "json"]) == 0
    assert comparison == json.loads(capsys.readouterr().out)


def test_an_ended_experiments_report_is_kept_until_its_trials_change(lab):
    store = Store.open(str(lab["db"]))
    try:
        with client(lab) as c:
            first = c.get("/experiments/1").text
            assert c.get("/experiments/1").text == first  # kept: the same document, rendered once
            trial = store.trials(1)[0]
            store.record_loss(trial.id, node="n1@127.0.0.1", reason="gone")  # pending again, to run once more
            again = c.get("/experiments/1").text
    finally:
        store.close()
    assert again != first and "pending" in again.split('id="trials"')[1]


def test_with_prerender_the_ended_experiments_are_rendered_before_their_first_view(lab, monkeypatch):
    import time

    import jvmlab.report.html.page as html_page

    rendered: list[str] = []
    real = html_page.render

    def counting(page, *args, **kwargs):
        rendered.append(page.title)
        return real(page, *args, **kwargs)

    monkeypatch.setattr(html_page, "render", counting)
    with client(lab) as c:  # on request only
        time.sleep(0.5)
        assert rendered == []
    with client(lab, prerender=True) as c:
        deadline = time.monotonic() + 30
        while len(rendered) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sorted(rendered) == ["jvmlab: levels", "jvmlab: synthetic"], rendered
        assert "<title>jvmlab: synthetic</title>" in c.get("/experiments/1").text
        assert "<title>jvmlab: levels</title>" in c.get("/experiments/2").text
    assert len(rendered) == 2  # both views served what was rendered at start


def test_path_parameters_that_name_nothing_are_404(lab, tmp_path):
    run_dir = Path("/tmp/synthetic")  # the synthetic experiments' run folder
    lab["runs"] = Path("/tmp")
    with client(lab) as c:
        for path in (
            "/experiments/99", "/experiments/abc", "/experiments/1%2F..%2F..", "/api/experiments/..%2F1",
            "/experiments/1/files/%2e%2e/%2e%2e/etc/passwd", "/experiments/1/files/%2Fetc%2Fpasswd",
            "/experiments/1/files/..%2F..%2Fetc%2Fpasswd", "/gclogs/1", "/gclogs/..%2F..%2Fetc",
            "/api/gclogs/%2e%2e", "/api/experiments/1/comparison%2F..",
        ):  # fmt: skip
            assert c.get(path).status_code == 404, path
    # inside the runs folder but outside the experiment's own folder: still nothing
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("not the experiment's")
    link = run_dir / "link-out.txt"
    run_dir.mkdir(exist_ok=True)
    link.unlink(missing_ok=True)
    link.symlink_to(outside)
    try:
        with client(lab) as c:
            assert c.get("/experiments/1/files/link-out.txt").status_code == 404
            (run_dir / "stdout.log").write_text(f"{HOSTILE}\n")
            shown = c.get("/experiments/1/files/stdout.log")
            assert shown.status_code == 200 and shown.headers["content-type"].startswith("text/plain")
            assert shown.headers["x-content-type-options"] == "nosniff"
    finally:
        link.unlink(missing_ok=True)
        (run_dir / "stdout.log").unlink(missing_ok=True)


def test_a_gc_log_uploaded_under_a_name_is_analysed_as_the_commands_do(lab, tmp_path, capsys):
    hostile = tmp_path / "hostile.log"
    hostile.write_bytes(Path(lab["gc_log"]).read_bytes() + "".join(HOSTILE_LINES).encode())
    with client(lab, allow_uploads=True) as c:
        with hostile.open("rb") as f:
            sent = c.post(
                "/gclogs",
                data={"name": "checkout <b>prod</b>"},
                files=[("files", ("../../hostile.log", f, "text/plain"))],
                follow_redirects=False,
            )
        assert sent.status_code == 303 and sent.headers["location"] == "/gclogs/1"
        page = c.get("/gclogs/1")
        assert page.status_code == 200 and "GC report: checkout &lt;b&gt;prod&lt;/b&gt;" in page.text
        assert "<script>alert(1)</script>" not in page.text  # the log's markup is inert
        listed = c.get("/api/gclogs").json()["uploads"]
        assert [(u["name"], u["files"]) for u in listed] == [("checkout <b>prod</b>", ["hostile.log"])]
        doc = c.get("/api/gclogs/1").json()
        kept = Path(lab["uploads"])
        assert [p.name for p in kept.glob("*/*")] == ["hostile.log"]  # in its folder, never ../../
    assert main(["gc", "summary", str(hostile), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    mine, theirs = doc["inputs"][0], cli["inputs"][0]
    assert mine["pause_count"] > 0 and mine["diagnostics"]["lines_unknown"] >= 3  # the hostile lines
    assert {k: v for k, v in mine.items() if k != "name"} == {k: v for k, v in theirs.items() if k != "name"}
    assert doc["advice"] is not None and "findings" in doc["advice"]


def test_uploads_are_off_unless_allowed_and_a_non_log_is_refused_and_not_kept(lab, tmp_path):
    with client(lab) as c:
        refused = c.post("/api/gclogs", data={"name": "x"}, files=[("files", ("gc.log", b"x", "text/plain"))])
        assert refused.status_code == 403 and "--allow-uploads" in refused.text
        assert "Uploads are off" in c.get("/gclogs").text
    with client(lab, allow_uploads=True) as c:
        junk = c.post(
            "/api/gclogs",
            data={"name": "notes"},
            files=[("files", ("notes.txt", b"shopping list\nmilk\n", "text/plain"))],
        )
        assert junk.status_code == 422 and "notes" in junk.json()["detail"]
        assert c.get("/api/gclogs").json()["uploads"] == []
        nameless = c.post("/gclogs", data={"name": ""}, files=[("files", ("gc.log", b"x", "text/plain"))])
        assert nameless.status_code == 400 and "give the upload a name" in nameless.text
    assert not list(Path(lab["uploads"]).glob("*/*"))


def test_with_a_token_every_request_carries_it(lab):
    with client(lab, token=TOKEN) as c:
        for path in ("/experiments", "/api/experiments", "/experiments/1", "/openapi.json", "/nowhere"):
            assert c.get(path).status_code == 401, path
        assert c.get("/api/experiments", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert c.get("/api/experiments", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
        link = c.get(f"/experiments?token={TOKEN}", follow_redirects=False)
        assert link.status_code == 303 and link.headers["location"] == "/experiments"  # the URL loses it
        cookie = link.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert c.get("/experiments").status_code == 200  # the cookie now


def test_the_api_is_described():
    from jvmlab.serve.settings import ServeSettings

    app = create_app(ServeSettings(db="sqlite://", runs=Path("runs"), uploads=Path("uploads")))
    with TestClient(app) as c:
        paths = c.get("/openapi.json").json()["paths"]
    assert {"/api/experiments", "/api/experiments/{ref}", "/api/experiments/{ref}/comparison",
            "/api/gclogs", "/api/gclogs/{ref}"} <= set(paths)  # fmt: skip


def test_variants_of_several_experiments_compared_as_compare_does(lab, capsys):
    """Picks from one experiment give `jvmlab compare`'s figures to the digit; picks across two runs of one
    workload compare as well (a later run of the spec 10 % faster: better); other workloads do not."""
    store = Store.open(str(lab["db"]))
    store_experiment(store, [Variant("jdk21", "default", metric=330.0)], repetitions=3, seed=7)
    store.close()
    picks = {"v": ["1:jdk21/default", "1:jdk21/tuned"]}
    with client(lab) as c:
        same = c.get("/api/compare", params=picks).json()
        across = c.get("/api/compare", params={"v": ["1:jdk21/default", "3:jdk21/default"]}).json()
        page = c.get("/compare", params={"v": ["1:jdk21/default", "3:jdk21/default"]})
        picker = c.get("/compare")
        refused = {
            "other workload": c.get("/api/compare", params={"v": ["1:jdk21/default", "2:jdk25/zgc"]}),
            "no variant": c.get("/api/compare", params={"v": ["1:jdk21/default", "1:jdk99/x"]}),
            "one pick": c.get("/api/compare", params={"v": ["1:jdk21/default"]}),
            "not a pick": c.get("/api/compare", params={"v": ["1:jdk21/default", "x"]}),
        }
    assert main(["compare", "1", "--db", str(lab["db"]), "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    for measure, cells in cli["blocks"][0]["cells"].items():
        assert same["blocks"][0]["cells"][measure]["#1 jdk21/tuned"] == cells["jdk21/tuned"], measure
    metric = across["blocks"][0]["cells"]["ops_per_s"]["#3 jdk21/default"]
    assert 5 < metric["change"]["percent"] < 15 and metric["verdict"] == "better", metric
    assert page.status_code == 200 and "#3 jdk21/default" in page.text and "better" in page.text
    assert picker.status_code == 200 and 'value="3:jdk21/default"' in picker.text
    assert "different workloads" in refused["other workload"].json()["detail"]
    assert "has no variant 'jdk99/x'" in refused["no variant"].json()["detail"]
    assert all(r.status_code == 400 for r in refused.values()), {k: r.text for k, r in refused.items()}


def test_uploaded_logs_side_by_side_their_events_paged_and_logs_of_the_runs_folder(lab, tmp_path, capsys):
    from lab import ZGC, corpus_log

    g1, zgc = Path(lab["gc_log"]), corpus_log(ZGC)
    runs = Path(lab["runs"])
    (runs / "exp-1").mkdir(parents=True)
    (runs / "exp-1" / "gc.log").write_bytes(zgc.read_bytes())
    with client(lab, allow_uploads=True) as c:
        for name, path in (("g1", g1), ("zgc", zgc)):
            with path.open("rb") as f:
                assert (
                    c.post("/api/gclogs", data={"name": name}, files=[("files", (path.name, f))]).status_code
                    == 201
                )
        side = c.get("/api/gclogs/compare", params={"u": ["1", "2"]}).json()
        page = c.get("/gclogs/compare", params={"u": ["1", "2"]})
        assert page.status_code == 200 and "Side by side" in page.text
        assert c.get("/api/gclogs/compare", params={"u": ["1"]}).status_code == 400
        first = c.get("/api/gclogs/1/events", params={"limit": 10}).json()
        last = c.get("/api/gclogs/1/events", params={"offset": first["total"] - 3}).json()
        events_page = c.get("/gclogs/1/events", params={"offset": 100, "limit": 100})
        csv = c.get("/api/gclogs/1/events.csv")
        assert c.get("/api/gclogs/1/events", params={"limit": 5000}).status_code == 400
        at = c.get("/api/gclogs/at", params={"path": "exp-1/gc.log"})
        at_page = c.get("/gclogs/at", params={"path": "exp-1"})  # the folder: the log in it
        outside = [
            c.get("/gclogs/at", params={"path": p}).status_code
            for p in ("../../etc/passwd", "/etc/passwd", "")
        ]
    assert main(["gc", "compare", f"g1={g1}", f"zgc={zgc}", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert side["figures"] == cli["figures"] and side["warnings"] == cli["warnings"]
    from jvmlab import gclog

    events = gclog.load(g1).events
    assert first["total"] == events.height and len(first["events"]) == 10 and len(last["events"]) == 3
    assert first["events"][0]["gc_id"] == events["gc_id"][0]
    assert events_page.status_code == 200 and f"events 101-200 of {events.height:,}" in events_page.text
    assert "previous page" in events_page.text and "next page" in events_page.text
    assert main(["gc", "events", str(g1), "--csv", "-"]) == 0
    assert csv.content.decode() == capsys.readouterr().out
    assert at.status_code == 200 and at.json()["inputs"][0]["format"] == side["inputs"][1]["format"]
    assert at_page.status_code == 200 and "GC report: exp-1" in at_page.text
    assert outside == [404, 404, 404]


def test_two_variants_of_an_experiment_read_as_a_regression(lab):
    """The regress result of a stored experiment: its two variants (base first), measures judged, and what
    the trials lack said (these synthetic trials have no profiles)."""
    with client(lab) as c:
        doc = c.get("/api/experiments/1/regress").json()
        swapped = {"base": "jdk21/tuned", "new": "jdk21/default"}
        reversed_ = c.get("/api/experiments/1/regress", params=swapped)
        page = c.get("/experiments/1/regress")
        wrong = c.get("/api/experiments/1/regress", params={"base": "jdk21/nope", "new": "jdk21/default"})
        ambiguous = c.get("/api/experiments/2/regress", params={"base": "jdk25/default"})
    assert (doc["base"], doc["new"]) == ("jdk21/default", "jdk21/tuned")
    metric = next(m for m in doc["measures"] if m["measure"] == "ops_per_s")
    assert 5 < metric["change_percent"] < 15 and doc["regressed"] is False  # the new side is faster
    assert "no profiles" in doc["profiles"]["note"]
    worse = next(m for m in reversed_.json()["measures"] if m["measure"] == "ops_per_s")
    assert worse["change_percent"] < -5 and reversed_.json()["regressed"] is True
    assert page.status_code == 200 and "jdk21/default" in page.text
    assert wrong.status_code == 400 and "base=jdk21/nope" in wrong.json()["detail"]
    assert ambiguous.status_code == 400


def test_the_gate_of_an_experiment_alone_and_against_another(lab, capsys):
    """Goals alone; against an earlier run of the same spec, each variant's regressions too, as `jvmlab gate`
    judges them (the later run 10 % slower: a failed regression check, exit code 1)."""
    store = Store.open(str(lab["db"]))
    store_experiment(
        store, [Variant("jdk21", "default", metric=270.0), Variant("jdk21", "tuned", metric=300.0)],
        repetitions=3, seed=5,
    )  # fmt: skip
    store.close()
    with client(lab) as c:
        alone = c.get("/api/experiments/2/gate").json()
        against = c.get("/api/experiments/3/gate", params={"against": "1"}).json()
        bad = c.get("/api/experiments/3/gate", params={"inconclusive": "maybe"})
        missing = c.get("/api/experiments/3/gate", params={"against": "99"})
    assert alone["against"] is None and {ch["group"] for ch in alone["checks"]} <= {"goals"}
    assert main(["gate", "3", "--against", "1", "--db", str(lab["db"])]) == against["exit_code"] == 1
    capsys.readouterr()
    regressed = [ch for ch in against["checks"] if ch["status"] == "fail" and ch["name"] == "ops_per_s"]
    assert regressed and against["passed"] is False, against["checks"]
    assert bad.status_code == 400 and missing.status_code == 404
