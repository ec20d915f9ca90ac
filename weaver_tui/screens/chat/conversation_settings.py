"""What the open conversation sends besides its messages: the instructions added to the
profile's system prompt, the model and its options, and the files attached to the next message.

:class:`ConversationSettings` opens the modal screen for each choice, keeps the answer (in the
conversation's settings through :class:`~weaver_tui.core.chat_state.ChatState`, or in memory until
the next message for attachments) and calls ``on_changed`` so the screen redraws its header.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.printable import printable
from storage.store import StorageError
from weaver_tui.screens.chat.requests import HeaderStale

if TYPE_CHECKING:
    from agents.providers import ChatModelHandle
    from agents.providers.local_servers import LocalServer
    from agents.providers.model_options import ModelOptions
    from weaver_tui.core.chat_state import ChatState
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.compose_mode import ComposeMode
    from weaver_tui.screens.chat.surface import ChatSurface

logger = logging.getLogger(__name__)


class ConversationSettings:
    """Instructions, model and pending attachments of one chat screen.

    ``surface`` is the screen (modal screens, notifications, the header and the composer);
    ``project_dir`` returns the folder attachments are relative to. A change of the
    instructions posts :class:`~.chat_requests.HeaderStale`.
    """

    def __init__(
        self,
        surface: ChatSurface,
        state: ChatState,
        services: Services,
        *,
        compose_mode: ComposeMode,
        project_dir: Callable[[], Path],
        local_servers: Callable[[], Sequence[LocalServer]] = tuple,
    ) -> None:
        self._local_servers = local_servers
        self._surface = surface
        self._state = state
        self._services = services
        self._compose_mode = compose_mode
        self._project_dir = project_dir
        self.pending_attachments: list[Path] = []
        """Files chosen with "Attach file", sent with the next message."""

    # ------------------------------------------------------------------ the model

    def show_configured_model(self) -> None:
        """The header's model badge from the settings, without building the model (which
        imports the network stack); a missing key is said at once, in one sentence."""
        from agents.errors import WeaverError
        from agents.providers import resolve_provider

        settings = self._services.settings
        self._surface.composer.max_bytes = settings.turns.max_message_bytes
        config = settings.provider_config()
        header = self._surface.header
        try:
            resolved = resolve_provider(config)
        except WeaverError as exc:
            header.provider, header.model = config.provider, config.model
            self._surface.notify(exc.user_message, severity="warning", title="Model not ready")
            return
        header.provider, header.model = resolved.provider, resolved.model

    def switch_model(self) -> None:
        """Choose the provider, the model and this conversation's options for it."""
        from agents.providers.model_options import ModelOptions
        from weaver_tui.screens.model_picker import ModelPickerScreen, PickedModel, local_choices

        header = self._surface.header

        def chosen(choice: PickedModel | None) -> None:
            if not choice:
                return
            if choice.role is not None:
                self._surface.run_worker(
                    choose_role(self._surface, self._services, choice),
                    group="model-switch",
                    exit_on_error=False,
                )
                return
            self._surface.run_worker(
                self._switch(choice.provider, choice.model, choice.base_url, choice.options),
                group="model-switch",
                exit_on_error=False,
            )

        options = ModelOptions.from_meta(self._state.setting("model_options"))
        local = local_choices(self._local_servers())
        from weaver_tui.screens.chat.role_picking import choose_role, current_roles

        picker = ModelPickerScreen(
            header.provider,
            header.model,
            options=options,
            local=local,
            roles=current_roles(self._services),
        )
        self._surface.app.push_screen(picker, chosen)

    def switch_model_to(self, name: str) -> None:
        """``/model NAME``: the shown provider's model ``name`` from the next turn on (as the
        picker's choice of it, the conversation's options kept)."""
        provider = self._surface.header.provider or None
        self._surface.run_worker(
            self._switch(provider, name.strip()), group="model-switch", exit_on_error=False
        )

    async def _switch(
        self,
        provider: str | None,
        model: str,
        base_url: str | None = None,
        options: ModelOptions | None = None,
    ) -> None:
        """Use ``provider``'s ``model`` from the next turn on, built off the event loop (the
        first build imports the provider stack); ``options``: this conversation's new ones. A
        model that cannot be built is said in one sentence and the current one stays."""
        from weaver_tui.core.daemon_work import in_daemon_thread

        try:
            handle = await in_daemon_thread(
                lambda: self._services.switch_model(provider, model, base_url=base_url),
                "weaver-model-switch",
            )
            if options is not None:
                self._state.set_setting("model_options", options.as_meta())
        except StorageError as exc:
            self._surface.notify(str(exc), severity="error")
            return
        except Exception as exc:  # noqa: BLE001 (a provider's failure, in one sentence)
            self._not_switched(exc)
            return
        extra = options.as_meta() if options is not None else None
        said = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in (extra or {}).items())
        self._switched(handle, f"; this conversation: {said}" if said else "")

    def _switched(self, handle: ChatModelHandle, said: str) -> None:
        header = self._surface.header
        header.provider = handle.provider
        header.model = handle.model_name
        self._surface.notify(
            printable(f"Model: {handle.label} (from the next turn){said}"), markup=False
        )

    def _not_switched(self, exc: Exception) -> None:
        sentence = getattr(exc, "user_message", None) or str(exc)
        self._surface.notify(
            printable(sentence), severity="error", title="Model not switched", markup=False
        )

    # ------------------------------------------------------------------ instructions

    def edit_instructions(self) -> None:
        """Edit the instructions this conversation adds to the profile's system prompt; an
        imported conversation without any offers the file's own, for the user to review and
        set (an import never applies them)."""
        from storage.import_meta import IMPORTED_INSTRUCTIONS
        from weaver_tui.screens.instructions import InstructionsScreen

        def edited(text: str | None) -> None:
            if text is not None:
                self._keep_instructions(text)

        text = self._state.instructions
        conversation = self._state.conversation
        if not text and conversation is not None:
            text = str(conversation.meta.get(IMPORTED_INSTRUCTIONS) or "")
        self._surface.app.push_screen(InstructionsScreen(text), edited)

    def set_instructions(self, text: str) -> None:
        """Set this conversation's instructions to ``text`` (as the dialog does)."""
        self._keep_instructions(text)

    def use_template(self) -> None:
        """Set the instructions from a template file of the config folder."""
        from weaver_tui.screens.instructions import TemplatePickerScreen, template_files

        config_dir = self._services.config_dir
        templates = template_files(config_dir)
        if not templates:
            where = (config_dir / "templates") if config_dir else "templates/ in the config folder"
            self._surface.notify(f"No templates yet: save Markdown files in {where}.")
            return

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                self._surface.notify(
                    f"The template {path.name} cannot be read ({exc}).", severity="error"
                )
                return
            self._keep_instructions(text, f"from {path.stem}")

        self._surface.app.push_screen(TemplatePickerScreen(templates), chosen)

    def _keep_instructions(self, text: str, origin: str = "") -> None:
        from agents.instructions import InstructionsTooLong, checked_instructions

        try:
            instructions = checked_instructions(text)
            self._state.set_setting("instructions", instructions)
        except InstructionsTooLong as exc:
            self._surface.notify(str(exc), severity="error", title="Instructions not set")
            return
        except StorageError as exc:
            self._surface.notify(str(exc), severity="error")
            return
        self._surface.post_message(HeaderStale())
        said = "Instructions cleared" if instructions is None else "Instructions set"
        self._surface.notify(f"{said} {origin}".strip() + ".")

    # ------------------------------------------------------------------ the draft

    def compose_in_editor(self) -> None:
        """Hand the terminal to the user's editor on the composer's text; take back what
        they saved (the composer keeps its text when the editor fails or is not set)."""
        from weaver_tui.editor import EditorError, edit_in_editor

        composer = self._surface.composer
        try:
            edited = edit_in_editor(self._surface.app, composer.text, composer.max_bytes)
        except EditorError as exc:
            self._surface.notify(str(exc), severity="warning", title="Editor")
            return
        composer.set_draft(edited.text)
        if edited.editor.found_on_path:
            name = Path(edited.editor.command[0]).name
            self._surface.notify(
                f"Wrote it in {name}, found on PATH: set $VISUAL or $EDITOR to use another.",
                title="Editor",
            )

    # ------------------------------------------------------------------ attachments

    def attach_file(self) -> None:
        """Choose a file (with path completion) to attach to the next message."""
        from weaver_tui.screens.attach_file import AttachFileScreen

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            self.pending_attachments = [*self.pending_attachments, path]
            self._compose_mode.show_attachments(self.pending_attachments)
            self._surface.composer.focus()

        self._surface.app.push_screen(AttachFileScreen(self._project_dir()), chosen)

    def with_attachments(self, text: str, meta: dict[str, Any] | None) -> dict[str, Any] | None:
        """``meta`` with the files chosen or ``@``-mentioned for ``text``, read now (a file
        that cannot be attached raises ``AttachmentError``, a ``ValueError``)."""
        from agents.attachments import AttachmentError, read_attachment, size_text, total_size
        from weaver_tui.core.attach import mentioned_files

        paths = [*self.pending_attachments]
        paths += [p for p in mentioned_files(text, self._project_dir()) if p not in paths]
        if not paths:
            return meta
        room = self._surface.composer.max_bytes - len(
            text.encode("utf-8", errors="surrogateescape")
        )
        attached: list[dict[str, Any]] = []
        for path in paths:
            attached.append(read_attachment(path, max(room - total_size(attached), 0)))
        if total_size(attached) > room:
            raise AttachmentError(
                f"The attachments are over the {size_text(room)} left of the message limit."
            )
        return {**(meta or {}), "attachments": attached}
