"""A turn's usage as one short line, from the dict a record keeps (``meta["turn_usage"]``).

One wording everywhere a usage is shown (the tool pane's footer, ``ask``'s stderr, the Markdown
export): ``1200 in (800 cached) · 300 out (120 reasoning) · cost 0.0042``. A detail appears
only when the server reported it; a field missing or of the wrong type reads as not reported.
"""

from __future__ import annotations

import math
from collections.abc import Mapping


def usage_text(usage: Mapping[str, object]) -> str:
    """``usage`` (``input_tokens``, ``output_tokens``, and optionally ``cached_tokens``,
    ``reasoning_tokens``, ``cost``) as one line."""
    text = f"{_count(usage.get('input_tokens')) or 0} in"
    cached = _count(usage.get("cached_tokens"))
    if cached is not None:
        text += f" ({cached} cached)"
    text += f" · {_count(usage.get('output_tokens')) or 0} out"
    reasoning = _count(usage.get("reasoning_tokens"))
    if reasoning is not None:
        text += f" ({reasoning} reasoning)"
    cost = usage.get("cost")
    if isinstance(cost, int | float) and not isinstance(cost, bool) and math.isfinite(cost):
        text += f" · cost {cost:.6g}"
    return text


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
