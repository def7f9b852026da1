"""The danger rules' own examples (flows/analysis/danger/): each rule fires on every text
in its ``matches`` and on none in its ``misses``, and each of its alternatives is shown
by at least one of its matches.  Also the escalation table's examples."""

from __future__ import annotations

import re
from functools import cache

import pytest

from flows.analysis.danger import detect_danger
from flows.analysis.danger.detect import rule_hits
from flows.analysis.danger.escalation import ESCALATIONS, Escalation
from flows.analysis.danger.guards import IDIOM, kept
from flows.analysis.danger.rule import Rule
from flows.analysis.danger.rules import ORDER, RULES
from flows.analysis.matching import compile_rule, find, find_all
from flows.analysis.normalize import normalize


@cache
def _compiled(alternative: str) -> re.Pattern[str]:
    return compile_rule(alternative)


def _shown(rule: Rule, alternative: str, example: str) -> bool:
    """A hit of this alternative of ``rule`` in ``example`` that the guards keep."""
    text = normalize(example).text
    idiom_spans = find_all(IDIOM, text)
    source = rule.source or "user"
    return any(
        kept(rule, text, hit, idiom_spans, source) for hit in find(_compiled(alternative), text)
    )


def _fires(rule: Rule, example: str) -> bool:
    return any(_shown(rule, alternative, example) for alternative in rule.alternatives)


def _cases() -> list[object]:
    cases: list[object] = []
    for rule in RULES:
        for n, text in enumerate(rule.matches):
            cases.append(pytest.param(rule, text, True, id=f"{rule.id}-matches-{n}"))
        for n, text in enumerate(rule.misses):
            cases.append(pytest.param(rule, text, False, id=f"{rule.id}-misses-{n}"))
    return cases


@pytest.mark.parametrize(("rule", "text", "fires"), _cases())
def test_a_rule_fires_on_its_matches_and_not_its_misses(rule: Rule, text: str, fires: bool) -> None:
    assert _fires(rule, text) is fires


def test_every_alternative_is_shown_by_an_example() -> None:
    unshown = [
        f"{rule.id} #{n}: {alternative[:60]}"
        for rule in RULES
        for n, alternative in enumerate(rule.alternatives)
        if not any(_shown(rule, alternative, text) for text in rule.matches)
    ]
    assert unshown == []


def test_the_order_lists_every_rule_once_by_kind() -> None:
    listed = [rule_id for ids in ORDER.values() for rule_id in ids]
    assert sorted(listed) == sorted(rule.id for rule in RULES)
    assert all(rule_id.startswith(f"{kind}.") for kind, ids in ORDER.items() for rule_id in ids)


@pytest.mark.parametrize("row", ESCALATIONS, ids=lambda row: row.why)
def test_an_escalation_row_alone_makes_its_example_a_finding(row: Escalation) -> None:
    text, source = row.example
    norm = normalize(text).text
    found, _cleared = rule_hits(norm, source)
    assert row.when in found
    assert row.adds not in found
    for other in ESCALATIONS:
        if other is not row and other.when in found and other.hits(norm, found, source):
            assert other.adds != row.adds, f"{other.why} makes it {row.adds} too"
    # the rules alone: with the learned model, a rule's finding the model finds unlikely
    # is dropped (Model.rules_gate)
    assert row.adds in {f.id for f in detect_danger(text, source, model=None, learned=None)}
