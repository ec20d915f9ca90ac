"""Start :mod:`tests.storage.child_writer` processes and read their progress with time bounds."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
WAIT_S = 30.0


class Child:
    """A child writer process whose JSON progress lines arrive on a queue."""

    def __init__(self, *args: str, module: str = "tests.storage.child_writer") -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=REPO,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def next(self) -> dict[str, Any]:
        """The next progress line (fails the test after :data:`WAIT_S` or if the child ended)."""
        item = self.lines.get(timeout=WAIT_S)
        if item is None:
            raise AssertionError(f"child ended early: {self._stderr()}")
        return item

    def wait_for(self, key: str, at_least: int = 1) -> dict[str, Any]:
        while True:
            item = self.next()
            if key in item and (not isinstance(item[key], int) or item[key] >= at_least):
                return item

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def finish(self) -> int:
        """Close stdin and wait for the exit code (bounded)."""
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        return self.process.wait(timeout=WAIT_S)

    def _stderr(self) -> str:
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "(still running)"
        return self.process.stderr.read() if self.process.stderr else ""

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=WAIT_S)
