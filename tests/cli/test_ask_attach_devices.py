"""``ask --attach`` given a device (named, or through a link) or a path no file system holds:
refused before anything is stored, in one short sentence, never read or waited on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli.test_ask_attach import Weaver, ask, stored_attachments
from tests.support.fake_openai import FakeOpenAI


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("/dev/zero", "is not a regular file"),
        ("random.txt", "is not a regular file"),  # a link to /dev/urandom
        ("n" * 300 + ".txt", "cannot be attached (File name too long)"),
        ("/".join(["d" * 200] * 25) + "/x.txt", "cannot be attached (File name too long)"),
    ],
    ids=["device", "link-to-device", "long-name", "past-path-max"],
)
def test_a_device_or_an_impossible_path_is_refused_in_one_short_sentence(
    weaver: Weaver, tmp_path: Path, fake_openai: FakeOpenAI, name: str, said: str
) -> None:
    os.symlink("/dev/urandom", tmp_path / "random.txt")
    done = ask(weaver, fake_openai, "--attach", name, "look")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert said in lines[0]
    assert len(lines[0]) < 300
    assert not (tmp_path / "data" / "weaver.db").exists() or not stored_attachments(tmp_path)
