"""The providers weaver-tui knows by name: where they live, which key they need, what to offer.

Kept free of heavy imports (no ``openai``, no ``langchain``) so settings, the CLI and the model
picker can read it without paying for the network stack at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass

OFFLINE = "offline"
AUTO = "auto"
OPENAI_COMPATIBLE = "openai-compatible"

PLACEHOLDER_KEY = "not-needed"
"""Sent where a server needs no key: the ``openai`` SDK refuses to build a client without one."""


@dataclass(frozen=True, slots=True)
class ProviderPreset:
    """One provider: its OpenAI-compatible endpoint, default model and key variable."""

    name: str
    title: str
    base_url: str | None
    default_model: str
    key_env: str | None = None
    """The provider's own API-key variable (``WEAVER_API_KEY`` / ``api_key`` always win)."""
    needs_key: bool = True
    base_url_env: str | None = None
    """A variable that overrides ``base_url`` (``OPENAI_BASE_URL``), below ``WEAVER_BASE_URL``."""
    suggested_models: tuple[str, ...] = ()
    network: bool = True
    no_forced_tool_choice: tuple[str, ...] = ()
    """Models (``fnmatch`` patterns) that reject a forced ``tool_choice``: thinking modes.
    Structured output asks them with ``tool_choice: auto`` from the start."""


PRESETS: dict[str, ProviderPreset] = {
    preset.name: preset
    for preset in (
        ProviderPreset(
            name="openai",
            title="OpenAI",
            base_url="https://api.openai.com/v1",
            default_model="gpt-4.1-mini",
            key_env="OPENAI_API_KEY",
            base_url_env="OPENAI_BASE_URL",
            suggested_models=("gpt-4.1-mini", "gpt-4.1", "gpt-4o", "gpt-4o-mini", "gpt-5.1"),
        ),
        ProviderPreset(
            name="moonshot",
            title="Moonshot (Kimi)",
            base_url="https://api.moonshot.cn/v1",
            default_model="kimi-k2-turbo-preview",
            key_env="MOONSHOT_API_KEY",
            suggested_models=("kimi-k2-turbo-preview", "kimi-k2-0905-preview", "moonshot-v1-32k"),
            no_forced_tool_choice=("kimi-*thinking*",),
        ),
        ProviderPreset(
            name="deepseek",
            title="DeepSeek",
            base_url="https://api.deepseek.com/v1",
            default_model="deepseek-chat",
            key_env="DEEPSEEK_API_KEY",
            suggested_models=("deepseek-chat", "deepseek-reasoner"),
            no_forced_tool_choice=("deepseek-reasoner", "deepseek-v4*"),
        ),
        ProviderPreset(
            name="dashscope",
            title="DashScope (Qwen)",
            base_url="https://dashscope.aliyuncs.com/compatible-mode/v1",
            default_model="qwen-plus",
            key_env="DASHSCOPE_API_KEY",
            suggested_models=("qwen-plus", "qwen-max", "qwen-turbo", "qwen3-coder-plus"),
            no_forced_tool_choice=("qwq-*", "qwen3-*-thinking*"),
        ),
        ProviderPreset(
            name="ollama",
            title="Ollama (local)",
            base_url="http://127.0.0.1:11434/v1",
            default_model="llama3.2",
            needs_key=False,
            suggested_models=("llama3.2", "qwen2.5-coder", "mistral"),
        ),
        ProviderPreset(
            name=OPENAI_COMPATIBLE,
            title="Any OpenAI-compatible server",
            base_url=None,
            default_model="default",
            needs_key=False,
        ),
        ProviderPreset(
            name=OFFLINE,
            title="Offline (embedded model)",
            base_url=None,
            default_model=OFFLINE,
            needs_key=False,
            suggested_models=(OFFLINE,),
            network=False,
        ),
    )
}

PROVIDER_NAMES: tuple[str, ...] = (AUTO, *PRESETS)
"""Every value the ``provider`` setting accepts."""

AUTO_ORDER: tuple[str, ...] = ("openai", "moonshot", "deepseek", "dashscope")
"""With ``provider: auto``, the first of these whose key variable is set is used."""


def list_presets() -> list[ProviderPreset]:
    """The presets in picker order: network providers first, offline last."""
    return list(PRESETS.values())


def get_preset(name: str) -> ProviderPreset:
    """The preset called ``name``; a ``KeyError`` names the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise KeyError(f"unknown provider {name!r}; known providers: {known}") from None


def forced_tool_choice_supported(base_url: str | None, model: str) -> bool:
    """Whether ``model`` at ``base_url`` is known to accept a forced ``tool_choice`` (an
    endpoint no preset describes is assumed to, until it refuses)."""
    from fnmatch import fnmatchcase

    where = (base_url or "").rstrip("/")
    for preset in PRESETS.values():
        if preset.base_url and preset.base_url.rstrip("/") == where:
            return not any(fnmatchcase(model.lower(), p) for p in preset.no_forced_tool_choice)
    return True


def check_base_url(url: str) -> str:
    """``url`` when it is a usable endpoint address (``http`` or ``https``, with a host);
    ``ValueError`` with the reason otherwise."""
    from urllib.parse import urlsplit

    text = url.strip()
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        raise ValueError(f"{url!r} is not a web address ({exc})") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError(
            f"{url!r} must start with http:// or https:// (for example http://127.0.0.1:8000/v1)"
        )
    if not parts.hostname:
        raise ValueError(f"{url!r} names no host (for example http://127.0.0.1:8000/v1)")
    if any(ch.isspace() or ord(ch) < 32 for ch in text):
        raise ValueError(f"{url!r} holds spaces or control characters")
    return text
