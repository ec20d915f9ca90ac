"""Conversation storage: the message tree on SQLite or PostgreSQL (chosen in
:mod:`storage.backend`), export/import, the graph checkpointer.

Imports nothing of weaver's own and never imports Textual. The package itself imports nothing,
so a light module (``storage.printable``, ``storage.models``) costs no SQLite or pydantic at
start-up: import what you need from its module (``storage.sqlite_store``, ``storage.store``).
"""
