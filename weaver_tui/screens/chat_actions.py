"""The chat screen's app-level actions: cancel and retry a reply, toggle panes, new and open
conversations, switch profile and model, export, save a reply's artifacts, compose in an
editor.

Mixed into :class:`~weaver_tui.screens.chat.ChatScreen`; each action either changes the state
and refreshes the screen or opens a modal screen whose answer comes back in a callback.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events

from storage.store import StorageError

if TYPE_CHECKING:
    from weaver_tui.screens.chat_host import ChatHost as _Host
else:
    _Host = object  # the type checker sees the chat screen's surface; Python a plain mixin

logger = logging.getLogger(__name__)


class ChatActions(_Host):
    """Actions bound to keys and palette commands (see :data:`weaver_tui.keymap.KEYMAP`)."""

    def action_cancel_reply(self) -> None:
        """Stop the running reply; with none running, leave edit or fork mode."""
        if self.cancel_event is not None:
            self.cancel_event.set()
            self.header.busy = "cancelling"
        elif self.compose_mode.active:
            if self.editing_id is not None:
                self.composer.clear()
            self.clear_compose_mode()
            self.show_path()

    def action_retry(self) -> None:
        if self.retry_user_id is not None:
            self.start_turn(self.retry_user_id)

    def action_toggle_tree(self) -> None:
        """Show and focus the tree; from the focused tree, hide it."""
        tree = self.tree
        self.pane_fit.user_toggled(tree)
        if tree.has_class("-hidden"):
            tree.remove_class("-hidden")
            tree.focus()
        elif not tree.has_focus:
            tree.focus()
        else:
            tree.add_class("-hidden")
            self.composer.focus()

    def action_toggle_tool_pane(self) -> None:
        side = self.query_one("#side-pane")
        self.pane_fit.user_toggled(side)
        side.toggle_class("-hidden")
        if (
            side.has_class("-hidden")
            and self.focused is not None
            and side in self.focused.ancestors
        ):
            self.composer.focus()

    def on_resize(self, event: events.Resize) -> None:
        """Hide the side panes on a narrow terminal, bring them back on a wide one."""
        focused = self.focused
        for pane in self.pane_fit.fit(self, event.size.width):
            if focused is not None and (pane is focused or pane in focused.ancestors):
                self.composer.focus()

    def action_new_conversation(self) -> None:
        if self.running:
            self.notify("Wait for the reply to finish (or press Esc) first.")
            return
        self.state.new()
        self.clear_compose_mode()
        self.show_conversation()
        self.composer.focus()

    def open_conversation(self, conversation_id: str, message_id: str | None = None) -> None:
        try:
            self.state.open(conversation_id, message_id)
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        self.clear_compose_mode()
        self.show_conversation()
        if message_id is not None:
            self.selected_id = message_id
            self.messages.select_message(message_id)

    def action_search_conversations(self) -> None:
        """The conversations list with the cursor in its search field."""
        self.action_open_conversations(search=True)

    def action_open_conversations(self, search: bool = False) -> None:
        from weaver_tui.screens.conversations import (
            ConversationsScreen,
            NewConversation,
            OpenConversation,
        )

        if self.running:
            self.notify("Wait for the reply to finish (or press Esc) first.")
            return

        def chosen(result: Any) -> None:
            if isinstance(result, OpenConversation):
                self.open_conversation(result.conversation_id, result.message_id)
            elif isinstance(result, NewConversation):
                self.action_new_conversation()
            else:
                self._after_conversations_closed()

        screen = ConversationsScreen(self.state.store)
        self.app.push_screen(screen, chosen)
        if search:
            screen.call_after_refresh(screen.action_search)

    def _after_conversations_closed(self) -> None:
        """The list may have renamed or deleted the open conversation."""
        conversation = self.state.conversation
        if conversation is None:
            return
        try:
            self.state.open(conversation.id, None)
        except StorageError:
            self.action_new_conversation()
            return
        self.show_conversation()

    def action_switch_profile(self) -> None:
        from weaver_tui.screens.profile_picker import ProfilePickerScreen

        if self.running:
            self.notify("Wait for the reply to finish (or press Esc) first.")
            return

        def chosen(name: str | None) -> None:
            if not name or name == self.state.profile:
                return
            if not self.state.open_latest(name):
                self.state.new(name)
            self.clear_compose_mode()
            self.show_conversation()
            conversation = self.state.conversation
            if conversation is None:
                self.notify(f"Profile: {name}")
            else:
                reopened = f"Profile: {name}, reopened “{conversation.title}”."
                self.notify(" ".join(filter(None, (reopened, self.root_note()))))

        self.app.push_screen(ProfilePickerScreen(self.state.profile), chosen)

    def action_switch_model(self) -> None:
        from agents.model_options import ModelOptions
        from weaver_tui.screens.model_picker import ModelPickerScreen, PickedModel

        def chosen(choice: PickedModel | None) -> None:
            if not choice:
                return
            try:
                handle = self.services.switch_model(choice.provider, choice.model)
                self.state.set_setting("model_options", choice.options.as_meta())
            except StorageError as exc:
                self.notify(str(exc), severity="error")
                return
            except Exception as exc:
                sentence = getattr(exc, "user_message", None) or str(exc)
                self.notify(sentence, severity="error", title="Model not switched")
                return
            self.header.provider = handle.provider
            self.header.model = handle.model_name
            extra = choice.options.as_meta()
            said = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in (extra or {}).items())
            self.notify(
                f"Model: {handle.label} (from the next turn)"
                + (f"; this conversation: {said}" if said else "")
            )

        provider, model_name = self.header.provider, self.header.model
        options = ModelOptions.from_meta(self.state.setting("model_options"))
        self.app.push_screen(ModelPickerScreen(provider, model_name, options=options), chosen)

    def action_export_conversation(self) -> None:
        conversation = self.state.conversation
        if conversation is None:
            self.notify("There is nothing to export yet.")
            return
        slug = re.sub(r"[^a-z0-9]+", "-", conversation.title.lower()).strip("-")[:40] or "chat"
        folder = Path(self.services.settings.data_dir) / "exports" / f"{slug}-{conversation.id[:8]}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            markdown = self.state.store.export_markdown(conversation.id, self.state.leaf_id)
            (folder / "conversation.md").write_text(markdown, encoding="utf-8")
            self.state.store.export_jsonl(conversation.id, folder)
        except (OSError, StorageError) as exc:
            self.notify(f"Export failed: {exc}", severity="error")
            return
        self.notify(f"Exported to {folder}", title="Conversation exported")

    def action_save_artifacts(self) -> None:
        """Save the selected reply's artifacts (else the latest on the path's) as files."""
        from weaver_tui.artifacts import (
            ArtifactError,
            artifacts_of,
            latest_with_artifacts,
            plan_saves,
            question_for,
            save,
        )
        from weaver_tui.screens.confirm import ConfirmScreen

        index = self.state.index
        selected = index.get(self.selected_id) if self.selected_id in index else None
        if selected is None or not artifacts_of(selected.meta):
            selected = latest_with_artifacts(index.get(i) for i in self.state.path_ids())
        if selected is None:
            self.notify("No reply here has files to save.")
            return
        root = self.project_dir()
        try:
            planned = plan_saves(root, artifacts_of(selected.meta))
        except ArtifactError as exc:
            self.notify(str(exc), severity="error", title="Not saved")
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                save(planned)
            except OSError as exc:
                self.notify(f"Saving failed: {exc.strerror or exc}", severity="error")
                return
            names = ", ".join(p.relative for p in planned)
            self.notify(f"Saved {names} under {root}", title="Artifacts saved")

        self.app.push_screen(ConfirmScreen(question_for(root, planned), "Save"), answered)

    pending_attachments: list[Path] = []  # noqa: RUF012 - replaced, never mutated in place
    """Files chosen with "Attach file", sent with the next message."""

    def action_attach_file(self) -> None:
        """Choose a file (with path completion) to attach to the next message."""
        from weaver_tui.screens.attach_file import AttachFileScreen

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            self.pending_attachments = [*self.pending_attachments, path]
            self.compose_mode.show_attachments(self.pending_attachments)
            self.composer.focus()

        self.app.push_screen(AttachFileScreen(self.project_dir()), chosen)

    def with_attachments(self, text: str, meta: dict[str, Any] | None) -> dict[str, Any] | None:
        """``meta`` with the files chosen or ``@``-mentioned for ``text``, read now (a file
        that cannot be attached raises ``AttachmentError``, a ``ValueError``)."""
        from agents.attachments import AttachmentError, read_attachment, size_text, total_size
        from weaver_tui.attach import mentioned_files

        paths = [*self.pending_attachments]
        paths += [p for p in mentioned_files(text, self.project_dir()) if p not in paths]
        if not paths:
            return meta
        room = self.composer.max_bytes - len(text.encode("utf-8", errors="surrogateescape"))
        attached: list[dict[str, Any]] = []
        for path in paths:
            attached.append(read_attachment(path, max(room - total_size(attached), 0)))
        if total_size(attached) > room:
            raise AttachmentError(
                f"The attachments are over the {size_text(room)} left of the message limit."
            )
        return {**(meta or {}), "attachments": attached}

    def action_compose_in_editor(self) -> None:
        """Hand the terminal to the user's editor on the composer's text; take back what
        they saved (the composer keeps its text when the editor fails or is not set)."""
        from weaver_tui.editor import EditorError, edit_in_editor

        try:
            text = edit_in_editor(self.app, self.composer.text, self.composer.max_bytes)
        except EditorError as exc:
            self.notify(str(exc), severity="warning", title="Editor")
            return
        self.composer.set_draft(text)

    def action_set_instructions(self) -> None:
        """Edit the instructions this conversation adds to the profile's system prompt."""
        from weaver_tui.screens.instructions import InstructionsScreen

        def edited(text: str | None) -> None:
            if text is not None:
                self._keep_instructions(text)

        self.app.push_screen(InstructionsScreen(self.state.instructions), edited)

    def action_use_template(self) -> None:
        """Set the instructions from a template file of the config folder."""
        from weaver_tui.screens.instructions import TemplatePickerScreen, template_files

        config_dir = self.services.config_dir
        templates = template_files(config_dir)
        if not templates:
            where = (config_dir / "templates") if config_dir else "templates/ in the config folder"
            self.notify(f"No templates yet: save Markdown files in {where}.")
            return

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                self.notify(f"The template {path.name} cannot be read ({exc}).", severity="error")
                return
            self._keep_instructions(text, f"from {path.stem}")

        self.app.push_screen(TemplatePickerScreen(templates), chosen)

    def _keep_instructions(self, text: str, origin: str = "") -> None:
        from agents.instructions import InstructionsTooLong, checked_instructions

        try:
            instructions = checked_instructions(text)
            self.state.set_setting("instructions", instructions)
        except InstructionsTooLong as exc:
            self.notify(str(exc), severity="error", title="Instructions not set")
            return
        except StorageError as exc:
            self.notify(str(exc), severity="error")
            return
        self.update_header()
        said = "Instructions cleared" if instructions is None else "Instructions set"
        self.notify(f"{said} {origin}".strip() + ".")

    def _default_profile(self) -> str:
        from agents.profiles import DEFAULT_PROFILE

        settings = self.services.settings
        return getattr(settings, "default_profile", None) or getattr(
            settings, "profile", DEFAULT_PROFILE
        )

    def _show_configured_model(self) -> None:
        """The header's model badge from the settings, without building the model (which
        imports the network stack); a missing key is said at once, in one sentence."""
        from agents.errors import WeaverError
        from agents.providers import resolve_provider

        settings = self.services.settings
        self.composer.max_bytes = int(getattr(settings, "max_message_bytes", 2_000_000))
        config = settings.provider_config()
        try:
            resolved = resolve_provider(config)
        except WeaverError as exc:
            self.header.provider, self.header.model = config.provider, config.model
            self.notify(exc.user_message, severity="warning", title="Model not ready")
            return
        self.header.provider, self.header.model = resolved.provider, resolved.model
