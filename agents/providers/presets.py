"""The providers weaver-tui knows by name: where they live, which key they need, what to offer,
and what each of their models needs on the wire (:class:`ModelTraits`).

Kept free of heavy imports (no ``openai``, no ``langchain``) so settings, the CLI and the model
picker can read it without paying for the network stack at start-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

OFFLINE = "offline"
AUTO = "auto"
OPENAI_COMPATIBLE = "openai-compatible"

PLACEHOLDER_KEY = "not-needed"
"""Sent where a server needs no key: the ``openai`` SDK refuses to build a client without one."""


UsageLocation = Literal["final chunk", "finish chunk", "in choice"]
"""Where a stream carries its token usage: a last chunk with ``choices: []`` (OpenAI's format),
top-level on the chunk with the ``finish_reason``, or inside that chunk's ``choices[0]``
(Moonshot). The client reads all three; the trait says what to expect of the provider."""


_ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@dataclass(frozen=True, slots=True)
class ToolCallIds:
    """The tool-call ids a server accepts: exactly ``length`` characters of ``alphabet``
    (Mistral: 9 letters or digits). A request to such a server carries ids mapped to ones it
    accepts (the stored conversation keeps its own); see
    :mod:`agents.providers.request_mend`."""

    length: int = 9
    alphabet: str = _ALPHANUMERIC

    def accepts(self, call_id: str) -> bool:
        """Whether the server takes ``call_id`` as it is."""
        return len(call_id) == self.length and all(ch in self.alphabet for ch in call_id)

    def make(self, seed: str) -> str:
        """An accepted id derived from ``seed`` (the same seed, the same id)."""
        import hashlib

        number = int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big")
        base = len(self.alphabet)
        out = []
        for _ in range(self.length):
            number, digit = divmod(number, base)
            out.append(self.alphabet[digit])
        return "".join(out)


MISTRAL_IDS = ToolCallIds()


@dataclass(frozen=True, slots=True)
class ModelTraits:
    """What one model needs beyond plain OpenAI chat completions."""

    thinking: bool = False
    """It reasons before it answers (``reasoning_content`` beside the content, or inline)."""
    send_reasoning_back: bool = False
    """An assistant message with tool calls must carry its reasoning when it is sent back (a
    thinking model's tool rounds, else the server answers 400). The rule for every server:
    reasoning is read from whichever of ``REASONING_FIELDS`` it comes in and sent back in the
    field it came in (the one a 400 names, for a server that was not known to need it; that
    is learnt per base URL and model)."""
    call_extras: bool = False
    """Send back what the server attached to its tool calls (``CALL_EXTRA_FIELDS``: Gemini's
    thought signatures in ``extra_content``), else it answers 400; learnt from that 400 too.
    Only servers that need them get them: another server may refuse a field it does not know."""
    tool_call_ids: ToolCallIds | None = None
    """The only tool-call ids the server accepts (None: any non-empty string); a server that
    answers 400 naming the format is learnt per base URL and model."""
    usage: UsageLocation = "final chunk"
    extra_body: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    """Fields sent with every request (Qwen's ``enable_thinking``)."""


REASONING_FIELDS: tuple[str, ...] = ("reasoning_content", "reasoning", "reasoning_details")
"""Every wire field a server puts reasoning in (``reasoning_details``: a list of items)."""

CALL_EXTRA_FIELDS: tuple[str, ...] = ("extra_content",)
"""Fields a server attaches to a tool call beside OpenAI's, kept with the call (Gemini's
``extra_content.google.thought_signature``)."""

PLAIN = ModelTraits()
NO_TRAITS: Mapping[str, ModelTraits] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class ProviderPreset:
    """One provider: its OpenAI-compatible endpoint, default model and key variable, and the
    traits of the models it serves (``model_traits`` by model name, else ``traits``)."""

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
    traits: ModelTraits = PLAIN
    """The traits of a model ``model_traits`` does not name."""
    model_traits: Mapping[str, ModelTraits] = field(default_factory=lambda: NO_TRAITS, hash=False)
    model_from_server: bool = False
    """With no model named, use the one the server lists (a local server serves one)."""

    def traits_of(self, model: str) -> ModelTraits:
        """The traits of ``model`` on this provider."""
        return self.model_traits.get(model, self.traits)


_KIMI = ModelTraits(usage="in choice")
_KIMI_THINKING = ModelTraits(thinking=True, send_reasoning_back=True, usage="in choice")
_DEEPSEEK_THINKING = ModelTraits(thinking=True, send_reasoning_back=True)
_QWEN_THINKING_OFF = ModelTraits(extra_body=MappingProxyType({"enable_thinking": False}))
_QWEN_THINKING_ON = ModelTraits(
    thinking=True, extra_body=MappingProxyType({"enable_thinking": True})
)
_THINKING = ModelTraits(thinking=True)


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
            no_forced_tool_choice=("kimi-*thinking*",),
            suggested_models=(
                "kimi-k2-turbo-preview",
                "kimi-k2-0905-preview",
                "kimi-k2-thinking",
                "kimi-k2-thinking-turbo",
                "moonshot-v1-32k",
            ),
            traits=_KIMI,
            model_traits=MappingProxyType(
                {"kimi-k2-thinking": _KIMI_THINKING, "kimi-k2-thinking-turbo": _KIMI_THINKING}
            ),
        ),
        ProviderPreset(
            name="deepseek",
            title="DeepSeek",
            base_url="https://api.deepseek.com/v1",
            default_model="deepseek-chat",
            key_env="DEEPSEEK_API_KEY",
            suggested_models=("deepseek-chat", "deepseek-reasoner"),
            no_forced_tool_choice=("deepseek-reasoner", "deepseek-v4*"),
            model_traits=MappingProxyType({"deepseek-reasoner": _DEEPSEEK_THINKING}),
        ),
        ProviderPreset(
            name="dashscope",
            title="DashScope (Qwen)",
            base_url="https://dashscope.aliyuncs.com/compatible-mode/v1",
            default_model="qwen-plus",
            key_env="DASHSCOPE_API_KEY",
            no_forced_tool_choice=("qwq-*", "qwen3-*-thinking*"),
            suggested_models=(
                "qwen-plus",
                "qwen-max",
                "qwen-turbo",
                "qwen3-coder-plus",
                "qwen3-235b-a22b",
                "qwq-plus",
            ),
            model_traits=MappingProxyType(
                {
                    "qwen-plus": _QWEN_THINKING_OFF,
                    "qwen-turbo": _QWEN_THINKING_OFF,
                    "qwen3-235b-a22b": _QWEN_THINKING_ON,
                    "qwq-plus": _THINKING,
                }
            ),
        ),
        ProviderPreset(
            name="ollama",
            title="Ollama (local)",
            base_url="http://127.0.0.1:11434/v1",
            default_model="llama3.2",
            needs_key=False,
            suggested_models=("llama3.2", "qwen2.5-coder", "qwen3", "deepseek-r1", "mistral"),
            model_traits=MappingProxyType({"qwen3": _THINKING, "deepseek-r1": _THINKING}),
        ),
        ProviderPreset(
            name="vllm",
            title="vLLM (local)",
            base_url="http://127.0.0.1:8000/v1",
            default_model="default",
            needs_key=False,
            model_from_server=True,
        ),
        ProviderPreset(
            name=OPENAI_COMPATIBLE,
            title="Any OpenAI-compatible server",
            base_url=None,
            default_model="default",
            needs_key=False,
            model_from_server=True,
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


ENDPOINT_TRAITS: Mapping[str, ModelTraits] = MappingProxyType(
    {
        "api.mistral.ai": ModelTraits(tool_call_ids=MISTRAL_IDS),
        "generativelanguage.googleapis.com": ModelTraits(call_extras=True),
    }
)
"""Traits of every model at a host no preset names (reached as ``openai-compatible``)."""


def endpoint_traits(base_url: str | None) -> ModelTraits:
    """The traits :data:`ENDPOINT_TRAITS` gives the host of ``base_url`` (plain otherwise)."""
    from urllib.parse import urlsplit

    try:
        host = urlsplit(base_url or "").hostname or ""
    except ValueError:
        return PLAIN
    return ENDPOINT_TRAITS.get(host.lower(), PLAIN)


def traits_of(provider: str, model: str) -> ModelTraits:
    """The traits of ``model`` served by ``provider`` (plain for an unknown provider)."""
    preset = PRESETS.get(provider)
    return preset.traits_of(model) if preset is not None else PLAIN


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
