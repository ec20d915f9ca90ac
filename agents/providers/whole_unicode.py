"""No request to a provider carries a lone surrogate.

Python text can hold a surrogate code point alone (U+D800-DFFF): a file name that is not UTF-8
is decoded with ``surrogateescape`` (``b"bad\\xff.py"`` lists as ``"bad\\udcff.py"``), and a JSON
``\\udXXX`` escape from a server, an MCP result or an imported file decodes to one. A request
body is UTF-8 JSON, which cannot hold one: the client's encoder fails and the turn with it,
whatever the user does. So every payload a chat model sends (the ``messages``: content, tool
results, tool calls' arguments and names; and the ``tools``) passes through
:func:`whole_unicode` where it is built, and each lone surrogate is sent as U+FFFD (the two
halves of a pair that came apart joined: :func:`storage.printable.whole_text`). Text without
one is returned as it is (the same objects, no copy).
"""

from __future__ import annotations

from typing import Any

from storage.printable import whole_text


def whole_unicode(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, strings, numbers) with every lone surrogate in its
    strings as U+FFFD; the same object where there is none."""
    if isinstance(value, str):
        return whole_text(value)
    if isinstance(value, dict):
        changed = {key: whole_unicode(item) for key, item in value.items()}
        if any(changed[key] is not value[key] for key in value):
            return changed
        return value
    if isinstance(value, list):
        items = [whole_unicode(item) for item in value]
        if any(new is not old for new, old in zip(items, value, strict=True)):
            return items
        return value
    return value
