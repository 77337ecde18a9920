"""`jvmlab serve` as a user starts it: a real server (uvicorn) in its own process. A non-loopback address
without a token refuses to start (one line, exit 2); a 2 GiB upload is refused with 413 before a byte of it
is read, and one sent without a length as soon as it passes the limit, leaving nothing on disk; SIGTERM
stops the server."""

from __future__ import annotations

import http.client
import os
import signal
import socket

import pytest

from jvmlab.cli.main import main


@pytest.fixture
def server(serve, tmp_path):
    running = serve(str(tmp_path / "jvmlab.db"), "--allow-uploads", "--max-upload-mb", "1")
    return running.port, running.uploads, running.process


def test_a_non_loopback_address_without_a_token_refuses_to_start(capsys, monkeypatch):
    monkeypatch.delenv("JVMLAB_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--host 0.0.0.0: other machines could reach the server; give --token" in err
    assert len(err.splitlines()) == 1
    assert main(["serve", "--host", "0.0.0.0", "--token", "short"]) == 2
    assert "at least 16 characters" in capsys.readouterr().err


def test_uploads_beyond_the_limit_are_413_and_leave_nothing(server):
    port, uploads, _ = server
    # 2 GiB announced: refused from the header, before the body is sent
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("POST", "/api/gclogs")
    conn.putheader("Content-Type", "multipart/form-data; boundary=x")
    conn.putheader("Content-Length", str(2 << 30))
    conn.endheaders()
    response = conn.getresponse()
    assert response.status == 413 and b"limited to 1 MiB" in response.read()
    conn.close()
    # no length (chunked): refused once more than the limit arrived
    body_head = (
        b'--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nbig\r\n'
        b'--x\r\nContent-Disposition: form-data; name="files"; filename="gc.log"\r\n'
        b"Content-Type: text/plain\r\n\r\n"
    )
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("POST", "/api/gclogs")
    conn.putheader("Content-Type", "multipart/form-data; boundary=x")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    line = b"[0.001s][info][gc] Using G1\n" * 2048  # 56 KiB
    try:
        for chunk in [body_head] + [line] * 40:  # 2.2 MiB in all
            conn.send(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        conn.send(b"0\r\n\r\n")
    except OSError:
        pass  # the server may close the connection as soon as it answered
    response = conn.getresponse()
    assert response.status == 413, response.read()
    conn.close()
    assert not list(uploads.glob("*/*")) if uploads.exists() else True


def test_sigterm_stops_the_server(server):
    port, _, proc = server
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/experiments")
    assert conn.getresponse().status == 200
    conn.close()
    os.kill(proc.pid, signal.SIGTERM)
    # uvicorn shuts down gracefully, then ends by the signal it caught (-15), as an unhandled one would
    assert proc.wait(timeout=15) in (0, -signal.SIGTERM)
    said = proc.stdout.read() if proc.stdout else ""
    assert "jvmlab serve: http://127.0.0.1:" in said and "Traceback" not in said, said
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
