"""The requests of a load: one from command-line options, or a weighted mix from a TOML file:

[[request]]
path = "/api/products/{rand:1..5000}"   # {rand:A..B}: a number drawn per request
weight = 6
[[request]]
method = "POST"
path = "/api/orders"
headers = { "Content-Type" = "application/json" }
body = '{"user": 7, "items": [1, 2]}'
weight = 1
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from jvmlab.errors import InputError, UsageError
from jvmlab.load.driver import Request


class RequestModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    method: str = Field(default="GET", pattern=r"^[A-Z]+$")
    path: str = ""
    headers: dict[str, str] = {}
    body: str = ""
    weight: float = Field(default=1.0, gt=0)

    def request(self) -> Request:
        return Request(self.method, self.path, tuple(self.headers.items()), self.body.encode(), self.weight)


def requests_of(items: list[dict[str, Any]], *, source: str) -> tuple[Request, ...]:
    """Requests from a list of tables (a mix file's, or an experiment spec's); errors name the entry."""
    if not items:
        raise UsageError(f"{source}: no request: give at least one [[request]]")
    out = []
    for i, item in enumerate(items, 1):
        try:
            out.append(RequestModel.model_validate(item).request())
        except ValidationError as e:
            first = e.errors()[0]
            key = ".".join(str(p) for p in first["loc"])
            raise UsageError(f"{source}: request {i}: {key}: {first['msg']}") from None
    return tuple(out)


def read_mix(path: Path) -> tuple[Request, ...]:
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(str(path), "no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(str(path), f"cannot be read ({e})") from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(str(path), f"not valid TOML ({e})") from None
    unknown = set(data) - {"request"}
    if unknown:
        raise InputError(str(path), f"unknown key {sorted(unknown)[0]!r}: a mix holds [[request]] tables")
    return requests_of(data.get("request", []), source=str(path))
