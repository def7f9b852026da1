"""The analysis through the command line: `nocontact analyze` and `nocontact check-draft`."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.main import main

SEED = (
    "You have always been selfish. Everyone knows what kind of person you are. "
    "Are you picking her up at 5?"
)


def test_analyze_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", SEED]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["grey_rock"] == "Yes, 5."
    assert data["logistics"] == ["Are you picking her up at 5?"]
    assert {"blame", "smear", "logistics"} <= {t["id"] for t in data["tactics"]}


def test_analyze_joins_unquoted_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "I'll", "kill", "myself", "if", "you", "leave"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in data["danger"]] == ["self_harm_them"]


def test_analyze_stdin_prints_one_line_per_message_in_order(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["Are you picking her up at 5?", "I miss you", "he has a gun"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["analyze", "-"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3
    first, second, third = (json.loads(line) for line in out)
    assert first["grey_rock"] == "Yes, 5."
    assert [t["id"] for t in second["tactics"]] == ["affection"] and second["grey_rock"] is None
    assert {d["id"] for d in third["danger"]} >= {"weapon"}


def test_check_draft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-draft", "--incoming", SEED, "Yes 5. I am not selfish!!"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "trim"
    assert data["suggestion"] == "Yes 5."
    assert {"defending", "emotional"} <= {p["id"] for p in data["problems"]}


@pytest.mark.slow
def test_installed_command_runs_as_a_subprocess() -> None:
    exe = Path(sys.executable).parent / "nocontact"
    if not exe.exists():
        exe = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "nocontact"
    result = subprocess.run(
        [str(exe), "analyze", "-"],
        input="Are you picking her up at 5?\nI want to end it all\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["grey_rock"] == "Yes, 5."
    assert [d["id"] for d in second["danger"]] == ["self_harm_them"]
