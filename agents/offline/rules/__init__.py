"""Rule modules of the offline model, one per tool family plus chat and structured output."""
