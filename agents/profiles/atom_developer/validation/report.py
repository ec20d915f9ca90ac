"""What a validation found: one result per level, the atoms the code defines, and its warnings.

Levels: 1 checks the code's syntax tree without running it, 2 runs the atoms' contract cases
in a sandbox, 3 checks that ``validate_logic`` agrees with a YAML spec. A level that could not
run says why in ``note``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from agents.profiles.atom_developer.validation.one_line import code_span, one_line

Status = Literal["passed", "failed", "skipped"]


@dataclass(frozen=True, slots=True)
class LevelResult:
    """The outcome of one level: its status, its errors, why it was skipped, how long it took.

    Its errors and note are each one line of printable characters whatever they were given
    (see :mod:`.one_line`): an error may quote what the atom's code raised, and the report is
    shown as one line per error, so no error can add a line of its own ("Level 2 ...:
    passed") or send a terminal a control sequence."""

    level: int
    name: str
    status: Status
    errors: tuple[str, ...]
    note: str = ""
    ms: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "errors", tuple(one_line(error) for error in self.errors))
        object.__setattr__(self, "note", one_line(self.note))

    def as_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "name": self.name,
            "status": self.status,
            "errors": list(self.errors),
            "note": self.note,
            "ms": round(self.ms, 3),
        }

    def render(self, timings: bool = True, markdown: bool = False) -> list[str]:
        """This level as Markdown list lines: a headline, then each error indented
        (``markdown``: for a chat that reads Markdown, each error a code span)."""
        head = f"- Level {self.level} · {self.name}: {self.status}"
        if self.status == "skipped":
            head += f" ({self.note})" if self.note else ""
        elif timings:
            head += f" ({self.ms:.0f} ms)"
        shown = code_span if markdown else str
        return [head, *(f"  - {shown(error)}" for error in self.errors)]


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """Every level's result for one piece of atom code; its warnings, like its levels'
    errors, are one printable line each."""

    levels: tuple[LevelResult, ...]
    atoms: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    unchecked: str = ""
    """Why the code was never run (the sandbox cannot lock itself down); empty when it ran.
    Unchecked code is never valid: its contract level failed with this reason."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "warnings", tuple(one_line(w) for w in self.warnings))
        object.__setattr__(self, "unchecked", one_line(self.unchecked))

    @property
    def valid(self) -> bool:
        """No level failed, and the code defines at least one atom."""
        return (
            bool(self.atoms)
            and not self.unchecked
            and all(level.status != "failed" for level in self.levels)
        )

    @property
    def errors(self) -> list[str]:
        """Every level's errors, level by level."""
        return [error for level in self.levels for error in level.errors]

    def as_dict(self) -> dict[str, Any]:
        """The report as plain JSON-serialisable data."""
        return {
            "valid": self.valid,
            "errors": self.errors,
            "levels": [level.as_dict() for level in self.levels],
            "atoms": list(self.atoms),
            "warnings": list(self.warnings),
            "unchecked": self.unchecked,
        }

    def render(self, timings: bool = True, markdown: bool = False) -> str:
        """The report as Markdown: one line per level, failed levels followed by their errors
        (``timings``: each level's time; a reply leaves it out, its trace keeps it;
        ``markdown``: for a chat, each error a code span, shown literally)."""
        lines = [line for level in self.levels for line in level.render(timings, markdown)]
        lines += [f"- warning: {warning}" for warning in self.warnings]
        return "\n".join(lines)
