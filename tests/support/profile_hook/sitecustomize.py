"""Started with every Python process the tests launch (this folder is on their PYTHONPATH):
registers the test-only ``researcher`` profile before ``weaver-tui`` reads the registry."""

try:
    from tests.support.profiles import register_test_profiles

    register_test_profiles()
except Exception:  # noqa: BLE001 (never stop a process from starting)
    pass
