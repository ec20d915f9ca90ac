"""``_meta`` keys a request may carry to this agent: an allowlist.

The ACP SDK hands a request's ``params._meta`` keys to the method as keyword arguments, after
the validated parameters, so a key named like a parameter (``cwd``, ``session_id``,
``prompt``) would replace it unvalidated. ``_meta`` never grants or changes anything here: the
only keys that reach the agent are the ones it reads (:data:`READ_KEYS`: the message a
``session/fork`` starts at, itself checked against the session's conversation); the others are
dropped before the SDK reads the line.
"""

from __future__ import annotations

import json
from typing import Any

READ_KEYS = frozenset({"messageId"})


def allowed_meta(line: bytes) -> bytes:
    """``line`` with its request's ``params._meta`` cut to :data:`READ_KEYS` (the line as it
    is when there is nothing to cut)."""
    if b'"_meta"' not in line:
        return line
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return line  # the line filter has already answered such a line
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    if meta is None:
        return line
    kept: Any = {k: v for k, v in meta.items() if k in READ_KEYS} if isinstance(meta, dict) else {}
    if kept == meta:
        return line
    assert isinstance(params, dict)
    if kept:
        params["_meta"] = kept
    else:
        del params["_meta"]
    return json.dumps(message).encode("utf-8") + b"\n"
