"""extract_context that breaks the type lock: its value is an int."""

from typing import Any


def extract_context(text: str, source_file: str) -> list[dict[str, Any]]:
    """Every line with a number, the number as an int."""
    items = []
    for number, line in enumerate(text.splitlines(), 1):
        digits = "".join(c for c in line if c.isdigit())
        if digits:
            items.append(
                {
                    "value": int(digits),
                    "source_file": source_file,
                    "line_number": number,
                    "matched_content": line,
                    "parsed_fields": {"digits": str(digits)},
                }
            )
    return items
