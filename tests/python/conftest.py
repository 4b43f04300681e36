"""The python suite's fixtures (pytest, Debian's python3-pytest): the wheel that
`scripts/build.sh wheel` wrote, a fresh virtual environment with it installed by a plain
`pip install WHEEL`, and the attnlab module imported from that environment.

The environment is made with `--system-site-packages`, as a user here must (numpy comes from
Debian's python3-numpy; no package index is reachable), in a temporary folder of the session.
"""
from __future__ import annotations

import importlib
import json
import pathlib
import subprocess
import sys
from types import ModuleType

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYTHON = "/usr/bin/python3"  # Debian's, with numpy and torch (not the first python3 on PATH)


@pytest.fixture(scope="session")
def site_version() -> str:
    """The site's version (the root package.json), which the package's must equal."""
    return str(json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["version"])


@pytest.fixture(scope="session")
def wheel() -> pathlib.Path:
    wheels = sorted((ROOT / "build" / "python" / "dist").glob("attnlab-*.whl"))
    assert len(wheels) == 1, f"one wheel in build/python/dist, not {[w.name for w in wheels]}: run scripts/build.sh wheel"
    return wheels[0]


class Venv:
    def __init__(self, path: pathlib.Path) -> None:
        self.path = path
        self.python = path / "bin" / "python"

    def run(self, code: str, cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
        """Runs `code` in the environment's python from `cwd` (never the repository)."""
        return subprocess.run([str(self.python), "-c", code], cwd=cwd, capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin", "HOME": str(cwd)})


@pytest.fixture(scope="session")
def venv(wheel: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    path = tmp_path_factory.mktemp("venv")
    made = subprocess.run([PYTHON, "-m", "venv", "--system-site-packages", str(path)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    # The command the README gives, with no other flag.
    pip = subprocess.run([str(path / "bin" / "pip"), "install", str(wheel)], cwd=path, capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(path)})
    assert pip.returncode == 0, pip.stdout + pip.stderr
    assert "Successfully installed attnlab-" in pip.stdout
    return Venv(path)


@pytest.fixture(scope="session")
def attnlab(venv: Venv) -> ModuleType:
    """The package as the environment installed it (its site-packages first on sys.path)."""
    purelib = venv.run("import sysconfig; print(sysconfig.get_path('purelib'))", venv.path).stdout.strip()
    assert purelib.startswith(str(venv.path)), purelib
    sys.path.insert(0, purelib)
    module = importlib.import_module("attnlab")
    assert pathlib.Path(module.__file__ or "").is_relative_to(venv.path), module.__file__
    return module
