"""The optional web fallback: a Tavily-style search API over httpx, used only when the critic
rejected every retry. Off unless the user's config turns it on (``web_search.enabled``, with
``url``, ``api_key`` and ``max_results``); results are cited with their URLs. With no key no
search is sent (the graph says so in one sentence)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

DEFAULT_URL = "https://api.tavily.com/search"
TIMEOUT_S = 15.0
MAX_RESULTS = 5
MAX_TEXT = 2000


class WebSearchError(Exception):
    """The search service could not be asked or gave no usable answer (one sentence)."""


def _max_results(config: Mapping[str, Any]) -> int:
    value = config.get("max_results")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else MAX_RESULTS  # fmt: skip


async def web_search(config: Mapping[str, Any], query: str) -> list[dict[str, Any]]:
    """Chunks (the knowledge base's shape) for ``query`` from the configured search service."""
    url = str(config.get("url") or DEFAULT_URL)
    payload = {
        "api_key": str(config.get("api_key") or ""),
        "query": query,
        "max_results": _max_results(config),
    }
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT_S, trust_env=False) as client:
            response = await client.post(url, json=payload)
            response.raise_for_status()
            data = response.json()
    except (httpx.HTTPError, ValueError) as exc:
        raise WebSearchError(
            f"The web search at {url} failed ({type(exc).__name__}); check web_search in "
            "config.yaml."
        ) from exc
    results = data.get("results") if isinstance(data, Mapping) else None
    chunks = []
    for row in (results or [])[: _max_results(config)]:
        if not isinstance(row, Mapping) or not row.get("url"):
            continue
        chunks.append(
            {
                "doc_id": str(row["url"]),
                "title": str(row.get("title") or row["url"]),
                "section": "",
                "collection": "web",
                "path": str(row["url"]),
                "score": float(row.get("score") or 0.0),
                "text": str(row.get("content") or "")[:MAX_TEXT],
            }
        )
    return chunks
