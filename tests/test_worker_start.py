"""What each pytest process does once before running tests: the shared bytecode caches
(:mod:`tests.support.precompile`) and the objects set aside from the garbage collector."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from _pytest.assertion import rewrite

from tests.support.precompile import rewrite_tests, rewritten_modules, share


def test_the_objects_alive_after_collection_are_set_aside_from_a_running_collector() -> None:
    assert gc.get_freeze_count() > 0
    assert gc.isenabled()


def test_a_written_cache_is_the_one_pytest_loads_with_its_assert_explanations(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    source = tmp_path / "test_numbers.py"
    source.write_text("def test_sum():\n    total = 1 + 1\n    assert total == 3\n")
    assert rewrite_tests(pytestconfig, [source]) == [source]
    pyc = rewrite.get_cache_dir(source) / ("test_numbers" + rewrite.PYC_TAIL)
    code = rewrite._read_pyc(source, pyc)
    assert code is not None
    namespace: dict[str, object] = {}
    exec(code, namespace)
    with pytest.raises(AssertionError, match=r"assert 2 == 3"):
        namespace["test_sum"]()  # type: ignore[operator]
    assert rewrite_tests(pytestconfig, [source]) == []


def test_a_module_that_does_not_parse_is_left_for_pytest_to_report(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    broken = tmp_path / "test_broken.py"
    broken.write_text("def test_(:\n")
    fine = tmp_path / "test_fine.py"
    fine.write_text("def test_fine():\n    assert True\n")
    assert rewrite_tests(pytestconfig, [broken, fine]) == [fine]


def test_the_rewritten_modules_are_the_conftests_and_test_files(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    for name in ("conftest.py", "test_a.py", "sub/test_b.py", "helpers.py", "sub/data.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    found = {
        path.relative_to(tmp_path).as_posix()
        for path in rewritten_modules(pytestconfig, [tmp_path])
    }
    assert found == {"conftest.py", "test_a.py", "sub/test_b.py"}


def test_the_workers_shares_cover_every_file_once() -> None:
    paths = [Path(f"test_{number}.py") for number in range(10)]
    shares = [share(paths, worker, 3) for worker in range(3)]
    assert sorted(path for part in shares for path in part) == sorted(paths)
    assert sum(len(part) for part in shares) == len(paths)
