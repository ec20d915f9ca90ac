"""Exports never carry anything that looks like a credential; usage counters survive."""

from __future__ import annotations

import pytest

from storage.secrets import REDACTED, is_secret_key, scrub


@pytest.mark.parametrize(
    "key",
    ["api_key", "API-KEY", "apiKey", "openai_api_key", "Authorization", "x-api-key",
     "password", "client_secret", "access_token", "token", "Cookie"],
)  # fmt: skip
def test_credential_key_names(key: str) -> None:
    assert is_secret_key(key)


@pytest.mark.parametrize(
    "key", ["input_tokens", "total_tokens", "max_tokens", "author", "model", "tool_call_id"]
)
def test_ordinary_key_names(key: str) -> None:
    assert not is_secret_key(key)


def test_scrub_drops_keys_and_redacts_values_at_any_depth() -> None:
    meta = {
        "usage": {"input_tokens": 3, "output_tokens": 4},
        "headers": {"Authorization": "Bearer abc", "accept": "json"},
        "tool_calls": [{"name": "x", "args": {"note": "key sk-live0123456789abcdefghij end"}}],
        "error": "401 for Bearer abcdefghijklmnopqrstuvwxyz0123",
        "api_key": "sk-whatever",
    }
    clean = scrub(meta)
    assert clean["usage"] == meta["usage"]
    assert clean["headers"] == {"accept": "json"}
    assert clean["tool_calls"][0]["args"]["note"] == f"key {REDACTED} end"
    assert clean["error"] == f"401 for {REDACTED}"
    assert "api_key" not in clean
    assert meta["api_key"] == "sk-whatever"  # the input is not modified


def test_a_remembered_key_of_any_shape_is_scrubbed_from_text() -> None:
    from storage.secrets import remember_secret, scrub_text

    remember_secret("plainButSecret77", None, "abc")
    text = "provider said plainButSecret77 is wrong; Bearer abcdefghijklmnopqrstu; abc stays"

    assert scrub_text(text) == f"provider said {REDACTED} is wrong; {REDACTED}; abc stays"
