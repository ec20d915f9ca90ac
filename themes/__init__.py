"""weaver-tui's Textual themes and stylesheets."""
