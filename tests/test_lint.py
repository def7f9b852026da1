"""The code stays ruff-clean and mypy-clean (strict) on bot/ and flows/."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    path = BIN / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return found


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean_on_bot_and_flows(tmp_path: Path) -> None:
    result = subprocess.run(
        [_tool("mypy"), "--cache-dir", str(ROOT / ".mypy_cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _modules() -> list[Path]:
    return sorted(p for top in ("bot", "flows") for p in (ROOT / top).rglob("*.py"))


def test_a_module_over_400_lines_says_why() -> None:
    unexplained = [
        str(p.relative_to(ROOT))
        for p in _modules()
        if len(p.read_text(encoding="utf-8").splitlines()) > 400
        and "(Over 400 lines" not in p.read_text(encoding="utf-8")
    ]
    assert unexplained == []


def test_every_type_ignore_is_one_a_library_forces_and_says_which() -> None:
    bare = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in _modules()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if "type: ignore" in line and "# PTB:" not in line
    ]
    assert bare == []


def test_no_flow_state_or_session_is_an_untyped_dict() -> None:
    untyped = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in _modules()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if "State = dict" in line or "Session = dict" in line
    ]
    assert untyped == []
