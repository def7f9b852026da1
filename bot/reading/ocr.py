"""Reading the text of a screenshot, on this machine only.

The OCR is RapidOCR (``rapidocr-onnxruntime``, Apache-2.0) on ONNX Runtime, with the
PP-OCRv4 detection and recognition models (PaddleOCR's, Apache-2.0) that ship inside its
wheel: nothing is downloaded, nothing is sent anywhere.  It is the optional extra
``nocontact-bot[ocr]``; without it (or when its models cannot be loaded) the bot runs
without reading screenshots, and ``nocontact doctor`` says so.

The image stays in memory: it is decoded here with Pillow into an array (never a path,
never a temporary file), shrunk when it is large, and the recogniser's text comes back as
a :class:`~bot.reading.layout.ReadText`.  Nothing of either is logged.

``await read_screenshot(data)`` is the one way in: it runs in the CPU pool
(:mod:`bot.engine.offload`), one reading at a time per process, so a burst of screenshots
queues instead of taking every core from the rest of the bot.
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageOps, UnidentifiedImageError

from bot.engine.offload import run_cpu
from bot.reading.layout import Box, ReadText, arrange

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger(__name__)

#: images with more pixels than this are refused before they are decoded (a decompression
#: bomb guard: a phone screenshot has 1-5 million, a long scrolling one up to ~20)
MAX_PIXELS = 40_000_000
#: what is read: wider images are shrunk to this width (phones are 720-1440 wide), then
#: taller ones to this height (a long scrolling screenshot), so time stays bounded
MAX_WIDTH = 1600
MAX_HEIGHT = 12000
#: narrower images are enlarged to this width (at most 2.5 times): a screenshot sent as a
#: Telegram photo comes at ~590 pixels wide, and at that size the recogniser drops spaces
#: between words (bench/ocr.md)
MIN_WIDTH = 900
_MAX_ENLARGE = 2.5
#: text is found on a copy at most this wide (the detector's own smallest side, so it
#: needs no enlarging); the recogniser reads each line from the full image.  The
#: detector's memory grows with the area it works on (~230 MB a million pixels): this
#: keeps a reading's peak near 0.5 GB for a phone screenshot, and long ones are searched
#: in strips
DETECT_WIDTH = 736
DETECT_STRIP = 2000
DETECT_OVERLAP = 160  # more than twice the tallest line expected on the copy
#: boxes the recogniser is less sure of than this are dropped
MIN_SCORE = 0.5
_FORMATS = ("PNG", "JPEG", "WEBP", "GIF", "BMP")
#: RapidOCR's loggers; it gives each its own stderr handler at DEBUG, past our logging
_LIBRARY_LOGGERS = ("RapidOCR", "OrtInferSession")


class OcrUnavailable(RuntimeError):
    """The OCR package is not installed (``installed`` false), or it is but cannot work
    here (its models or a library it needs could not be loaded)."""

    def __init__(self, reason: str, *, installed: bool) -> None:
        super().__init__(reason)
        self.installed = installed


class ImageUnreadable(ValueError):
    """The bytes are not an image we read (or are too large to); says nothing of them."""


@dataclass(frozen=True)
class Status:
    available: bool
    installed: bool
    sentence: str  # for ``nocontact doctor``


_lock = threading.Lock()
#: RapidOCR keeps per-call state on the engine (the detector's resizing): one call at a time
_reading = threading.Lock()
_engine: Any = None
_failure: OcrUnavailable | None = None


def _quiet_library_loggers() -> None:
    for name in _LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.setLevel(logging.WARNING)


def _load() -> Any:
    try:
        from rapidocr_onnxruntime import RapidOCR
    except ImportError as exc:  # the extra is not installed, or a library it needs is missing
        missing = getattr(exc, "name", None) or "a shared library"
        if missing == "rapidocr_onnxruntime":
            raise OcrUnavailable(
                "the OCR package is not installed (pip install 'nocontact-bot[ocr]')",
                installed=False,
            ) from None
        raise OcrUnavailable(
            f"the OCR package is installed but cannot be imported: {exc} (OpenCV needs the "
            "system's libGL and GLib; on Debian: apt-get install libgl1 libglib2.0-0)",
            installed=True,
        ) from None
    try:
        engine = RapidOCR(text_score=MIN_SCORE)
    except Exception as exc:  # any failure to load the models means no OCR
        raise OcrUnavailable(
            f"the OCR models could not be loaded ({type(exc).__name__}: {exc})", installed=True
        ) from None
    finally:
        _quiet_library_loggers()
    return engine


def engine() -> Any:
    """The loaded OCR engine (once per process), or :class:`OcrUnavailable`."""
    global _engine, _failure
    with _lock:
        if _engine is None and _failure is None:
            try:
                _engine = _load()
            except OcrUnavailable as exc:
                _failure = exc
        if _failure is not None:
            raise OcrUnavailable(str(_failure), installed=_failure.installed)
        return _engine


def status() -> Status:
    """Whether screenshots can be read here, and why not; loads the models to find out."""
    try:
        engine()
    except OcrUnavailable as exc:
        return Status(False, exc.installed, f"screenshots are not read: {exc}")
    return Status(True, True, "screenshots are read on this machine (RapidOCR, offline)")


def forget_engine() -> None:
    """Drop the loaded engine (tests: load it again under other conditions)."""
    global _engine, _failure
    with _lock:
        _engine = None
        _failure = None


def _scale(width: int, height: int) -> float:
    """How much an image is resized before it is read (1.0: not at all)."""
    if width < MIN_WIDTH:
        return max(1.0, min(MIN_WIDTH / width, _MAX_ENLARGE, MAX_HEIGHT / height))
    return min(1.0, MAX_WIDTH / width, MAX_HEIGHT / height)


def decode(data: bytes) -> tuple[npt.NDArray[np.uint8], float]:
    """The image as a BGR array (the models' order) no larger than MAX_WIDTH x MAX_HEIGHT
    (a narrow one enlarged towards MIN_WIDTH), and the scale it was resized by."""
    import numpy as np

    try:
        opened = Image.open(io.BytesIO(data), formats=_FORMATS)
        width, height = opened.size
        if width * height > MAX_PIXELS or width < 1 or height < 1:
            raise ImageUnreadable("the image is too large to read")
        scale = _scale(width, height)
        if scale < 1.0 and opened.format == "JPEG":
            opened.draft("RGB", (int(width * scale) + 1, int(height * scale) + 1))
        opened.load()
        image: Image.Image = ImageOps.exif_transpose(opened)
        if image.mode in ("RGBA", "LA", "PA") or (
            image.mode == "P" and "transparency" in image.info
        ):
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, "white")
            flat.paste(rgba, mask=rgba.getchannel("A"))
            image = flat
        elif image.mode != "RGB":
            image = image.convert("RGB")
        width, height = image.size
        scale = _scale(width, height)
        if scale != 1.0:
            size = (max(1, round(width * scale)), max(1, round(height * scale)))
            image = image.resize(size, Image.Resampling.LANCZOS)
    except ImageUnreadable:
        raise
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        raise ImageUnreadable(f"not an image we can read ({type(exc).__name__})") from None
    pixels = np.asarray(image, dtype=np.uint8)[:, :, ::-1]
    return np.ascontiguousarray(pixels), scale


def _detect_strip(ocr: Any, strip: npt.NDArray[Any]) -> list[npt.NDArray[np.float32]]:
    import numpy as np

    padded, record = ocr.maybe_add_letterbox(strip, {})  # pads a very wide, short image
    found, _ = ocr.text_det(padded)
    if found is None or len(found) == 0:
        return []
    top = record["padding_1"]["top"]
    boxes = []
    for box in found:
        box = np.array(box, dtype=np.float32)
        box[:, 1] -= top
        boxes.append(box)
    return boxes


def _detect(ocr: Any, pixels: npt.NDArray[np.uint8]) -> list[npt.NDArray[np.float32]]:
    """The text boxes (4 corners each, in ``pixels``' coordinates), found on a copy no
    wider than DETECT_WIDTH, in strips of at most DETECT_STRIP rows that overlap by
    DETECT_OVERLAP (a box is kept by the strip its centre falls in, away from the
    overlap), so the detector's memory does not grow with a long screenshot."""
    import cv2
    import numpy as np

    height, width = pixels.shape[:2]
    shrink = min(1.0, DETECT_WIDTH / width)
    small: npt.NDArray[Any] = pixels
    if shrink < 1.0:
        size = (max(1, round(width * shrink)), max(1, round(height * shrink)))
        small = cv2.resize(pixels, size, interpolation=cv2.INTER_AREA)
    rows = small.shape[0]
    boxes = []
    start = 0
    while True:
        end = min(rows, start + DETECT_STRIP)
        own_top = 0 if start == 0 else start + DETECT_OVERLAP / 2
        own_bottom = rows if end == rows else end - DETECT_OVERLAP / 2
        for box in _detect_strip(ocr, small[start:end]):
            box[:, 1] += start
            if own_top <= float(box[:, 1].mean()) < own_bottom:
                boxes.append(box)
        if end == rows:
            break
        start = end - DETECT_OVERLAP
    for box in boxes:
        box[:, 0] = np.clip(box[:, 0] * width / small.shape[1], 0, width - 1)
        box[:, 1] = np.clip(box[:, 1] * height / rows, 0, height - 1)
    return boxes


def read_pixels(pixels: npt.NDArray[np.uint8], scale: float = 1.0) -> ReadText:
    """The text of a decoded BGR image (blocking: CPU work for a few seconds)."""
    ocr = engine()
    height, width = pixels.shape[:2]
    with _reading:
        found = _detect(ocr, pixels)
        # each line is cut from the full image, so small type stays sharp; no direction
        # classifier (screenshots are upright)
        recognised, _ = ocr.text_rec(ocr.get_crop_img_list(pixels, found)) if found else ([], 0)
    boxes = []
    for points, (text, score, *_rest) in zip(found, recognised, strict=True):
        if float(score) < MIN_SCORE:
            continue
        xs, ys = points[:, 0], points[:, 1]
        boxes.append(
            Box(
                float(xs.min()),
                float(ys.min()),
                float(xs.max()),
                float(ys.max()),
                str(text),
                float(score),
            )
        )
    return arrange(boxes, width=width, height=height, scale=scale)


def read_bytes(data: bytes) -> ReadText:
    """The text of an encoded image (blocking); see :func:`read_screenshot`."""
    engine()  # OcrUnavailable before any work on the image
    pixels, scale = decode(data)
    return read_pixels(pixels, scale)


_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _gate() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(1)
    return gate


async def read_screenshot(data: bytes) -> ReadText:
    """The text of a screenshot (PNG, JPEG, WebP, GIF or BMP bytes, e.g. a decrypted
    download), read off the event loop.

    Raises :class:`OcrUnavailable` when this install cannot read images (tell the user
    the text can be typed instead) and :class:`ImageUnreadable` for bytes that are not an
    image it reads or one too large.  An image with no text gives an empty ReadText.
    """
    async with _gate():
        return await run_cpu(read_bytes, data)


__all__ = [
    "MAX_HEIGHT",
    "MAX_PIXELS",
    "MAX_WIDTH",
    "MIN_WIDTH",
    "ImageUnreadable",
    "OcrUnavailable",
    "ReadText",
    "Status",
    "decode",
    "engine",
    "forget_engine",
    "read_bytes",
    "read_pixels",
    "read_screenshot",
    "status",
]
