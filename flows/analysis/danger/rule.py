"""What a danger rule is: an id, the ways of saying it, and examples.

A rule's ``alternatives`` are regular expressions over the normalised text (see
normalize.py), each one whole way of saying the thing; a hit of any of them is a hit of
the rule.  ``matches`` are texts the rule must fire on and ``misses`` texts it must not
fire on (near misses the guards or the wording keep out); tests/test_danger_rules.py
checks every one of them, and that each alternative is shown by at least one example.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, cast, get_args

#: Who wrote the text: the user, or someone who sent it to the user.
Source = Literal["user", "incoming"]
#: The danger kinds a finding can have (the order of ``flows.types.DANGER_KINDS``).
Kind = Literal["violence", "stalking", "self_harm_them", "self_harm_user", "weapon", "child_safety"]
#: The kind a rule is about: a danger kind, or "self_harm", whose person decides which.
RuleKind = Literal["violence", "stalking", "self_harm", "weapon", "child_safety"]
#: Whose self-harm a rule speaks of: the writer's, someone else's, either (told apart
#: from the words around the hit, see person.py), or not a self-harm rule.
Person = Literal["first", "third", "infer", "any"]

RULE_KINDS: tuple[RuleKind, ...] = get_args(RuleKind)


def any_of(*words: str) -> str:
    """One regular expression group matching any of ``words``, tried in the order given."""
    return "(?:" + "|".join(words) + ")"


@dataclass(frozen=True)
class Rule:
    #: "<kind>.<name>", e.g. "stalking.turned_up"; the kind is a ``RuleKind``
    id: str
    alternatives: tuple[str, ...]
    matches: tuple[str, ...]
    misses: tuple[str, ...]
    #: a negation on or just before the hit cancels it ("he would never hurt me")
    negatable: bool = False
    person: Person = "any"
    #: violence against "me": someone must be doing it in the same clause
    needs_person_subject: bool = False
    #: only for texts from this source
    source: Source | None = None

    def __post_init__(self) -> None:
        kind, dot, name = self.id.partition(".")
        if kind not in RULE_KINDS or not dot or not name:
            raise ValueError(f"a rule id is <kind>.<name>: {self.id!r}")
        if (self.person != "any") != (kind == "self_harm"):
            raise ValueError(f"only a self-harm rule names a person: {self.id!r}")
        if not self.alternatives or not self.matches or not self.misses:
            raise ValueError(f"a rule needs alternatives, matches and misses: {self.id!r}")

    @property
    def kind(self) -> RuleKind:
        return cast(RuleKind, self.id.partition(".")[0])  # checked in __post_init__


def of_two_kinds(rule: Rule, also: str) -> tuple[Rule, Rule]:
    """``rule``, and the same rule (wording, examples, guards) under the id ``also``: one
    way of saying two dangers at once, e.g. a weapon pointed at someone is violence too."""
    return rule, replace(rule, id=also)
