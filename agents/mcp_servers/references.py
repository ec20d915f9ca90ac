"""``${VAR}`` in the user's MCP connection config, expanded from weaver-tui's environment.

Every string value of a connection (``command``, ``args``, ``cwd``, ``url``, ``headers``,
``env``: at any depth) has each ``${NAME}`` replaced by that variable's value; a variable
that is not set is left as written, so the server (or its error) shows what was asked for.
Keys are never expanded, and a value is expanded once: a variable's value that itself holds
``${...}`` stays as it is. The user's config is trusted; this is where a token kept in the
environment, not in ``config.yaml``, reaches a header or an argument.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

BRACED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def expand_string(value: str, environ: Mapping[str, str] | None = None) -> str:
    names = os.environ if environ is None else environ
    return BRACED.sub(lambda found: names.get(found.group(1), found.group(0)), value)


def expand_references(value: Any, environ: Mapping[str, str] | None = None) -> Any:
    """``value`` with ``${VAR}`` expanded in every string it holds (dicts, lists, tuples)."""
    if isinstance(value, str):
        return expand_string(value, environ)
    if isinstance(value, Mapping):
        return {key: expand_references(inner, environ) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(expand_references(inner, environ) for inner in value)
    return value
