"""Any provider failure as one typed ``WeaverError`` with one sentence saying what to do.

``openai`` raises its own classes (langchain-openai subclasses them), a broken stream can
surface as a JSON decode error, and a transport failure outside the SDK as an ``httpx`` /
``httpx2`` error. ``translate_provider_error`` maps them all onto ``agents.errors``.

Messages never quote an API key: the provider's own text is left out of auth errors (OpenAI
echoes part of a wrong key there) and is scrubbed of anything key-shaped elsewhere.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
from typing import Any

from agents.errors import (
    MissingKeyError,
    ModelNotFoundError,
    ProviderAuthError,
    ProviderBadResponseError,
    ProviderNetworkError,
    ProviderRateLimitError,
    ProviderServerError,
    ProviderTimeoutError,
    WeaverError,
)
from agents.providers.context_overflow import read_overflow, too_long
from agents.providers.rejections import Refused, refused_feature
from agents.providers.transient_retry import current_policy, parse_retry_after

logger = logging.getLogger(__name__)

_KEYISH = re.compile(r"\b(?:sk|pk|key|ak)-[A-Za-z0-9_*\-.]{4,}|\b[A-Za-z0-9_\-]{32,}\b")
_MAX_DETAIL = 160


def scrub(text: str, *secrets: str) -> str:
    """``text`` without the given secrets or anything shaped like an API key, on one short line."""
    from storage.secrets import scrub_text

    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    text = _KEYISH.sub("***", scrub_text(text))
    text = " ".join(text.split())
    return text if len(text) <= _MAX_DETAIL else text[: _MAX_DETAIL - 1] + "…"


def _who(provider: str | None) -> str:
    return f"The {provider} provider" if provider else "The provider"


def _key_hint(provider: str | None) -> str:
    from agents.providers.presets import PRESETS

    preset = PRESETS.get(provider or "")
    if preset is not None and preset.key_env:
        return f"{preset.key_env} or WEAVER_API_KEY, or api_key in config.yaml"
    return "WEAVER_API_KEY or api_key in config.yaml"


def _provider_detail(exc: Any) -> str:
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    return scrub(str(message or getattr(exc, "message", "") or ""))


def _where(exc: Any, base_url: str | None) -> str:
    try:
        url = exc.request.url
    except (AttributeError, RuntimeError):  # httpx raises RuntimeError when no request is set
        url = None
    if url is not None:
        return f"{url.scheme}://{url.host}" + (f":{url.port}" if url.port else "")
    return base_url or "its address"


LONGEST_NAMED_WAIT_S = 86_400.0
"""A wait a server names beyond a day is not repeated to the user as a number."""


def _wait_hint(retry_after: float | None) -> str:
    if retry_after is None:
        return "try again shortly"
    if retry_after < 1:
        return "try again now"
    if retry_after > LONGEST_NAMED_WAIT_S:
        return "try again later (it asks for a wait of more than a day)"
    if retry_after >= 7200:
        count, unit = round(retry_after / 3600), "hour"
    elif retry_after >= 120:
        count, unit = round(retry_after / 60), "minute"
    else:
        count, unit = round(retry_after), "second"
    return f"try again in {count} {unit}{'' if count == 1 else 's'}"


def _retry_after(exc: Any) -> float | None:
    """The wait ``exc``'s response names, read with the retries' clock."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    return parse_retry_after(headers, now=current_policy().now)


_NOT_PULLED = re.compile(r"""model\s+["'`]?(?P<name>[^"'`\s]+)["'`]?\s+not found""", re.I)
_PULL = re.compile(r"\bpull(?:ing)?\b", re.I)
_MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+-]*")
"""What a model name a pull command may name looks like (Ollama's names and tags)."""


def _pull_hint(exc: Any, model: str | None) -> str | None:
    """Ollama's "model 'x' not found, try pulling it first" as a sentence that keeps its
    remedy, ``ollama pull NAME`` (the configured model's name, else the one the server named
    when it looks like a model name); ``None`` for any other 404."""
    text = f"{getattr(exc, 'message', '')} {getattr(exc, 'body', '')}"
    if not _PULL.search(text):
        return None
    named = _NOT_PULLED.search(text)
    name = model or (named.group("name") if named else "")
    if not _MODEL_NAME.fullmatch(name):
        return (
            "The server (Ollama) has not pulled this model (404): pull it with `ollama pull` "
            "and the model's name, or pick another model (WEAVER_MODEL or model in config.yaml)."
        )
    return (
        f"The server (Ollama) has not pulled the model {name!r} (404): run `ollama pull {name}` "
        "where Ollama runs, or pick another model (WEAVER_MODEL or model in config.yaml)."
    )


def _status_error(exc: Any, status: int, provider: str | None, model: str | None) -> WeaverError:
    who = _who(provider)
    if status == 401:
        return ProviderAuthError(f"{who} rejected the API key (401). Check {_key_hint(provider)}.")
    if status == 403:
        return ProviderAuthError(
            f"{who} refused access (403): the API key may not use this model or endpoint; "
            f"check the account, and {_key_hint(provider)}."
        )
    if status == 404:
        pull = _pull_hint(exc, model)
        if pull is not None:
            return ModelNotFoundError(pull)
        what = f"the model {model!r}" if model else "this model or endpoint"
        return ModelNotFoundError(
            f"{who} does not know {what} (404): pick another model "
            "(WEAVER_MODEL or model in config.yaml) or check base_url."
        )
    if status == 429:
        retry_after = _retry_after(exc)
        kind = f"{getattr(exc, 'code', '') or ''} {getattr(exc, 'type', '') or ''}"
        if "quota" in kind:
            return ProviderRateLimitError(
                f"{who} says the account has no quota left (429); check its billing or switch "
                "provider.",
                retry_after=retry_after,
            )
        return ProviderRateLimitError(
            f"{who} is rate limiting requests (429); {_wait_hint(retry_after)}.",
            retry_after=retry_after,
        )
    if status in (408, 409):
        what = "timed the request out" if status == 408 else "reported a conflict"
        return ProviderServerError(
            f"{who} {what} ({status}) and did not answer on a later try; try again, or "
            "switch model or provider.",
            retry_after=_retry_after(exc),
        )
    if status >= 500:
        retry_after = _retry_after(exc)
        if retry_after is not None:
            return ProviderServerError(
                f"{who} is unavailable or overloaded ({status}); {_wait_hint(retry_after)}, "
                "or switch model or provider.",
                retry_after=retry_after,
            )
        return ProviderServerError(
            f"{who} had a server error ({status}); try again, or switch model or provider."
        )
    overflow = read_overflow(exc)
    if overflow is not None:
        return too_long(overflow)
    if refused_feature(exc) is Refused.TOOLS:
        what = f"the model {model!r}" if model else "this model"
        return ProviderBadResponseError(
            f"{who} says {what} does not support tools, which this profile needs: pick a model "
            "that does (WEAVER_MODEL, model in config.yaml, or Ctrl+L) or a profile that calls "
            "no tools."
        )
    detail = _provider_detail(exc).rstrip(".")
    return ProviderBadResponseError(
        f"{who} rejected the request ({status}): {detail or 'no reason given'}."
    )


def _timeout_error(provider: str | None, timeout: float | None) -> ProviderTimeoutError:
    within = f"within {timeout:g} seconds" if timeout else "in time"
    return ProviderTimeoutError(
        f"{_who(provider)} did not answer {within}; try again, or raise http_timeout in "
        "config.yaml (WEAVER_HTTP_TIMEOUT)."
    )


def _network_error(where: str, provider: str | None) -> ProviderNetworkError:
    whom = f"the {provider} provider" if provider else "the provider"
    return ProviderNetworkError(
        f"The connection to {whom} at {where} failed or was cut off; check the network and "
        "base_url, then try again."
    )


def _bad_stream(provider: str | None, what: str) -> ProviderBadResponseError:
    return ProviderBadResponseError(
        f"{_who(provider)} sent {what}; try again, or check that base_url points to an "
        "OpenAI-compatible API."
    )


def _transport_classes() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(timeout classes, transport-error classes) of whichever httpx libraries are loaded."""
    timeouts: list[type[BaseException]] = [TimeoutError, asyncio.TimeoutError]
    transport: list[type[BaseException]] = [ConnectionError]
    for module_name in ("httpx2", "httpx"):
        module = sys.modules.get(module_name)  # an error can only come from a loaded library
        if module is None:
            continue
        timeouts.append(module.TimeoutException)
        transport.append(module.TransportError)
    return tuple(timeouts), tuple(transport)


def translate_provider_error(
    exc: BaseException,
    *,
    provider: str | None = None,
    base_url: str | None = None,
    timeout: float | None = None,
    model: str | None = None,
) -> WeaverError:
    """The ``WeaverError`` the user should see for ``exc`` raised while talking to a provider."""
    if isinstance(exc, WeaverError):
        return exc
    result = _answer_shape_error(exc, provider, base_url)
    if result is None:
        result = _sdk_error(exc, provider, base_url, timeout, model)
    if result is None:
        result = _wire_error(exc, provider, base_url, timeout)
    if result is None:
        result = WeaverError(
            f"{_who(provider)} call failed unexpectedly ({type(exc).__name__}); see the log "
            "file for details."
        )
    logger.warning(
        "provider error",
        extra={"provider": provider, "error_code": result.code, "exc_type": type(exc).__name__},
    )
    return result


def _answer_shape_error(
    exc: BaseException, provider: str | None, base_url: str | None
) -> WeaverError | None:
    """An answer that is not a chat completion at all (a web page, an empty event stream)."""
    from agents.providers.openai_answers import (
        NO_CHUNKS,
        MalformedAnswer,
        NoReplyInCompletion,
        NotAChatCompletion,
    )

    if isinstance(exc, NoReplyInCompletion):
        return _bad_stream(provider, "a chat completion with no reply in it")
    if isinstance(exc, MalformedAnswer):
        return _bad_stream(provider, f"an answer in an unexpected shape ({exc})")

    if isinstance(exc, NotAChatCompletion):
        return ProviderBadResponseError(
            f"{_who(provider)} answered with something that is not a chat completion: "
            f"{exc.what}; check that base_url ({base_url or 'the provider address'}) is the "
            "API's address (it usually ends in /v1), not a web page."
        )
    if isinstance(exc, ValueError) and str(exc).startswith(NO_CHUNKS):
        return ProviderBadResponseError(
            f"{_who(provider)} answered with an event stream holding no chat completion "
            "(empty, or only [DONE]); check base_url and the model name, then try again."
        )
    return None


def _sdk_error(
    exc: BaseException,
    provider: str | None,
    base_url: str | None,
    timeout: float | None,
    model: str | None,
) -> WeaverError | None:
    """The OpenAI SDK's own errors, most specific class first."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return _timeout_error(provider, timeout)
    if isinstance(exc, openai.APIConnectionError):
        return _network_error(_where(exc, base_url), provider)
    if isinstance(exc, openai.APIResponseValidationError):
        return _bad_stream(provider, "a response in an unexpected shape")
    if isinstance(exc, openai.APIStatusError):
        return _status_error(exc, exc.status_code, provider, model)
    if isinstance(exc, openai.APIError):
        detail = _provider_detail(exc)
        return ProviderServerError(
            f"{_who(provider)} reported an error during the reply"
            + (f" ({detail})" if detail else "")
            + "; try again, or switch model or provider."
        )
    if isinstance(exc, openai.OpenAIError) and "api_key" in str(exc):
        return MissingKeyError(f"{_who(provider)} needs an API key: set {_key_hint(provider)}.")
    return None


def _wire_error(
    exc: BaseException, provider: str | None, base_url: str | None, timeout: float | None
) -> WeaverError | None:
    """Errors below the SDK: a malformed chunk, the HTTP transport, a failed validation."""
    timeouts, transport = _transport_classes()
    if isinstance(exc, json.JSONDecodeError | UnicodeDecodeError):
        return _bad_stream(provider, "a malformed answer (JSON cut short or broken)")
    if isinstance(exc, timeouts):
        return _timeout_error(provider, timeout)
    if isinstance(exc, transport):
        return _network_error(_where(exc, base_url), provider)
    if isinstance(exc, ValueError) and "pydantic" in type(exc).__module__:
        return _bad_stream(provider, "a response in an unexpected shape")
    return None


__all__ = ["parse_retry_after", "scrub", "translate_provider_error"]
