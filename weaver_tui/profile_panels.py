"""Profile panels: the widget a profile's panel kind adds to the chat layout, and the
speakers' view filter.

The chat screen keeps a ``#profile-panel`` slot above the composer. :func:`panel_for` fills it
by the panel kind a profile declares (``ProfileTraits.panel``) from :data:`PANEL_FACTORIES`:

- ``speakers`` → :class:`~weaver_tui.widgets.space_panel.SpacePanel` (speaker,
  audience and channel bars; posts ``SpeakerBar.SpeakerChanged``,
  ``AudienceBar.AudienceChanged`` and ``ChannelTabs.ViewChanged``);
- ``project`` → :class:`~weaver_tui.widgets.project_root_label.ProjectRootLabel` (the root
  and the number of patches waiting for review; posts ``ProjectRootLabel.ReviewRequested``);
- no kind, or one the app has no widget for → ``None`` (hide the slot).

:func:`items_for_view` turns a path of a conversation with participants into the message-view
rows one view shows, by way of :func:`agents.shared_space.space.view_for`: the model view
(everything), the shared channel, or one participant's view. A reader's view is handed only
the records the store's viewer filter read for that reader, so a private reply to someone else
never reaches it. The panels' keys are in :data:`weaver_tui.keymap.PROFILE_KEYS`.

Agent modules are imported inside the functions: this module is imported while the app
starts, and the first paint must not wait for the agent stack.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.widget import Widget

from weaver_tui.core.message_item import as_status
from weaver_tui.widgets.channel_tabs import SHARED_VIEW
from weaver_tui.widgets.message_view import MessageItem
from weaver_tui.widgets.project_root_label import ProjectRootLabel
from weaver_tui.widgets.space_panel import SpacePanel

if TYPE_CHECKING:
    from agents.shared_space.space import SpaceMessage
    from storage.models import MessageRecord


@dataclass(frozen=True, slots=True)
class PanelOptions:
    """What a panel needs to know about the open conversation."""

    project_root: Path | None = None
    """``project``: the folder the profile works in (default: the current folder)."""
    participants: Sequence[str] = ()
    """``speakers``: the conversation's participants."""
    speaker: str | None = None
    """``speakers``: who speaks first (default: the first participant)."""
    view: str | None = None
    """``speakers``: the view shown at first (default: everything)."""
    pending_patches: int | None = None
    """``project``: patches waiting for review (``None``: not known yet)."""


def _speakers_panel(options: PanelOptions) -> Widget:
    participants = tuple(options.participants) or ("You",)
    return SpacePanel(participants, speaker=options.speaker, view=options.view)


def _project_panel(options: PanelOptions) -> Widget:
    root = options.project_root or Path.cwd()
    return ProjectRootLabel(root, options.pending_patches)


PANEL_FACTORIES: dict[str, Callable[[PanelOptions], Widget]] = {
    "speakers": _speakers_panel,
    "project": _project_panel,
}
"""Panel kind (``ProfileTraits.panel``) → the factory of its widget."""


def panel_for(kind: str | None, options: PanelOptions | None = None) -> Widget | None:
    """A new panel widget of ``kind``, or ``None`` for no kind or one without a widget."""
    factory = PANEL_FACTORIES.get(kind) if kind is not None else None
    return None if factory is None else factory(options or PanelOptions())


def visibility_label(visibility: str | None) -> str:
    """The message-view mark of a visibility: ``"private → Alex"``, or ``""`` when shared."""
    return "" if visibility in (None, SHARED_VIEW) else f"private → {visibility}"


MEDIATOR_NAME = "Mediator"
"""Who a delivery is from, in its header."""


def delivery_header(visibility: str) -> tuple[str, str]:
    """(badge, mark) of a delivery's header: ``("Mediator → Alex", "private")`` for a private
    reply, ``("Mediator → everyone", "")`` for a post to the shared space, so the header reads
    "Mediator → Alex [private]" / "Mediator → everyone" in every view."""
    if visibility == SHARED_VIEW:
        return f"{MEDIATOR_NAME} → everyone", ""
    return f"{MEDIATOR_NAME} → {visibility}", "private"


def items_for_view(
    records: Sequence[MessageRecord],
    view: str | None,
    participants: Sequence[str],
    items: Mapping[str, MessageItem] | None = None,
) -> list[MessageItem]:
    """The rows the message view shows of ``records`` (a path, root first) in ``view``.

    ``view`` is ``None`` (the model's view: every record, private ones marked),
    ``"shared"`` (what everyone sees) or a participant's name (what that person may read:
    shared messages, private replies to them, their own words). For a reader's view
    ``records`` are what the store's filtered query read for that reader
    (``path_to_root(leaf, viewer)``, :mod:`storage.audience`): nothing is filtered here, so
    a record that reaches this process is one the reader may read. ``items`` are the rows the
    chat screen already built per record id (versions, badges, status); rows are derived from
    them, else built plainly from the records. In every view a delivery (``reply_privately`` /
    ``post_to_shared`` result) shows as the mediator's message with the delivered words, its
    header naming the audience (:func:`delivery_header`).
    Raises ``ValueError`` for a view that is not one of the space's.
    """
    from agents.shared_space.space import canonical_participant, record_visibility, view_for

    rows = items or {}
    if (
        view is not None
        and view != SHARED_VIEW
        and canonical_participant(view, participants) is None
    ):
        raise ValueError(f"{view!r} is not a participant of this space: {participants!r}")
    lines = {line.record_id: line for line in view_for(records, None)}
    if view is not None:  # a reader's records, each shown as its line reads
        by_id = {record.id: record for record in records}
        return [
            _row(line, rows.get(record_id) or _plain_item(by_id[record_id]))
            for record_id, line in lines.items()
            if line.kind != "internal"
        ]
    return [
        _row(lines[record.id], rows.get(record.id) or _plain_item(record))
        if record.id in lines and lines[record.id].kind == "delivered"
        else dataclasses.replace(
            rows.get(record.id) or _plain_item(record),
            visibility=visibility_label(record_visibility(record, records)),
        )
        for record in records
        if record.role != "system"
    ]


def _row(line: SpaceMessage, base: MessageItem) -> MessageItem:
    """A view line as a row: a delivery reads as the mediator's message to its audience."""
    if line.kind == "delivered" and line.visibility is not None:
        badge, mark = delivery_header(line.visibility)
        return dataclasses.replace(
            base, role="assistant", content=line.content, badge=badge, visibility=mark
        )
    return dataclasses.replace(base, visibility=visibility_label(line.visibility))


def _plain_item(record: MessageRecord) -> MessageItem:
    badge = str(record.meta.get("sender") or record.meta.get("name") or "")
    content = record.content
    if record.role == "assistant" and not content and record.tool_calls:
        names = ", ".join(f"`{call.get('name', 'tool')}`" for call in record.tool_calls)
        content = f"Calling {names}"  # as the chat screen's rows say it
    return MessageItem(
        id=record.id,
        role=record.role,
        content=content,
        status=as_status(record.status.value),
        version=record.version,
        badge=badge,
    )
