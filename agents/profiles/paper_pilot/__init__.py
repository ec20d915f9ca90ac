"""paper-pilot (interim): research questions answered from a local knowledge base.

Interim: until the paper-pilot issue brings the MCP RAG server and the router → strategies →
critic graph (seed 003), this profile runs on the shared agent ⇄ tools loop with one real
tool, ``search_knowledge_base``, over the Markdown notes shipped in ``notes/``.
"""
