"""The analysis meets its quality targets on the labelled set (tests/data/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flows.analysis.metrics import Report, evaluate
from flows.types import DANGER_KINDS, TACTICS

DATA = Path(__file__).parent / "data" / "labelled_messages.jsonl"


def _rows() -> list[dict[str, Any]]:
    with DATA.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="module")
def whole() -> Report:
    return evaluate(_rows())


def test_labelled_set_is_well_formed() -> None:
    rows = _rows()
    assert len(rows) >= 200
    holdout = [r for r in rows if r["split"] == "holdout"]
    assert 0.2 <= len(holdout) / len(rows) <= 0.3
    for row in rows:
        assert set(row) >= {"text", "source", "tactics", "danger", "category", "split"}
        assert row["source"] in ("incoming", "user")
        assert set(row["tactics"]) <= set(TACTICS)
        assert set(row["danger"]) <= set(DANGER_KINDS)
    categories = {r["category"] for r in rows}
    assert {"hoover", "relay", "coparent", "threat", "user_crisis", "friendly"} <= categories


def test_danger_recall_is_at_least_95_percent(whole: Report) -> None:
    assert whole.danger_recall >= 0.95


def test_danger_false_positives_are_at_most_5_percent(whole: Report) -> None:
    assert whole.danger_false_positive_rate <= 0.05


def test_tactic_micro_f1_is_at_least_80_percent(whole: Report) -> None:
    assert whole.tactic_micro.f1 >= 0.80


def test_metrics_count_a_miss_and_a_false_alarm() -> None:
    rows = [
        {"text": "I want to end it all", "source": "user", "tactics": [], "danger": []},
        {"text": "nice weather", "source": "user", "tactics": [], "danger": ["violence"]},
    ]
    report = evaluate(rows)
    assert report.danger_false_positive_rate == 1.0
    assert report.danger_recall == 0.0
