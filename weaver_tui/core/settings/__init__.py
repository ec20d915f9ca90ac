"""The user's settings: the pydantic-settings model, its sources, and a fast early peek."""
