"""The Dockerfile and compose.yaml: every path they copy exists, every setting they set
is one the bot reads, the bot runs as a user of its own with data and master key on
separate volumes, and the health check is a real command.  The image is built only where
docker can (slow)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path, PurePosixPath

import pytest
import yaml

from bot.cli.main import build_parser
from bot.config import ENV_NAMES

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "compose.yaml"


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    result = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            result.append((word.upper(), rest.strip()))
    return result


def _env(args: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in shlex.split(args))


def _dockerfile_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for word, args in _instructions():
        if word == "ENV":
            env.update(_env(args))
    return env


def _compose() -> dict[str, object]:
    loaded = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_every_path_the_dockerfile_copies_exists_and_is_not_ignored() -> None:
    ignored = {
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()
    }
    copies = [args.split() for word, args in _instructions() if word == "COPY"]
    assert copies
    for parts in copies:
        for source in parts[:-1]:
            assert (ROOT / source).exists(), f"COPY {source}: no such path"
            assert source not in ignored, f"COPY {source}: excluded by .dockerignore"


def test_the_image_runs_as_its_own_user_with_data_and_key_on_separate_volumes() -> None:
    instructions = _instructions()
    users = [args for word, args in instructions if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    volumes = [v for word, args in instructions if word == "VOLUME" for v in json.loads(args)]
    env = _dockerfile_env()
    data = PurePosixPath(env["NOCONTACT_DATA_DIR"])
    key = PurePosixPath(env["MASTER_KEY_FILE"])
    data_volume = next(v for v in volumes if data.is_relative_to(v))
    key_volume = next(v for v in volumes if key.is_relative_to(v))
    assert data_volume != key_volume
    assert not key.is_relative_to(data)
    # the directories exist and belong to that user (a new named volume copies them)
    run = " ".join(args for word, args in instructions if word == "RUN")
    for directory in (data_volume, key_volume):
        assert directory in run and f"chown {users[-1]}:{users[-1]}" in run


def test_every_setting_the_image_and_compose_set_is_one_the_bot_reads() -> None:
    bot_service = _compose()["services"]["bot"]  # type: ignore[index]
    names = set(_dockerfile_env()) | set(bot_service["environment"])
    settings = {n for n in names if not n.startswith(("PYTHON", "PIP_"))}
    assert settings - set(ENV_NAMES) == set()
    compose_env = bot_service["environment"]
    assert compose_env["DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert "@db:" in compose_env["DATABASE_URL"]  # the compose service name
    assert "db" in _compose()["services"]  # type: ignore[operator]


def test_compose_volumes_match_the_image_and_are_declared() -> None:
    compose = _compose()
    bot_service = compose["services"]["bot"]  # type: ignore[index]
    mounts = dict(volume.split(":", 1) for volume in bot_service["volumes"])
    env = bot_service["environment"]
    assert set(mounts.values()) == {"/data", "/keys"}
    assert PurePosixPath(env["MASTER_KEY_FILE"]).is_relative_to("/keys")
    assert PurePosixPath(env["NOCONTACT_DATA_DIR"]) == PurePosixPath("/data")
    declared = set(compose["volumes"])  # type: ignore[arg-type]
    for service in compose["services"].values():  # type: ignore[attr-defined]
        for volume in service.get("volumes", []):
            assert volume.split(":", 1)[0] in declared
    assert bot_service["build"] == "."


def test_the_image_installs_extras_the_project_has_and_can_read_screenshots() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    run = " ".join(args for word, args in _instructions() if word == "RUN")
    named = {
        name.strip()
        for group in re.findall(r"pip install '?\.\[([^\]]+)\]", run)
        for name in group.split(",")
    }
    assert named and named <= set(extras)
    assert "ocr" in named  # a server reads screenshots ...
    assert "libgl1" in run and "libglib2.0-0" in run  # ... with what OpenCV needs


def test_the_health_check_and_the_command_are_real_commands() -> None:
    instructions = dict(_instructions())
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert '"nocontact", "health"' in instructions["HEALTHCHECK"]
    assert "health" in commands and "run" in commands
    assert instructions["ENTRYPOINT"] == '["nocontact"]'
    assert instructions["CMD"] == '["run"]'


def _docker_usable() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_image_builds() -> None:
    if not _docker_usable():
        pytest.skip("docker is not usable on this machine (no daemon)")
    result = subprocess.run(
        ["docker", "build", "-q", "-t", "nocontact-test", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=880,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    user = subprocess.run(
        ["docker", "run", "--rm", "--entrypoint", "id", "nocontact-test", "-u"],
        capture_output=True,
        text=True,
    )
    assert user.stdout.strip() not in ("", "0")
