"""``weaver-tui space join URL`` without a seat to take: a link that is not a seat's and a host
that is gone are each one sentence, in a real terminal. (Joining a live seat and a revoked
one: ``test_space.py``, on the host whose links it checks.)"""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_serve import _free_port
from tests.cli.test_space import join


def test_a_link_that_is_no_seat_and_a_host_that_is_gone_are_said(tmp_path: Path) -> None:
    seat = join(tmp_path, "http://127.0.0.1:8000/?token=abc")
    try:
        seat.wait_for(b"that is not a seat's link")
    finally:
        seat.close()
    gone = join(tmp_path, f"http://127.0.0.1:{_free_port()}/?seat=abc")
    try:
        gone.wait_for(b"is the space still open?")
    finally:
        gone.close()
    for ended in (seat, gone):
        assert ended.process.returncode != 0
        assert b"Traceback" not in ended.screen
