"""Text normalisation with an offset map back to the original text.

Rules match on a normalised copy (lower case, straight quotes, common abbreviations and
typos spelled out, stretched letters shortened, forward headers and "> " quote markers
blanked) but every phrase a user sees is cut from the ORIGINAL text, so a finding can
always point at the user's own words.  Everything here is linear in the text length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

#: Characters replaced one-for-one before anything else (same length).
_CHAR_MAP = str.maketrans(
    {
        "‘": "'",
        "’": "'",
        "‛": "'",
        "′": "'",
        "´": "'",
        "`": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "–": "-",
        "—": "-",
        "…": ".",
        "\u200b": " ",
        "\u200d": " ",
        "\ufe0f": " ",
        "\u00a0": " ",
    }
)

#: Whole-word rewrites: texting abbreviations and frequent misspellings.
ABBREVIATIONS: dict[str, str] = {
    "u": "you",
    "ya": "you",
    "yu": "you",
    "ur": "your",
    "yr": "your",
    "r": "are",
    "pls": "please",
    "plz": "please",
    "pleas": "please",
    "bc": "because",
    "bcos": "because",
    "cos": "because",
    "coz": "because",
    "cuz": "because",
    "b4": "before",
    "tmrw": "tomorrow",
    "ded": "dead",
    "tmr": "tomorrow",
    "tomoz": "tomorrow",
    "2moro": "tomorrow",
    "2morrow": "tomorrow",
    "tommorow": "tomorrow",
    "tomorow": "tomorrow",
    "tommorrow": "tomorrow",
    "2day": "today",
    "2nite": "tonight",
    "tonite": "tonight",
    "rn": "right now",
    "idk": "i don't know",
    "im": "i'm",
    "ive": "i've",
    "dont": "don't",
    "cant": "can't",
    "wont": "won't",
    "didnt": "didn't",
    "doesnt": "doesn't",
    "isnt": "isn't",
    "wasnt": "wasn't",
    "werent": "weren't",
    "arent": "aren't",
    "wouldnt": "wouldn't",
    "couldnt": "couldn't",
    "shouldnt": "shouldn't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "youre": "you're",
    "youll": "you'll",
    "youve": "you've",
    "theyre": "they're",
    "thats": "that's",
    "whats": "what's",
    "hes": "he's",
    "shes": "she's",
    "wanna": "want to",
    "gonna": "going to",
    "gunna": "going to",
    "gotta": "got to",
    "srry": "sorry",
    "sry": "sorry",
    "soz": "sorry",
    "sorri": "sorry",
    "luv": "love",
    "ppl": "people",
    "msg": "message",
    "bday": "birthday",
    "cud": "could",
    "wud": "would",
    "shud": "should",
    "kms": "kill myself",
    "kys": "kill yourself",
    "unalive": "kill",
    "tho": "though",
    "thru": "through",
    "wat": "what",
    "wen": "when",
    "abt": "about",
    "bf": "boyfriend",
    "gf": "girlfriend",
}

#: Words a stretched spelling ("sooorry", "pleeease", "killll") is matched back to.  A
#: stretched word not listed here keeps two of each stretched letter.
KNOWN_WORDS = frozenset(
    "so no please love hey hi yes why now you what me omg god ok okay sure baby babe wow oh "
    "nope yeah yay ugh home hate die dead gone sorry miss missed kill killing need really "
    "will call all too good feel see still hell well stop happy hello sweet seriously pretty "
    "little better soon free cool look book week sleep alone agree forever done wanted "
    "hurt hurting scared please stupid crazy idiot fool insane worried help".split()
)
_RUN = re.compile(r"([a-z])\1{2,}")
#: Only what may change: a known abbreviation, a word with a stretched letter, a space run.
_CHANGE = re.compile(
    r"(?<![a-z0-9'])(?:"
    + "|".join(re.escape(k) for k in sorted(ABBREVIATIONS, key=len, reverse=True))
    + r")(?![a-z0-9'])"
    r"|[a-z]*([a-z])\1\1[a-z]*"
    r"|[ \t\r\f\v]{2,}"
)
_NUMBER_BEFORE = re.compile(r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten))[ -]$")
#: Lines that are forwarding headers, not the message itself.
_FORWARD_HEADER = re.compile(
    r"^[ \t]*(?:forwarded from\b[^:\n]*:?|-+ ?forwarded message ?-+.*|begin forwarded message:?.*"
    r"|(?:from|sent|to|date|subject):[^\n]*)$",
    re.MULTILINE,
)
_QUOTE_MARK = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE)


@dataclass(frozen=True)
class Normalized:
    """``text`` is the normalised text; ``starts[i]``/``ends[i]`` give the span of the
    original text that normalised character ``i`` came from."""

    original: str
    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Original span of the normalised span ``[start, end)``."""
        if end <= start:
            pos = self.starts[start] if start < len(self.starts) else len(self.original)
            return pos, pos
        return self.starts[start], self.ends[end - 1]

    def exact(self, start: int, end: int) -> str:
        """The original text behind a normalised span, trimmed of white space only."""
        ostart, oend = self.span(start, end)
        return self.original[ostart:oend].strip()

    def phrase(self, start: int, end: int) -> str:
        """The original text behind a normalised span, trimmed of spaces and punctuation
        at either end (so it is always an exact substring of the input)."""
        ostart, oend = self.span(start, end)
        return self.original[ostart:oend].strip(" \t\r\n.,;:!?\"'()[]-")


def _fold_char(text: str) -> str:
    """Lower-case and straighten quotes without changing the length."""
    out = text.translate(_CHAR_MAP)
    lowered = out.lower()
    if len(lowered) == len(out):
        return lowered
    # Rare: a character whose lower case is longer (e.g. "İ"); keep it as it is.
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in out)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def without_headers(text: str) -> str:
    """``text`` with its forwarding header lines ("Forwarded from Mum") blanked out, the
    same length (offsets into it are offsets into ``text``)."""
    low = text.lower()
    if len(low) != len(text) or not _FORWARD_HEADER.search(low):
        return text
    out = list(text)
    for m in _FORWARD_HEADER.finditer(low):
        out[m.start() : m.end()] = " " * (m.end() - m.start())
    return "".join(out)


def _shorten_runs(word: str) -> str:
    """ "sooorry" -> "sorry": each stretched letter becomes one or two, whichever spelling
    is a known word; otherwise two."""
    runs = list(_RUN.finditer(word))[:4]
    for mask in range(1 << len(runs)):
        out: list[str] = []
        done = 0
        for i, run in enumerate(runs):
            out.append(word[done : run.start()])
            out.append(run.group(1) * (1 if mask >> i & 1 else 2))
            done = run.end()
        out.append(word[done:])
        candidate = "".join(out)
        if candidate in KNOWN_WORDS or candidate in ABBREVIATIONS:
            return candidate
    return _RUN.sub(r"\1\1", word)


def _replacement(token: str) -> str:
    if token[0] in " \t\r\f\v":
        return " "
    word = _shorten_runs(token) if _RUN.search(token) else token
    return ABBREVIATIONS.get(word, word)


@lru_cache(maxsize=16)
def normalize(original: str) -> Normalized:
    """The normalised text and its map back to ``original`` (the last few are kept: the
    danger check and the tactics read the same pasted message; in memory only)."""
    folded = _fold_char(original)
    folded = _FORWARD_HEADER.sub(_blank, folded)
    folded = _QUOTE_MARK.sub(_blank, folded)
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    done = 0
    for match in _CHANGE.finditer(folded):
        begin, finish = match.span()
        token = match.group(0)
        replacement = _replacement(token)
        year = token == "yr" and _NUMBER_BEFORE.search(folded, max(0, begin - 8), begin)
        if replacement == token or year:
            continue  # "a 4 yr old" is a year, not "your"
        parts.append(folded[done:begin])
        starts.extend(range(done, begin))
        ends.extend(range(done + 1, begin + 1))
        parts.append(replacement)
        starts.extend([begin] * len(replacement))
        ends.extend([finish] * len(replacement))
        done = finish
    parts.append(folded[done:])
    starts.extend(range(done, len(folded)))
    ends.extend(range(done + 1, len(folded) + 1))
    return Normalized(original, "".join(parts), tuple(starts), tuple(ends))


#: Sentence boundaries: end punctuation, new lines, and emoji-free breaks.
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|\n|$)")


def sentences(norm: Normalized) -> list[tuple[int, int]]:
    """Normalised spans of the sentences (non-blank ones only)."""
    out: list[tuple[int, int]] = []
    for match in _SENTENCE.finditer(norm.text):
        start, end = match.span()
        chunk = match.group(0)
        lead = len(chunk) - len(chunk.lstrip())
        trail = len(chunk) - len(chunk.rstrip())
        if chunk.strip(" \t\n.!?"):
            out.append((start + lead, end - trail))
    return out
