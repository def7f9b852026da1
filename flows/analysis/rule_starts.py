"""Where a rule's matches can start, so that a rule is only tried there (``find_table`` in
matching.py runs a whole table of rules at once): the words of a text by how they begin
(``keys_of``), and what every match of a pattern must begin with (``anchors``), read from
the pattern's parsed form.  Most rules are about words a text does not contain, and
comparing words is much cheaper than a search; the hits are the same
(tests/test_analysis_matching.py)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

#: Where one pattern of a table is tried: (the entry, the pattern in it, how many
#: characters before the word its matches start).
Anchor = tuple[int, int, int]


@dataclass(frozen=True)
class Table:
    """Several rules run together (``matching.find_table``): ``entries`` holds each rule's
    patterns; ``by_key`` the words every pattern's matches can start with (in the terms of
    ``keys_of``), each with where it is tried; ``searched`` the patterns that must be
    searched for instead (entry, pattern, and their literal openings, if any)."""

    entries: tuple[tuple[re.Pattern[str], ...], ...]
    by_key: dict[str, tuple[Anchor, ...]]
    searched: tuple[tuple[int, re.Pattern[str], tuple[str, ...] | None], ...]
    #: a run of word characters -> the anchors its keys have (runs repeat: remembered)
    seen: dict[str, tuple[Anchor, ...]] = field(default_factory=dict, compare=False, repr=False)

    def anchored(self, run: str) -> tuple[Anchor, ...]:
        """Where a run of word characters lets this table's patterns start."""
        found = self.seen.get(run)
        if found is None:
            if len(self.seen) >= _SEEN:
                self.seen.clear()
            found = self.seen[run] = tuple(
                a for key in keys_of(run) for a in self.by_key.get(key, ())
            )
        return found


#: Runs remembered per table (a few hundred KB at most).
_SEEN = 16384


def table(entries: Sequence[Sequence[re.Pattern[str]]]) -> Table:
    """The table of ``entries`` (each a rule's patterns, as ``compile_split`` gives them)."""
    by_key: dict[str, list[Anchor]] = {}
    searched = []
    for entry, patterns in enumerate(entries):
        for which, pattern in enumerate(patterns):
            starts = anchors(pattern)
            if starts is None:
                searched.append((entry, pattern, openings(pattern)))
                continue
            for key, back in starts:
                by_key.setdefault(key, []).append((entry, which, back))
    return Table(
        tuple(tuple(p) for p in entries),
        {key: tuple(found) for key, found in by_key.items()},
        tuple(searched),
    )


#: id(patterns) -> (the patterns, their one-entry table), for ``matching.find_all``.  By
#: id: hashing compiled patterns hashes their whole programs, which costs more than the
#: search saved.
_TABLES: dict[int, tuple[Sequence[re.Pattern[str]], Table]] = {}


def table_of(patterns: Sequence[re.Pattern[str]]) -> Table:
    """The table of one rule's ``patterns`` (remembered)."""
    found = _TABLES.get(id(patterns))
    if found is not None and found[0] is patterns:
        return found[1]
    made = table((patterns,))
    if len(_TABLES) > 8192:
        _TABLES.clear()
    _TABLES[id(patterns)] = (patterns, made)
    return made


def places(rules: Table, text: str) -> dict[tuple[int, int], list[int]]:
    """Where each pattern of ``rules`` (by entry and pattern) can start a hit in ``text``,
    in no particular order and perhaps twice: only where a word starts as the pattern's
    matches must (``find`` refuses hits inside a word)."""
    out: dict[tuple[int, int], list[int]] = {}
    for run, at in word_runs(text).items():
        for entry, which, back in rules.anchored(run):
            where = out.setdefault((entry, which), [])
            if back:
                where.extend([a - back for a in at if a >= back])
            else:
                where.extend(at)
    return out


#: The standard library's own regex parser (not in the type stubs, hence Any).
_parser: Any = importlib.import_module("re._parser")
_constants: Any = importlib.import_module("re._constants")
#: Where a pattern's matches can start: a key of ``keys_of`` and how many characters
#: before that word (a mark, as in "'ve got").
Anchors = tuple[tuple[str, int], ...]


#: Word starts are compared up to this many characters.
_START = 6
_RUN = re.compile(r"\w+")
#: In ``keys_of``: a run that begins with a digit of any script (what ``\d`` matches).
DIGIT = "0-9"


def keys_of(run: str) -> list[str]:
    """The keys a run of word characters has: its beginnings (1 to ``_START`` characters),
    the whole run followed by a space (``"he "``: the word "he" itself), and ``DIGIT``
    where it begins with a digit.  A pattern's ``anchors`` are keys of the same kind."""
    keys = [run[:n] for n in range(1, min(len(run), _START) + 1)]
    keys.append(run + " ")
    if run[0].isdigit():
        keys.append(DIGIT)
    return keys


@lru_cache(maxsize=4)
def word_runs(text: str) -> dict[str, list[int]]:
    """Every run of word characters in ``text`` and where it starts, in order (the last
    few texts are remembered: every table reads the same one)."""
    out: dict[str, list[int]] = {}
    for match in _RUN.finditer(text):
        out.setdefault(match.group(), []).append(match.start())
    return out


@lru_cache(maxsize=4096)
def anchors(pattern: re.Pattern[str]) -> Anchors | None:
    """What every match of ``pattern`` starts with, in the terms of ``keys_of``: a
    word's beginning, or a whole word (``"he "``) where the pattern ends the word there
    (after a leading mark, as in "'ve": the word after it), each with how many characters
    before that word the match starts.  ``None`` when that cannot be told from the
    pattern (a class, a repeat of one, a case-insensitive flag, a match that can start
    with a symbol alone)."""
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        starts = _starts(list(_parser.parse(pattern.pattern, pattern.flags)), False)
    except (re.error, RecursionError):
        return None
    if not starts or any(not s.strip() for s in starts):
        return None
    out: set[tuple[str, int]] = set()
    for s in starts:
        word = s.lstrip(_MARKS)
        out.add((word if word.endswith(" ") else word[:_START], len(s) - len(word)))
    return tuple(sorted(out))


#: At most this many openings are compared (more: the search is as quick).
_OPENINGS = 8
#: Openings shorter than this are not worth comparing (the word check did that).
_OPENING_MIN = 5


@lru_cache(maxsize=4096)
def openings(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """The literal texts every match of ``pattern`` begins with ("he said", "she said"),
    when there are a few and they are long enough to tell much; else ``None``."""
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        found, _ = _openings(list(_parser.parse(pattern.pattern, pattern.flags)), [""])
    except (re.error, RecursionError):
        return None
    if not found or len(found) > _OPENINGS or min(map(len, found)) < _OPENING_MIN:
        return None
    return tuple(found)


def _openings(items: list[tuple[Any, Any]], heads: list[str]) -> tuple[list[str], bool]:
    """``heads`` extended by the literal beginning of ``items``; and whether all of
    ``items`` was literal (so what follows may extend them further)."""
    for op, arg in items:
        if op in (_constants.AT, _constants.ASSERT, _constants.ASSERT_NOT):
            continue  # zero-width
        if op is _constants.LITERAL:
            heads = [h + chr(arg) for h in heads]
            continue
        if op is _constants.SUBPATTERN:
            heads, whole = _openings(list(arg[3]), heads)
            if not whole:
                return heads, False
            continue
        if op is _constants.BRANCH:
            out: list[str] = []
            whole = True
            for branch in arg[1]:
                more, done = _openings(list(branch), heads)
                out.extend(more)
                whole = whole and done
                if len(out) > _OPENINGS:
                    return heads, False
            if not whole:  # the branches' own beginnings, no further
                return out, False
            heads = out
            continue
        if op is _constants.IN:
            chars = [chr(a) for o, a in arg if o is _constants.LITERAL]
            if len(chars) != len(arg) or len(chars) * len(heads) > _OPENINGS:
                return heads, False
            heads = [h + c for h in heads for c in chars]
            continue
        return heads, False
    return heads, True


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _closes(rest: list[tuple[Any, Any]], outer: bool) -> bool:
    """Whether what follows (``rest``, then whatever follows it: ``outer``) ends a word."""
    if not rest:
        return outer
    op, arg = rest[0]
    if op is _constants.LITERAL:
        return not _word_char(chr(arg))
    return op is _constants.AT and arg is _constants.AT_BOUNDARY


def _starts(items: list[tuple[Any, Any]], outer: bool) -> list[str] | None:
    """How a match of the parsed ``items`` can begin: literal word characters, with a
    space after them when the word surely ends there (``outer``: whether what follows
    ``items`` ends a word)."""
    for at, (op, arg) in enumerate(items):
        if op in (_constants.AT, _constants.ASSERT, _constants.ASSERT_NOT):
            continue  # zero-width: "\b", "(?<!you )"
        if op is _constants.LITERAL:
            word = ""
            for op2, arg2 in items[at:]:
                if op2 is not _constants.LITERAL or not _word_char(chr(arg2)):
                    break
                word += chr(arg2)
            if not word:
                # a mark, then a word ("'ve got"): the word begins a run of its own
                mark, rest = chr(arg), items[at + 1 :]
                if mark not in _MARKS or not rest or rest[0][0] is not _constants.LITERAL:
                    return None
                if not _word_char(chr(rest[0][1])):
                    return None
                after = _starts(rest, outer)
                return None if after is None else [mark + s for s in after]
            return [word + " " if _closes(items[at + len(word) :], outer) else word]
        if op is _constants.SUBPATTERN:
            return _starts(list(arg[3]), _closes(items[at + 1 :], outer))
        if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT):
            low, _, body = arg
            found = _starts(list(body), False)
            if found is None or low > 0:
                return found  # at least once: it starts as its body does
            then = _starts(items[at + 1 :], outer)  # optional: its body, or what follows
            return None if then is None else found + then
        if op is _constants.BRANCH:
            out: list[str] = []
            closes = _closes(items[at + 1 :], outer)
            for branch in arg[1]:
                found = _starts(list(branch), closes)
                if not found:
                    return None
                out.extend(found)
            return out
        if op is _constants.IN:
            chars = [chr(a) for o, a in arg if o is _constants.LITERAL]
            digits = [o for o, a in arg if o is _constants.CATEGORY and a is _DIGIT]
            if len(chars) + len(digits) != len(arg) or not all(map(_word_char, chars)):
                return None
            closes = _closes(items[at + 1 :], outer)
            return [c + " " if closes else c for c in chars] + ([DIGIT] if digits else [])
        return None
    return None


_DIGIT = _constants.CATEGORY_DIGIT
#: Marks a rule may start with before a word ("'ve", "-year").
_MARKS = "'-"
