"""Whose self-harm a hit is about: the writer's (``self_harm_user``) or someone else's
(``self_harm_them``).  A text someone sent the user speaks of the sender; in the
user's own words, a rule's ``person`` says whose it is, or leaves it to the words
around the hit ("she said she'd take all her pills"), and reported speech ("he texted
'I'll end it all'") is someone else's either way."""

from __future__ import annotations

import re
from typing import Literal

from flows.analysis.danger.rule import Kind, Rule, Source
from flows.analysis.danger.vocabulary import ABUSER
from flows.analysis.matching import Hit, clause_start

_FIRST = re.compile(r"\b(?:i|i'm|i'?ll|i'd|i've|me|my|myself)\b")
_THIRD = re.compile(
    r"\b(?:he|she|they|he's|she's|he'?ll|she'?ll|they'?ll|they're|his|her|him|mum|mom|"
    r"mother|dad|father|brother|sister|ex|husband|wife|boyfriend|girlfriend|partner|son|"
    r"daughter|friend)\b"
)
_REPORTED = re.compile(
    rf"\b{ABUSER}\b\s+(?:\w+\s+)?(?:said|says|say|texted|wrote|writes|told|tells|threatened|"
    r"threatens|keeps saying|kept saying|messaged|screamed|shouted|posted)\b"
)


def person(text: str, hit: Hit, rule: Rule) -> Literal["first", "third"]:
    """Whose self-harm a hit is about, seen from the writer of the text."""
    begin = clause_start(text, hit.start)
    if rule.person == "third":
        return "third"
    if rule.person == "infer":
        window = text[begin : hit.end]
        firsts = [m.start() for m in _FIRST.finditer(window)]
        thirds = [m.start() for m in _THIRD.finditer(window)]
        if thirds and (not firsts or thirds[-1] > firsts[-1]):
            return "third"
    # "he said he'd kill himself" is caught above; "she texted 'I'll end it all'" here.
    sentence_begin = max(0, hit.start - 120)
    cut = max(
        text.rfind(".", sentence_begin, hit.start), text.rfind("\n", sentence_begin, hit.start)
    )
    if _REPORTED.search(text, max(sentence_begin, cut + 1), hit.start):
        return "third"
    return "first"


def kind_of(rule: Rule, text: str, hit: Hit, source: Source) -> Kind:
    """The danger kind of a hit of ``rule``."""
    kind = rule.kind
    if kind != "self_harm":
        return kind
    if person(text, hit, rule) == "third" or source == "incoming":
        return "self_harm_them"
    return "self_harm_user"
