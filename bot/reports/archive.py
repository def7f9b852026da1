"""The export archive /export sends: one zip holding the sealed data file, the media
files and the printed report, and the check of such an archive
(``nocontact verify-export``).

No name inside or on the archive says what it holds: ``data.json``, ``report.pdf``,
``media/<id>-<n>.<ending>``."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from bot.reports.export import evidence_pdf
from bot.store.export import MEDIA_FOLDER, UserExport, document_json, sealed_document
from bot.store.integrity import Verdict, final_hash, recorded_final, verify

DATA_NAME = "data.json"
REPORT_NAME = "report.pdf"


@dataclass(frozen=True)
class Archive:
    filename: str
    content: bytes
    #: the final hash of the data file, printed on every page of the report
    final_hash: str


def build_archive(export: UserExport, generated_at: datetime) -> Archive:
    """The zip for ``export`` (CPU work: run it off the event loop)."""
    document = sealed_document(export)
    final = final_hash(document)
    report = evidence_pdf(export.evidence, generated_at, final)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(DATA_NAME, document_json(document))
        archive.writestr(REPORT_NAME, report)
        for name, medium in export.media_files().items():
            archive.writestr(name, medium.content, compress_type=zipfile.ZIP_STORED)
    return Archive(f"backup-{generated_at:%Y-%m-%d}.zip", buffer.getvalue(), final)


def verify_archive(source: Path | bytes, expected: str | None = None) -> Verdict:
    """Check an export archive; ``expected`` is the check code from the chat message or
    the report, if the person checking has it."""
    try:
        with zipfile.ZipFile(io.BytesIO(source) if isinstance(source, bytes) else source) as zf:
            files = {info.filename: zf.read(info) for info in zf.infolist() if not info.is_dir()}
    except (zipfile.BadZipFile, OSError) as exc:
        return Verdict(final="", problems=[f"this is not a readable export archive ({exc})"])
    data = files.pop(DATA_NAME, None)
    if data is None:
        return Verdict(final="", problems=[f"the archive holds no {DATA_NAME}"])
    try:
        document = json.loads(data)
    except ValueError as exc:
        return Verdict(final="", problems=[f"{DATA_NAME} is damaged: not valid JSON ({exc})"])
    if not isinstance(document, dict):
        return Verdict(final="", problems=[f"{DATA_NAME} is not an export document"])
    report = files.pop(REPORT_NAME, None)
    media = {n: content for n, content in files.items() if n.startswith(MEDIA_FOLDER + "/")}
    verdict = verify(document, media)
    listed = {
        str(medium.get("file"))
        for item in document.get("evidence", ())
        if isinstance(item, dict)
        for medium in item.get("media", ())
        if isinstance(medium, dict)
    }
    for name in sorted(set(files) - listed):
        verdict.problems.append(f"a file was added that no entry lists: {name}")
    if report is None:
        verdict.problems.append(f"{REPORT_NAME} is missing")
    elif str(recorded_final(document)).encode() not in report:
        verdict.problems.append(f"{REPORT_NAME} carries a different check code than the data")
    if expected is not None and expected.strip().lower() != verdict.final:
        verdict.problems.append(
            "the check code given does not match this archive: it was changed after export, "
            "or it is a different export"
        )
    return verdict
