"""The embedded knowledge servers this test process runs on one data folder, read from /proc:
which processes are alive says whether a warm-up started one and whether a turn reused it."""

from __future__ import annotations

import os
from pathlib import Path

SERVER_MODULE = "agents.profiles.paper_pilot.knowledge.server"


def knowledge_servers(data_dir: Path) -> list[int]:
    """Pids of the live children of this process that serve the index under ``data_dir``."""
    me = str(os.getpid())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:  # it ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] == "Z" or fields[1] != me:  # a zombie has ended; a grandchild is not ours
            continue
        words = [word.decode(errors="replace") for word in argv]
        if SERVER_MODULE in words and any(w.startswith(str(data_dir)) for w in words):
            found.append(int(entry.name))
    return sorted(found)
