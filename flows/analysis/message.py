"""``analyze(text)``: the tactics, danger, practical questions and grey-rock reply of a
message someone sent the user."""

from __future__ import annotations

import re

from flows.analysis.danger import detect_in
from flows.analysis.greyrock import practical_questions, reply
from flows.analysis.matching import Hit, compile_split, find_all, phrases
from flows.analysis.normalize import normalize
from flows.analysis.patterns import TACTICS
from flows.analysis.result import Analysis, Finding
from flows.types import TACTICS as TACTIC_IDS

_COMPILED: dict[str, tuple[re.Pattern[str], ...]] = {
    tactic: tuple(p for pattern in rule.patterns for p in compile_split(pattern))
    for tactic, rule in TACTICS.items()
}
#: Findings are reported in the fixed vocabulary order.
_ORDER: tuple[str, ...] = TACTIC_IDS
_WHY_SELF_HARM = (
    "This mentions them harming themselves. That is serious, and it is not yours to fix"
    " alone: emergency services can help them."
)
_WHY_LOGISTICS = "This asks something practical. You can answer only that, briefly."
_WHY_THREAT_DANGER = "This sounds threatening. Threats are worth saving as evidence."
_DANGER_AS_THREAT = ("violence", "stalking", "weapon", "child_safety")


def analyze(text: str) -> Analysis:
    """Analyse a message someone sent the user (a hoover, a relay, a co-parenting text)."""
    norm = normalize(text)
    danger = detect_in(norm, source="incoming")
    hits: dict[str, list[Hit]] = {}
    for tactic, patterns in _COMPILED.items():
        found = find_all(patterns, norm.text)
        if found:
            hits[tactic] = found
    why: dict[str, str] = {tactic: rule.why for tactic, rule in TACTICS.items()}
    extra: dict[str, tuple[str, ...]] = {}
    for finding in danger:
        if finding.id == "self_harm_them":
            extra["self_harm"] = finding.phrases
            why["self_harm"] = _WHY_SELF_HARM
        elif finding.id in _DANGER_AS_THREAT:
            extra["threat"] = extra.get("threat", ()) + finding.phrases
            if "threat" not in hits:
                why["threat"] = _WHY_THREAT_DANGER
    blocking = [h for tactic_hits in hits.values() for h in tactic_hits]
    questions = practical_questions(norm, blocking)
    if questions:
        hits["logistics"] = [Hit(s, e) for s, e in questions]
        why["logistics"] = _WHY_LOGISTICS
    tactics: list[Finding] = []
    for tactic in _ORDER:
        said = phrases(norm, hits.get(tactic, ()))
        more = tuple(p for p in extra.get(tactic, ()) if p not in said)
        if said or more:
            tactics.append(Finding(tactic, (said + more)[:5], why[tactic]))
    logistics = tuple(norm.exact(s, e) for s, e in questions)
    return Analysis(
        tactics=tuple(tactics),
        danger=danger,
        logistics=logistics,
        grey_rock=reply(norm, questions),
    )
