"""``weaver-tui acp`` in a subprocess, driven by the ACP SDK's own client side.

Starting an agent costs seconds of CPU (Python, the SDK, the graph libraries), so the tests of
this package share one agent process per configuration (started on first use by each pytest
worker, ended when the worker leaves the package):

- ``ide_helper_agent``: ide-helper on the package's fake OpenAI server (``fake_openai`` here is
  that server, its queue and its recorded requests emptied for each test);
- ``mediator_agent``: the mediator on the same fake server;
- ``offline_agent``: paper-pilot on the offline model.

Each test still gets its own state: a :class:`RecordingClient` that receives only the updates
and permission requests of the sessions the test opened or loaded (through :class:`AcpAgent`),
its own project folder (its ``tmp_path`` as the sessions' cwd) and its own conversations (found
by session id in the process's store, ``AcpAgent.data_dir``). The sessions a test leaves open
are closed when it ends, so their MCP servers end with the test.

``acp_agent(...)`` starts a process for one test: for a configuration of its own (a config
file, another profile or provider) or where the process itself is what is tested.

Every test module here runs on the package's event loop (``pytestmark``), the loop the shared
connections live on.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.acp.agent_process import (
    AcpAgent,
    AgentFactory,
    AgentProcess,
    agent_process,
    server_env,
    view_of,
)
from tests.support.fake_openai import FakeOpenAI


@pytest.fixture
def acp_agent(tmp_path: Path) -> AgentFactory:
    """``async with acp_agent("--profile", "ide-helper", env={...}) as agent: ...``: a
    process of the test's own, in ``tmp_path``."""

    @contextlib.asynccontextmanager
    async def start(
        *options: str, env: dict[str, str] | None = None, answer: str | None = "accept"
    ) -> AsyncIterator[AcpAgent]:
        async with (
            agent_process(tmp_path, *options, env=env) as process,
            view_of(process, answer) as agent,
        ):
            yield agent

    return start


@pytest.fixture(scope="package")
def package_openai() -> Iterator[FakeOpenAI]:
    """The fake OpenAI server of this package's agents."""
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def fake_openai(package_openai: FakeOpenAI) -> FakeOpenAI:
    """The package's fake server, as new for this test: no queued reply, no request seen."""
    package_openai.reset()
    return package_openai


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def ide_helper_process(
    tmp_path_factory: pytest.TempPathFactory, package_openai: FakeOpenAI
) -> AsyncIterator[AgentProcess]:
    folder = tmp_path_factory.mktemp("acp-ide-helper")
    env = server_env(package_openai)
    async with agent_process(folder, "--profile", "ide-helper", env=env) as process:
        yield process


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def mediator_process(
    tmp_path_factory: pytest.TempPathFactory, package_openai: FakeOpenAI
) -> AsyncIterator[AgentProcess]:
    folder = tmp_path_factory.mktemp("acp-mediator")
    env = server_env(package_openai)
    async with agent_process(folder, "--profile", "mediator", env=env) as process:
        yield process


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def offline_process(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[AgentProcess]:
    folder = tmp_path_factory.mktemp("acp-offline")
    async with agent_process(
        folder, "--profile", "paper-pilot", "--provider", "offline"
    ) as process:
        yield process


@pytest_asyncio.fixture(loop_scope="package")
async def ide_helper_agent(
    ide_helper_process: AgentProcess, fake_openai: FakeOpenAI
) -> AsyncIterator[AcpAgent]:
    """This test's view of the shared ide-helper agent (on ``fake_openai``)."""
    async with view_of(ide_helper_process) as agent:
        yield agent


@pytest_asyncio.fixture(loop_scope="package")
async def mediator_agent(
    mediator_process: AgentProcess, fake_openai: FakeOpenAI
) -> AsyncIterator[AcpAgent]:
    """This test's view of the shared mediator agent (on ``fake_openai``)."""
    async with view_of(mediator_process) as agent:
        yield agent


@pytest_asyncio.fixture(loop_scope="package")
async def offline_agent(offline_process: AgentProcess) -> AsyncIterator[AcpAgent]:
    """This test's view of the shared paper-pilot agent on the offline model."""
    async with view_of(offline_process) as agent:
        yield agent
