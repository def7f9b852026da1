"""How well and how fast screenshots are read: chat screenshots drawn from known texts
(bench/screens.py), read by the bot's OCR (bot/reading/ocr.py), scored by character
accuracy (1 - CER) and seconds per image.

Each screen is phone-sized (19.5:9) and read as a user would send it: "PNG" or "JPEG" as a
file, at the phone's full width, or "photo" as Telegram keeps a picture sent as a photo
(longer side 1280 pixels, JPEG): the text is then about half as tall.

The baseline, measured in the same run on the same images, is the time to decode each
image (Pillow, to the array the OCR reads): the ratio says how many decodes one reading
costs, which holds better across machines than seconds do.

    PYTHONPATH=. .venv/bin/python bench/ocr.py            # all screens
    PYTHONPATH=. .venv/bin/python bench/ocr.py --repeat 3 # the median of 3 runs each

Needs the OCR extra: pip install -e '.[ocr]'.  The figures go in bench/ocr.md.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.screens import Bubble, Screen, as_telegram_photo, char_accuracy, render
from bot.reading.ocr import decode, engine, read_pixels

T = TypeVar("T")
L, R = "left", "right"

SCREENS: tuple[tuple[Screen, str], ...] = (
    (
        Screen(
            "Dan",
            (
                Bubble("Hey. I know it has been a while.", L, "19:02"),
                Bubble("I found the photos from the lake trip and thought of you", L, "19:03", 1),
                Bubble("Please don't message me.", R, "19:40"),
                Bubble("I'm not the same person anymore, I swear. Just one coffee?", L, "19:41"),
            ),
            theme="light",
            width=1080,
            separator="Today",
        ),
        "PNG",
    ),
    (
        Screen(
            "Dan",
            (
                Bubble("Why are you doing this to me? After 6 years?", L, "23:15"),
                Bubble("Everyone says you've changed and not in a good way", L, "23:16"),
                Bubble("If you don't answer tonight I'll come by and we talk there", L, "23:58"),
            ),
            theme="dark",
            width=1170,
        ),
        "photo",
    ),
    (
        Screen(
            "Aunt Carol",
            (
                Bubble("Your mother cried all through dinner on Sunday.", L, "14:20"),
                Bubble("She only wants to know you are okay", L, "14:21", 2),
                Bubble("I am okay. Please don't pass messages between us.", R, "15:05"),
                Bubble("Family is family. You will regret this when she's gone.", L, "15:09"),
            ),
            theme="light",
            width=720,
            separator="Yesterday",
        ),
        "PNG",
    ),
    (
        Screen(
            "Unknown",
            (
                Bubble("New number. Don't block this one too", L, "02:11"),
                Bubble("I saw your car outside the gym at 7", L, "02:12"),
                Bubble("You can't hide from me", L, "02:12"),
            ),
            theme="dark",
            width=1440,
        ),
        "photo",
    ),
    (
        Screen(
            "Sam's dad",
            (
                Bubble("Pickup is at 5:30 on Friday, the usual place.", R, "08:30"),
                Bubble("Fine. Bring his blue jacket and the inhaler.", L, "08:47"),
                Bubble("Will do.", R, "08:48", 1),
                Bubble("We also need to talk about the school trip money, 45 pounds", L, "09:10"),
            ),
            theme="light",
            width=1170,
            separator="Monday",
        ),
        "JPEG",
    ),
    (
        Screen(
            "M",
            (
                Bubble("Happy birthday. I got you something, it's on your doorstep", L, "10:00", 2),
                Bubble("I still love you. I always will. Nobody loves you like I do", L, "10:02"),
                Bubble("Answer me", L, "13:30"),
                Bubble("Fine. Be like that.", L, "16:45"),
            ),
            theme="dark",
            width=1080,
            separator="Saturday",
        ),
        "photo",
    ),
    (  # accents and ¿¡: the recogniser's alphabet is Chinese and English (see bench/ocr.md)
        Screen(
            "Andrés",
            (
                Bubble("¿Por qué no me contestas? Te echo de menos", L, "21:30"),
                Bubble("No quiero hablar contigo.", R, "21:45"),
                Bubble("¡Después de todo lo que hice por ti!", L, "21:46"),
            ),
            theme="light",
            width=1080,
        ),
        "photo",
    ),
)


@dataclass(frozen=True)
class Result:
    label: str
    chars: int
    accuracy: float
    seconds: float
    decode_seconds: float


def _median(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


#: a long scrolling screenshot: every bubble above, one after the other (~6200 px tall)
LONG = Screen(
    "Dan",
    tuple(b for screen, _ in SCREENS[:6] for b in screen.bubbles),
    theme="light",
    width=1080,
    separator="Today",
    full_height=False,
)


def run(repeat: int) -> list[Result]:
    engine()  # the models load once per process; not part of a reading
    results = []
    for screen, fmt in (*SCREENS, (LONG, "PNG")):
        data = render(screen, "PNG" if fmt == "photo" else fmt)
        if fmt == "photo":
            data = as_telegram_photo(data)
        decode_s, decoded = _median(lambda data=data: decode(data), repeat)
        pixels, scale = decoded
        read_s, read = _median(lambda p=pixels, s=scale: read_pixels(p, s), repeat)
        label = f"{screen.theme:5} {screen.width:4}px {fmt:5} {len(screen.bubbles)} bubbles"
        results.append(
            Result(
                label=label,
                chars=len(screen.reference),
                accuracy=char_accuracy(screen.reference, read.text),
                seconds=read_s + decode_s,
                decode_seconds=decode_s,
            )
        )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per image (median)")
    args = parser.parse_args()
    results = run(max(1, args.repeat))
    print(
        f"{'screen':34} {'chars':>5} {'accuracy':>8} {'s/image':>8} {'decode s':>8} {'x decode':>8}"
    )
    for r in results:
        print(
            f"{r.label:34} {r.chars:5d} {r.accuracy:8.3f} {r.seconds:8.2f} "
            f"{r.decode_seconds:8.3f} {r.seconds / r.decode_seconds:8.0f}"
        )
    chars = sum(r.chars for r in results)
    accuracy = sum(r.accuracy * r.chars for r in results) / chars
    seconds = statistics.mean(r.seconds for r in results)
    decode_s = statistics.mean(r.decode_seconds for r in results)
    print(
        f"\n{len(results)} images, {chars} characters: character accuracy {accuracy:.3f} "
        f"(1 - CER), {seconds:.2f} s per image, {seconds / decode_s:.0f}x the time to decode "
        f"the image ({decode_s * 1000:.0f} ms)"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"peak memory of this process (models loaded, one image at a time): {peak} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
