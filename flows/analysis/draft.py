"""``check_draft(incoming, draft)``: what in a reply the user wants to send gives the other
person something to push against, a verdict, and a trimmed suggestion.

Verdicts: "ok" (send it if you still want to), "trim" (send only the practical part: see
``suggestion``), "dont_send" (nothing here needs an answer, or the draft would hand them a
reaction; ``suggestion`` is then empty: no reply is the reply).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flows.analysis.greyrock import PRACTICAL
from flows.analysis.matching import Hit, compile_any, find, phrases
from flows.analysis.message import analyze
from flows.analysis.normalize import Normalized, normalize, sentences
from flows.analysis.result import DraftCheck, Finding


@dataclass(frozen=True)
class Problem:
    why: str
    patterns: tuple[str, ...]


_NAMES = (
    r"(?:idiot|liar|narcissist|psycho|pathetic|joke|loser|monster|bitch|bastard|prick|twat|"
    r"asshole|arsehole|dick|moron|crazy|abuser|evil|disgusting|useless|piece of (?:shit|work)|"
    r"waste of space|scum|coward|freak|nutter|cow|witch)"
)

PROBLEMS: dict[str, Problem] = {
    "justifying": Problem(
        "This justifies your choice. You do not need their agreement to have made it.",
        (
            r"\bbecause\b|\bthe reason (?:is|i|was|why)\b|\bi only (?:did|said|left|went)\b",
            r"\bi had to\b|\bi had no (?:choice|option)\b|\bthat'?s why\b|\bi needed to\b",
            r"\bi deserve\b|\bi have (?:every|the) right\b|\bafter what you did\b",
        ),
    ),
    "arguing": Problem(
        "This argues back, which keeps the conversation going.",
        (
            r"\bthat'?s (?:not true|a lie|rubbish|bullshit|ridiculous)\b|\byou'?re wrong\b",
            r"\byou (?:always|never)\b|\bhow dare you\b|\bno i (?:didn'?t|did not|don'?t)\b",
            r"\blet me remind you\b|\byou know (?:full well|that'?s not)\b|\bstop lying\b",
            r"\byou'?re the one who\b|\bactually,|\bif anyone\b|\bwho are you to\b",
            r"\byou (?:started|did) (?:it|this)\b|\blook who'?s talking\b",
        ),
    ),
    "defending": Problem(
        "This defends you against their accusation. You do not have to correct it.",
        (
            r"\bi (?:did not|didn'?t|never) (?:say|said|do|did|cheat|cheated|take|took|lie|lied|"
            r"tell|told|mean|hurt|steal|stole)\b",
            r"\bi'?m not (?:selfish|crazy|a liar|lying|unstable|the problem|a bad|being|mental|"
            r"unfit|the one)\b|\bi am not (?:selfish|crazy|a liar|lying|unstable|the problem)\b",
            r"\bi(?:'?m| am) a good (?:mother|mum|mom|dad|father|parent|person|partner)\b",
            r"\bthat'?s not (?:fair|what happened)\b|\bi (?:have|'ve) always\b",
            r"\bi (?:do|did) (?:everything|my best)\b",
        ),
    ),
    "explaining": Problem(
        "This explains yourself. Explaining gives them something to push against.",
        (
            r"\blet me explain\b|\bi (?:just )?want(?:ed)? you to (?:understand|know|see)\b",
            r"\bwhat (?:happened|i meant) (?:was|is)\b|\bto be clear\b|\bthe truth is\b",
            r"\bi need you to (?:understand|know|hear)\b|\byou (?:have|need) to understand\b",
            r"\bplease understand\b|\bi meant\b|\bthe thing is\b|\bi'?m (?:only )?(?:doing|saying)"
            r" this (?:because|so)\b|\bi just (?:think|feel|wanted)\b",
        ),
    ),
    "apologising": Problem(
        "This apologises. An apology can reopen the door; you have nothing to make up for here.",
        (r"\bsorry\b|\bapologi[sz]e\b|\bforgive me\b|\bmy (?:fault|bad)\b",),
    ),
    "reopening_question": Problem(
        "This asks a question, which invites another reply.",
        (),  # found per sentence in _questions()
    ),
    "emotional": Problem(
        "This shows strong feelings. They can use them to pull you back in.",
        (
            r"\bi (?:feel|felt)\b|\bheartbroken\b|\bdevastated\b|\bi'?m (?:so |really )?(?:hurt|"
            r"upset|angry|sad|tired|done|exhausted|furious|scared)\b",
            r"\b(?:miss|love|hate) you\b|\bi hate\b|\bcan'?t believe\b|\bhow could you\b",
            r"\bcrying\b|\bin tears\b|\bbroke my heart\b|\bruined my life\b|!{2,}",
            r"[😭😢😡🤬💔❤😤]",
        ),
    ),
    "insult": Problem(
        "This insults them. It may feel deserved, but it hands them a reaction to use.",
        (
            rf"\b(?:you'?re|you are|ur) (?:a |an |such a |so |the )?(?:\w+ )?{_NAMES}\b",
            r"\bf(?:uck|u|k) (?:you|off)\b|\bscrew you\b|\bgo to hell\b|\bshut up\b|\bget lost\b",
            r"\brot in\b|\bdrop dead\b",
        ),
    ),
    "oversharing": Problem(
        "This shares personal details they do not need.",
        (
            r"\bmy new (?:boyfriend|girlfriend|partner|flat|house|job|address|place|number|man|"
            r"fella)\b",
            r"\bi (?:live|am living|'m living|work|am working|'m working|moved|'ve moved) (?:in|at|"
            r"near|for|to)\b|\bi'?m (?:living|staying) (?:in|at|with)\b",
            r"\bi'?m (?:dating|seeing (?:someone|a))\b|\bmy (?:therapist|counsell?or|address)\b",
            r"\bi'?ve been (?:going to|seeing) (?:a |my )?(?:therapist|therapy|counsell?or)\b",
            r"\bon my (?:holiday|trip)\b|\bi'?m doing (?:great|better|amazing|so well)\b",
            r"\b\d+ \w+ (?:street|road|st|rd|avenue|ave|lane|close|drive|way)\b",
        ),
    ),
    # What reopens the door, by what it does (the draft check's job is to let only the
    # answer to the practical question through).
    "affection": Problem(
        "This is warm or wistful. Affection and shared memories tell them the door is still open.",
        (
            # missing them, thinking of them, caring
            r"\bmiss(?:ing)? (?:you|u|ya|us|this|what we|having you|the way|talking|being with)"
            r"\b|\b(?:think|thinking|thought) (?:about|of) (?:you|u|us)\b",
            r"\b(?:love|luv) (?:you|u|ya)\b|\b(?:lots of|all my|sending(?: my)?) love\b"
            r"|\bi (?:still )?care about you\b|\bstill care\b|\bproud of you\b",
            r"\byou (?:still )?mean (?:so much|a lot|everything|the world)\b"
            r"|\bmy (?:love|darling|babe|baby|sweetheart|honey)\b|\bhugs\b",
            r"(?<![\w])x{2,}(?![\w])|(?<![\w])(?:xo)+x?(?![\w])|[😘🥰💕💖💗💞❤♥]",
            # memories and regret
            r"\bremember (?:when|the (?:time|day|night|first)|how we|our|us)\b"
            r"|\bthe good (?:old )?(?:times|days)\b|\bgood old days\b|\bwe used to\b",
            r"\bback when we\b|\bthose (?:were the )?(?:days|nights|times)\b|\bwhat we had\b"
            r"|\bwe (?:were|had) (?:so )?(?:happy|good|great|something)\b",
            r"\bi still (?:love|care|miss|think|dream|remember)\b|\bi wish (?:we|things|it|you)\b"
            r"|\bif only (?:we|you|i)\b|\bour (?:song|anniversary|first)\b",
        ),
    ),
    "well_wishing": Problem(
        "This wishes them well or asks how they are. Kindness here invites a friendly reply "
        "and more contact.",
        (
            r"\bhappy (?:birthday|bday|anniversary|new year|christmas|xmas|holidays|easter|"
            r"valentine'?s|mother'?s day|father'?s day)\b|\bmerry (?:christmas|xmas)\b",
            r"\bcongrat(?:ulation)?s\b|\bbest wishes\b|\ball the best\b|\bwishing you\b",
            r"\bhope (?:you(?:'re| are)|youre|ur|u r) (?:well|ok|okay|good|alright|happy|safe|"
            r"doing (?:well|ok|okay|good|alright)|keeping well)\b(?!\s+(?:with|to|for|about)\b)",
            r"\bhope (?:all is|everything(?:'s| is)|things are|life is|you'?ve been) (?:well|good|"
            r"ok|okay|going well|treating you)\b",
            r"\bhope you (?:have|had|enjoy|enjoyed) (?:a |an )?(?:good|great|nice|lovely|"
            r"wonderful|happy|fun|amazing|relaxing)\b",
            r"\btake care\b(?!\s+of\s+(?:it|that|this|the|her|him|them|everything))"
            r"|\bstay safe\b|\bbe well\b",
            r"\bhow (?:are|r) (?:you|u)(?: (?:doing|keeping|feeling|holding up|getting on|"
            r"these days))?\b(?!\s+\w)|\bhow (?:have|'ve) you been\b",
            r"\bhow'?s (?:life|everything|it going|things|your (?:day|week|family|mum|mom|dad|"
            r"job|work))\b|\bhow is (?:life|everything|it going)\b",
            r"\bwhat (?:have|'ve) you been up to\b|\bwhat are you up to\b"
            r"|\bare you (?:ok|okay|alright|well|doing ok)\b(?!\s+(?:with|to|for)\b)",
        ),
    ),
    "inviting": Problem(
        "This invites more contact. The conversation can end with the practical answer.",
        (
            r"\b(?:we should|let'?s|can we|could we|shall we|we could|maybe we can) (?:talk|speak|"
            r"meet|catch up|get (?:a )?(?:coffee|drink|dinner|together)|grab|have (?:a )?(?:chat|"
            r"talk|coffee|drink)|see each other|try again|start again|be friends|work (?:it|this|"
            r"things) out)\b",
            r"\b(?:call|ring|phone|text|message) me\b"
            r"(?!\s+(?:if|when|about|at|by|once|on arrival)\b)|\bmy door is (?:always )?open\b",
            r"\bi'?m (?:always )?here (?:for you|if you (?:need|want|ever))\b"
            r"|\bif you ever (?:need|want) (?:to talk|anything|me)\b",
            r"\b(?:talk|speak|chat) soon\b|\bsee you soon\b|\bcan'?t wait to see you\b"
            r"|\b(?:would|i'?d) love to (?:see|hear from|talk to|catch up with|meet) you\b"
            r"|\blet me know how you(?:'re| are)\b",
        ),
    ),
    "too_long": Problem("This is longer than the question needs. A few words are enough.", ()),
}

_COMPILED = {pid: compile_any(p.patterns) for pid, p in PROBLEMS.items() if p.patterns}
_QUESTION = re.compile(
    r"^\W*(?:are|is|can|could|will|would|do|does|did|should|why|what|when|where|who|how|have|"
    r"has)\b"
)
_CLAUSE = re.compile(r",|;| - |\bbut\b|\bbecause\b|\band\b|\bso\b|\bcos\b")
_SHORT_ANSWER = re.compile(r"\b(?:yes|yeah|yep|no|ok|okay|fine|sure|noted|i will|i can)\b|\d")
_WORD = re.compile(r"\S+")
#: Words per practical question a reply needs, and the cap without one.
WORDS_PER_QUESTION = 12
WORDS_WITHOUT_QUESTION = 25


def _questions(norm: Normalized) -> list[Hit]:
    hits: list[Hit] = []
    for start, end in sentences(norm):
        sentence = norm.text[start:end]
        if sentence.rstrip().endswith("?") or _QUESTION.search(sentence):
            # A practical clarifying question ("is 5 ok?") is part of the logistics.
            if not (PRACTICAL.search(sentence) and len(sentence.split()) <= 8):
                hits.append(Hit(start, end))
    return hits


def _trim(norm: Normalized, problem_hits: list[Hit]) -> str:
    """The draft's sentences (or leading clauses) that carry no problem and say something
    practical."""
    kept: list[str] = []
    for start, end in sentences(norm):
        inside = [h for h in problem_hits if h.start < end and start < h.end]
        sentence = norm.text[start:end]
        if not inside:
            if PRACTICAL.search(sentence) or _SHORT_ANSWER.search(sentence):
                kept.append(norm.exact(start, end))
            continue
        first = min(h.start for h in inside)
        cut = None
        for match in _CLAUSE.finditer(norm.text, start, first):
            cut = match.start()
        if cut is None or cut <= start:
            continue
        head = norm.text[start:cut]
        if PRACTICAL.search(head) or _SHORT_ANSWER.search(head):
            phrase = norm.exact(start, cut).rstrip(" ,;-")
            kept.append(phrase if phrase.endswith((".", "!", "?")) else phrase + ".")
    return " ".join(kept)


def check_draft(incoming: str, draft: str) -> DraftCheck:
    """Check a reply the user wants to send to ``incoming`` (which may be empty)."""
    norm = normalize(draft)
    hits: dict[str, list[Hit]] = {}
    for pid, pattern in _COMPILED.items():
        found = find(pattern, norm.text)
        if found:
            hits[pid] = found
    questions = _questions(norm)
    if questions:
        hits["reopening_question"] = questions
    analysis = analyze(incoming) if incoming.strip() else None
    asked = analysis.logistics if analysis else ()
    words = len(_WORD.findall(draft))
    allowed = min(30, WORDS_PER_QUESTION * len(asked)) if asked else WORDS_WITHOUT_QUESTION
    if words > allowed:
        spans = sentences(norm)
        longest = max(spans, key=lambda s: s[1] - s[0]) if spans else (0, len(norm.text))
        hits["too_long"] = [Hit(*longest)]
    problems = tuple(
        Finding(pid, phrases(norm, sorted(hits[pid], key=lambda h: h.start)), PROBLEMS[pid].why)
        for pid in PROBLEMS
        if pid in hits
    )
    problem_hits = [h for pid, hs in hits.items() if pid != "too_long" for h in hs]
    if "insult" in hits:
        return DraftCheck(problems, "dont_send", "")
    if incoming.strip() and not asked:
        if not problems and draft.strip():
            return DraftCheck(problems, "ok", draft.strip())
        return DraftCheck(problems, "dont_send", "")
    if not problems:
        return DraftCheck(problems, "ok", draft.strip())
    suggestion = _trim(norm, problem_hits)
    if (
        analysis
        and analysis.grey_rock
        and (not suggestion or len(_WORD.findall(suggestion)) > allowed)
    ):
        suggestion = analysis.grey_rock
    if not suggestion:
        return DraftCheck(problems, "dont_send", "")
    return DraftCheck(problems, "trim", suggestion)
