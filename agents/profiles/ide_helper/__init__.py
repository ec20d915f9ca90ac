"""The ide-helper profile: read-only code tools and patches the user reviews (issue 4, seed 001)."""
