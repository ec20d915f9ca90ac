"""The authority key (see :func:`storage.authority.user_key`) and the one verifier.

- processes starting together on a fresh folder agree on one key, made whole and private;
- a damaged, short, long or shared key is refused with one sentence, never used;
- whatever a store holds in a MAC column (nothing, numbers, bytes, any text) verifies as
  False without an error, and only the MAC made here verifies.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.authority import AUTHORITY_KINDS, sign, user_key, verifies
from storage.store import StorageError

PROCESSES = 6


def test_processes_starting_together_agree_on_one_private_key(tmp_path: Path) -> None:
    target = tmp_path / "state" / "authority.key"
    code = "import sys; from pathlib import Path; from storage.authority import user_key; "
    code += "print(user_key(Path(sys.argv[1])).hex())"
    started = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(target)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        for _ in range(PROCESSES)
    ]
    outputs = [process.communicate(timeout=120) for process in started]
    assert all(process.returncode == 0 for process in started), outputs
    keys = {out.strip() for out, _ in outputs}
    assert len(keys) == 1
    assert bytes.fromhex(keys.pop()) == target.read_bytes()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in target.parent.iterdir()] == ["authority.key"]  # no temporaries


@settings(max_examples=60, deadline=None)
@given(content=st.binary(max_size=80).filter(lambda b: len(b) != 32))
def test_a_damaged_key_is_refused_with_one_sentence(
    tmp_path_factory: pytest.TempPathFactory, content: bytes
) -> None:
    target = tmp_path_factory.mktemp("state") / "authority.key"
    target.write_bytes(content)
    target.chmod(0o600)
    with pytest.raises(StorageError) as refused:
        user_key(target)
    assert "\n" not in str(refused.value)
    assert str(target) in str(refused.value)


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o644, 0o666])
def test_a_key_others_can_read_is_refused(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "authority.key"
    target.write_bytes(os.urandom(32))
    target.chmod(mode)
    with pytest.raises(StorageError):
        user_key(target)


_VALUES = st.one_of(
    st.none(), st.integers(), st.floats(), st.binary(max_size=20), st.text(max_size=70)
)


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(sorted(AUTHORITY_KINDS)),
    fields=st.lists(_VALUES, max_size=6),
    mac=_VALUES,
)
def test_whatever_a_mac_column_holds_only_the_mac_made_here_verifies(
    kind: str, fields: list[object], mac: object
) -> None:
    key = b"k" * 32
    assert verifies(kind, fields, sign(kind, fields, key), key)
    assert verifies(kind, fields, mac, key) == (mac == sign(kind, fields, key))
    assert not verifies("not-a-kind", fields, mac, key)
