"""The analysis meets its quality targets on the labelled sets (tests/data/).

The targets (danger recall >= 0.95, danger false positives <= 0.05, tactic micro-F1 >=
0.80) hold on the labelled set plus blind_a, the sets the rules were tuned on.  blind_b
has never been read or tuned on: its floors only stop a regression, and sit a little
below what the rules reach there (see test_blind_b_has_not_regressed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flows.analysis.metrics import Report, evaluate
from flows.types import DANGER_KINDS, TACTICS

DATA = Path(__file__).parent / "data"


def _rows(name: str = "labelled_messages") -> list[dict[str, Any]]:
    with (DATA / f"{name}.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="module")
def whole() -> Report:
    """The labelled set and blind_a together: everything the rules were tuned on."""
    return evaluate(_rows() + _rows("blind_a"))


@pytest.fixture(scope="module")
def blind_b() -> Report:
    return evaluate(_rows("blind_b"))


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


@pytest.mark.parametrize("name", ["blind_a", "blind_b"])
def test_blind_sets_are_well_formed(name: str) -> None:
    rows = _rows(name)
    assert len(rows) == 160
    for row in rows:
        assert set(row) >= {"text", "source", "tactics", "danger", "category"}
        assert row["source"] in ("incoming", "user")
        assert set(row["tactics"]) <= set(TACTICS)
        assert set(row["danger"]) <= set(DANGER_KINDS)


def test_blind_b_has_not_regressed(blind_b: Report) -> None:
    # blind_b, never tuned on.  Measured before the blind_a round: danger recall 0.274,
    # FP rate 0.018 (2 of 110), tactic micro-F1 0.487.  After it: danger recall 0.306
    # (19 of 62), FP rate 0.018 (2 of 110), tactic micro-F1 0.561.  These are far below
    # the targets: the rules do not yet generalise to unseen phrasings.  The floors sit
    # just below the measured figures so that a regression fails.
    assert blind_b.danger_recall >= 0.29
    assert blind_b.danger_false_positive_rate <= 0.03
    assert blind_b.tactic_micro.f1 >= 0.54


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
