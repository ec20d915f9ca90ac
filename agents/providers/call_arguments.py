"""Whether a tool call's arguments arrived whole: the one test every path that builds calls uses.

A call runs on its arguments only when they are one complete JSON object (or nothing: a tool
that takes no arguments). Anything else a server may send as ``arguments`` (cut JSON, ``[]``,
``null``, a bare string or number) is a call to answer as broken, never one to run on ``{}``
or on what a lenient reader made of it. The stream (:mod:`agents.graph.whole_calls`) and the
whole completion (:mod:`agents.providers.openai_reasoning`) both read arguments through
:func:`is_whole`.
"""

from __future__ import annotations

import json
from typing import Final

NOT_AN_OBJECT: Final = "the arguments are not one JSON object"


def is_whole(arguments: str) -> bool:
    """Whether ``arguments`` (as sent) is one complete JSON object ("" is no arguments)."""
    if not arguments.strip():
        return True
    try:
        return isinstance(json.loads(arguments), dict)
    except ValueError:
        return False
