"""Patches an agent proposes and the user reviews before anything is written: the patch model,
its atomic application, and the pause-and-resume of a turn around the review (the project
panel shows the patches waiting).
"""

PROPOSE_EDIT = "propose_edit"
"""The tool whose call opens a review."""

PATCH_ROOT = "patch_root"
"""Tool record meta: the real path of the project folder an applied patch was accepted in
(rewind writes that patch there and nowhere else)."""
