"""Shared test helpers: the local fake OpenAI-compatible server."""
