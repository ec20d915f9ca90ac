"""weaver-tui: a terminal chat application for LLM agents."""

__version__ = "0.1.0"
