"""Screens of the weaver-tui app: the chat, and the modal pickers and lists it opens."""
