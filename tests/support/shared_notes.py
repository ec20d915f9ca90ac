"""The knowledge server that a worker's tests share: weaver-tui's own server on the shipped
notes, over streamable HTTP (its tools only read the index), for the tests whose paper-pilot
only needs the notes answered, or only opens, and not a knowledge server started of its own
(a process and an index of the notes each time)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.mcp_http import http_server


@pytest.fixture(scope="session")
def notes_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of weaver-tui's knowledge server on the shipped notes, over streamable HTTP,
    shared by the tests on this worker."""
    index = tmp_path_factory.mktemp("shared-notes") / "index.sqlite"
    with http_server(["-m", "tests.paper_pilot.notes_over_http", "--index", str(index)]) as (
        url,
        _,
    ):
        yield url


def notes_settings_for(url: str, folder: Path) -> dict[str, Any]:
    """paper-pilot's ``mcp`` settings that name the shared server. The header only makes the
    connection the test's own (``folder``: its ``tmp_path``): the profile keeps one session per
    event loop and connection, and a new test's loop may get the id of an old one's."""
    notes = {"transport": "streamable_http", "url": url,
             "headers": {"X-Test-Folder": str(folder)}}  # fmt: skip
    return {"mcp": {"connections": {"notes": notes}}}
