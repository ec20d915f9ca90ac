"""The researcher profile behind a gate: importing this module (the app's warm-up does, in a
thread) opens the FIFO named by ``GATED_PROFILE_FIFO`` for reading and reads it to its end.
The open returns once the test opens the FIFO for writing (so the test knows the import is
in flight), and the read once the test closes it: an import as slow as the test wants."""

from __future__ import annotations

import dataclasses
import os

from tests.support.profiles import GATED
from tests.support.research_profile.profile import PROFILE as RESEARCHER

with open(os.environ["GATED_PROFILE_FIFO"], "rb") as gate:
    gate.read()

PROFILE = dataclasses.replace(RESEARCHER, name=GATED, title="Gated researcher (tests)")
