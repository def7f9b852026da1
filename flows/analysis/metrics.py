"""Quality figures of the analysis on a labelled set (used by bench/analysis.py and the
quality test).  A labelled message is a mapping with "text", "source" ("incoming" |
"user"), "tactics", "danger" and optionally "category" and "split"."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flows.analysis.danger import Source, detect_danger
from flows.analysis.message import analyze
from flows.analysis.result import Finding
from flows.types import DANGER_KINDS, TACTICS

Labelled = Mapping[str, Any]
Detector = Callable[[str, Source], tuple[Finding, ...]]


def load_rows(path: Path) -> list[dict[str, Any]]:
    """The labelled messages of a JSON Lines file (tests/data/*.jsonl)."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def rules_only(text: str, source: Source) -> tuple[Finding, ...]:
    """A ``Detector``: the danger rules without the classifier."""
    return detect_danger(text, source, model=None, learned=None)


@dataclass(frozen=True)
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True)
class Report:
    messages: int
    tactics: Mapping[str, Counts]
    danger: Mapping[str, Counts]
    #: messages labelled with no danger, and how many of them got some danger anyway
    safe_messages: int
    safe_flagged: int
    errors: Sequence[str] = field(default_factory=tuple)
    #: messages labelled with some danger, and how many of them got any danger at all
    danger_messages: int = 0
    danger_flagged: int = 0

    @property
    def tactic_micro(self) -> Counts:
        return Counts(
            sum(c.tp for c in self.tactics.values()),
            sum(c.fp for c in self.tactics.values()),
            sum(c.fn for c in self.tactics.values()),
        )

    @property
    def danger_micro(self) -> Counts:
        return Counts(
            sum(c.tp for c in self.danger.values()),
            sum(c.fp for c in self.danger.values()),
            sum(c.fn for c in self.danger.values()),
        )

    @property
    def danger_recall(self) -> float:
        return self.danger_micro.recall

    @property
    def any_danger_recall(self) -> float:
        """Of the messages with some danger, the share that got any danger finding (the
        safety message is shown, whatever the kind)."""
        return self.danger_flagged / self.danger_messages if self.danger_messages else 1.0

    @property
    def danger_false_positive_rate(self) -> float:
        return self.safe_flagged / self.safe_messages if self.safe_messages else 0.0


def _add(table: dict[str, Counts], expected: set[str], got: set[str]) -> None:
    for label in expected | got:
        c = table[label]
        table[label] = Counts(
            c.tp + (label in expected and label in got),
            c.fp + (label in got and label not in expected),
            c.fn + (label in expected and label not in got),
        )


def evaluate(
    rows: Iterable[Labelled], detect: Detector = detect_danger, tactics_too: bool = True
) -> Report:
    """Tactics are scored on incoming messages (``analyze``, unless ``tactics_too`` is
    false); danger on every message with ``detect(text, source)`` (by default
    ``detect_danger``: the rules and the shipped classifier)."""
    tactics = {t: Counts() for t in TACTICS}
    danger = {d: Counts() for d in DANGER_KINDS}
    messages = safe = flagged = dangerous = caught = 0
    errors: list[str] = []
    for row in rows:
        messages += 1
        expected_danger = set(row["danger"])
        got_danger = {f.id for f in detect(row["text"], row["source"])}
        _add(danger, expected_danger, got_danger)
        if not expected_danger:
            safe += 1
            flagged += bool(got_danger)
        else:
            dangerous += 1
            caught += bool(got_danger)
        diff = ""
        if got_danger != expected_danger:
            diff += f" danger {sorted(expected_danger)} -> {sorted(got_danger)}"
        if tactics_too and row["source"] == "incoming":
            expected = set(row["tactics"])
            got = set(analyze(row["text"]).tactic_ids)
            _add(tactics, expected, got)
            if got != expected:
                diff += f" tactics -{sorted(expected - got)} +{sorted(got - expected)}"
        if diff:
            errors.append(f"[{row.get('split', '')}] {row['text'][:70]!r}:{diff}")
    return Report(messages, tactics, danger, safe, flagged, tuple(errors), dangerous, caught)
