"""Necessary contact: answer only the practical question, briefly and neutrally.
Shared by the urge flow ("it is necessary contact") and the hoover plan."""

from __future__ import annotations

from collections.abc import Sequence

from flows.analysis.result import DraftCheck
from flows.replies import replies_from, short
from flows.tactic_names import name_of
from flows.types import Reply

ONLY_THAT = (
    "Answer only that. You don't have to explain, defend yourself, or respond to anything "
    "else in the message."
)


def logistics_replies(
    logistics: Sequence[str], grey_rock: str | None, tactics: Sequence[str] = ()
) -> tuple[Reply, ...]:
    """What needs an answer, and a short neutral reply the user can copy."""
    if not logistics:
        text = (
            "I can't find a practical question in it, so there may be nothing you need to "
            "answer. If there is one, answer only that, in a line."
        )
        return (Reply(text),)
    lines = ["The practical part that needs an answer:"]
    lines += [f"• {short(q, 200)}" for q in logistics]
    other = [name_of(t).lower() for t in tactics if t != "logistics"]
    if other:
        lines.append("\nThe rest (" + ", ".join(other) + ") doesn't need an answer.")
    lines.append("\n" + ONLY_THAT)
    replies = [Reply("\n".join(lines))]
    if grey_rock:
        replies.append(Reply("A short, neutral reply could be:"))
        replies += replies_from([grey_rock])
    return tuple(replies)


def draft_replies(check: DraftCheck) -> tuple[Reply, ...]:
    """The verdict on the user's draft, the problems named, and a shorter version."""
    problems = [
        f"• {p.why or name_of(p.id)}"
        + (f" (“{short(p.phrases[0], 60)}”)" if p.phrases and p.phrases[0].strip() else "")
        for p in check.problems
    ]
    if check.verdict == "ok":
        return (Reply("This looks short and practical. It answers what needs answering."),)
    if check.verdict == "trim":
        head = "Mostly fine, but I'd leave some things out:"
    else:
        head = "I'd hold this one back:"
    lines = [head, *problems] if problems else [head]
    replies = [Reply("\n".join(lines))]
    if check.suggestion.strip():
        replies.append(Reply("A shorter version could be:"))
        replies += replies_from([check.suggestion.strip()])
    elif check.verdict == "dont_send":
        replies.append(Reply("It may be best not to send anything at all."))
    return tuple(replies)
