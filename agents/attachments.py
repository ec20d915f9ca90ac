"""Files attached to a user message: read once, stored on the record, sent as content.

An attachment is kept in the user record's meta (``meta["attachments"]``), so it is stored,
exported and imported with the message, and the conversation reads the same later even if the
file changed. Text files go to the model as a text part naming the file; images (PNG, JPEG,
GIF, WebP) as an image part (a data URL), for models that read images. Anything else, or a
file that is not UTF-8 text, is refused with a sentence. Sizes count toward the message limit.

Only the user names attachments (a path they typed or chose, or what they piped in): a model
never does.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.text_files import fenced

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
STDIN_NAME = "stdin"


class AttachmentError(ValueError):
    """A file that cannot be attached, with the sentence that says why and what to do."""


def size_text(size: int) -> str:
    if size >= 1_000_000:
        return f"{size / 1e6:.1f} MB"
    return f"{size / 1e3:.1f} KB" if size >= 1000 else f"{size} B"


def read_attachment(path: Path, limit: int) -> dict[str, Any]:
    """The attachment for the file at ``path`` (a regular file of at most ``limit`` bytes)."""
    shown = _shown(str(path))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise AttachmentError(f"{shown} cannot be attached ({exc.strerror or exc}).") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise AttachmentError(f"{shown} is not a regular file; attach a file.")
        if info.st_size > limit:
            raise AttachmentError(
                f"{shown} is {size_text(info.st_size)}, over the {size_text(limit)} limit "
                "(max_message_bytes); attach the part that matters."
            )
        data = b""
        while len(data) <= limit and (chunk := os.read(fd, 1 << 20)):
            data += chunk
    finally:
        os.close(fd)
    if len(data) > limit:
        raise AttachmentError(f"{shown} grew past the {size_text(limit)} limit while read.")
    return attachment_from_bytes(path.name, data)


def _shown(path: str) -> str:
    """A path as a sentence quotes it: a very long one keeps its start and its end."""
    return path if len(path) <= 120 else f"{path[:60]}...{path[-40:]}"


def attachment_from_bytes(name: str, data: bytes) -> dict[str, Any]:
    """An attachment named ``name`` holding ``data`` (text or an image)."""
    mime = mimetypes.guess_type(name)[0] or ""
    if mime in IMAGE_TYPES:
        return {
            "name": name,
            "size": len(data),
            "kind": "image",
            "mime": mime,
            "data": base64.b64encode(data).decode("ascii"),
        }
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AttachmentError(
            f"{name} is not text (nor a PNG, JPEG, GIF or WebP image); attach a text file."
        ) from exc
    return {"name": name, "size": len(data), "kind": "text", "text": text}


def attachments_of(meta: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [a for a in meta.get("attachments") or () if isinstance(a, Mapping)]


def total_size(attachments: Sequence[Mapping[str, Any]]) -> int:
    return sum(int(a.get("size") or 0) for a in attachments)


def describe(attachment: Mapping[str, Any]) -> str:
    """``build.log · 12.3 KB`` (what the chat and the exports show of it)."""
    return f"{attachment.get('name', 'file')} · {size_text(int(attachment.get('size') or 0))}"


def content_parts(text: str, attachments: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The user's words and their attachments as the content parts a chat model reads."""
    parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
    for attachment in attachments:
        name = attachment.get("name", "file")
        if attachment.get("kind") == "image":
            url = f"data:{attachment.get('mime')};base64,{attachment.get('data', '')}"
            parts.append({"type": "text", "text": f"Attached image {name}:"})
            parts.append({"type": "image_url", "image_url": {"url": url}})
        else:
            body = fenced(str(attachment.get("text") or ""))
            parts.append({"type": "text", "text": f"Attached file {name}:\n{body}"})
    return parts
