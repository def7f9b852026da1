"""Reading screenshots: what a user would get back from the OCR, that it stays on the
machine (no network, no file holding the image or its text), that large images are
bounded, and that the bot (and ``nocontact doctor``) copes without it.

Images are drawn by bench/screens.py from texts written here.  Tests that need the OCR
itself skip, saying why, where this install cannot read images.
"""

from __future__ import annotations

import asyncio
import io
import os
import socket
import struct
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bench.screens import Bubble, Screen, as_telegram_photo, char_accuracy, render
from bot.cli.admin import _check_ocr, _Report
from bot.engine.reader import OcrReader
from bot.reading import ocr
from bot.reading.layout import Box, arrange
from flows.conversations.picture_words import Sides

SCREEN = Screen(
    "Jordan",
    (
        Bubble("I only want to talk, please pick up", "left", "22:41"),
        Bubble("I said no. Stop calling me.", "right", "22:45"),
        Bubble("You will regret ignoring me", "left", "22:50", emoji=1),
    ),
    theme="light",
    width=720,
    full_height=False,
)


def _need_ocr() -> None:
    state = ocr.status()
    if not state.available:
        pytest.skip(state.sentence)


@pytest.fixture
def fresh_engine() -> Iterator[None]:
    """The engine is loaded inside the test (and dropped after), not reused."""
    ocr.forget_engine()
    yield
    ocr.forget_engine()


# ------------------------------------------------------------------ what the user gets
async def test_a_chat_screenshot_is_read_bubble_by_bubble() -> None:
    _need_ocr()
    read = await ocr.read_screenshot(render(SCREEN))
    assert char_accuracy(SCREEN.reference, read.text) >= 0.9
    bubbles = [b for b in read.bubbles if b.side != "centre"]  # the header is centred
    assert [b.side for b in bubbles] == ["left", "right", "left"]
    assert [b.time for b in bubbles] == ["22:41", "22:45", "22:50"]
    assert "Stop calling me" in bubbles[1].text
    assert all(0.5 <= b.confidence <= 1.0 for b in bubbles)
    assert "22:4" not in read.text  # times are not text


async def test_the_reader_marks_the_users_own_replies_so_only_theirs_are_used() -> None:
    _need_ocr()
    words = await OcrReader().read(render(SCREEN))
    assert words is not None
    lines = words.text.split("\n")
    assert [lines[i] for i in words.own] == ["I said no. Stop calling me."]
    sides = Sides.of(words.text, words.own)
    assert "pick up" in sides.theirs and "regret ignoring me" in sides.theirs
    assert "Stop calling me" not in sides.theirs
    assert sides.theirs.index("pick up") < sides.theirs.index("regret"), "in reading order"


@pytest.mark.slow
async def test_a_dark_screenshot_sent_as_a_photo_is_read() -> None:
    _need_ocr()
    screen = Screen(SCREEN.contact, SCREEN.bubbles, theme="dark", width=1170)
    photo = as_telegram_photo(render(screen))  # ~590 px wide: enlarged before reading
    read = await ocr.read_screenshot(photo)
    assert read.scale > 1
    assert char_accuracy(screen.reference, read.text) >= 0.85


@pytest.mark.slow
async def test_a_long_scrolling_screenshot_is_read_whole_without_shrinking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _need_ocr()
    from bench.ocr import LONG

    engine = ocr.engine()
    seen: list[tuple[int, ...]] = []
    detect = engine.text_det

    def spy(image: Any) -> Any:
        seen.append(image.shape)
        return detect(image)

    monkeypatch.setattr(engine, "text_det", spy)
    read = await ocr.read_screenshot(render(LONG))  # ~6200 px tall
    assert read.scale == 1
    assert len(seen) > 1 and all(shape[0] <= ocr.DETECT_STRIP for shape in seen)  # in strips
    assert char_accuracy(LONG.reference, read.text) >= 0.95
    assert len([b for b in read.bubbles if b.side != "centre"]) == len(LONG.bubbles)


async def test_reading_runs_off_the_event_loop() -> None:
    _need_ocr()
    ocr.engine()
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0)
    try:
        await ocr.read_screenshot(render(SCREEN))
        during = ticks
    finally:
        ticker.cancel()
    assert during > 0  # the loop went on answering while the image was read


# ---------------------------------------------------------------- stays on this machine
async def test_reading_never_touches_the_network(
    monkeypatch: pytest.MonkeyPatch, fresh_engine: None
) -> None:
    _need_ocr()
    attempts: list[object] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("network blocked by the test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket.socket, "sendto", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    read = await ocr.read_screenshot(render(SCREEN))  # the models load in here too
    assert "pick up" in read.text
    assert attempts == []


def _written_since(roots: list[Path], start: float) -> Iterator[Path]:
    for root in roots:
        for dirpath, _dirs, files in os.walk(root):
            for name in files:
                path = Path(dirpath) / name
                try:
                    info = path.lstat()
                except OSError:
                    continue
                if path.is_file() and info.st_mtime >= start and info.st_size < 64_000_000:
                    yield path


async def test_no_file_written_holds_the_image_or_its_text(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    fresh_engine: None,
) -> None:
    _need_ocr()
    canary = "QZXV 7391 WKPJ"
    screen = Screen("Canary", (Bubble(f"code {canary} here", "left", "10:10"),), width=720)
    image = render(screen)
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(private_tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))
    monkeypatch.chdir(tmp_path)
    start = time.time() - 1
    caplog.set_level("DEBUG")

    read = await ocr.read_screenshot(image)
    assert canary in read.text  # the canary was read: it was in memory

    roots = [tmp_path, Path(tempfile.gettempdir()), Path("/tmp"), Path.home() / ".cache"]
    needles = {
        "text": canary.encode(),
        "text (utf-16)": canary.encode("utf-16-le"),
        "a word of it": b"WKPJ",
        "the image": image[len(image) // 2 : len(image) // 2 + 64],
    }
    found = [
        f"{what} in {path}"
        for path in _written_since([r for r in roots if r.exists()], start)
        for what, needle in needles.items()
        if needle in path.read_bytes()
    ]
    assert found == []
    out = capsys.readouterr()
    assert "WKPJ" not in out.out + out.err + caplog.text


# ------------------------------------------------------------------------- bounded size
def _png_header(width: int, height: int) -> bytes:
    """A PNG that claims to be width x height (its pixels never come)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)  # a few bytes of the billions it claims
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def test_an_enormous_image_is_refused_before_it_is_decoded() -> None:
    with pytest.raises(ocr.ImageUnreadable, match="too large"):
        ocr.decode(_png_header(9000, 9000))


def test_a_large_image_is_shrunk_and_a_narrow_one_enlarged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def png(size: tuple[int, int]) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", size, "white").save(out, format="PNG")
        return out.getvalue()

    pixels, scale = ocr.decode(png((3200, 2000)))
    assert pixels.shape == (1000, ocr.MAX_WIDTH, 3) and scale == 0.5
    monkeypatch.setattr(ocr, "MAX_HEIGHT", 3000)
    pixels, scale = ocr.decode(png((1000, 6000)))
    assert pixels.shape[0] == ocr.MAX_HEIGHT and scale < 1
    pixels, scale = ocr.decode(png((450, 1000)))
    assert pixels.shape[1] == ocr.MIN_WIDTH and scale == 2


async def test_text_is_found_on_a_bounded_copy_and_read_from_the_full_image(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _need_ocr()
    engine = ocr.engine()
    seen: list[tuple[int, ...]] = []
    detect = engine.text_det

    def spy(image: Any) -> Any:
        seen.append(image.shape)
        return detect(image)

    monkeypatch.setattr(engine, "text_det", spy)
    screen = Screen("Jordan", SCREEN.bubbles[:1], width=1440, full_height=False)
    read = await ocr.read_screenshot(render(screen))
    assert seen and seen[0][1] <= ocr.DETECT_WIDTH  # the detector's memory stays bounded
    assert read.width == 1440 and "please pick up" in read.text


def test_bytes_that_are_not_an_image_say_so_without_quoting_them() -> None:
    with pytest.raises(ocr.ImageUnreadable) as caught:
        ocr.decode(b"my secret words, not an image")
    assert "secret" not in str(caught.value)


# ------------------------------------------------------------------- without the OCR
async def test_without_the_package_the_bot_reads_nothing_and_doctor_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh_engine: None
) -> None:
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # import fails
    with pytest.raises(ocr.OcrUnavailable) as caught:
        await ocr.read_screenshot(render(SCREEN))
    assert not caught.value.installed
    report = _Report()
    _check_ocr(report)
    out = capsys.readouterr().out
    assert report.problems == []  # an optional extra: not a problem
    assert "screenshots are not read" in out and "nocontact-bot[ocr]" in out


def test_models_that_fail_to_load_are_a_doctor_problem(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh_engine: None
) -> None:
    _need_ocr()
    import rapidocr_onnxruntime

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise FileNotFoundError("ch_PP-OCRv4_det_infer.onnx does not exist")

    monkeypatch.setattr(rapidocr_onnxruntime, "RapidOCR", broken)
    ocr.forget_engine()
    report = _Report()
    _check_ocr(report)
    assert len(report.problems) == 1 and "models could not be loaded" in report.problems[0]
    with pytest.raises(ocr.OcrUnavailable):
        ocr.read_bytes(render(SCREEN))


# ------------------------------------------------------------------------------ layout
def _box(left: float, top: float, right: float, text: str, height: float = 30) -> Box:
    return Box(left, top, right, top + height, text, 0.95)


def test_layout_groups_lines_into_bubbles_in_reading_order() -> None:
    boxes = [
        _box(60, 20, 120, "9:41", 20),  # the status bar's clock
        _box(320, 80, 400, "Mum"),  # the header, centred
        _box(40, 200, 560, "we need to talk about"),
        _box(42, 240, 300, "Sunday lunch"),
        _box(420, 280, 520, "18:02", 20),
        _box(380, 360, 660, "I will not come"),
        _box(600, 400, 680, "18:05", 20),
        _box(40, 480, 200, "Why not?"),
        _box(230, 482, 300, "18:07", 20),  # a time beside the text, on its row
    ]
    read = arrange(list(reversed(boxes)), width=720, height=900)
    assert [(b.side, b.text, b.time) for b in read.bubbles] == [
        ("centre", "Mum", None),
        ("left", "we need to talk about Sunday lunch", "18:02"),
        ("right", "I will not come", "18:05"),
        ("left", "Why not?", "18:07"),
    ]
    assert read.text.splitlines()[1] == "we need to talk about Sunday lunch"
    assert read.own == (2,), "the right-hand bubble is the user's own reply"
    single = arrange([_box(40, 200, 560, "we need to talk"), _box(40, 240, 300, "now")], 720, 400)
    assert single.own == (), "no bubble on the right: no sides"


def test_layout_keeps_boxes_of_one_row_together_left_to_right() -> None:
    read = arrange([_box(300, 100, 500, "tonight"), _box(40, 102, 280, "come outside")], 720, 400)
    assert read.text == "come outside tonight"
    assert arrange([], 720, 400).empty
