"""A ``session/prompt``'s content blocks as the user's words and attachments.

Text blocks are the message; a file the editor embeds (an embedded text resource, or an image
block) becomes an attachment, as ``weaver-tui ask --attach`` makes one; a resource link is
named in the text (the agent reads the project through its own tools).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlparse

from acp.schema import (
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)

from agents.attachments import AttachmentError, attachment_from_bytes


@dataclass
class PromptContent:
    text: str
    attachments: list[dict[str, Any]] = field(default_factory=list)


def _name_of(uri: str, fallback: str) -> str:
    path = unquote(urlparse(uri).path)
    return path.rstrip("/").rsplit("/", 1)[-1] or fallback


def prompt_content(blocks: list[Any]) -> PromptContent:
    """The words and attachments of a prompt. Raises ``AttachmentError`` (one sentence) for an
    embedded file that is neither text nor a supported image."""
    words: list[str] = []
    attachments: list[dict[str, Any]] = []
    for block in blocks:
        if isinstance(block, TextContentBlock):
            words.append(block.text)
        elif isinstance(block, ResourceContentBlock):
            words.append(f"({block.name}: {block.uri})")
        elif isinstance(block, EmbeddedResourceContentBlock):
            resource = block.resource
            name = _name_of(resource.uri, "resource.txt")
            if isinstance(resource, TextResourceContents):
                attachments.append(attachment_from_bytes(name, resource.text.encode("utf-8")))
            else:
                attachments.append(attachment_from_bytes(name, _decoded(resource.blob, name)))
        elif isinstance(block, ImageContentBlock):
            extension = block.mime_type.rsplit("/", 1)[-1]
            name = _name_of(block.uri or "", f"image.{extension}")
            attachments.append(attachment_from_bytes(name, _decoded(block.data, name)))
    return PromptContent("\n\n".join(w for w in words if w.strip()), attachments)


def _decoded(data: str, name: str) -> bytes:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise AttachmentError(f"{name} did not arrive as base64 data; attach it again.") from None
