"""The analysis meets its quality targets on the labelled sets (tests/data/).

The targets (danger recall >= 0.95, danger false positives <= 0.05, tactic micro-F1 >=
0.80) hold on the labelled set plus blind_a, the sets the rules were tuned on and the
danger classifier trained on.  blind_b has never been read, trained or tuned on: its
floors only stop a regression, and sit a little below what the analysis reaches there
(see test_blind_b_has_not_regressed)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from flows.analysis.danger import Source, detect_danger
from flows.analysis.metrics import Report, evaluate
from flows.analysis.result import Finding
from flows.types import DANGER_KINDS, TACTICS

DATA = Path(__file__).parent / "data"


def _rows(name: str = "labelled_messages") -> list[dict[str, Any]]:
    with (DATA / f"{name}.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="module")
def whole() -> Report:
    """The labelled set and blind_a together: everything the rules were tuned on."""
    return evaluate(_rows() + _rows("blind_a"))


@dataclass(frozen=True)
class Totals:
    """blind_b's totals only: a failing assertion must not print its texts or errors."""

    danger_recall: float
    danger_false_positive_rate: float
    tactic_micro_f1: float


def _totals(report: Report) -> Totals:
    return Totals(report.danger_recall, report.danger_false_positive_rate, report.tactic_micro.f1)


@pytest.fixture(scope="module")
def blind_b() -> Totals:
    return _totals(evaluate(_rows("blind_b")))


@pytest.fixture(scope="module")
def blind_b_rules_only() -> Totals:
    return _totals(evaluate(_rows("blind_b"), _rules_only, tactics_too=False))


def _rules_only(text: str, source: Source) -> tuple[Finding, ...]:
    return detect_danger(text, source, model=None)


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


def test_blind_b_has_not_regressed(blind_b: Totals) -> None:
    # blind_b, never tuned on.  Rules only, before the blind_a round: danger recall 0.274,
    # FP rate 0.018 (2 of 110), tactic micro-F1 0.487; after it: recall 0.306 (19 of 62),
    # FP 0.018, micro-F1 0.561.  Rules + trained classifier (classifier.py, thresholds
    # chosen by cross-validation on labelled + blind_a only): danger recall 0.435 (27 of
    # 62), FP rate 0.064 (7 of 110: above the 0.05 the product allows, where the
    # cross-validated figure was 0.029), tactic micro-F1 0.568.  Still far below the
    # targets.  The floors sit just below the measured figures so that a regression fails.
    recall, fp, f1 = (
        blind_b.danger_recall,
        blind_b.danger_false_positive_rate,
        blind_b.tactic_micro_f1,
    )
    assert recall >= 0.42
    assert fp <= 0.07
    assert f1 >= 0.55


def test_blind_b_rules_alone_have_not_regressed(blind_b_rules_only: Totals) -> None:
    # The rules alone on blind_b: danger recall 0.306, FP rate 0.018 (see above).
    assert blind_b_rules_only.danger_recall >= 0.29
    assert blind_b_rules_only.danger_false_positive_rate <= 0.03


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
