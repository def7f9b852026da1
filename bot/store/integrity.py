"""Tamper evidence for the data export: a hash chain over every entry of the document.

The export document (``bot.store.export``) is cut into entries in a fixed order: the
account details first, then every item of the ``evidence``, ``unsent``, ``reasons``,
``senders`` and ``events`` lists.  Each list item carries its place in the chain
(``"seq"``).  An entry's hash is SHA-256 over the canonical JSON of its section, its
place and its content; an evidence item's content lists the SHA-256 of each of its
media files, so the entry's hash covers those too.  Each link is SHA-256 over the
previous link and the entry's hash, so the final link covers everything, in order.

The document's ``integrity`` block records every entry's hash and link and the final
hash; the final hash is also printed on every page of the report and in the chat
message that delivered the export, where someone editing the file cannot change it.

:func:`verify` recomputes all of it and names each entry that was changed, removed,
moved or added, and each media file that was changed or is missing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

ALGORITHM = "sha256-chain-1"
#: the link before the first entry
GENESIS = hashlib.sha256(b"nocontact-export chain 1").hexdigest()
#: the list sections, in chain order (after the account entry)
SECTIONS: tuple[str, ...] = ("evidence", "unsent", "reasons", "senders", "events")
#: the top-level fields that make up the account entry (always entry 1)
ACCOUNT_FIELDS: tuple[str, ...] = (
    "format",
    "version",
    "exported_at",
    "user_since",
    "settings",
    "flow_state",
)
ACCOUNT = "account"
HOW = (
    "Each entry's hash is SHA-256 of the canonical JSON (sorted keys, no spaces, UTF-8) "
    'of {"item": ..., "section": ..., "seq": ...}; each chain value is SHA-256 of the '
    "previous chain value and the entry's hash (32 raw bytes each), starting from "
    "SHA-256('nocontact-export chain 1'). Media files are covered by the sha256 listed "
    "in their entry. Check it with: nocontact verify-export FILE --hash FINAL"
)

#: what an entry of each section is called in a finding, and the field holding its date
_NOUNS: Mapping[str, tuple[str, str | None]] = {
    ACCOUNT: ("account details", "exported_at"),
    "evidence": ("saved item", "saved_at"),
    "unsent": ("unsent message", "written_at"),
    "reasons": ("reason", None),
    "senders": ("sender", None),
    "events": ("logged event", "at"),
}


def canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8"
    )


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def entry_hash(section: str, seq: int, item: object) -> str:
    return sha256(canonical({"item": item, "section": section, "seq": seq}))


def link(previous: str, entry: str) -> str:
    return sha256(bytes.fromhex(previous) + bytes.fromhex(entry))


@dataclass(frozen=True)
class Entry:
    """One entry as found in a document (its ``seq`` as the item says, if it does)."""

    section: str
    seq: int | None
    item: Any

    @property
    def hash(self) -> str:
        return entry_hash(self.section, self.seq if self.seq is not None else -1, self.item)

    def describe(self) -> str:
        noun, date_field = _NOUNS.get(self.section, (self.section, None))
        when = self.item.get(date_field) if isinstance(self.item, dict) and date_field else None
        return f"{noun}, {_short(when)}" if isinstance(when, str) else noun


def _short(iso_text: str) -> str:
    return iso_text.replace("T", " ")[:16] + " UTC"


def _account(document: Mapping[str, Any]) -> dict[str, Any]:
    return {name: document.get(name) for name in ACCOUNT_FIELDS}


def _entries(document: Mapping[str, Any]) -> Iterator[Entry]:
    """The document's entries in document order."""
    yield Entry(ACCOUNT, 1, _account(document))
    for section in SECTIONS:
        items = document.get(section)
        for item in items if isinstance(items, list) else ():
            seq = item.get("seq") if isinstance(item, dict) else None
            yield Entry(section, seq if isinstance(seq, int) else None, item)


def seal(document: Mapping[str, Any]) -> dict[str, Any]:
    """The document with every list item numbered and the ``integrity`` block added."""
    sealed: dict[str, Any] = {name: value for name, value in document.items()}
    seq = 1  # the account entry
    for section in SECTIONS:
        numbered = []
        for item in document.get(section, ()):
            seq += 1
            numbered.append({"seq": seq, **item})
        sealed[section] = numbered
    records = []
    chain = GENESIS
    for entry in _entries(sealed):
        digest = entry.hash
        chain = link(chain, digest)
        record: dict[str, Any] = {"seq": entry.seq, "section": entry.section}
        record["what"] = entry.describe()
        record.update(hash=digest, chain=chain)
        records.append(record)
    sealed["integrity"] = {"algorithm": ALGORITHM, "how": HOW, "entries": records, "final": chain}
    return sealed


def final_hash(document: Mapping[str, Any]) -> str:
    """The final hash a sealed document records."""
    return str(document["integrity"]["final"])


# --------------------------------------------------------------------------- checking
def recorded_final(document: Mapping[str, Any]) -> object:
    """The final hash a document says it has (whatever is there, if anything)."""
    integrity = document.get("integrity")
    return integrity.get("final") if isinstance(integrity, dict) else None


@dataclass
class Verdict:
    #: the final hash recomputed from the document's contents as they are
    final: str
    problems: list[str] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        return not self.problems


def _moved(order: list[int]) -> set[int]:
    """The seqs not on a longest increasing run of ``order``: the ones that moved."""
    if not order:
        return set()
    # patience sorting with back links
    tails: list[int] = []  # index into order
    back: list[int | None] = [None] * len(order)
    for i, value in enumerate(order):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if order[tails[mid]] < value:
                lo = mid + 1
            else:
                hi = mid
        back[i] = tails[lo - 1] if lo else None
        if lo == len(tails):
            tails.append(i)
        else:
            tails[lo] = i
    keep: set[int] = set()
    at: int | None = tails[-1]
    while at is not None:
        keep.add(order[at])
        at = back[at]
    return set(order) - keep


def _media_problems(entry: Entry, files: Mapping[str, bytes]) -> Iterator[tuple[str, str]]:
    media = entry.item.get("media") if isinstance(entry.item, dict) else None
    for medium in media if isinstance(media, list) else ():
        name = str(medium.get("file"))
        content = files.get(name)
        if content is None:
            yield name, f"its media file {name} is missing"
        elif sha256(content) != medium.get("sha256"):
            yield name, f"its media file {name} was changed"


def verify(document: Mapping[str, Any], files: Mapping[str, bytes]) -> Verdict:
    """Check a sealed document and the media ``files`` that came with it (by name)."""
    entries = list(_entries(document))
    chain = GENESIS
    for entry in entries:
        chain = link(chain, entry.hash)
    verdict = Verdict(final=chain)
    problems = verdict.problems
    integrity = document.get("integrity")
    records = integrity.get("entries") if isinstance(integrity, dict) else None
    if not isinstance(integrity, dict) or not isinstance(records, list):
        problems.append("the record of hashes is missing, so nothing can be checked")
        return verdict

    # the record itself: numbered 1..N, each link following from the one before
    recorded: dict[int, Mapping[str, Any]] = {}
    link_of_record = GENESIS
    for place, record in enumerate(records, 1):
        seq = record.get("seq") if isinstance(record, dict) else None
        if not isinstance(seq, int) or seq in recorded:
            problems.append(f"the record of hashes was edited at its line {place}")
            continue
        recorded[seq] = record
        try:
            link_of_record = link(link_of_record, str(record.get("hash")))
        except ValueError:
            link_of_record = ""
        if record.get("chain") != link_of_record:
            problems.append(f"the record of hashes was edited at entry {seq}")
            link_of_record = str(record.get("chain"))
    if integrity.get("final") != link_of_record:
        problems.append("the final hash in the record was edited")
    for seq in range(1, max(recorded, default=0) + 1):
        if seq not in recorded:
            problems.append(f"entry {seq} was removed, and its line in the record with it")

    # the entries against the record
    seen: set[int] = set()
    order: list[int] = []
    for entry in entries:
        record = recorded.get(entry.seq) if entry.seq is not None else None
        if record is None or entry.seq in seen or record.get("section") != entry.section:
            problems.append(f"an entry was added that the record does not list: {entry.describe()}")
            continue
        assert entry.seq is not None
        seen.add(entry.seq)
        order.append(entry.seq)
        name = f"entry {entry.seq} ({record.get('what', entry.describe())})"
        if entry.hash != record.get("hash"):
            problems.append(f"{name} was changed")
        for _file, problem in _media_problems(entry, files):
            problems.append(f"{name}: {problem}")
    for seq in sorted(set(recorded) - seen):
        what = recorded[seq].get("what", recorded[seq].get("section"))
        problems.append(f"entry {seq} ({what}) was removed")
    for seq in sorted(_moved(order)):
        what = recorded[seq].get("what", recorded[seq].get("section"))
        problems.append(f"entry {seq} ({what}) was moved out of its place (reordered)")
    return verdict
