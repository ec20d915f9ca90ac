"""What the app and the CLI share: settings, the conversation store, the model, the runtime.

``Services(settings)`` is cheap: the store opens on first use (marking replies a killed process
left ``streaming`` as interrupted), the chat model is built on first use and can be switched
between turns, and ``async with services.runtime() as rt`` opens the graph checkpointer and the
:class:`~agents.runtime.agent_runtime.AgentRuntime` once; nested or later entries reuse them, and the
outermost exit (or :meth:`aclose`) closes them. No Textual import here: the headless verbs use
this module too.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import threading
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.errors import ConfigError
from weaver_tui.core.daemon_work import in_daemon_thread
from weaver_tui.core.logs import setup_logging
from weaver_tui.core.settings.pending import PendingSettings
from weaver_tui.core.whole_enter import enter_whole

if TYPE_CHECKING:
    from agents.mcp_servers import McpServerConfig
    from agents.providers import ChatModelHandle
    from agents.runtime.agent_runtime import AgentRuntime
    from storage.backend import AnyStore, StorageTarget
    from storage.turn_locks import TurnLocks
    from weaver_tui.core.role_choices import RoleChoice
    from weaver_tui.core.settings.config import Settings

logger = logging.getLogger(__name__)

DB_FILE = "weaver.db"
STORAGE_URL_VARIABLE = "WEAVER_STORAGE__URL"
"""``storage.url`` as an environment variable (see ``storage.backend.STORAGE_URL_VARIABLE``)."""


def _configured_secrets(settings: Settings, *, credentials_only: bool = False) -> list[str]:
    """The configured secrets (the provider's and web search's keys, MCP servers' header and
    env values: see ``Settings.secrets``) and every provider key variable's value."""
    from agents.providers.presets import PRESETS

    secrets = settings.secrets(credentials_only=credentials_only)
    try:
        environ = settings.provider_config().env()
    except Exception:  # noqa: BLE001 (the log must open even when the provider settings are broken)
        return secrets
    secrets += [environ.get(p.key_env, "") for p in PRESETS.values() if p.key_env]
    return [s for s in secrets if s]


class Services:
    """The shared parts, from validated :class:`Settings` or from :class:`PendingSettings`.

    With pending settings (the app's launch), only ``early`` (theme, data folder, default
    profile) and the store are usable at first; :meth:`validate_settings` (the app runs it right
    after the first paint) validates them with pydantic-settings and starts the log. Reading
    ``settings`` before that validates them on the spot: slower, never wrong.
    """

    def __init__(
        self,
        settings: Settings | PendingSettings,
        *,
        store: AnyStore | None = None,
        model: ChatModelHandle | None = None,
        configure_logging: bool = True,
    ) -> None:
        self._settings_lock = threading.Lock()
        self._model_lock = threading.Lock()
        self._configure_logging = configure_logging
        self.log_path: Path | None = None
        self._pending: PendingSettings | None = None
        self._settings: Settings | None = None
        if isinstance(settings, PendingSettings):
            self._pending = settings
            self.early = settings.early
        else:
            self.early = settings.early()
        self.data_dir = self.early.data_dir.expanduser()
        self.storage = _storage_target(self.data_dir, self.early.storage_url)
        """Where the data lives (``storage.url``, else the SQLite file); the factories of
        :mod:`storage.backend` open its parts."""
        self.hand_down_storage()
        self._store = store
        self._interrupted = 0
        """Replies a killed process left ``streaming``, marked when the store opened."""
        self.rewind_notices: list[str] = []
        """One sentence per file rewind a killed process left half done, finished or undone
        when the store opened (see :mod:`agents.patch_review.rewind_journal`)."""
        self._model = model
        self._runtime: AgentRuntime | None = None
        self._role_choices: dict[str, dict[str, Any] | None] = {}
        self._runtime_stack: AsyncExitStack | None = None
        self._runtime_depth = 0
        if self._pending is None:
            self._accept(settings)  # type: ignore[arg-type]

    @property
    def settings_ready(self) -> bool:
        """True once the settings are validated (at once when built from ``Settings``)."""
        return self._settings is not None

    @property
    def settings(self) -> Settings:
        """The validated settings (validated now if they are still pending)."""
        return self._settings or self.validate_settings()

    def validate_settings(self) -> Settings:
        """Validate pending settings and start the log file; thread-safe, done once.

        Raises ``ConfigError`` (one sentence) for a bad setting or an unwritable log file.
        """
        with self._settings_lock:
            if self._settings is None:
                assert self._pending is not None
                settings = self._pending.validate()
                try:
                    self._accept(settings)
                except OSError as exc:
                    where = exc.filename or "the data folder"
                    raise ConfigError(f"Cannot write to {where}: {exc.strerror or exc}.") from None
            return self._settings  # type: ignore[return-value]

    def _accept(self, settings: Settings) -> None:
        from storage.secrets import remember_secret

        # what is stored or exported loses only credentials; the log loses every secret value
        remember_secret(*_configured_secrets(settings, credentials_only=True))
        if self._configure_logging:
            self.log_path = setup_logging(
                Path(settings.storage.data_dir).expanduser(),
                level=settings.logging.level,
                redact_content=settings.logging.redact_content,
                secrets=_configured_secrets(settings),
            )
        self._settings = settings
        if self._interrupted:  # the store opened before the log (the app's launch)
            self._log_interrupted()

    def _log_interrupted(self) -> None:
        logger.info("marked interrupted replies", extra={"count": self._interrupted})

    @property
    def config_dir(self) -> Path | None:
        """Where the user's config lives; ``prompts/<profile>.md`` there overrides a prompt."""
        return self.settings.config_file.parent

    # -- storage ----------------------------------------------------------------------------

    @property
    def store(self) -> AnyStore:
        if self._store is None:
            from storage.backend import open_store

            self._store = open_store(self.storage)
            self._interrupted = len(self._store.mark_interrupted_replies())
            from agents.patch_review.rewind_journal import finish_interrupted

            self.rewind_notices = finish_interrupted(self._store)
            if self._interrupted and self.settings_ready:
                self._log_interrupted()
        return self._store

    def hand_down_storage(self) -> None:
        """Put ``storage.url`` in this process's environment, so the seat processes it starts
        open the same database (never on their command line: it may hold a password), and
        the parts that see only the data folder (a profile's memory) find it too."""
        if self.storage.url:
            os.environ[STORAGE_URL_VARIABLE] = self.storage.url

    @property
    def turn_locks(self) -> TurnLocks:
        """One turn at a time per conversation, across processes (and hosts, on a server)."""
        from storage.backend import turn_locks

        return turn_locks(self.storage)

    # -- the model --------------------------------------------------------------------------

    @property
    def model(self) -> ChatModelHandle:
        """The chat model for the next turn (built from the settings on first use).

        Thread-safe, built once: the app builds it in its warm-up thread after the first
        paint, and a caller that comes meanwhile (the first turn) waits for that build instead
        of making a second model with clients of its own.
        """
        if self._model is None:
            with self._model_lock:
                if self._model is None:
                    from agents.providers import make_chat_model

                    self._model = make_chat_model(self.settings.provider_config())
        return self._model

    async def amodel(self) -> ChatModelHandle:
        """:attr:`model` for the event loop: taken at once when it is built, else built (or
        waited for, while the warm-up builds it) in a thread, so the loop never blocks."""
        if self._model is not None:
            return self._model
        return await in_daemon_thread(lambda: self.model, "weaver-model-build")

    @property
    def model_built(self) -> bool:
        """True once :attr:`model` is there to take without building (or waiting for) it."""
        return self._model is not None

    def switch_model(
        self,
        provider: str | None = None,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
    ) -> ChatModelHandle:
        """Use another provider and/or model from the next turn on.

        Switching to another provider drops the configured endpoint and key (they belong to the
        configured provider) unless new ones are given; that preset's own variables
        (``MOONSHOT_API_KEY`` ...) apply. Raises ``ConfigError`` (one sentence) when the choice
        cannot be built; the current model then stays.
        """
        from pydantic import SecretStr

        from agents.providers import make_chat_model

        config = self.settings.provider_config()
        changes: dict[str, Any] = {}
        if provider and provider != config.provider:
            changes.update(provider=provider, base_url=None, api_key=None, model="")
        if model:
            changes["model"] = model
        if base_url:
            changes["base_url"] = base_url
        if api_key:
            changes["api_key"] = SecretStr(api_key)
        handle = make_chat_model(dataclasses.replace(config, **changes))
        with self._model_lock:
            self._model = handle
        logger.info(
            "model switched", extra={"provider": handle.provider, "model": handle.model_name}
        )
        return handle

    def profile_settings(self) -> dict[str, Any]:
        """What the profiles read: the settings' sections, with the roles picked in the app
        (:mod:`weaver_tui.core.role_choices`) in place of the configured ones."""
        from weaver_tui.core.role_choices import with_choices

        return with_choices(self.settings.profile_settings(), self._role_choices)

    def choose_role_model(self, choice: RoleChoice) -> None:
        """Give a role the model of ``choice`` (or the turn's, when it names none) from the
        next turn on, for this session; raises ``ConfigError`` (one sentence) when it cannot
        be built, and then nothing changes."""
        from weaver_tui.core.role_choices import role_section

        self._role_choices[choice.role] = role_section(choice, self.settings.provider_config())
        chosen = self.profile_settings()
        if self._runtime is not None:
            self._runtime.profile_settings = chosen
        logger.info("role model chosen", extra={"role": choice.role, "model": choice.model})

    # -- the runtime ------------------------------------------------------------------------

    @asynccontextmanager
    async def runtime(self) -> AsyncIterator[AgentRuntime]:
        """The shared runtime; opened on the first entry, closed when the outermost exits."""
        if self._runtime is None:
            await self._open_runtime()
        self._runtime_depth += 1
        try:
            assert self._runtime is not None
            yield self._runtime
        finally:
            self._runtime_depth -= 1
            if self._runtime_depth == 0:
                await self._close_runtime()

    async def _open_runtime(self) -> None:
        # A third of a second of imports the event loop must not wait in (its frames, keys,
        # requests): in a thread, or already done by the app's warm-up.
        await in_daemon_thread(self.import_runtime, "weaver-runtime-imports")
        from agents.runtime.agent_runtime import AgentRuntime

        stack = AsyncExitStack()
        try:
            checkpointer = await _open_checkpointer(stack, self.data_dir, self.storage)
            runtime = AgentRuntime(
                self.store,
                checkpointer,
                config_dir=self.config_dir,
                data_dir=self.data_dir,
                profile_settings=self.profile_settings(),
                tool_seconds=self.settings.turns.tool_seconds,
                tool_result_chars=self.settings.turns.tool_result_chars,
                context_messages=self.settings.turns.context_messages,
                max_tool_rounds=self.settings.turns.max_tool_rounds,
                mcp_servers=mcp_server_configs(self.settings.mcp_servers),
                turn_locks=self.turn_locks if self.storage.is_postgres else None,
            )
        except BaseException:  # failed or cancelled half-way: what was opened is closed
            await asyncio.shield(stack.aclose())
            raise
        stack.push_async_callback(runtime.aclose)
        self._runtime, self._runtime_stack = runtime, stack

    def import_runtime(self) -> None:
        """What opening the runtime and its first turn import (see
        :mod:`agents.runtime.stack_imports`), with the checkpointer of the chosen storage."""
        from agents.runtime.stack_imports import import_runtime_modules

        import_runtime_modules()
        if self.storage.is_postgres:
            from storage.backend import postgres_module

            postgres_module("storage.pg_checkpointer")
        else:
            import storage.checkpointer  # noqa: F401

    async def _close_runtime(self) -> None:
        stack, self._runtime_stack, self._runtime = self._runtime_stack, None, None
        if stack is not None:
            await stack.aclose()

    async def aclose(self) -> None:
        """Close the runtime (if open) and the store."""
        self._runtime_depth = 0
        await self._close_runtime()
        self.close_store()

    def close_store(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


async def _open_checkpointer(
    stack: AsyncExitStack, data_dir: Path, storage: StorageTarget | None = None
) -> Any:
    """The checkpointer the storage settings choose (``storage.backend.open_checkpointer``);
    ``storage.checkpointer.open_checkpointer`` (an async context manager or an awaitable)
    for the data folder's file."""
    if storage is not None and storage.is_postgres:
        from storage.backend import open_checkpointer as open_chosen_checkpointer

        return await enter_whole(stack, open_chosen_checkpointer(storage))
    try:
        from storage.checkpointer import open_checkpointer
    except ImportError:
        from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

        await asyncio.to_thread(data_dir.mkdir, parents=True, exist_ok=True)
        return await enter_whole(
            stack, AsyncSqliteSaver.from_conn_string(str(data_dir / "checkpoints.db"))
        )
    opened = open_checkpointer(data_dir)
    if hasattr(opened, "__aenter__"):
        return await enter_whole(stack, opened)
    if hasattr(opened, "__await__"):
        opened = await opened
    closer = getattr(opened, "aclose", None) or getattr(opened, "close", None)
    if closer is not None:
        stack.push_async_callback(_maybe_await, closer)
    return opened


async def _maybe_await(func: Any) -> None:
    result = func()
    if hasattr(result, "__await__"):
        await result


def mcp_server_configs(entries: Mapping[str, Any]) -> list[McpServerConfig]:
    """The runtime's form of the ``mcp_servers`` setting (entries validated already): the
    header and env values the settings keep secret are handed over as plain text."""
    from agents.mcp_servers import McpServerConfig
    from weaver_tui.core.settings.knowledge_sections import agent_view

    return [
        McpServerConfig.from_mapping(
            name, agent_view(entry) if hasattr(entry, "model_dump") else entry
        )
        for name, entry in entries.items()
    ]


def _storage_target(data_dir: Path, url: str | None) -> StorageTarget:
    """The :class:`storage.backend.StorageTarget`; a bad ``storage.url`` is a ``ConfigError``
    sentence."""
    from storage.backend import StorageTarget
    from storage.store import StorageError

    try:
        return StorageTarget(data_dir, url)
    except StorageError as err:
        raise ConfigError(str(err)) from None
