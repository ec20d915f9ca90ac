"""Whether a structured answer is the schema's answer whole: read as JSON, never coerced.

A model's answer is untrusted data, and a pydantic model in its default (lax) mode reads more
than the JSON schema the model was shown allows: ``"yes"``, ``"true"``, ``1`` or ``"on"`` as a
boolean, ``"0.9"`` as a number, and it drops fields it does not name. A critic's
``{"passed": "yes"}`` would be a pass no schema allowed.

Guarantee (checked with generated answers in ``tests/providers/test_structured_whole.py``):
:func:`validated_whole` returns an instance only for an answer that is one JSON object with
every required field, each of the JSON type the schema names (strict JSON mode: a string is
never a number or a boolean, a number never a boolean; an integer is a number), within its
constraints, and no field the schema does not name, at any depth; any other answer raises
:class:`NotWhole` saying which field, in words a status line can show.
"""

from __future__ import annotations

import types
import typing
from typing import Any, TypeVar, Union

import orjson
from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)


class NotWhole(ValueError):
    """The answer is not the schema's answer whole; the message says where."""


def validated_whole(schema: type[T], data: Any) -> T:
    """``data`` as a ``schema`` instance (see the module), or :class:`NotWhole`."""
    if not isinstance(data, dict):
        raise NotWhole("the answer is not a JSON object")
    unnamed = unnamed_fields(schema, data)
    if unnamed:
        raise NotWhole(f"it names fields the schema does not ({', '.join(unnamed[:3])})")
    try:
        text = orjson.dumps(data)
    except TypeError as exc:
        raise NotWhole(f"the answer is not JSON ({exc})") from None
    try:
        return schema.model_validate_json(text, strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "the answer"
        raise NotWhole(f"{where}: {first.get('msg')}") from None


def unnamed_fields(schema: type[BaseModel], data: Any, path: str = "") -> list[str]:
    """The keys of ``data`` (and of its nested objects) that ``schema`` does not name."""
    if not isinstance(data, dict):
        return []
    names: dict[str, Any] = {}
    for name, info in schema.model_fields.items():
        for key in (name, info.alias, info.validation_alias):
            if isinstance(key, str):
                names[key] = info.annotation
    out: list[str] = []
    for key, value in data.items():
        if key not in names:
            out.append(f"{path}{key}")
            continue
        for model in _models_in(names[key]):
            items = value if isinstance(value, list) else [value]
            for item in items:
                out.extend(unnamed_fields(model, item, f"{path}{key}."))
    return out


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds (``M``, ``list[M]``, ``M | None`` ...)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    origin = typing.get_origin(annotation)
    if origin is None:
        return []
    if origin in (Union, types.UnionType, list, tuple, set, frozenset, typing.Annotated):
        return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]
    return []
