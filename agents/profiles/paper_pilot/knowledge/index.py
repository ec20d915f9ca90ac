"""The knowledge index: Markdown, text and PDF documents, chunked by section, in SQLite FTS5 (BM25).

A collection is a folder; a document is a file in it, identified as ``collection/relative/path``
without its suffix. Documents are split at their headings, and long sections into paragraphs
of at most :data:`CHUNK_CHARS` characters; each chunk keeps its document's title and its
section heading, which the ranking weighs above the body text. Indexing a folder again reads
only the files whose size, time or content changed, and forgets the files that are gone.

The index is untrusted input's first stop: files over :data:`MAX_FILE_BYTES`, more than
:data:`MAX_FILES` files per folder, links and anything that is not a regular file are skipped
and counted, never followed.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import sqlite3
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.profiles.paper_pilot.knowledge.pdf_text import (
    MAX_PAGES,
    UnreadablePdf,
    pdf_text_bounded,
)

SUFFIXES = frozenset({".md", ".markdown", ".txt", ".pdf"})
CHUNK_CHARS = 1200
MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_FILES = 10_000
SAMPLE_CORPUS = Path(__file__).parent / "corpus"
"""The notes shipped with weaver-tui, one folder per collection."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    collection TEXT NOT NULL,
    path TEXT NOT NULL,
    title TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime REAL NOT NULL,
    sha256 TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_by_collection ON documents (collection);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING fts5 (
    doc_id UNINDEXED, ord UNINDEXED, title, section, text,
    tokenize = 'porter unicode61'
);
"""
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "what",
        "when",
        "which",
        "why",
        "with",
        "about",
        "into",
        "than",
        "then",
        "there",
        "these",
        "they",
        "use",
        "used",
        "using",
        "i",
        "you",
        "me",
        "my",
        "we",
        "our",
        "your",
        "tell",
        "explain",
        "describe",
        "compare",
        "between",
        "vs",
        "versus",
        "known",
    ]
)
_BM25_WEIGHTS = "bm25(chunks, 0.0, 0.0, 4.0, 2.0, 1.0)"
"""Column weights: doc_id and ord are not text; a title hit counts 4x, a heading 2x."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """One retrievable piece of a document."""

    doc_id: str
    title: str
    section: str
    text: str
    collection: str = ""
    path: str = ""
    score: float = 0.0

    def cite(self) -> str:
        """``doc#section``: how an answer names this chunk."""
        return f"{self.doc_id}#{self.section}" if self.section else self.doc_id

    def as_dict(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "title": self.title,
            "section": self.section,
            "collection": self.collection,
            "path": self.path,
            "score": round(self.score, 3),
            "text": self.text,
        }


@dataclass(slots=True)
class IndexReport:
    """What indexing a folder did."""

    collection: str
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"{self.added} added", f"{self.updated} updated", f"{self.unchanged} unchanged"]
        if self.removed:
            parts.append(f"{self.removed} removed")
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        return f"collection {self.collection}: " + ", ".join(parts)


def query_terms(text: str) -> list[str]:
    """The words of ``text`` worth searching for (no stop words), in order, once each."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text.lower()):
        if word not in STOP_WORDS and len(word) > 1:
            seen.setdefault(word, None)
    return list(seen)


def split_sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``(title, [(heading, body), ...])`` of a Markdown or text document."""
    title = ""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in text.splitlines():
        match = _HEADING.match(line)
        if match:
            if len(match.group(1)) == 1 and not title:
                title = match.group(2)
                continue
            sections.append((match.group(2), []))
        else:
            sections[-1][1].append(line)
    return title, [(h, "\n".join(lines).strip()) for h, lines in sections if "".join(lines).strip()]


def chunk_body(body: str, limit: int = CHUNK_CHARS) -> list[str]:
    """``body`` in pieces of at most ``limit`` characters, cut between paragraphs if possible."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", body) if p.strip()]
    chunks: list[str] = []
    current = ""
    for paragraph in paragraphs:
        while len(paragraph) > limit:  # one huge paragraph: cut at a space
            cut = paragraph.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            if current:
                chunks.append(current)
                current = ""
            chunks.append(paragraph[:cut].strip())
            paragraph = paragraph[cut:].strip()
        if current and len(current) + 2 + len(paragraph) > limit:
            chunks.append(current)
            current = ""
        current = f"{current}\n\n{paragraph}" if current else paragraph
    if current:
        chunks.append(current)
    return chunks


class KnowledgeIndex:
    """An FTS5 index of documents in one SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.executescript(_SCHEMA)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> KnowledgeIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- indexing ---------------------------------------------------------------------------

    def add_folder(
        self,
        folder: Path,
        collection: str | None = None,
        progress: Callable[[int, int, str], None] | None = None,
    ) -> IndexReport:
        """Index the documents under ``folder`` as ``collection`` (default: the folder's name)."""
        root = Path(folder).resolve()
        if not root.is_dir():
            raise FileNotFoundError(f"{folder} is not a folder")
        name = collection or root.name
        report = IndexReport(name)
        files = list(self._documents_under(root, report))
        seen: set[str] = set()
        with self._conn:
            for n, (path, info) in enumerate(files, 1):
                relative = path.relative_to(root).as_posix()
                doc_id = f"{name}/{relative.rsplit('.', 1)[0]}"
                seen.add(doc_id)
                self._index_file(doc_id, name, path, info, report)
                if progress is not None:
                    progress(n, len(files), relative)
            stale = [
                doc_id
                for (doc_id,) in self._conn.execute(
                    "SELECT id FROM documents WHERE collection = ?", (name,)
                )
                if doc_id not in seen
            ]
            for doc_id in stale:
                self._forget(doc_id)
            report.removed = len(stale)
        return report

    def _documents_under(self, root: Path, report: IndexReport) -> Iterator[tuple[Path, Any]]:
        """Regular files with a known suffix, never through a link, at most :data:`MAX_FILES`."""
        count = 0
        for directory, folders, names in os.walk(root, followlinks=False):
            folders[:] = sorted(f for f in folders if not f.startswith("."))
            for file_name in sorted(names):
                path = Path(directory) / file_name
                if path.suffix.lower() not in SUFFIXES or file_name.startswith("."):
                    continue
                info = os.lstat(path)
                if not stat.S_ISREG(info.st_mode):
                    report.skipped.append(f"{path} (not a regular file)")
                    continue
                if info.st_size > MAX_FILE_BYTES:
                    report.skipped.append(f"{path} (over {MAX_FILE_BYTES // 1024 // 1024} MB)")
                    continue
                count += 1
                if count > MAX_FILES:
                    report.skipped.append(f"{path} (over {MAX_FILES} files)")
                    continue
                yield path, info

    def _index_file(
        self, doc_id: str, collection: str, path: Path, info: Any, report: IndexReport
    ) -> None:
        row = self._conn.execute(
            "SELECT size, mtime, sha256 FROM documents WHERE id = ?", (doc_id,)
        ).fetchone()
        if row is not None and row[0] == info.st_size and row[1] == info.st_mtime:
            report.unchanged += 1
            return
        try:
            data = _read_bounded(path)
        except OSError as exc:  # swapped for a link, a pipe or a bigger file since it was listed
            report.skipped.append(f"{path} ({exc.strerror or exc})")
            return
        digest = hashlib.sha256(data).hexdigest()
        if row is not None and row[2] == digest:
            self._conn.execute(
                "UPDATE documents SET size = ?, mtime = ? WHERE id = ?",
                (info.st_size, info.st_mtime, doc_id),
            )
            report.unchanged += 1
            return
        if path.suffix.lower() == ".pdf":
            try:
                text, left_out = pdf_text_bounded(data)
            except UnreadablePdf as exc:
                report.skipped.append(f"{path} (not a readable PDF: {str(exc)[:80]})")
                return
            if left_out:
                report.skipped.append(f"{path} ({left_out} pages past the first {MAX_PAGES})")
        else:
            text = data.decode("utf-8", errors="replace")
        title, sections = split_sections(text)
        title = title or path.stem.replace("_", " ").replace("-", " ")
        if row is not None:
            self._forget(doc_id)
            report.updated += 1
        else:
            report.added += 1
        self._conn.execute(
            "INSERT INTO documents (id, collection, path, title, size, mtime, sha256) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (doc_id, collection, str(path), title, info.st_size, info.st_mtime, digest),
        )
        ordinal = 0
        for heading, body in sections:
            for piece in chunk_body(body):
                self._conn.execute(
                    "INSERT INTO chunks (doc_id, ord, title, section, text) VALUES (?, ?, ?, ?, ?)",
                    (doc_id, ordinal, title, heading, piece),
                )
                ordinal += 1

    def _forget(self, doc_id: str) -> None:
        self._conn.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
        self._conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    def ensure_sample(self) -> None:
        """Index the shipped notes when the index holds none of their collections yet."""
        for folder in sorted(p for p in SAMPLE_CORPUS.iterdir() if p.is_dir()):
            known = self._conn.execute(
                "SELECT 1 FROM documents WHERE collection = ? LIMIT 1", (folder.name,)
            ).fetchone()
            if known is None:
                self.add_folder(folder, folder.name)

    # -- reading ----------------------------------------------------------------------------

    def query(self, text: str, collection: str | None = None, top_k: int = 5) -> list[Chunk]:
        """The best chunks for ``text`` (any of its words; the more and rarer, the better)."""
        terms = query_terms(text)
        if not terms:
            return []
        match = " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
        sql = (
            f"SELECT c.doc_id, c.title, c.section, c.text, d.collection, d.path, {_BM25_WEIGHTS} "
            "FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE chunks MATCH ?"
        )
        params: list[Any] = [match]
        if collection:
            sql += " AND d.collection = ?"
            params.append(collection)
        sql += f" ORDER BY {_BM25_WEIGHTS} LIMIT ?"
        params.append(max(1, min(int(top_k), 50)))
        rows = self._conn.execute(sql, params).fetchall()
        return [
            Chunk(doc_id, title, section, body, coll, path, -float(score))
            for doc_id, title, section, body, coll, path, score in rows
        ]

    def collections(self) -> list[dict[str, Any]]:
        """Each collection with its number of documents and chunks."""
        rows = self._conn.execute(
            "SELECT d.collection, COUNT(DISTINCT d.id), "
            "(SELECT COUNT(*) FROM chunks c JOIN documents e ON e.id = c.doc_id "
            " WHERE e.collection = d.collection) "
            "FROM documents d GROUP BY d.collection ORDER BY d.collection"
        ).fetchall()
        return [{"name": n, "documents": docs, "chunks": chunks} for n, docs, chunks in rows]

    def summary(self, doc_id: str) -> dict[str, Any] | None:
        """A document's title, collection, sections and opening text, or ``None``."""
        row = self._conn.execute(
            "SELECT title, collection, path FROM documents WHERE id = ?", (doc_id,)
        ).fetchone()
        if row is None:
            return None
        chunks = self._conn.execute(
            "SELECT section, text FROM chunks WHERE doc_id = ? ORDER BY CAST(ord AS INTEGER)",
            (doc_id,),
        ).fetchall()
        sections = list(dict.fromkeys(section for section, _ in chunks if section))
        opening = chunks[0][1][:400] if chunks else ""
        return {
            "doc_id": doc_id,
            "title": row[0],
            "collection": row[1],
            "path": row[2],
            "sections": sections,
            "summary": opening,
        }


def _read_bounded(path: Path) -> bytes:
    """The file's bytes, read without following a link or waiting on a pipe, and refused past
    :data:`MAX_FILE_BYTES` (it may have changed since it was listed)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        chunks: list[bytes] = []
        left = MAX_FILE_BYTES + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    if left <= 0:
        raise OSError(errno.EFBIG, f"over {MAX_FILE_BYTES // 1024 // 1024} MB")
    return b"".join(chunks)
