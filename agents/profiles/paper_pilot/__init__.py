"""paper-pilot: research questions answered from a knowledge base reached through MCP.

``graph.py`` routes a question by intent to one of four strategies (``strategies.py``: direct,
plan-and-execute, ReWOO, ReAct), writes a cited answer and lets a critic check it;
``retrieval.py`` searches the knowledge base for them; ``knowledge/`` is the
embedded MCP server and its index; ``memory.py`` the facts kept across conversations;
``offline.py`` the offline model's rules for every stage.
"""
