"""``python -m weaver_tui``: the same entry point as the ``weaver-tui`` console script."""

from weaver_tui.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
