"""Two packages on the agent stack's path load without their ``__init__`` until one of their
own names is read; everything reads as before (in a fresh interpreter: this one may have
imported them already)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHECK = """
import sys
import agents
import agents.providers.openai_reasoning, langgraph.runtime  # the agent stack's way in
from agents.deferred_inits import DEFERRED
waiting = sorted(n for n in DEFERRED if type(sys.modules[n]).__name__ == "_DeferredPackage")
print("deferred", ",".join(waiting))
from langsmith.types import run_select_field  # a submodule: the init still waits
print("submodule", type(sys.modules["langsmith.types"]).__name__)
from langsmith.types import Run  # a name of the init: it runs now
from langgraph_sdk import get_client
from openai.types import ChatModel
from openai.types.responses import Response
from langchain_openai import ChatOpenAI, AzureChatOpenAI
assert ChatOpenAI is sys.modules["langchain_openai.chat_models.base"].ChatOpenAI
import langsmith
print("read", Run.__name__, get_client.__name__, langsmith.types is sys.modules["langsmith.types"])
print("after", *(type(sys.modules[n]).__name__ for n in sorted(DEFERRED)))
"""


def test_deferred_packages_wait_for_a_name_of_their_own_and_then_read_as_before() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == [
        "deferred langchain_openai,langchain_openai.chat_models,langgraph_sdk,langsmith.types,"
        "openai.types,openai.types.responses",
        "submodule _DeferredPackage",
        "read Run get_client True",
        "after module module module module module module",
    ]
