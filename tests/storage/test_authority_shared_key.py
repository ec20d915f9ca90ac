"""The hosts of one team deployment share one authority key through ``WEAVER_AUTHORITY_KEY_FILE``:
a row signed through one host is authority on another host that names the same key file,
and on no host with a key of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.authority import AUTHORITY_KINDS, KEY_FILE_ENV, sign, verifies

_FIELDS = st.lists(st.one_of(st.text(max_size=12), st.integers(), st.none()), max_size=6)


def _host(monkeypatch: pytest.MonkeyPatch, state: Path, shared: Path | None) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    if shared is None:
        monkeypatch.delenv(KEY_FILE_ENV, raising=False)
    else:
        monkeypatch.setenv(KEY_FILE_ENV, str(shared))


@settings(max_examples=50, deadline=None)
@given(kind=st.sampled_from(sorted(AUTHORITY_KINDS)), fields=_FIELDS)
def test_a_row_signed_through_one_host_is_authority_on_hosts_sharing_its_key(
    tmp_path_factory: pytest.TempPathFactory, kind: str, fields: list[object]
) -> None:
    root = tmp_path_factory.mktemp("hosts")
    shared = root / "team" / "authority.key"
    with pytest.MonkeyPatch.context() as monkeypatch:
        _host(monkeypatch, root / "a", shared)
        mac = sign(kind, fields)
        _host(monkeypatch, root / "b", shared)
        assert verifies(kind, fields, mac)
        _host(monkeypatch, root / "c", None)  # a host with its own key
        assert not verifies(kind, fields, mac)
    assert (shared.stat().st_mode & 0o777) == 0o600
