"""What the controller needs of the chat's state: the open conversation, its tree index and
active leaf, and the calls that apply what the runtime wrote. The chat's
:class:`weaver_tui.core.chat_state.ChatState` is one; the controller names only this protocol, so
a test (or another front end) can drive it with any state that applies events the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from agents.runtime.events import BranchDeleted
from agents.runtime.user_message import NewMessage
from storage.models import Conversation, MessageRecord
from storage.store import ConversationStore
from storage.tree_index import TreeIndex


class ChatStatePort(Protocol):
    """The chat's state as the controller applies events to it."""

    store: ConversationStore
    profile: str
    conversation: Conversation | None
    index: TreeIndex

    @property
    def leaf_id(self) -> str | None: ...

    @leaf_id.setter
    def leaf_id(self, leaf_id: str | None) -> None: ...

    def new_message(
        self,
        text: str,
        parent_id: str | None,
        *,
        meta: dict[str, Any] | None = None,
        project_root: Path | None = None,
        conversation_meta: dict[str, Any] | None = None,
    ) -> NewMessage: ...

    def apply_stored(self, conversation: Conversation, record: MessageRecord) -> MessageRecord: ...

    def apply(self, record: MessageRecord) -> MessageRecord: ...

    def apply_new_leaf(self, record: MessageRecord) -> MessageRecord: ...

    def apply_deleted(self, event: BranchDeleted) -> str | None: ...

    def settle(self) -> None: ...

    def nearest_user(self, message_id: str) -> str | None: ...

    def setting(self, key: str) -> Any: ...

    def set_setting(self, key: str, value: Any) -> None: ...
