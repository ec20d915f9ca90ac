"""Structured answers from any chat model: one call walks from a forced tool down to JSON in
prose, and remembers per endpoint where to start (see :mod:`agents.structured.call`)."""

from agents.structured.call import NoAnswer, structured_call
from agents.structured.rungs import MEMO, Rung, endpoint_of

__all__ = ["MEMO", "NoAnswer", "Rung", "endpoint_of", "structured_call"]
