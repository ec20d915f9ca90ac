"""paper-pilot's knowledge base: an FTS5 index of documents, served over MCP."""
