"""Plain names for the tactics the analysis finds, and how we show a finding:
name the pattern, quote the words, say why - never judge the person."""

from __future__ import annotations

from collections.abc import Iterable

from flows.analysis.result import Finding
from flows.replies import short

TACTIC_NAMES: dict[str, str] = {
    "apology": "An apology",
    "promise": "A promise to change",
    "affection": "Affection or nostalgia",
    "guilt": "Guilt",
    "victim": "Playing the victim",
    "urgency": "Urgency",
    "self_harm": "A threat to hurt themselves",
    "threat": "A threat",
    "blame": "Blame",
    "gift": "A gift or favour",
    "info_seeking": "Fishing for information about you",
    "relay": "Passing on a message",
    "smear": "Talking you down to others",
    "pressure": "Pressure",
    "logistics": "A practical matter",
}

#: Used when the analysis gives no reason of its own.
TACTIC_WHY: dict[str, str] = {
    "apology": "Apologies often arrive when they sense you are really leaving.",
    "promise": "A change made under pressure is not the same as lasting change.",
    "affection": "Warmth after distance is a common way to pull someone back.",
    "guilt": "It makes their feelings your responsibility.",
    "victim": "It recasts you as the one who did harm.",
    "urgency": "A sudden emergency makes it feel like you must answer right now.",
    "self_harm": (
        "This is serious, but their safety is not yours to carry: emergency services can help them."
    ),
    "threat": "Threats are about control. Keep a copy and think about your safety.",
    "blame": "It puts the responsibility for their behaviour on you.",
    "gift": "A gift can leave you feeling you owe them something.",
    "info_seeking": "Questions about your life are a way back into it.",
    "relay": "A message through someone else is still contact.",
    "smear": "Stories about you push you to defend yourself, or isolate you.",
    "pressure": "Pressure is about what they want, not what you need.",
    "logistics": "There may be a practical question that needs a short answer.",
}


def name_of(tactic: str) -> str:
    return TACTIC_NAMES.get(tactic, tactic.replace("_", " ").capitalize())


def describe(finding: Finding) -> str:
    """``• “I'll be different”: this looks like a promise to change. ...`` - the words that
    made the analysis decide, then why it matters (the analysis' own words if it has
    them, else ours, after the pattern's name)."""
    quotes = ", ".join(f"“{short(p, 80)}”" for p in finding.phrases[:3] if p.strip())
    if finding.why:
        return f"• {quotes}: {finding.why}" if quotes else f"• {finding.why}"
    name = name_of(finding.id)
    why = TACTIC_WHY.get(finding.id, "")
    head = f"• {name}: {quotes}." if quotes else f"• {name}."
    return f"{head} {why}".rstrip()


def describe_all(findings: Iterable[Finding]) -> str:
    lines = [describe(f) for f in findings if f.id != "logistics"]
    if not lines:
        return (
            "I don't see a clear pattern in it. You know the history better than any analysis does."
        )
    return "Here's what I notice:\n\n" + "\n\n".join(lines)
