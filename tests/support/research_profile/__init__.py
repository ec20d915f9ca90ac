"""``researcher``: a profile that exists only for the tests.

The shared agent ⇄ tools loop with one real tool, ``search_knowledge_base``: the plainest
profile there is, for tests of the runtime, the providers, the CLI and the app that need a
model calling a tool and nothing profile-specific. Registered by :mod:`tests.support.profiles`
(in the test process) and by ``tests/support/profile_hook/sitecustomize.py`` (in the
``weaver-tui`` processes the tests start).
"""
