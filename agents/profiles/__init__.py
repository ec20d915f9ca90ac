"""The profiles, one package each; :mod:`agents.profile_registry` registers them by name."""
