"""The analysis meets its quality targets on the labelled sets (tests/data/).

The targets (danger recall >= 0.95, danger false positives <= 0.05, tactic micro-F1 >=
0.80) hold on the labelled set plus blind_a, blind_b and blind_c, the sets the rules were
tuned on and the danger classifier trained on.  blind_d has never been read, trained or
tuned on: its floors only stop a regression, and sit a little below what the analysis
reached there (see test_blind_d_has_not_regressed)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from flows.analysis.danger import Source, check_danger, detect_danger
from flows.analysis.metrics import Report, evaluate
from flows.analysis.result import Finding
from flows.types import DANGER_KINDS, TACTICS

DATA = Path(__file__).parent / "data"


def _rows(name: str = "labelled_messages") -> list[dict[str, Any]]:
    with (DATA / f"{name}.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="module")
def whole() -> Report:
    """The labelled set and blind_a, b and c together: everything the rules were tuned on."""
    return evaluate(_rows() + _rows("blind_a") + _rows("blind_b") + _rows("blind_c"))


@dataclass(frozen=True)
class Totals:
    """blind_d's totals only: a failing assertion must not print its texts or errors."""

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
def blind_d() -> Totals:
    return _totals(evaluate(_rows("blind_d")))


@pytest.fixture(scope="module")
def blind_d_rules_only() -> Totals:
    return _totals(evaluate(_rows("blind_d"), _rules_only, tactics_too=False))


@dataclass(frozen=True)
class Gentle:
    """blind_d: danger messages that get the safety message or at least the gentle
    question, and ordinary messages that get the gentle question (totals only)."""

    covered: float
    asked: float


@pytest.fixture(scope="module")
def blind_d_gentle() -> Gentle:
    rows = _rows("blind_d")
    danger = [r for r in rows if r["danger"]]
    safe = [r for r in rows if not r["danger"]]

    def reached(row: dict[str, Any]) -> bool:
        check = check_danger(row["text"], row["source"])
        return bool(check.found or check.possible)

    return Gentle(
        covered=sum(map(reached, danger)) / len(danger),
        asked=sum(bool(check_danger(r["text"], r["source"]).possible) for r in safe) / len(safe),
    )


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


@pytest.mark.parametrize(
    ("name", "size"), [("blind_a", 160), ("blind_b", 160), ("blind_c", 200), ("blind_d", 200)]
)
def test_blind_sets_are_well_formed(name: str, size: int) -> None:
    rows = _rows(name)
    assert len(rows) == size
    for row in rows:
        assert set(row) >= {"text", "source", "tactics", "danger", "category"}
        assert row["source"] in ("incoming", "user")
        assert set(row["tactics"]) <= set(TACTICS)
        assert set(row["danger"]) <= set(DANGER_KINDS)


def test_blind_d_has_not_regressed(blind_d: Totals) -> None:
    # blind_d (200 messages, a writer who never saw the rules), measured after the blind_c
    # round (rules widened on blind_c, classifier retrained on labelled + blind_a, b and
    # c): danger recall per kind 0.490 (51 of 104), any-danger recall 0.587 (44 of 75),
    # FP rate 0.040 (5 of 125), tactic micro-F1 0.539.  Per kind: violence 13/27, stalking
    # 13/24, self_harm_them 5/9, self_harm_user 11/19, weapon 5/9, child_safety 4/16.
    # Before the blind_c round the same figures were 0.462, 0.560 and 0.048: the rules
    # recognise phrasings, and each round of them carries over only a little to the next
    # writer's.  The floors sit just below the measured figures so that a regression fails.
    assert blind_d.danger_recall >= 0.47
    assert blind_d.any_danger_recall >= 0.57
    assert blind_d.danger_false_positive_rate <= 0.05
    assert blind_d.tactic_micro_f1 >= 0.52


def test_blind_d_rules_alone_have_not_regressed(blind_d_rules_only: Totals) -> None:
    # The rules alone on blind_d: danger recall 0.442 (46 of 104), any-danger recall 0.520
    # (39 of 75), FP rate 0.040 (5 of 125).
    assert blind_d_rules_only.danger_recall >= 0.42
    assert blind_d_rules_only.any_danger_recall >= 0.50
    assert blind_d_rules_only.danger_false_positive_rate <= 0.05


def test_the_gentle_question_reaches_more_danger_on_blind_d(
    blind_d: Totals, blind_d_gentle: Gentle
) -> None:
    # The gentle tier's thresholds came from cross-validation on the training sets (an
    # out-of-fold budget of 10% of ordinary messages), before blind_d was scored.  On
    # blind_d: 49 of 75 danger messages (0.653) get the safety message or the gentle
    # question, against 44 (0.587) with the safety message alone; 5 of 125 ordinary
    # messages (0.040) get the gentle question.
    assert blind_d_gentle.covered > blind_d.any_danger_recall
    assert blind_d_gentle.covered >= 0.63
    assert blind_d_gentle.asked <= 0.08


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
