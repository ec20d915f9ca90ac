"""The offline model's generic rule modules: tool families any profile may bind, unknown tools,
chat and structured output. A profile's own rules live in its folder."""
