"""A helper and nothing else: no atom."""


def helper(text: str) -> str:
    return str(text).strip()
