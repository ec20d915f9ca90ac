"""The ide-helper profile: read-only code tools and patches the user reviews."""
