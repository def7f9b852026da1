"""Running the rule tables over normalised text: hits, clauses, negation, phrase lists."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from flows.analysis.normalize import Normalized
from flows.analysis.rule_starts import Table, places, table_of

#: At most this many phrases are reported per finding.
MAX_PHRASES = 5
#: At most this many hits are looked at per rule (keeps 100 KB inputs fast).
MAX_HITS = 50


@dataclass(frozen=True)
class Hit:
    start: int  # normalised offsets
    end: int


#: A word boundary that opens an alternative: ``\b`` at the start, after ``(?:`` or ``|``.
_LEADING_BOUNDARY = re.compile(r"(?:(?<=^)|(?<=\(\?:)|(?<=\|))\\b")


def compile_rule(pattern: str) -> re.Pattern[str]:
    """Compile a rule.  Leading ``\b`` are dropped from the regex (they stop the engine
    from skipping ahead quickly, which costs about four times the time) and checked in
    ``find`` instead: a hit may not start inside a word."""
    return re.compile(_LEADING_BOUNDARY.sub("", pattern))


def alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a regular expression (``a|b(c|d)`` -> ``a``, ``b(c|d)``),
    respecting groups, character classes and escapes."""
    out: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            i += 2 if pattern[i + 1 : i + 2] in ("^", "]") else 1
            if pattern[i - 1] == "^" and pattern[i : i + 1] == "]":
                i += 1
            while pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


def compile_split(pattern: str) -> tuple[re.Pattern[str], ...]:
    """A rule compiled as one pattern per top-level alternative.  Each alternative then
    starts with a literal the engine can skip ahead to, which is about twice as fast on
    long texts as one alternation whose branches start with groups."""
    return tuple(compile_rule(alt) for alt in alternatives(pattern))


def find_table(rules: Table, text: str, limit: int = MAX_HITS) -> list[list[Hit]]:
    """The hits of every entry of ``rules`` (see ``rule_starts.table``), each in order and at
    most ``limit``: what ``find`` gives for each of an entry's patterns, merged.  A pattern
    whose every match starts with one of a few words (see ``rule_starts.anchors``) is only
    tried where a word of the text starts so: most rules are about words the text does not
    contain, and looking a text's words up once for the whole table is much cheaper than a
    search per rule."""
    found: list[list[Hit]] = [[] for _ in rules.entries]
    for (entry, which), where in places(rules, text).items():
        pattern = rules.entries[entry][which]
        found[entry].extend(find_at(pattern, text, sorted(set(where)), limit))
    for entry, pattern, literal in rules.searched:
        if literal is None or any(p in text for p in literal):
            found[entry].extend(find(pattern, text, limit))
    for hits in found:
        if len(hits) > 1:
            hits.sort(key=lambda h: (h.start, h.end))
            del hits[limit:]
    return found


def find_all(patterns: Sequence[re.Pattern[str]], text: str, limit: int = MAX_HITS) -> list[Hit]:
    """Hits of one rule's patterns (see ``compile_split``), in order, at most ``limit``
    (``find_table`` with one entry)."""
    return find_table(table_of(patterns), text, limit)[0]


def compile_any(patterns: Sequence[str]) -> re.Pattern[str]:
    """One compiled alternation; each pattern carries its own word boundaries."""
    return compile_rule("|".join(f"(?:{p})" for p in patterns))


def _inside_word(text: str, pos: int) -> bool:
    return (
        pos > 0
        and (text[pos - 1].isalnum() or text[pos - 1] == "_")
        and (text[pos].isalnum() or text[pos] == "_")
    )


def find(pattern: re.Pattern[str], text: str, limit: int = MAX_HITS) -> list[Hit]:
    """Hits of a rule compiled with ``compile_rule``, at most ``limit``, in order."""
    hits: list[Hit] = []
    pos = 0
    while len(hits) < limit:
        match = pattern.search(text, pos)
        if match is None:
            break
        start, end = match.span()
        if _inside_word(text, start):
            pos = start + 1
            continue
        if end > start:
            hits.append(Hit(start, end))
        pos = max(end, start + 1)
    return hits


def find_at(
    pattern: re.Pattern[str], text: str, places: Sequence[int], limit: int = MAX_HITS
) -> list[Hit]:
    """``find`` where only ``places`` (in order) can start a hit: the pattern is matched
    there alone instead of searched for, with the same hits."""
    hits: list[Hit] = []
    pos = 0
    for at in places:
        if at < pos:
            continue
        match = pattern.match(text, at)
        if match is None or _inside_word(text, at):
            continue
        start, end = match.span()
        if end > start:
            hits.append(Hit(start, end))
            if len(hits) >= limit:
                break
        pos = max(end, start + 1)
    return hits


_CLAUSE_BREAK = re.compile(r"[.!?;,:\n]|\bbut\b|\bthough\b|\bhowever\b")


def clause_start(text: str, pos: int, window: int = 120) -> int:
    """Where the clause containing ``pos`` begins (bounded look-back)."""
    lo = max(0, pos - window)
    last = lo
    for match in _CLAUSE_BREAK.finditer(text, lo, pos):
        last = match.end()
    return last


def clause_end(text: str, pos: int, window: int = 120) -> int:
    match = _CLAUSE_BREAK.search(text, pos, min(len(text), pos + window))
    return match.start() if match else min(len(text), pos + window)


_NEG_WORD = r"(?:not|never|no|don't|do not|doesn't|didn't|won't|wouldn't|isn't|wasn't|aren't|ain't)"
#: A negation followed only by helper words up to the hit: "i'm not going to ...".
_NEG_BEFORE = re.compile(
    rf"\b{_NEG_WORD}(?:\s+(?:going|gonna|to|want|wanna|ever|really|actually|even|planning|"
    r"plan|be|thinking|about|of|try|trying|a|at all|gonna|intend|intending|ok|that|more|"
    r"longer))*\s*$"
)
_NEG_INSIDE = re.compile(rf"\b{_NEG_WORD}\b")


def negated(text: str, start: int, end: int) -> bool:
    """True when the hit ``[start, end)`` is negated: a negation inside it ("he would never
    hurt me") or right before it with only helper words between ("i'm not going to ...").
    A negation further away ("if you don't come back i'll ...") does not count."""
    if _NEG_INSIDE.search(text, start, end):
        return True
    begin = max(clause_start(text, start), start - 60)
    return bool(_NEG_BEFORE.search(text[begin:start]))


def phrases(norm: Normalized, hits: Iterable[Hit]) -> tuple[str, ...]:
    """Distinct original phrases for the hits, in order, capped at MAX_PHRASES."""
    out: list[str] = []
    for hit in hits:
        phrase = norm.phrase(hit.start, hit.end)
        if phrase and phrase not in out:
            out.append(phrase)
            if len(out) >= MAX_PHRASES:
                break
    return tuple(out)
