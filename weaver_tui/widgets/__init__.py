"""Widgets of the weaver-tui app; each talks upward through messages, never to the app."""
