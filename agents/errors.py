"""The small set of typed errors every provider failure becomes.

Each carries ``user_message``: one sentence saying what happened and what to do, safe to show
(never an API key: the text is scrubbed of the keys in use and of key-shaped strings, see
``storage.secrets.scrub_text``). ``code`` is a stable machine name for logs and tests.
"""

from __future__ import annotations


class WeaverError(Exception):
    code = "error"

    def __init__(self, user_message: str, *, retry_after: float | None = None) -> None:
        from storage.secrets import scrub_text  # here: errors are rare, start-up is not

        user_message = scrub_text(user_message)
        super().__init__(user_message)
        self.user_message = user_message
        self.retry_after = retry_after


class ConfigError(WeaverError):
    code = "config"


class MissingKeyError(ConfigError):
    code = "missing_key"


class ProviderNetworkError(WeaverError):
    code = "network"


class ProviderAuthError(WeaverError):
    code = "auth"


class ProviderRateLimitError(WeaverError):
    code = "rate_limit"


class ProviderServerError(WeaverError):
    code = "server"


class ProviderBadResponseError(WeaverError):
    code = "bad_response"


class ProviderTimeoutError(WeaverError):
    code = "timeout"


class StoreWriteError(WeaverError):
    """The conversation store refused a write (a full disk, a locked or read-only file)."""

    code = "storage"


class ToolError(WeaverError):
    code = "tool"


class ModelNotFoundError(ConfigError):
    """The provider does not know the configured model (HTTP 404): a setting to change."""

    code = "model_not_found"
