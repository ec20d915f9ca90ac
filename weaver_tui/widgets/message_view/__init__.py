"""The chat transcript widget: a virtualised, streaming Markdown view of the active path.

Why a virtualised view and not one ``Markdown`` widget per message: every Markdown block is a
widget, so a long reply or a long path keeps growing a container that Textual re-lays-out on
each append (measured: 60 s for a 20,000-token reply, 145 s / 2.3 GB for a 2,000-message
path; ``benchmarks/bench_ui_stream.py`` and ``bench_ui_history.py`` measure this view). ``MessageView`` is one ``ScrollView`` whose ``render_line`` serves cached
Rich-rendered lines: finished Markdown blocks are rendered once, a stream re-renders only its
unfinished last block (at most 30 times a second, appends in between are coalesced), and
history is measured and rendered only when it comes near the viewport.

Using it from a screen::

    view = MessageView(id="messages")             # mount it; it can take focus
    view.set_messages([MessageItem(id=..., role="user", content=...), ...])  # cheap, any length
    view.start_message(MessageItem(id=reply_id, role="assistant", badge="assistant · gpt-4o"))
    view.append_text(reply_id, delta)             # per token; cheap, coalesced
    view.append_reasoning(reply_id, delta)        # a thinking model's reasoning, shown folded
    view.finish_message(reply_id, "complete", badge="assistant · gpt-4o · 1.2s")
    view.finish_message(reply_id, "cancelled")    # or "error", error="The server ..."
    view.update_item(item)                        # new badge / versions / content
    view.select_message(message_id)               # highlight (posts nothing)
    view.scroll_to_message(message_id)
    view.selected_message_id, view.following, view.items, view.get_item(message_id)
    view.visible_text()                           # the lines on screen, as text (tests)

It posts (handle as ``on_message_view_<name>``):

- ``MessageView.Selected(view, message_id)``: the user moved the selection (up/down, k/j, click).
- ``MessageView.VersionFlipRequested(view, message_id, delta)``: ``[`` / ``]`` or a click on
  ``<`` / ``>`` in a header; the screen switches the path to that sibling's branch and calls
  ``set_messages`` again.
- ``MessageView.ActionRequested(view, message_id, action)``: ``f`` "fork", ``e`` "edit",
  ``r`` "regenerate"; "copy" after ``y`` has put the message's Markdown on the clipboard
  (through ``app.copy_to_clipboard``: the screen only confirms).
- ``MessageView.CodeCopied(view, message_id, code)``: ``c`` has put a code block on the
  clipboard (the one in view, else the message's last).
- ``MessageView.LinkClicked(view, href)``: a Markdown link was clicked (also opened with
  ``app.open_url`` unless ``open_links=False``).

Keys: up/k, down/j, ``[``, ``]``, f, e, r, y, c, t (unfold or fold a reply's thinking), end
(jump to latest and follow again), plus the scroll keys of any scroll view. Mouse selection copies with the app's copy key. Colours
follow the app theme, including weaver's theme variables ``user``, ``assistant``, ``tool`` and
``private``.
"""

from weaver_tui.core.message_item import MessageItem, Status
from weaver_tui.widgets.message_view.view import MessageView

__all__ = ["MessageItem", "MessageView", "Status"]
