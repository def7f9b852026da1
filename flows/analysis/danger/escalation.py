"""The escalation table: a finding of one kind that makes another one too.  A weapon is
violence when someone sent it, when it is used to frighten, or when it comes with
stalking or is "for you"; violence the children saw is a danger to them as well.

The rows run in order, after the rules, on what they found; each adds hits (phrases) to
its kind.  Every row has an example that only it turns into that kind
(tests/test_danger_rules.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flows.analysis.danger.rule import Kind, Source
from flows.analysis.danger.vocabulary import KIDS
from flows.analysis.matching import Hit, find

Found = Mapping[Kind, list[Hit]]

#: A weapon used to frighten: "when we argue he picks it up", "not saying I'd use it".
MENACE = re.compile(
    r"\b(?:(?:when|whenever|every time|if) (?:we|i|he|she|they) (?:argue|argued|row|rowed|"
    r"fight|fought|disagree|shout)|shows? (?:it|them) to me|taps? (?:it|them)|"
    r"(?:screamed|shouted|yelled|screaming|shouting) at me|talk(?:s|ed|ing)? about using (?:it"
    r"|them)|"
    r"picks? (?:it|them) up|picked (?:it|them) up|holds? (?:it|them)|looks? at me|"
    r"(?:i'?d|he'?d|she'?d|i would|he would|she would|i'?ll|he'?ll|she'?ll) use (?:it|them)|"
    r"(?:not (?:saying|afraid|scared)|don'?t make me) (?:i'?d|to|that i'?d) use|"
    r"thought you'?d (?:want|like) to know|just so you know|remember that|"
    r"(?:keeps?|kept|keep) (?:saying|muttering|mentioning|asking about) (?:your|ur) name|"
    r"i'?m (?:so )?(?:frightened|scared|terrified)|caption(?:s|ed)?|"
    r"i know exactly what (?:he|she|they) means?|think about that (?:before|when)|"
    r"(?:that'?s|this is) how (?:i'?ll|he'?ll|she'?ll|we'?ll) (?:deal with|sort|handle))\b"
)
#: A weapon kept for someone: "it's meant for you", "been keeping it for you".
MEANT_FOR = re.compile(
    r"\b(?:it'?s|its|is|that'?s) (?:for|meant for) (?:me|you)\b"
    r"|\b(?:keeping|saving|kept|saved|been keeping) (?:it|them) for (?:you|u|me)\b"
)
#: The children saw it: "in front of the kids", "my son saw the whole thing".
KIDS_WITNESS = re.compile(
    r"\bin front of (?:the|our|my|his|her) " + KIDS + r"\b"
    r"|\b" + KIDS + r"\b[^.!?\n]{0,30}\b(?:saw|watched|witnessed|heard) (?:the whole thing|"
    r"everything|it all|it happen)\b|\b(?:saw|watched|witnessed|heard) the whole thing\b"
)


@dataclass(frozen=True)
class Escalation:
    why: str
    #: the kind found
    when: Kind
    #: the kind it makes too
    adds: Kind
    #: the hits that make it (none: the row does not apply): (normalised text, what the
    #: rules found, source) -> hits
    hits: Callable[[str, Found, Source], list[Hit]]
    #: a text (with its source) that only this row makes an ``adds`` finding
    example: tuple[str, Source]


def _sent(text: str, found: Found, source: Source) -> list[Hit]:
    return found["weapon"] if source == "incoming" else []


def _menacing(text: str, found: Found, source: Source) -> list[Hit]:
    weapons = found["weapon"]
    if any(MENACE.search(text, max(0, h.start - 80), h.end + 120) for h in weapons):
        return weapons
    return []


def _with_stalking(text: str, found: Found, source: Source) -> list[Hit]:
    return found["weapon"] if "stalking" in found or MEANT_FOR.search(text) else []


def _witnessed(text: str, found: Found, source: Source) -> list[Hit]:
    return find(KIDS_WITNESS, text)


ESCALATIONS: tuple[Escalation, ...] = (
    Escalation(
        "A weapon in a message someone sent is a threat.",
        "weapon",
        "violence",
        _sent,
        ("he keeps a knife in his car", "incoming"),
    ),
    Escalation(
        "A weapon used to frighten.",
        "weapon",
        "violence",
        _menacing,
        ("he has a knife and when we argue he picks it up", "user"),
    ),
    Escalation(
        "A weapon with stalking, or kept for someone.",
        "weapon",
        "violence",
        _with_stalking,
        ("he has a gun and it's meant for me", "user"),
    ),
    Escalation(
        "Violence the children saw is a danger to them too.",
        "violence",
        "child_safety",
        _witnessed,
        ("he hit me in front of the kids", "user"),
    ),
)


def escalate(text: str, found: dict[Kind, list[Hit]], source: Source) -> None:
    """Apply the table, in order, to what the rules ``found`` in the normalised text."""
    for row in ESCALATIONS:
        if row.when in found:
            hits = row.hits(text, found, source)
            if hits:
                found.setdefault(row.adds, []).extend(hits)
