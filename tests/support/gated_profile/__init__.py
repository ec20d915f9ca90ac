"""The ``gated`` test profile: the researcher's, whose graph module waits at import until the
test lets it go (see :mod:`.profile`)."""
