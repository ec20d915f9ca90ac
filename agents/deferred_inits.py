"""Packages whose ``__init__`` runs only when one of its own names is read.

Packages on the way to the first reply execute an ``__init__`` that imports far more than
what the agent stack takes from them, which it reaches through their submodules only:

- ``langsmith.types``: ``langsmith.run_trees`` (imported by LangChain's tracers, hence by every
  chat model) reads ``langsmith.types.run_select_field``, and the package's ``__init__`` builds
  about two hundred pydantic models of the LangSmith API on the way (~0.1 s of CPU, ~5 MiB);
- ``langgraph_sdk``: ``langgraph.runtime`` reads ``langgraph_sdk.auth.types``, and the package's
  ``__init__`` imports the LangGraph server's HTTP client (~0.05 s, ~3 MiB);
- ``openai.types`` and ``openai.types.responses``: the OpenAI SDK and LangChain read the chat
  types from their own submodules (``openai.types.chat``, a few tool types of the Responses
  API), and the two ``__init__`` import every type of the whole API besides (evals, graders,
  vector stores, every Responses event ...: ~0.25 s, ~9 MiB);
- ``langchain_openai`` and ``langchain_openai.chat_models``: the chat model is read from
  ``langchain_openai.chat_models.base``, and the two ``__init__`` import the Azure models, the
  completion models, the embeddings and the tools besides (~0.05 s, ~2 MiB).

:func:`install` puts a finder first on ``sys.meta_path`` that loads these packages without
running their ``__init__``: their submodules import as usual (``import langsmith.types.x``,
``from langsmith.types import x``), and the first read of any other name runs the real
``__init__`` there and then, so a caller that wants ``langsmith.types.Run`` gets it as before.
A package imported before :func:`install` is left as it is.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import types
from collections.abc import Sequence
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder

DEFERRED = frozenset(
    {
        "langsmith.types",
        "langgraph_sdk",
        "openai.types",
        "openai.types.responses",
        "langchain_openai",
        "langchain_openai.chat_models",
    }
)
"""Packages loaded with their ``__init__`` deferred (see the module)."""

_lock = threading.RLock()


class _DeferredPackage(types.ModuleType):
    """A package whose ``__init__`` has not run yet: a name it lacks is its submodule, if it
    has one of that name, else the real ``__init__`` runs and the name is read again."""

    def __getattr__(self, name: str) -> object:
        if name.startswith("__") and name != "__all__":
            raise AttributeError(name)
        with _lock:
            if isinstance(self, _DeferredPackage):
                submodule = f"{self.__name__}.{name}"
                if importlib.util.find_spec(submodule) is not None:
                    return importlib.import_module(submodule)
                _run_init(self)
        return getattr(self, name)


def _run_init(module: types.ModuleType) -> None:
    module.__class__ = types.ModuleType
    loader = module.__spec__.loader if module.__spec__ is not None else None
    assert isinstance(loader, _DeferredLoader)
    loader.real.exec_module(module)


class _DeferredLoader(Loader):
    """Creates the package as its real loader would and leaves its ``__init__`` for later."""

    def __init__(self, real: Loader) -> None:
        self.real = real

    def create_module(self, spec: ModuleSpec) -> types.ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__class__ = _DeferredPackage


class _DeferredFinder(MetaPathFinder):
    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname not in DEFERRED:
            return None
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return None  # not installed, or not a package: imported (or missing) as usual
        spec.loader = _DeferredLoader(spec.loader)
        return spec


def install() -> None:
    """Defer the ``__init__`` of the :data:`DEFERRED` packages not imported yet (once)."""
    if not any(isinstance(finder, _DeferredFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _DeferredFinder())
