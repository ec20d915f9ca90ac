"""``python -m weaver_tui``: the same entry point as the ``weaver-tui`` console script."""

from weaver_tui.launch import main

if __name__ == "__main__":
    raise SystemExit(main())
