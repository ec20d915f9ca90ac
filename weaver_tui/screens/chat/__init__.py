"""The chat screen and the pieces it owns (sending, turns, branching, panes)."""
