"""Chat models from provider presets: every network provider is ``ChatOpenAI`` over its own
OpenAI-compatible endpoint, and ``offline`` is the embedded model.

``resolve_provider`` turns what the user configured (possibly ``provider: auto`` and no key)
into one concrete provider, model, endpoint and key; ``make_chat_model`` builds the model. The
heavy imports (``langchain_openai``, ``openai``) happen inside ``make_chat_model``, so reading
presets and settings stays cheap at start-up.

Every network client ignores proxy variables (``trust_env=False`` on both the sync and the async
HTTP client: the user's proxy settings must not capture their keys), streams with usage (``stream_usage=True``) and never retries by
itself (``max_retries=0``): the model retries a transient failure before its first token, with
a status line and a cancellable wait (:mod:`agents.providers.retried_call`), and any other
failure reaches the user at once, as one sentence, through ``translate_provider_error``.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from agents.context import context_window_of
from agents.errors import ConfigError, MissingKeyError, WeaverError
from agents.providers.base_url import base_query, base_root, endpoint_url, normalized
from agents.providers.errors import translate_provider_error
from agents.providers.presets import (
    AUTO,
    AUTO_ORDER,
    OFFLINE,
    OPENAI_COMPATIBLE,
    PLACEHOLDER_KEY,
    PRESETS,
    ProviderPreset,
    check_base_url,
    endpoint_traits,
    get_preset,
    list_presets,
    traits_of,
)

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from agents.profile import Profile

__all__ = [
    "ChatModelHandle",
    "ProviderConfig",
    "ProviderPreset",
    "list_presets",
    "make_chat_model",
    "resolve_provider",
    "translate_provider_error",
]

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 60.0
CONTEXT_WINDOW_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class ProviderConfig:
    """What the user chose: provider (or ``auto``), model, endpoint, key, sampling, timeout.

    Empty ``model`` / ``base_url`` / ``api_key`` mean "the preset's default" (for the key: the
    preset's own variable, such as ``MOONSHOT_API_KEY``). ``environ`` is where those variables
    are looked up (``os.environ`` when None); settings pass the env file's values too.

    ``from_env_file`` names what came from that env file (``base_url``, ``api_key`` or a
    variable such as ``OPENAI_BASE_URL``) and ``env_file`` is its path: a key from anywhere
    else is never sent to a base URL the file set.
    """

    provider: str = AUTO
    model: str = ""
    base_url: str | None = None
    api_key: SecretStr | None = None
    temperature: float | None = None
    timeout: float = DEFAULT_TIMEOUT
    environ: Mapping[str, str] | None = field(default=None, repr=False, compare=False)
    from_env_file: frozenset[str] = field(default=frozenset(), compare=False)
    env_file: str | None = None

    def env(self) -> Mapping[str, str]:
        return os.environ if self.environ is None else self.environ


@dataclass(frozen=True)
class ChatModelHandle:
    """A ready chat model and the names to show and store with every reply it writes.

    A network model's async HTTP client belongs to the event loop that first uses it: build a
    new handle for each ``asyncio.run`` (the app and the CLI run one loop, so they need one).
    """

    model: BaseChatModel
    provider: str
    model_name: str
    label: str
    base_url: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    context_window: int | None = None
    """The model's context window in tokens, when known: requests are cut to fit it."""
    http_async_client: Any = field(default=None, repr=False, compare=False)
    """The model's own async HTTP client (None offline): other requests to the provider reuse
    its connections and its SSL context."""
    api_key: SecretStr | None = field(default=None, repr=False, compare=False)
    can_summarise: bool = True
    """Whether the model can write a summary of older turns (the offline demo cannot: a
    summary is then an extract of them)."""

    @property
    def is_offline(self) -> bool:
        return self.provider == OFFLINE

    async def served_context_window(self) -> int | None:
        """The context window the provider's ``GET /models`` lists for this model, asked with
        the model's own client (``None`` offline, or when the server lists none or cannot be
        reached within a couple of seconds)."""
        if self.http_async_client is None or not self.base_url:
            return None
        from agents.context import served_context_window

        key = self.api_key.get_secret_value() if self.api_key else None
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        try:
            answer = await self.http_async_client.get(
                endpoint_url(self.base_url, "models"),
                headers=headers,
                timeout=CONTEXT_WINDOW_TIMEOUT_S,
            )
            answer.raise_for_status()
            return served_context_window(answer.json(), self.model_name)
        except Exception as exc:  # noqa: BLE001 (any HTTP or JSON failure: the window stays unknown)
            logger.info("the server did not list a context window", extra={"error": str(exc)})
            return None

    def for_profile(self, profile: Profile) -> BaseChatModel:
        """The model a turn of ``profile`` runs on: the offline model learns the profile's
        offline steps; a network model is used as it is."""
        from agents.offline import OfflineChatModel

        if isinstance(self.model, OfflineChatModel) and profile.offline:
            return self.model.with_steps(profile.offline)
        return self.model

    def translate_error(self, exc: BaseException) -> WeaverError:
        """``translate_provider_error`` with this model's provider, endpoint and timeout."""
        return translate_provider_error(
            exc,
            provider=self.provider,
            base_url=self.base_url,
            timeout=self.timeout,
            model=self.model_name,
        )


def _key_from(config: ProviderConfig, preset: ProviderPreset) -> tuple[SecretStr | None, str]:
    """The key and its name in ``config.from_env_file`` terms (``api_key`` or a variable)."""
    if config.api_key is not None and config.api_key.get_secret_value():
        return config.api_key, "api_key"
    if preset.key_env and config.env().get(preset.key_env):
        return SecretStr(config.env()[preset.key_env]), preset.key_env
    return None, ""


def _base_url_from(config: ProviderConfig, preset: ProviderPreset) -> tuple[str | None, str]:
    """The configured base URL and its name in ``config.from_env_file`` terms."""
    if config.base_url:
        return config.base_url, "base_url"
    if preset.base_url_env and config.env().get(preset.base_url_env):
        return config.env()[preset.base_url_env], preset.base_url_env
    return preset.base_url, ""


def _check_key_destination(
    config: ProviderConfig, base_url: str, url_name: str, key_name: str
) -> None:
    """Refuse to send a key to a base URL the env file chose when the key came from elsewhere
    (the user's environment or config): a file must not redirect the user's own key."""
    if not key_name or url_name not in config.from_env_file:
        return
    if key_name in config.from_env_file:
        return
    where = config.env_file or "the env file"
    raise ConfigError(
        f"The base URL {base_url} comes from {where} but the API key does not, and weaver-tui "
        "does not send your key to an address set by another source: put the base URL in "
        "config.yaml, WEAVER_BASE_URL or the command line, or the key in that file."
    )


def _auto_provider(config: ProviderConfig) -> str:
    """``auto``: a base URL means an OpenAI-compatible server; else the first preset with a
    key; a bare ``WEAVER_API_KEY`` means OpenAI; nothing at all means offline."""
    if config.base_url:
        return OPENAI_COMPATIBLE
    for name in AUTO_ORDER:
        key_env = PRESETS[name].key_env
        if key_env and config.env().get(key_env):
            return name
    if config.api_key is not None and config.api_key.get_secret_value():
        return "openai"
    return OFFLINE


def resolve_provider(config: ProviderConfig) -> ProviderConfig:
    """The concrete provider, model, base URL and key ``config`` means.

    Raises ``ConfigError`` for an unknown provider or an ``openai-compatible`` provider with no
    base URL, and ``MissingKeyError`` (naming the variable and the config key) when a provider
    that needs a key has none.
    """
    name = (config.provider or AUTO).strip().lower()
    if name == AUTO:
        name = _auto_provider(config)
        logger.debug("provider auto resolved", extra={"provider": name})
    try:
        preset = get_preset(name)
    except KeyError:
        known = ", ".join(PRESETS)
        raise ConfigError(
            f"Unknown provider {name!r}: set WEAVER_PROVIDER or provider in config.yaml "
            f"to one of auto, {known}."
        ) from None
    if not preset.network:
        return replace(config, provider=OFFLINE, model=OFFLINE, base_url=None, api_key=None)
    base_url, url_name = _base_url_from(config, preset)
    if not base_url:
        raise ConfigError(
            f"The {name} provider needs a server address: set WEAVER_BASE_URL or base_url "
            "in config.yaml (for example http://127.0.0.1:8000/v1)."
        )
    try:
        base_url = check_base_url(base_url)
    except ValueError as exc:
        raise ConfigError(f"Invalid value for {url_name or 'base_url'}: {exc}.") from None
    key, key_name = _key_from(config, preset)
    _check_key_destination(config, base_url, url_name, key_name)
    if key is None and preset.needs_key:
        raise MissingKeyError(
            f"The {name} provider needs an API key: set {preset.key_env} (or WEAVER_API_KEY), "
            "or api_key in config.yaml."
        )
    return replace(
        config,
        provider=name,
        model=config.model or preset.default_model,
        base_url=normalized(base_url),
        api_key=key or SecretStr(PLACEHOLDER_KEY),
    )


def _http_clients(timeout: float, base_url: str | None) -> tuple[Any, Any]:
    """Sync and async clients that ignore HTTP(S)_PROXY / ALL_PROXY and netrc, and refuse a
    200 answer that is not a chat completion (``agents.providers.openai_answers``).

    ``openai.DefaultHttpxClient`` is the SDK's own client type (``httpx2`` in openai 3,
    ``httpx`` before), with the SDK's connection limits; both are needed, or langchain-openai
    builds the missing one itself with ``trust_env`` on. They share one SSL context with
    every other client of the process (see :func:`_ssl_context`); a plain ``http://`` server
    gets one that trusts no certificate instead (see :func:`_no_tls_context`).
    """
    import openai

    from agents.providers.openai_answers import check_answer, check_answer_async

    if (base_url or "").lower().startswith("http://"):
        ssl_context = _no_tls_context()
    else:
        ssl_context = _ssl_context(openai.DefaultHttpxClient)
    return (
        openai.DefaultHttpxClient(
            trust_env=False,
            verify=ssl_context,
            timeout=timeout,
            event_hooks={"response": [check_answer]},
        ),
        openai.DefaultAsyncHttpxClient(
            trust_env=False,
            verify=ssl_context,
            timeout=timeout,
            event_hooks={"response": [check_answer_async]},
        ),
    )


@functools.cache
def _ssl_context(client_type: type) -> Any:
    """The process's one SSL context for ``client_type`` clients (made as they would make
    their own, ignoring ``SSL_CERT_*`` as ``trust_env=False`` does): each client would
    otherwise load the certificate bundle into a context of its own (~0.1 s, some MiB), for
    every model built and every model list asked."""
    return _http_package(client_type).create_ssl_context(trust_env=False)


@functools.cache
def _no_tls_context() -> Any:
    """The SSL context of clients for a plain ``http://`` server: it verifies certificates
    and host names but trusts no authority, so it costs nothing to make (no certificate
    bundle read on the first turn's path) and a redirect to an ``https://`` address fails
    its handshake instead of going anywhere unverified."""
    import ssl

    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _http_package(client_type: type) -> Any:
    """The HTTP package ``client_type`` is built on (``httpx2`` or ``httpx``)."""
    import importlib

    for base in client_type.__mro__:
        root = base.__module__.split(".")[0]
        if root.startswith("httpx"):
            return importlib.import_module(root)
    raise TypeError(f"{client_type.__name__} is not an httpx client")


def _sdk_client_options(resolved: ProviderConfig) -> dict[str, Any]:
    """What an OpenAI SDK client for ``resolved`` is built with (besides its HTTP client)."""
    return {
        "base_url": base_root(resolved.base_url or ""),
        "base_query": base_query(resolved.base_url or ""),
        "api_key": resolved.api_key.get_secret_value() if resolved.api_key else PLACEHOLDER_KEY,
        "timeout": resolved.timeout,
        "max_retries": 0,
    }


def _offline_model() -> BaseChatModel:
    from agents.offline import OfflineChatModel

    return OfflineChatModel()


MODEL_LIST_TIMEOUT_S = 5.0


def _served_model(resolved: ProviderConfig) -> str:
    """The model an OpenAI-compatible server serves when none is named: its only one; with
    several, or none it can tell, a sentence saying a model must be named (and which)."""
    import httpx

    url = endpoint_url(resolved.base_url or "", "models")
    key = resolved.api_key.get_secret_value() if resolved.api_key else PLACEHOLDER_KEY
    how = "name one with WEAVER_MODEL, --model or model in config.yaml (Ctrl+L lists them)"
    try:
        with httpx.Client(trust_env=False, timeout=MODEL_LIST_TIMEOUT_S) as client:
            answer = client.get(url, headers={"Authorization": f"Bearer {key}"})
            answer.raise_for_status()
            models = sorted(str(m["id"]) for m in answer.json().get("data") or [] if "id" in m)
    except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
        raise ConfigError(
            f"Cannot connect to the server at {resolved.base_url} ({_reason(exc)}): start it, "
            "or set base_url to the address it listens on."
        ) from None
    except (httpx.HTTPError, ValueError, TypeError, AttributeError, KeyError):
        raise ConfigError(
            f"No model is named for the server at {resolved.base_url}, and it did not list "
            f"its models at {url}: {how}."
        ) from None
    if len(models) == 1:
        logger.info("model chosen from the server's list", extra={"model": models[0]})
        return models[0]
    if not models:
        raise ConfigError(f"The server at {resolved.base_url} lists no model: {how}.")
    shown = ", ".join(models[:5]) + (", ..." if len(models) > 5 else "")
    raise ConfigError(f"The server at {resolved.base_url} serves several models ({shown}): {how}.")


def _reason(exc: Exception) -> str:
    """Why a connection failed, in the operating system's words ("Connection refused")."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, OSError) and cause.strerror:
            return cause.strerror
        cause = cause.__cause__ or cause.__context__
    return str(exc) or type(exc).__name__


def make_chat_model(config: ProviderConfig) -> ChatModelHandle:
    """Build the chat model ``config`` resolves to (see ``resolve_provider``)."""
    resolved = resolve_provider(config)
    if resolved.provider == OFFLINE:
        return ChatModelHandle(
            model=_offline_model(),
            provider=OFFLINE,
            can_summarise=False,
            model_name=OFFLINE,
            label=OFFLINE,
            context_window=context_window_of(OFFLINE),
        )
    if get_preset(resolved.provider).model_from_server and not config.model:
        resolved = replace(resolved, model=_served_model(resolved))
    from agents.providers.openai_chunks import (
        DictChunkAsyncOpenAI,
        DictChunkOpenAI,
        prepare_first_request,
    )
    from agents.providers.openai_reasoning import ReasoningChatOpenAI
    from storage.secrets import remember_secret

    key = resolved.api_key.get_secret_value() if resolved.api_key else None
    remember_secret(key if key != PLACEHOLDER_KEY else None)
    http_client, http_async_client = _http_clients(resolved.timeout, resolved.base_url)
    client_options = _sdk_client_options(resolved)
    # The SDK clients are ours so streamed chunks skip the SDK's typed construction, which
    # langchain undoes at once (see agents.providers.openai_chunks); langchain uses them as given.
    root_client = DictChunkOpenAI(**client_options, http_client=http_client)
    root_async_client = DictChunkAsyncOpenAI(**client_options, http_client=http_async_client)
    prepare_first_request()
    traits = traits_of(resolved.provider, resolved.model)
    # ChatOpenAI that reads every server's reply alike (agents.providers.openai_reasoning).
    model = ReasoningChatOpenAI(
        send_reasoning=traits.send_reasoning_back,
        tool_call_ids=traits.tool_call_ids or endpoint_traits(resolved.base_url).tool_call_ids,
        send_call_extras=traits.call_extras or endpoint_traits(resolved.base_url).call_extras,
        extra_body=dict(traits.extra_body) or None,
        model=resolved.model,
        base_url=base_root(resolved.base_url or ""),
        api_key=resolved.api_key,
        temperature=resolved.temperature,
        timeout=resolved.timeout,
        max_retries=0,
        streaming=True,
        stream_usage=True,
        # httpx's read timeout already bounds a silent stream; langchain's extra per-chunk
        # wall-clock wrapper costs about a quarter of the per-token time on a fast stream.
        stream_chunk_timeout=None,
        http_client=http_client,
        http_async_client=http_async_client,
        root_client=root_client,
        client=root_client.chat.completions,
        root_async_client=root_async_client,
        async_client=root_async_client.chat.completions,
    )
    logger.info(
        "chat model ready",
        extra={"provider": resolved.provider, "model": resolved.model},
    )
    return ChatModelHandle(
        model=model,
        provider=resolved.provider,
        model_name=resolved.model,
        label=f"{resolved.provider} · {resolved.model}",
        base_url=resolved.base_url,
        timeout=resolved.timeout,
        context_window=context_window_of(resolved.model),
        http_async_client=http_async_client,
        api_key=resolved.api_key,
    )


async def alist_models(config: ProviderConfig) -> list[str]:
    """Model names the provider's ``GET /models`` lists (for the model picker); raises the
    translated provider error when the server cannot be asked."""
    resolved = resolve_provider(config)
    if resolved.provider == OFFLINE:
        return [OFFLINE]
    from agents.providers.openai_chunks import DictChunkAsyncOpenAI

    _, http_async_client = _http_clients(resolved.timeout, resolved.base_url)
    client = DictChunkAsyncOpenAI(**_sdk_client_options(resolved), http_client=http_async_client)
    try:
        page = await client.models.list()
        return sorted(item.id for item in page.data)
    except Exception as exc:
        raise translate_provider_error(
            exc, provider=resolved.provider, base_url=resolved.base_url, timeout=resolved.timeout
        ) from exc
    finally:
        await client.close()
