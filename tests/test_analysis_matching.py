"""The rules' quick pre-check (``rule_starts.anchors``: a rule is only tried where a word of the
text starts as the rule's matches must) never changes what the rules find."""

from __future__ import annotations

import re

import pytest

from flows.analysis import matching, message, rule_starts
from flows.analysis.danger import detect
from flows.analysis.danger.rules import COMPILED
from flows.analysis.message import _COMPILED
from flows.analysis.normalize import normalize

GROUPS = [patterns for _, patterns in COMPILED] + list(_COMPILED.values())
TEXTS = (
    "he said he'd kill me if I left, and he's been parked outside my work",
    "I'll swallow every pill in the cabinet if you don't call",
    "your boy told me all about his Saturday swimming lessons at the leisure centre",
    "i know where u live now. dont think u can hide",
    "Congrats on the new job!! So proud of you 🎉",
    "she threatened to take the kids and disappear; I've still got the key to your place",
    "my 3 year old and the ٣-year-old next door; he's got a bat in the boot, 've got rope",
    "if anything happens to the kids it's on you, the pills are lined up",
)


def _first_words(pattern: re.Pattern[str]) -> set[str] | None:
    found = rule_starts.anchors(pattern)
    return None if found is None else {key for key, _ in found}


def _unfiltered(patterns: tuple[re.Pattern[str], ...], text: str) -> list[matching.Hit]:
    hits = [h for p in patterns for h in matching.find(p, text)]
    return sorted(hits, key=lambda h: (h.start, h.end))[: matching.MAX_HITS]


def test_the_pre_check_finds_what_a_full_search_finds() -> None:
    found = 0
    for raw in TEXTS:
        text = normalize(raw).text
        for patterns in GROUPS:
            hits = matching.find_all(patterns, text)
            assert hits == _unfiltered(patterns, text), (raw, patterns[0].pattern)
            found += len(hits)
    assert found > len(TEXTS)  # the texts are ones the rules know something about


def test_most_rules_can_be_pre_checked() -> None:
    patterns = [p for group in GROUPS for p in group]
    checked = [p for p in patterns if _first_words(p) is not None]
    assert len(checked) > 0.9 * len(patterns)


@pytest.mark.parametrize(
    ("pattern", "starts"),
    [
        (r"(?:he|she) said", {"he ", "she "}),
        (r"kill(?:ed|ing)?\b", {"kill"}),
        (r"(?<!you )\bcan'?t hide", {"can"}),
        (r"[ab]c", {"a", "b"}),
        (r"\w+ said", None),
        (r"(?:kids)?here", {"kids", "here"}),  # optional: its words, or what follows
        (r"(?:the |my )?pills", {"the ", "my ", "pills"}),
        (r"(?:\d+|two)[- ]year", {rule_starts.DIGIT, "two"}),  # a digit of any script
        (r"(?:has|'ve) got", {"has ", "ve "}),  # after a mark: the word that follows
        (r"(?:kids)*\w", None),
        (r"(?i)knife", None),
    ],
)
def test_what_a_rule_must_start_with(pattern: str, starts: set[str] | None) -> None:
    found = _first_words(matching.compile_rule(pattern))
    assert (set(found) if found is not None else None) == starts


def test_a_rule_is_tried_only_where_a_word_starts_as_it_must() -> None:
    pattern = matching.compile_rule(r"(?:the |my )?(?:pills|tablets) are ready")
    text = "the pills are ready and my tablets are ready, spills are ready"
    rules = rule_starts.table([(pattern,)])
    # "the", "pills", "my", "tablets"; not "spills", nor "are" or "ready"
    assert sorted(set(rule_starts.places(rules, text)[(0, 0)])) == [0, 4, 24, 27]
    assert [text[h.start : h.end] for h in matching.find_all((pattern,), text)] == [
        "the pills are ready",
        "my tablets are ready",
    ]


def test_a_text_without_the_words_is_not_searched() -> None:
    rules = rule_starts.table(
        [(matching.compile_rule(p),) for p in (r"she said", r"he said", r"killing", r"knife")]
    )
    tried = {entry for entry, _ in rule_starts.places(rules, "she was there, killing time")}
    assert tried == {0, 2}


def test_a_table_of_rules_finds_what_each_rule_finds_alone() -> None:
    # the danger rules (with the idioms) and the tactic rules run as tables, all at once
    tables = [*detect._TABLES.values(), message._TABLE]
    found = 0
    for raw in TEXTS:
        text = normalize(raw).text
        for rules in tables:
            each = matching.find_table(rules, text)
            assert each == [_unfiltered(entry, text) for entry in rules.entries], raw
            found += sum(map(len, each))
    assert found > len(TEXTS)


def test_long_literal_openings_are_compared_too() -> None:
    pattern = matching.compile_rule(r"(?:he|she) (?:says|said) (?:that|to)\b")
    assert set(rule_starts.openings(pattern) or ()) == {
        f"{who} {verb} {what}"
        for who in ("he", "she")
        for verb in ("says", "said")
        for what in ("that", "to")
    }
    assert rule_starts.openings(matching.compile_rule(r"kill\w*")) is None  # too short to tell
    text = "he said nothing, she said she would call"
    assert matching.find_all((pattern,), text) == []
