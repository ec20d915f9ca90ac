"""A profile as an agent of the Agent Client Protocol (``weaver-tui [--profile P] acp``).

Editors such as Zed start ``weaver-tui acp`` and talk to it over stdin/stdout: the package maps
the protocol's sessions to conversations of the tree and the runtime's events to session
updates. It imports no Textual (an import-linter contract keeps it so).
"""
