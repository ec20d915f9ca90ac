"""A credential written into a configured web address (the provider's or a role's base URL:
``https://user:password@host``, ``?api-key=...``) is one of the settings' secrets, so it is
scrubbed like a key wherever a server echoes it (generated credentials, percent-encoded in the
address as a user writes them)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.storage.test_key_forms import keys


@settings(max_examples=100, deadline=None)
@given(secret=keys, name=st.sampled_from(["api-key", "api_key", "token", "key", "access_token"]))
def test_credentials_written_into_an_address_are_secrets(secret: str, name: str) -> None:
    from urllib.parse import quote as quoted

    from weaver_tui.core.settings.knowledge_sections import url_secrets
    from weaver_tui.core.settings.role_sections import RolesSection
    from weaver_tui.core.settings.sections import ProviderSection

    encoded = quoted(secret, safe="")
    provider = ProviderSection(base_url=f"https://me:{encoded}@example.test/v1")
    assert secret in url_secrets(provider)
    roles = RolesSection.model_validate(
        {"summary": {"base_url": f"https://example.test/v1?{name}={encoded}&model=x"}}
    )
    assert secret in url_secrets(roles)
