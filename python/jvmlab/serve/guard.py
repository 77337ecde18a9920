"""The server's guard, around every request: the token when one is set (an `Authorization: Bearer` header,
or the cookie a `?token=` link sets), request bodies bounded before they are read (Content-Length) and while
they are (chunked uploads), and headers that keep pages from being framed or sniffed."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse, RedirectResponse

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "jvmlab_token"
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a ?token= link never leaks through a Referer
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class Guard:
    def __init__(self, app: App, *, token: str | None, max_body_bytes: int) -> None:
        self.app = app
        self.token = token
        self.max_body_bytes = max_body_bytes

    def _presented(self, scope: Scope) -> tuple[str | None, bool]:
        """The token the request carries, and whether it came in the query string."""
        headers = Headers(scope=scope)
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip(), False
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if "token" in query:
            return query["token"][0], True
        for part in headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE:
                return value, False
        return None, False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.token is not None:
            given, in_query = self._presented(scope)
            if given is None or not hmac.compare_digest(given.encode(), self.token.encode()):
                response = PlainTextResponse(
                    "401: this server needs its token (Authorization: Bearer TOKEN, or ?token=TOKEN once)",
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer", **HEADERS},
                )
                await response(scope, receive, send)
                return
            if in_query and scope["method"] == "GET":  # the cookie, then the same page without the token
                redirect = RedirectResponse(scope["path"], status_code=303, headers=HEADERS)
                redirect.set_cookie(COOKIE, self.token, httponly=True, samesite="strict")
                await redirect(scope, receive, send)
                return
        length = Headers(scope=scope).get("content-length", "")
        if length.isdigit() and int(length) > self.max_body_bytes:
            await self._too_large(scope, receive, send)
            return
        received = 0

        async def bounded() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:  # the endpoint's form parsing stops here: 413
                    raise HTTPException(413, self._limit_text())
            return message

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, bounded, with_headers)

    def _limit_text(self) -> str:
        return f"413: uploads are limited to {self.max_body_bytes / 2**20:,.0f} MiB (--max-upload-mb)"

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {**HEADERS, "Connection": "close"}
        response = PlainTextResponse(self._limit_text(), status_code=413, headers=headers)
        await response(scope, receive, send)
