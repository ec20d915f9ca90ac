"""The apps' one rule for notifications: shown as written, never read as markup.

Everything a notification quotes (titles, names, file names, a host's or provider's errors)
comes from stored or provider text: it is made printable first and shown with ``markup``
off (``markup`` is accepted and ignored: a notification quoting ``[/x]`` would fail to
render, ``[@click=...]`` would run an action). The chat app and the seat app both are one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App

from storage.printable import printable

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel


class PlainNotifyApp(App[None]):
    """An app whose every notification passes :meth:`notify` (see the module)."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        super().notify(
            printable(message),
            title=printable(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )
