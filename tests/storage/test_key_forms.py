"""A key this process uses is scrubbed in every form a server, a proxy or a library may write
it in: as it is, percent-encoded (a query string, a quoted URL), JSON- or Python-escaped (an
error body quoted whole), and in base64 at any alignment (an ``Authorization: Basic user:key``
or ``Bearer key`` header echoed back). Checked for generated keys and surroundings with an
independent reader (``tests.support.remembered_keys.readable_key``)."""

from __future__ import annotations

import base64
import json
import re
from urllib.parse import quote, quote_plus

from hypothesis import given, settings
from hypothesis import strategies as st

from storage.secrets import REDACTED, scrub_text
from tests.support.remembered_keys import readable_key, remembered

keys = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E) | st.sampled_from("é€ 漢"),
    min_size=8,
    max_size=48,
).filter(lambda key: key not in REDACTED and REDACTED not in key)
around = st.text(alphabet="abc xyz:-_.", max_size=12)


def renderings(key: str, before: str, after: str) -> list[str]:
    basic = base64.b64encode(f"{before}:{key}{after}".encode()).decode()
    bearer = base64.urlsafe_b64encode(f"Bearer {key}".encode()).decode()
    return [
        f"{before}{key}{after}",
        f"url ?api-key={quote(key, safe='')}&x={after}",
        f"form key={quote_plus(key)}",
        "lower " + re.sub("%[0-9A-F]{2}", lambda m: m.group().lower(), quote(key, safe="")),
        f"body {json.dumps({'key': key})} end",
        f"body {json.dumps(key)[1:-1].replace('/', chr(92) + '/')} end",
        f"repr {key!r} end",
        f"Authorization: Basic {basic}",
        f"echo {bearer}",
    ]


@settings(max_examples=150, deadline=None)
@given(key=keys, before=around, after=around)
def test_every_rendering_of_a_key_is_scrubbed(key: str, before: str, after: str) -> None:
    with remembered(key):
        for text in renderings(key, before, after):
            assert readable_key(scrub_text(text), key) is None, text


def test_a_percent_encoded_echo_is_scrubbed() -> None:
    key = "k3y+With/Odd=Chars!x"
    with remembered(key):
        shown = scrub_text(f"bad key {quote(key, safe='')}")
    assert shown == f"bad key {REDACTED}"


@settings(max_examples=100, deadline=None)
@given(
    token=keys.filter(lambda k: " " not in k),
    user=st.text(alphabet="abcdefgh", min_size=1, max_size=8),
    scheme=st.sampled_from(["Bearer", "bearer", "Token", "ApiKey"]),
)
def test_a_credential_header_is_scrubbed_without_its_scheme_too(
    token: str, user: str, scheme: str
) -> None:
    basic = base64.b64encode(f"{user}:{token}".encode()).decode()
    with remembered(f"{scheme} {token}", f"Basic {basic}"):
        for echoed in (f"token {token} refused", f"password {token!r} wrong", f"user {basic}"):
            assert readable_key(scrub_text(echoed), token) is None, echoed
