"""A profile that exists only in the tests: one folder, shaped as those under agents/profiles/."""
