"""A process killed while it writes a patch leaves the project folder as it was: the file holds
its old bytes and no temporary file is left behind (for a file edited and a file created),
because the new bytes are written to an unnamed file that gets a name only once complete."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# In a child process: propose and apply a patch, killed (SIGKILL) at one step of writing the new
# bytes (while writing them, setting their mode, flushing them), before they are put in place.
CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from agents.patch_review.patches import apply_patch, make_patch

    root, path, start, end = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    step = sys.argv[5]
    patch = make_patch(root, path, start, end, "changed = True\\n" * 5000)

    def killed(*args):
        os.kill(os.getpid(), signal.SIGKILL)

    setattr(os, step, killed)
    apply_patch(root, patch)
    """
)


def listing(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize("step", ["write", "fchmod", "fsync"])
@pytest.mark.parametrize(("path", "start", "end"), [("src/app.py", 2, 2), ("src/new.py", 1, 0)])
def test_a_kill_mid_write_leaves_the_folder_as_it_was(
    tmp_path: Path, path: str, start: int, end: int, step: str
) -> None:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src/app.py").write_text("a = 1\nb = 2\n")
    before = listing(root)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), path, str(start), str(end), step],
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -9, done.stderr.decode()
    assert listing(root) == before
