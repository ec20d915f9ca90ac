"""The graph runtime: a turn from the stored user message to its events and records."""
