"""The /export archive and ``nocontact verify-export``: a fresh export is intact, and
each single alteration is found and named."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from bot.reports.archive import DATA_NAME, REPORT_NAME, build_archive, verify_archive
from bot.store.export import EvidenceRecord, MediaFile, UserExport
from flows.types import EventView, EvidenceView, ReasonView, SenderView, UnsentView

T0 = datetime(2026, 11, 2, 21, 40, tzinfo=UTC)
PHOTO = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def _evidence(n: int, text: str, **kw: Any) -> EvidenceRecord:
    item = EvidenceView(
        id=f"ev{n}",
        created_at=T0 + timedelta(days=n),
        kind=kw.pop("kind", "hoover"),
        sender=kw.pop("sender", "them"),
        text=text,
        original_at=kw.pop("original_at", None),
        tactics=kw.pop("tactics", ()),
        danger=kw.pop("danger", ()),
        felt=kw.pop("felt", None),
    )
    return EvidenceRecord(item=item, note=kw.pop("note", ""), media=kw.pop("media", ()))


def _export(many: int = 0) -> UserExport:
    evidence = [
        _evidence(1, "I'm sorry. I've changed, come home.", tactics=("apology", "promise")),
        _evidence(
            2,
            "I know where you live now.",
            danger=("stalking",),
            felt="yes",
            original_at=T0 + timedelta(days=1, hours=3),
            note="sent at 3am",
        ),
        _evidence(3, "", kind="relay", sender="Aunt C.", media=(MediaFile("photo", "png", PHOTO),)),
        _evidence(4, "Your mother misses you, call her.", kind="relay", sender="Aunt C."),
    ]
    evidence += [_evidence(10 + n, f"message number {n} " * 30) for n in range(many)]
    return UserExport(
        exported_at=T0 + timedelta(days=30),
        user_since=T0,
        settings={"timezone": "Europe/London"},
        flow_state=None,
        reasons=(ReasonView("r1", "He read my phone every night"),),
        events=(EventView(T0, "hoover", {"tactics": ["apology"], "plan": "no_reply"}),),
        evidence=tuple(evidence),
        unsent=(UnsentView("u1", "I will never send this", T0 + timedelta(days=5)),),
        senders=(SenderView("s1", "Aunt C.", None, 0, 2),),
    )


def _files(content: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(content)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def _edit(content: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    """The archive with its data file edited by ``change`` (the rest as it was)."""
    files = _files(content)
    document = json.loads(files[DATA_NAME])
    change(document)
    files[DATA_NAME] = json.dumps(document, ensure_ascii=False, indent=2).encode()
    return _zip(files)


@pytest.fixture(scope="module")
def fresh() -> bytes:
    return build_archive(_export(), T0 + timedelta(days=30)).content


def test_a_fresh_export_is_intact_and_discreetly_named(fresh: bytes) -> None:
    archive = build_archive(_export(), T0 + timedelta(days=30))
    assert archive.filename == "backup-2026-12-02.zip"
    names = set(_files(archive.content))
    assert names == {DATA_NAME, REPORT_NAME, "media/ev3-1.png"}
    for name in (archive.filename, *names):
        assert "evidence" not in name.lower() and "aunt" not in name.lower()
    assert _files(archive.content)["media/ev3-1.png"] == PHOTO
    verdict = verify_archive(archive.content, archive.final_hash)
    assert verdict.intact, verdict.problems
    assert verdict.final == archive.final_hash
    document = json.loads(_files(archive.content)[DATA_NAME])
    assert document["integrity"]["final"] == archive.final_hash
    # every entry is in the chain: the account, 4+0 saved items, unsent, reason, sender, event
    assert len(document["integrity"]["entries"]) == 9


def test_the_report_is_a_timeline_with_the_check_code_on_every_page() -> None:
    from pypdf import PdfReader

    archive = build_archive(_export(many=40), T0 + timedelta(days=60))
    reader = PdfReader(io.BytesIO(_files(archive.content)[REPORT_NAME]))
    assert len(reader.pages) > 2
    pages = [page.extract_text() for page in reader.pages]
    for page in pages:
        assert archive.final_hash in page.replace("\n", "")
    text = "\n".join(pages)
    assert "2026-11-03 21:40 UTC" in text  # the date of the first item
    assert "An apology" in text and "A promise to change" in text  # tactics named
    assert "stalking" in text  # the danger named
    assert "Aunt C." in text and "Original date: 2026-11-04 00:40 UTC" in text
    assert "media/ev3-1.png (photo" in text
    assert "sent at 3am" in text  # the user's note


def _problems(content: bytes, expected: str | None = None) -> list[str]:
    verdict = verify_archive(content, expected)
    assert not verdict.intact
    return verdict.problems


def test_a_changed_byte_of_text_names_the_entry(fresh: bytes) -> None:
    files = _files(fresh)
    data = files[DATA_NAME]
    assert data.count(b"come home") == 1
    files[DATA_NAME] = data.replace(b"come home", b"come hone")  # one byte
    assert _problems(_zip(files)) == ["entry 2 (saved item, 2026-11-03 21:40 UTC) was changed"]


def test_a_changed_date_names_the_entry(fresh: bytes) -> None:
    def backdate(document: dict[str, Any]) -> None:
        document["evidence"][1]["original_at"] = "2026-10-01T03:00:00+00:00"

    assert _problems(_edit(fresh, backdate)) == [
        "entry 3 (saved item, 2026-11-04 21:40 UTC) was changed"
    ]


def test_a_changed_media_file_is_named(fresh: bytes) -> None:
    files = _files(fresh)
    files["media/ev3-1.png"] = PHOTO[:-1] + b"\x00"
    assert _problems(_zip(files)) == [
        "entry 4 (saved item, 2026-11-05 21:40 UTC): its media file media/ev3-1.png was changed"
    ]
    del files["media/ev3-1.png"]
    assert _problems(_zip(files)) == [
        "entry 4 (saved item, 2026-11-05 21:40 UTC): its media file media/ev3-1.png is missing"
    ]


def test_a_changed_media_hash_in_the_data_changes_its_entry(fresh: bytes) -> None:
    files = _files(fresh)
    files["media/ev3-1.png"] = b"another picture"
    document = json.loads(files[DATA_NAME])
    document["evidence"][2]["media"][0]["sha256"] = (
        __import__("hashlib").sha256(b"another picture").hexdigest()
    )
    files[DATA_NAME] = json.dumps(document).encode()
    assert _problems(_zip(files)) == ["entry 4 (saved item, 2026-11-05 21:40 UTC) was changed"]


def test_a_removed_entry_is_named(fresh: bytes) -> None:
    def remove(document: dict[str, Any]) -> None:
        del document["evidence"][1]

    assert _problems(_edit(fresh, remove)) == [
        "entry 3 (saved item, 2026-11-04 21:40 UTC) was removed"
    ]


def test_an_entry_removed_with_its_line_in_the_record_is_named(fresh: bytes) -> None:
    def remove(document: dict[str, Any]) -> None:
        del document["evidence"][1]
        del document["integrity"]["entries"][2]

    problems = _problems(_edit(fresh, remove))
    assert "entry 3 was removed, and its line in the record with it" in problems


def test_reordered_entries_are_named(fresh: bytes) -> None:
    def swap(document: dict[str, Any]) -> None:
        evidence = document["evidence"]
        evidence[0], evidence[1] = evidence[1], evidence[0]

    # of two swapped neighbours, either one can be said to have moved
    [problem] = _problems(_edit(fresh, swap))
    assert problem in (
        "entry 2 (saved item, 2026-11-03 21:40 UTC) was moved out of its place (reordered)",
        "entry 3 (saved item, 2026-11-04 21:40 UTC) was moved out of its place (reordered)",
    )

    def move_to_the_end(document: dict[str, Any]) -> None:
        document["evidence"].append(document["evidence"].pop(0))

    assert _problems(_edit(fresh, move_to_the_end)) == [
        "entry 2 (saved item, 2026-11-03 21:40 UTC) was moved out of its place (reordered)"
    ]


def test_an_added_entry_is_named(fresh: bytes) -> None:
    def add(document: dict[str, Any]) -> None:
        forged = dict(document["evidence"][0], id="forged", text="I made this up")
        del forged["seq"]
        document["evidence"].append(forged)

    assert _problems(_edit(fresh, add)) == [
        "an entry was added that the record does not list: saved item, 2026-11-03 21:40 UTC"
    ]


def test_an_added_file_is_named(fresh: bytes) -> None:
    files = _files(fresh)
    files["media/extra.jpg"] = b"planted"
    assert _problems(_zip(files)) == ["a file was added that no entry lists: media/extra.jpg"]


def test_a_rebuilt_chain_is_caught_by_the_check_code_and_the_report(fresh: bytes) -> None:
    """Someone who edits an entry and recomputes every hash still cannot change the check
    code in the chat message, nor the one on the report pages."""
    from bot.store.integrity import seal

    original = json.loads(_files(fresh)[DATA_NAME])["integrity"]["final"]

    def forge(document: dict[str, Any]) -> None:
        document["evidence"][0]["text"] = "nothing happened"
        unsealed = {k: v for k, v in document.items() if k != "integrity"}
        for section in ("evidence", "unsent", "reasons", "senders", "events"):
            unsealed[section] = [
                {k: v for k, v in item.items() if k != "seq"} for item in unsealed[section]
            ]
        document.clear()
        document.update(seal(unsealed))

    forged = _edit(fresh, forge)
    problems = _problems(forged, original)
    assert "report.pdf carries a different check code than the data" in problems
    assert any("check code given does not match" in p for p in problems)


def test_a_damaged_archive_is_reported(fresh: bytes) -> None:
    assert "not a readable export archive" in _problems(fresh[: len(fresh) // 2])[0]


def test_verify_export_prints_intact_or_the_findings(
    fresh: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "backup.zip"
    good.write_bytes(fresh)
    final = json.loads(_files(fresh)[DATA_NAME])["integrity"]["final"]
    assert main(["verify-export", str(good), "--hash", final]) == 0
    out = capsys.readouterr().out
    assert out.startswith("intact\n") and final in out
    bad = tmp_path / "edited.zip"
    files = _files(fresh)
    files[DATA_NAME] = files[DATA_NAME].replace(b"come home", b"come hone")
    bad.write_bytes(_zip(files))
    assert main(["verify-export", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "NOT intact" in out and "entry 2 (saved item, 2026-11-03 21:40 UTC) was changed" in out


def test_an_incident_is_in_the_report_with_its_details() -> None:
    from pypdf import PdfReader

    incident = _evidence(
        5,
        "He kicked the door in",
        kind="incident",
        sender="",
        original_at=T0 - timedelta(days=1),
    )
    incident = EvidenceRecord(
        item=replace(incident.item, details=(("where", "The flat"), ("injuries", "A cut hand"))),
        note="",
    )
    export = replace(_export(), evidence=(incident,))
    archive = build_archive(export, T0)
    reader = PdfReader(io.BytesIO(_files(archive.content)[REPORT_NAME]))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Incident" in text and "Happened: 2026-11-01 21:40 UTC" in text
    assert "Where: The flat" in text and "Injuries: A cut hand" in text
    assert verify_archive(archive.content, archive.final_hash).intact


def _screenshot() -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (360, 640), "white")
    ImageDraw.Draw(image).rounded_rectangle((20, 40, 300, 110), 14, fill=(220, 235, 255))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_the_report_shows_a_screenshot_and_names_a_picture_it_cannot_draw() -> None:
    from pypdf import PdfReader

    export = _export()
    shot = _evidence(5, "", sender="them", media=(MediaFile("photo", "png", _screenshot()),))
    export = replace(export, evidence=(*export.evidence, shot))
    report = _files(build_archive(export, T0 + timedelta(days=30)).content)[REPORT_NAME]
    reader = PdfReader(io.BytesIO(report))
    drawn = [image for page in reader.pages for image in page.images]
    assert len(drawn) == 1  # the real screenshot; ev3's bytes are not a picture
    assert drawn[0].image is not None and drawn[0].image.size[1] > drawn[0].image.size[0]
    text = " ".join(page.extract_text() for page in reader.pages)
    assert "media/ev3-1.png could not be drawn here" in " ".join(text.split())
