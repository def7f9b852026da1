"""The analysis meets its quality targets on the labelled sets (tests/data/).

The danger targets (recall >= 0.95, false positives <= 0.05) hold on the labelled set
plus blind_a, b, c and d, the sets the danger rules were tuned on and the classifier
trained on.  The tactic target (micro-F1 >= 0.80) holds on the labelled set plus blind_a
and b, the sets the tactic rules were tuned on; blind_c and d were opened for danger
only, so their tactic figures (about 0.6) are still a blind measure.  blind_e has never
been read, trained or tuned on: its floors only stop a regression, and sit a little
below what the analysis reached there (see test_blind_e_has_not_regressed)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from flows.analysis.danger import check_danger
from flows.analysis.metrics import Report, evaluate, load_rows, rules_only
from flows.types import DANGER_KINDS, TACTICS

DATA = Path(__file__).parent / "data"


def _rows(name: str = "labelled_messages") -> list[dict[str, Any]]:
    return load_rows(DATA / f"{name}.jsonl")


@pytest.fixture(scope="module")
def whole() -> Report:
    """The labelled set and blind_a to d: everything the danger rules were tuned on."""
    return evaluate(
        _rows() + _rows("blind_a") + _rows("blind_b") + _rows("blind_c") + _rows("blind_d"),
        tactics_too=False,
    )


@pytest.fixture(scope="module")
def tactics_tuned() -> Report:
    """The labelled set, blind_a and blind_b: what the tactic rules were tuned on."""
    return evaluate(_rows() + _rows("blind_a") + _rows("blind_b"))


@dataclass(frozen=True)
class Totals:
    """blind_e's totals only: a failing assertion must not print its texts or errors."""

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
def blind_e() -> Totals:
    return _totals(evaluate(_rows("blind_e")))


@pytest.fixture(scope="module")
def blind_e_rules_only() -> Totals:
    return _totals(evaluate(_rows("blind_e"), rules_only, tactics_too=False))


@dataclass(frozen=True)
class Gentle:
    """blind_e: danger messages that get the safety message or at least the gentle
    question, and ordinary messages that get the gentle question (totals only)."""

    covered: float
    asked: float


@pytest.fixture(scope="module")
def blind_e_gentle() -> Gentle:
    rows = _rows("blind_e")
    danger = [r for r in rows if r["danger"]]
    safe = [r for r in rows if not r["danger"]]

    def reached(row: dict[str, Any]) -> bool:
        check = check_danger(row["text"], row["source"])
        return bool(check.found or check.possible)

    return Gentle(
        covered=sum(map(reached, danger)) / len(danger),
        asked=sum(bool(check_danger(r["text"], r["source"]).possible) for r in safe) / len(safe),
    )


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
    ("name", "size"),
    [("blind_a", 160), ("blind_b", 160), ("blind_c", 200), ("blind_d", 200), ("blind_e", 200)],
)
def test_blind_sets_are_well_formed(name: str, size: int) -> None:
    # counts only: a failing assertion must not print a blind set's texts
    rows = _rows(name)
    count = len(rows)
    malformed = sum(not _well_formed(row) for row in rows)
    del rows
    assert count == size
    assert malformed == 0


def _well_formed(row: dict[str, Any]) -> bool:
    return (
        set(row) >= {"text", "source", "tactics", "danger", "category"}
        and row["source"] in ("incoming", "user")
        and set(row["tactics"]) <= set(TACTICS)
        and set(row["danger"]) <= set(DANGER_KINDS)
    )


def test_blind_e_has_not_regressed(blind_e: Totals) -> None:
    # blind_e (200 messages, a third writer who never saw the rules), measured after the
    # blind_d round (danger rules widened on blind_d, classifier retrained on labelled +
    # blind_a to d): danger recall per kind 0.642 (68 of 106), any-danger recall 0.760 (57
    # of 75), FP rate 0.048 (6 of 125), tactic micro-F1 0.589.  Per kind: violence 16/26,
    # stalking 14/25, self_harm_them 5/9, self_harm_user 16/19, weapon 8/9, child_safety
    # 9/18.  Before the blind_d round: 0.613, 0.707 and 0.040.  The floors sit just below
    # the measured figures so that a regression fails.
    assert blind_e.danger_recall >= 0.62
    assert blind_e.any_danger_recall >= 0.74
    assert blind_e.danger_false_positive_rate <= 0.06
    assert blind_e.tactic_micro_f1 >= 0.57


def test_blind_e_rules_alone_have_not_regressed(blind_e_rules_only: Totals) -> None:
    # The rules alone on blind_e: danger recall 0.575 (61 of 106), any-danger recall 0.640
    # (48 of 75), FP rate 0.040 (5 of 125).
    assert blind_e_rules_only.danger_recall >= 0.55
    assert blind_e_rules_only.any_danger_recall >= 0.62
    assert blind_e_rules_only.danger_false_positive_rate <= 0.05


def test_the_gentle_question_reaches_more_danger_on_blind_e(
    blind_e: Totals, blind_e_gentle: Gentle
) -> None:
    # The gentle tier's thresholds come from cross-validation on the training sets (an
    # out-of-fold budget of 10% of ordinary messages), never from blind_e.  On blind_e:
    # 62 of 75 danger messages (0.827) get the safety message or the gentle question,
    # against 57 (0.760) with the safety message alone; 3 of 125 ordinary messages
    # (0.024) get the gentle question.  (On blind_d, before it was tuned on: 0.653 against
    # 0.587, and 0.040.)  Since the learned model's retrain on 20 writers (2026-12-01;
    # its gentle margin chosen on held-out scores for at most 5% of ordinary messages of
    # the writers the rules never saw): all 75 are reached, and 12 of 125 ordinary
    # messages (0.096) get the gentle question, more than on the held-out writers.
    # Since the retrain on 61 writers (tenth session) the safety message alone reaches all
    # 75, so the gentle question can add none there: it must not take any away.
    assert blind_e_gentle.covered >= blind_e.any_danger_recall
    assert blind_e_gentle.covered > blind_e.any_danger_recall or blind_e.any_danger_recall == 1
    assert blind_e_gentle.covered >= 0.80
    assert blind_e_gentle.asked <= 0.10


def test_danger_recall_is_at_least_95_percent(whole: Report) -> None:
    assert whole.danger_recall >= 0.95


def test_danger_false_positives_are_at_most_5_percent(whole: Report) -> None:
    assert whole.danger_false_positive_rate <= 0.05


def test_tactic_micro_f1_is_at_least_80_percent(tactics_tuned: Report) -> None:
    assert tactics_tuned.tactic_micro.f1 >= 0.80


def test_metrics_count_a_miss_and_a_false_alarm() -> None:
    rows = [
        {"text": "I want to end it all", "source": "user", "tactics": [], "danger": []},
        {"text": "nice weather", "source": "user", "tactics": [], "danger": ["violence"]},
    ]
    report = evaluate(rows)
    assert report.danger_false_positive_rate == 1.0
    assert report.danger_recall == 0.0
