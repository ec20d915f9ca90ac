"""A configured base URL as the provider receives it, whatever its shape.

The OpenAI SDK appends a request's path (``chat/completions``, ``models``) to the raw path of
its base URL, query included: an Azure-style ``.../deployments/d?api-version=2024-10-21``
became ``.../deployments/d/?api-version=2024-10-21chat/completions``. So the SDK is given the
base URL without its query (:func:`base_root`), and the app's SDK clients put the query back
on every request (:class:`agents.providers.openai_chunks.DictChunkOpenAI`);
every URL the app builds itself comes from :func:`endpoint_url`.

Guarantee (checked with generated URLs against the local server in
``tests/providers/test_base_urls.py``): for any configured base URL (a query, a fragment,
trailing slashes, a path prefix, userinfo, an IPv6 host, a port), a request reaches the
scheme, userinfo, host, port and path written (trailing slashes aside) with the request's
path appended once, and the query exactly as written after it. A fragment is never sent (it
is not part of an HTTP request), and a ``.`` or ``..`` path segment is resolved as RFC 3986
says, by the HTTP client. Userinfo is sent as HTTP clients send it (basic
credentials).
"""

from __future__ import annotations

from urllib.parse import urlsplit


def normalized(url: str) -> str:
    """``url`` without its fragment and the trailing slashes of its path: the form kept in
    settings, shown and used as the endpoint's key."""
    root, query = split(url)
    return f"{root}?{query}" if query else root


def split(url: str) -> tuple[str, str]:
    """``(root, query)``: the URL up to its path (trailing slashes removed), and its query as
    written ("" when it has none)."""
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}", parts.query


def base_root(url: str) -> str:
    """The part of ``url`` a request path is appended to (no query, no fragment)."""
    return split(url)[0]


def base_query(url: str) -> str:
    """The query of ``url`` as written, which every request to it carries."""
    return split(url)[1]


def endpoint_url(url: str, path: str) -> str:
    """The address of ``path`` (``models``) under the base URL ``url``, its query kept."""
    root, query = split(url)
    joined = f"{root}/{path.lstrip('/')}"
    return f"{joined}?{query}" if query else joined
