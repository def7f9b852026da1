"""Safety resources configured by the operator (a JSON file per deployment)."""

from __future__ import annotations

import json
from importlib import resources as pkg_resources
from pathlib import Path
from typing import Any

from bot.config import ConfigError
from flows.types import HelpLine, Region, ResourceBook

_KINDS = ("call", "text", "web")


def _parse(doc: Any, source: str) -> ResourceBook:
    try:
        regions: dict[str, Region] = {}
        for code, raw in doc["regions"].items():
            lines = tuple(
                HelpLine(
                    name=str(line["name"]),
                    contact=str(line["contact"]),
                    kind=line.get("kind", "call") if line.get("kind", "call") in _KINDS else "call",
                    note=str(line.get("note", "")),
                    topic="crisis" if line.get("topic") == "crisis" else "abuse",
                )
                for line in raw.get("lines", [])
            )
            regions[str(code)] = Region(
                code=str(code), name=str(raw["name"]), emergency=str(raw["emergency"]), lines=lines
            )
        default = str(doc.get("default_region") or next(iter(regions)))
    except (KeyError, TypeError, AttributeError, StopIteration) as exc:
        raise ConfigError(
            f"The safety resources file {source} is not in the expected shape "
            f"(see bot/data/safety_resources.json): {exc!r}"
        ) from exc
    if default not in regions:
        raise ConfigError(f"The safety resources file {source} has no region {default!r}.")
    return ResourceBook(default_region=default, regions=regions)


def load_resources(path: Path | None = None, default_region: str | None = None) -> ResourceBook:
    """Load the operator's file, or the bundled default when ``path`` is None."""
    if path is None:
        text = pkg_resources.files("bot").joinpath("data/safety_resources.json").read_text("utf-8")
        source = "bundled with the bot"
    else:
        try:
            text = Path(path).read_text("utf-8")
        except OSError as exc:
            raise ConfigError(f"Cannot read SAFETY_RESOURCES_FILE {path}: {exc.strerror}.") from exc
        source = str(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"The safety resources file {source} is not valid JSON: {exc}") from exc
    book = _parse(doc, source)
    if default_region and default_region in book.regions:
        return ResourceBook(default_region=default_region, regions=book.regions)
    return book
