"""The model picker's roles, wired to the chat: what each role asks now, and a role's new model
applied for the running app (:mod:`weaver_tui.core.role_choices`) and said in one sentence."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents.errors import WeaverError

if TYPE_CHECKING:
    from weaver_tui.core.services import Services
    from weaver_tui.screens.chat.surface import ChatSurface
    from weaver_tui.screens.model_picker import PickedModel


def current_roles(services: Services) -> dict[str, tuple[str, str]]:
    """Each role's (provider, model) now (``("", "")``: the turn's model)."""
    from weaver_tui.core.role_choices import role_models

    return role_models(services.profile_settings())


async def choose_role(surface: ChatSurface, services: Services, choice: PickedModel) -> None:
    """Give ``choice.role`` the picked model (an empty one: the turn's), or say why not. The
    model is built to check it can be, in a thread (as the turn's model is: the first build
    imports the provider's stack)."""
    from weaver_tui.core.daemon_work import in_daemon_thread
    from weaver_tui.core.role_choices import RoleChoice

    assert choice.role is not None
    picked = RoleChoice(choice.role, choice.provider, choice.model, choice.base_url)
    try:
        await in_daemon_thread(lambda: services.choose_role_model(picked), "weaver-model-switch")
    except WeaverError as exc:
        surface.notify(exc.user_message, severity="error", title="Role model not set")
        return
    if choice.model:
        surface.notify(
            f"The {choice.role} role asks {choice.provider} · {choice.model} from the next turn "
            "(for this session)."
        )
    else:
        surface.notify(f"The {choice.role} role asks the turn's model again from the next turn.")
