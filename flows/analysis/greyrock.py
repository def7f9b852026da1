"""Logistics (the practical questions that need an answer) and the grey-rock reply.

Grey rock: answer only the practical question, briefly and neutrally, and nothing else.
"You have always been selfish ... Are you picking her up at 5?" -> "Yes, 5."  Where the
answer is something only the user knows, the reply holds a short [placeholder] to fill in.
When there is no practical question there is no reply to suggest: the advice is silence.
"""

from __future__ import annotations

import re

from flows.analysis.matching import Hit
from flows.analysis.normalize import Normalized, sentences

#: At most this many practical questions are answered in one reply.
MAX_QUESTIONS = 3

_DAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
PRACTICAL = re.compile(
    r"\b(?:pick(?:ing|ed|s)?\s+(?:\w+\s+){0,2}?up|pick-?up|drop(?:ping|ped"
    r"|s)?\s+(?:\w+\s+){0,2}?off|"
    r"drop-?off|collect(?:ing|ion)?|school|nursery|childcare|swimming|football|practice|"
    r"lessons?|tutor|dentist|doctor|gp|appointment|vet|vet's|inhaler|medicine|medication|"
    r"allergic|passport|birth certificate|documents?|forms?|consent|sign|signatures?|keys?|car|"
    r"money|pay|paid|payment|maintenance|bills?|rent|mortgage|bank|court|mediation|solicitor|"
    r"lawyer|custody|weekend|half term|holidays?|christmas|boxing day|easter|party|tomorrow|"
    r"what time|pick-?up time|date|kids|children|swap|stuff|belongings|boots|uniform|shoes|"
    r"photos|milk|coat|clothes|fees|transfer|slip|permission|bag|bottle|handover|hand over|"
    r"homework|kit|feed|parents evening|availability|half-term|letter|address change|"
    r"registered|authori[sz]e|boosters|vaccinations?|jabs|drop (?:it|them) round|"
    r"(?:want|need) (?:it|them) back|" + _DAYS + r"|"
    r"\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)|at \d{1,2}|by \d|\d{1,2}(?:st|nd|rd|th)|o'clock)\b"
    r"|[£$€]\s?\d"
)
#: Practical enough to answer even inside a hostile sentence.
HANDOVER = re.compile(
    r"\b(?:pick(?:ing|ed|s)?\s+(?:\w+\s+){0,2}?up|pick-?up|drop(?:ping|ped|s)?\s+(?:\w+\s+){0,2}?"
    r"off|drop-?off|collect|passport|keys|school run|(?:want|need)s? (?:the|my|his|her|your) "
    r"[\w ]{1,20} back)\b|[£$€]\s?\d"
)
_QUESTION_START = re.compile(
    r"^(?:\W*)(?:anyway |so |and |also |ok |okay )?(?:are|is|can|could|will|would|do|does|did|"
    r"should|shall|what|when|where|who|which|how|have|has|may|am)\b"
)
_REQUEST = re.compile(
    r"\b(?:can|could|would|will) (?:you|we)\b|\bplease (?:confirm|send|bring|sign|let me know|"
    r"tell me|transfer|pay|return|drop|collect)\b|\bi need (?:the|you to|your|a|an)\b"
    r"|\bneeds? (?:your|the|you to)\b"
    r"|\b(?:want|need)s? (?:the|my|his|her|your) [\w ]{1,20} back\b|\blet me know\b"
    r"|\bconfirm\b|\bowes? (?:him|me|her|us) [£$€]"
)
#: Contact, not logistics: "can we talk?", "call me".
_TALK = re.compile(r"\b(?:talk|speak|chat|call me|ring me|meet up|see you|catch up|be friends)\b")
_TIME = re.compile(
    r"\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)\b|\b\d{1,2}[:.]\d{2}\b"
    r"|(?<=\bat )\d{1,2}\b|(?<=\bby )\d{1,2}\b|(?<=\baround )\d{1,2}\b|\bnoon\b|\bmidday\b"
)
_DAY = re.compile(rf"\b(?:{_DAYS}|tomorrow|today)\b|\b\d{{1,2}}(?:st|nd|rd|th)\b")
_CHOICE = re.compile(r"\bor (?:am i|should i|me|i|your \w+|you)\b|\b(?:you|me) or\b|^\W*who\b")
_OK = re.compile(r"^\W*(?:is that |that |are you )?(?:ok|okay|alright|all right|fine)\b")


#: A question starting mid-sentence in unpunctuated text: "... selfish are you picking ...".
_EMBEDDED_QUESTION = re.compile(
    r"\s(?=(?:are|is|can|could|will|would|do|does|did|what|when|where|who|which)\s+"
    r"(?:you|we|they|he|she|it|the|your|our|i)\b)"
)


def _split_run_ons(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in spans:
        match = _EMBEDDED_QUESTION.search(text, start + 1, end)
        sentence = text[start:end]
        asks = sentence.rstrip().endswith("?") or _QUESTION_START.search(sentence)
        if match and not asks:
            out.append((start, match.start()))
            out.append((match.end(), end))
        else:
            out.append((start, end))
    return out


#: Shared-life arrangements a co-parent or ex may state without asking: a statement about
#: one of these with a concrete day, time, amount or instruction still needs noting.
_ARRANGEMENT = re.compile(
    r"\b(?:pick(?:ing)?\s+(?:\w+\s+){0,2}?up|pick-?up|drop(?:ping)?\s+(?:\w+\s+){0,2}?off|"
    r"drop-?off|collect\w*|handover|school|nursery|maintenance|court|hearing|solicitor|"
    r"mediation|mortgage|signatures?|consent|passports?|inhaler|uniform|kit|swimming|football|"
    r"karate|dentist|orthodontist|vet|parents evening|council tax|keys?|logbook|bills?|owe|"
    r"fees|glasses|calpol|temperature|half term|boxing day|christmas|xmas|birth certificate|"
    r"documents|forms?|rent|deposit|contact centre|custody|access|overnight|sleepover|"
    r"(?:he'?s|she'?s|they'?re|they are|kids are) with (?:me|you)|their dad|their mum|"
    r"(?:bringing|bring|drop|dropping|taking|take|having|collect) (?:the kids|the children|them|"
    r"him|her) (?:back|home|to|at|on|from))\b"
)
_CONCRETE = re.compile(
    r"\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)\b|\b\d{1,2}[:.]\d{2}\b|\bat \d{1,2}\b|[£$€]\s?\d"
    r"|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today|tonight|"
    r"this week|next week|weekend|sat|sun|christmas|xmas|christmas day|boxing day|new year'?s?|"
    r"easter|half term|bank holiday)\b|\b\d{1,2}(?:st|nd|rd|th)\b"
    r"|^\W*(?:bring|sign|send|post|drop|collect|pay|leave|return|pack|remember|don'?t forget)\b"
    r"|\bneeds? (?:it|them|the \w+|his \w+|her \w+) back\b|\bneeds? collecting\b"
)


def practical_questions(norm: Normalized, tactic_hits: list[Hit]) -> list[tuple[int, int]]:
    """Normalised spans of the sentences that ask something practical.  A message that
    asks nothing practical may still state a concrete arrangement (a day, time or amount
    about the children, money or papers): then those sentences are returned instead."""
    text = norm.text
    spans = _split_run_ons(text, sentences(norm))
    asked: list[tuple[int, int]] = []
    stated: list[tuple[int, int]] = []
    previous_practical = False
    # A sweep over the hits sorted by start: a sentence overlaps a hit when the furthest
    # end among the hits starting before the sentence ends lies past its start.
    hits = sorted(tactic_hits, key=lambda h: h.start)
    next_hit = 0
    furthest = -1
    for start, end in spans:
        while next_hit < len(hits) and hits[next_hit].start < end:
            furthest = max(furthest, hits[next_hit].end)
            next_hit += 1
        overlapped = furthest > start
        sentence = text[start:end]
        asks = sentence.rstrip().endswith("?") or bool(
            _QUESTION_START.search(sentence) or _REQUEST.search(sentence)
        )
        practical = bool(PRACTICAL.search(sentence))
        if _TALK.search(sentence):
            pass
        elif asks:
            if overlapped:
                keep = bool(HANDOVER.search(sentence))
            else:
                short = len(sentence.split()) <= 8
                keep = practical or (previous_practical and short)
            if keep:
                asked.append((start, end))
                if len(asked) >= MAX_QUESTIONS:
                    break
        elif (
            not overlapped
            and _CONCRETE.search(sentence)
            and (_ARRANGEMENT.search(sentence) or previous_practical)
        ):
            stated.append((start, end))
        previous_practical = practical and not overlapped
    return (asked or stated)[:MAX_QUESTIONS]


def _answer(question: str) -> str:
    """A brief neutral answer to one practical question (normalised text in, plain out)."""
    tail = question.rsplit(",", 1)[-1]
    if "," in question and _QUESTION_START.search(tail):
        question = tail  # "the payment didn't go out, when will it?"
    times = [m.group(0) for m in _TIME.finditer(question)]
    days = [m.group(0) for m in _DAY.finditer(question)]
    when = ""
    if days and times:
        when = f"{days[0].capitalize()} at {times[0]}"
    elif times:
        when = times[0]
    elif days:
        when = days[0].capitalize()
    head = question.lstrip(" \"'(").split(" ", 2)
    first = head[0] if head else ""
    two = " ".join(head[:2])
    if _OK.search(question):
        return "OK."
    if two == "what time":
        return f"{days[0].capitalize()} at [time]." if days else "[time]."
    if first == "when":
        return "[day and time]."
    if first in ("what", "which") and re.search(r"\b(?:day|week|date|time)\b", question):
        return "[day]."
    if first == "where":
        return "[place]."
    if _CHOICE.search(question):
        return "I will."
    if first in ("what", "which", "how", "who"):
        return "[answer]."
    if not question.rstrip().endswith("?") and not _QUESTION_START.search(question):
        if "availability" in question:
            return "[dates]."
        return "Noted."
    if when:
        return f"Yes, {when}."
    return "[Yes/No]."


def reply(norm: Normalized, spans: list[tuple[int, int]]) -> str | None:
    """The grey-rock reply answering only the practical questions, or None (no reply)."""
    if not spans:
        return None
    answers: list[str] = []
    for start, end in spans:
        answer = _answer(norm.text[start:end])
        if answer not in answers:
            answers.append(answer)
    return " ".join(answers)
