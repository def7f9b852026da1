"""The analysis meets its quality targets on the labelled sets (tests/data/).

The targets (danger recall >= 0.95, danger false positives <= 0.05, tactic micro-F1 >=
0.80) hold on the labelled set plus blind_a plus blind_b, the sets the rules were tuned
on and the danger classifier trained on.  blind_c has never been read, trained or tuned
on: its floors only stop a regression, and sit a little below what the analysis reached
there when it was measured, once (see test_blind_c_has_not_regressed)."""

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
    """The labelled set, blind_a and blind_b together: everything the rules were tuned on."""
    return evaluate(_rows() + _rows("blind_a") + _rows("blind_b"))


@dataclass(frozen=True)
class Totals:
    """blind_c's totals only: a failing assertion must not print its texts or errors."""

    danger_recall: float
    any_danger_recall: float
    danger_false_positive_rate: float
    tactic_micro_f1: float


def _totals(report: Report) -> Totals:
    return Totals(
        report.danger_recall,
        report.any_danger_recall,
        report.danger_false_positive_rate,
        report.tactic_micro.f1,
    )


@pytest.fixture(scope="module")
def blind_c() -> Totals:
    return _totals(evaluate(_rows("blind_c")))


@pytest.fixture(scope="module")
def blind_c_rules_only() -> Totals:
    return _totals(evaluate(_rows("blind_c"), _rules_only, tactics_too=False))


def _rules_only(text: str, source: Source) -> tuple[Finding, ...]:
    return detect_danger(text, source, model=None)


def test_labelled_set_is_well_formed() -> None:
    rows = _rows()
    assert len(rows) >= 200
    holdout = [r for r in rows if r["split"] == "holdout"]
    # 95 holdout messages; the blind_b round added 396 "tune" messages written after
    # the rules (negatives among them), so the share fell from 0.21 to 0.11.
    assert 0.1 <= len(holdout) / len(rows) <= 0.3
    for row in rows:
        assert set(row) >= {"text", "source", "tactics", "danger", "category", "split"}
        assert row["source"] in ("incoming", "user")
        assert set(row["tactics"]) <= set(TACTICS)
        assert set(row["danger"]) <= set(DANGER_KINDS)
    categories = {r["category"] for r in rows}
    assert {"hoover", "relay", "coparent", "threat", "user_crisis", "friendly"} <= categories


@pytest.mark.parametrize(("name", "size"), [("blind_a", 160), ("blind_b", 160), ("blind_c", 200)])
def test_blind_sets_are_well_formed(name: str, size: int) -> None:
    rows = _rows(name)
    assert len(rows) == size
    for row in rows:
        assert set(row) >= {"text", "source", "tactics", "danger", "category"}
        assert row["source"] in ("incoming", "user")
        assert set(row["tactics"]) <= set(TACTICS)
        assert set(row["danger"]) <= set(DANGER_KINDS)


def test_blind_c_has_not_regressed(blind_c: Totals) -> None:
    # blind_c (200 messages, a writer who never saw the rules), measured once, after the
    # blind_b round (rules widened on blind_b, classifier retrained on labelled + blind_a +
    # blind_b): danger recall per kind 0.637 (58 of 91), any-danger recall 0.705 (55 of
    # 78), FP rate 0.016 (2 of 122), tactic micro-F1 0.641.  Per kind: violence 16/25,
    # stalking 13/23, self_harm_them 6/7, self_harm_user 13/17, weapon 6/7, child_safety
    # 4/12.  Far below the targets: the honest measure of phrasings nobody wrote a rule
    # for.  The floors sit just below the measured figures so that a regression fails.
    assert blind_c.danger_recall >= 0.62
    assert blind_c.any_danger_recall >= 0.69
    assert blind_c.danger_false_positive_rate <= 0.03
    assert blind_c.tactic_micro_f1 >= 0.62


def test_blind_c_rules_alone_have_not_regressed(blind_c_rules_only: Totals) -> None:
    # The rules alone on blind_c: danger recall 0.560 (51 of 91), any-danger recall 0.603
    # (47 of 78), FP rate 0.008 (1 of 122).
    assert blind_c_rules_only.danger_recall >= 0.54
    assert blind_c_rules_only.any_danger_recall >= 0.58
    assert blind_c_rules_only.danger_false_positive_rate <= 0.02


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
