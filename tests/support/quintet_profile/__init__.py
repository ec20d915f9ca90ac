"""A fifth profile for the tests, with a setting, a key and a panel of its own: all of it
declared in this folder, registered by one registry line (``quintet``), and nothing in the app
names it."""
