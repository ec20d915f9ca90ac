"""A failed turn as one sentence: provider errors through the provider's translation, bugs
in a graph's node or tool as "failed unexpectedly" (with the traceback in the log only)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from agents.errors import StoreWriteError, WeaverError
from storage.store import StorageError

if TYPE_CHECKING:
    from agents.providers import ChatModelHandle


def translate_error(exc: BaseException, model: ChatModelHandle | None = None) -> WeaverError:
    """Any failure of a turn as a ``WeaverError`` with a sentence for the user."""
    if isinstance(exc, WeaverError):
        return exc
    if isinstance(exc, StorageError):  # already one sentence naming the file and what to do
        return StoreWriteError(str(exc))
    if isinstance(exc, sqlite3.OperationalError) and "full" in str(exc).lower():
        return StoreWriteError(
            "The disk holding weaver-tui's data folder is full (the turn's checkpoints could "
            "not be written); free some space."
        )
    if model is not None:
        error = model.translate_error(exc)
    else:
        from agents.providers import translate_provider_error

        error = translate_provider_error(exc)
    if type(error) is WeaverError and is_unexpected(exc):
        # Not a provider failure at all: a bug in a node or tool of the graph.
        return WeaverError(
            f"The turn failed unexpectedly ({type(exc).__name__}); see weaver.log for details."
        )
    return error


def start_failure(exc: BaseException) -> str:
    """A failure before the turn started, as one line (storage errors already are one)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if text.endswith(".") else f"The turn could not start: {text}."


def is_unexpected(exc: BaseException) -> bool:
    """Provider failures are expected (no traceback in the log); anything else is a bug."""
    if isinstance(exc, WeaverError):
        return False
    return not any(t.__module__.startswith(("openai", "httpx")) for t in type(exc).__mro__)
