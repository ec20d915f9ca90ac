"""weaver-tui's own knowledge server on the shipped notes, over streamable HTTP, for the tests
whose questions only need the notes answered: one server a worker's tests share, the notes
indexed once (its tools only read the index).

    python -m tests.paper_pilot.notes_over_http --index PATH --http-fd FD
"""

from __future__ import annotations

import sys
from pathlib import Path

from agents.profiles.paper_pilot.knowledge.index import KnowledgeIndex
from agents.profiles.paper_pilot.knowledge.server import build_server
from tests.support.mcp_http import serve_on_socket


def main() -> None:
    index = KnowledgeIndex(Path(sys.argv[sys.argv.index("--index") + 1]))
    index.ensure_sample()
    serve_on_socket(build_server(index), sys.argv)


if __name__ == "__main__":
    main()
