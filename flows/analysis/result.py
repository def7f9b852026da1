"""Result types of the message analysis (the structure the flows and the CLI share)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class Finding:
    """One thing the analysis found: a tactic id, a danger kind or a draft problem id,
    and the exact phrases of the text that made it decide."""

    id: str
    phrases: tuple[str, ...]
    why: str = ""  # one short plain sentence a user can read


@dataclass(frozen=True)
class Analysis:
    tactics: tuple[Finding, ...]
    danger: tuple[Finding, ...]
    logistics: tuple[str, ...]  # the practical questions that need an answer
    grey_rock: str | None  # a suggested reply answering only those, or None

    @property
    def tactic_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.tactics)

    @property
    def danger_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.danger)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class DraftCheck:
    problems: tuple[Finding, ...]
    verdict: Literal["ok", "trim", "dont_send"]
    suggestion: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
