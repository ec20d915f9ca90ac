"""Patches an agent proposes and the user reviews before anything is written: the patch model,
its atomic application, and the pause-and-resume of a turn around the review (the project
panel shows the patches waiting).
"""

PROPOSE_EDIT = "propose_edit"
"""The tool whose call opens a review."""
