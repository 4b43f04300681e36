"""The wheel (build/python/dist, written by `scripts/build.sh wheel`): its metadata (licence,
readme, classifiers, requirements only Debian provides), its files (the figure page, the site's
licences, py.typed), a plain `pip install` into a fresh virtual environment that renders a
figure, and its type hints as a user's type checker (mypy --strict) sees them."""
from __future__ import annotations

import email
import pathlib
import re
import subprocess
import zipfile

from conftest import PYTHON, ROOT, Venv


def read_metadata(wheel: pathlib.Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(z.read(name))


def test_metadata_names_the_licences_readme_and_only_debians_requirements(wheel: pathlib.Path, site_version: str) -> None:
    meta = read_metadata(wheel)
    assert meta["Name"] == "attnlab"
    assert meta["Version"] == site_version
    assert wheel.name == f"attnlab-{site_version}-py3-none-any.whl"
    assert meta["License"] == "MIT AND GPL-3.0-or-later"
    assert meta["Requires-Python"] == ">=3.9"
    assert meta.get_all("Requires-Dist") == ["numpy"]
    classifiers = meta.get_all("Classifier") or []
    for c in ("License :: OSI Approved :: MIT License",
              "License :: OSI Approved :: GNU General Public License v3 or later (GPLv3+)", "Typing :: Typed",
              "Framework :: Jupyter"):
        assert c in classifiers
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().startswith("# attnlab: Attention Lab in Jupyter")
    # Every requirement is in Debian's site-packages: no index is needed to install the wheel.
    found = subprocess.run([PYTHON, "-c", "import numpy; print(numpy.__file__)"], capture_output=True, text=True)
    assert found.stdout.startswith("/usr/lib/python3/dist-packages/numpy/"), found.stdout + found.stderr


def test_the_wheel_carries_the_figure_page_the_licences_and_py_typed(wheel: pathlib.Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        licence = z.read(next(n for n in names if n.endswith(".dist-info/LICENSE"))).decode()
        index = z.read("attnlab/static/licenses/README.txt").decode()
        page = z.getinfo("attnlab/static/attnlab-embed-offline.html").file_size
        static_licence = z.read("attnlab/static/LICENSE").decode()
    repo_licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence == repo_licence and static_licence == repo_licence
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 Attention Lab\n")
    assert "attnlab/py.typed" in names and "attnlab/__init__.py" in names
    assert page > 1_000_000
    # The site's notices as the build wrote them: each file the index names is in the wheel.
    listed = re.findall(r"^([a-z0-9.-]+\.txt)$", index, flags=re.M)
    assert {"eigen.txt", "dear-imgui.txt", "emscripten.txt", "wqy-microhei.txt", "dejavu.txt", "gpl-3.0.txt"} <= set(listed)
    assert {f"attnlab/static/licenses/{f}" for f in listed} <= names
    assert "models/fortunes-lm.attnlm" in index and "GPL-3.0-or-later" in index


def test_pip_install_without_flags_gives_a_package_that_renders_a_figure(venv: Venv, tmp_path: pathlib.Path) -> None:
    r = venv.run("""
import attnlab, numpy as np
fig = attnlab.figure(np.eye(3, dtype=np.float32), ["a", "b", "c"], theme="dark")
html = fig.__html__()
print(attnlab.__file__)
print(len(attnlab.offline_page()) > 1_000_000, html == fig._repr_html_(), html.startswith('<iframe class="attnlab-figure"'))
print("&quot;theme&quot;: &quot;dark&quot;" in html)
""", tmp_path)
    assert r.returncode == 0, r.stderr
    where, checks, theme = r.stdout.strip().split("\n")
    assert where.startswith(f"{venv.path}/lib/python3") and where.endswith("/site-packages/attnlab/__init__.py"), where
    assert checks == "True True True"
    assert theme == "True"


def test_mypy_strict_sees_the_installed_packages_types(venv: Venv, tmp_path: pathlib.Path) -> None:
    user = tmp_path / "user.py"
    user.write_text("""import numpy as np
import attnlab

fig: attnlab.Figure = attnlab.figure(np.eye(2), ["a", "b"], theme="light")
text: str = fig.__html__()
page: str = attnlab.save_html("f.html", np.eye(2), theme="dark")
count: int = fig._repr_html_()
attnlab.show(np.eye(2), heigth=300)
attnlab.show(np.eye(2), theme="sepia")
""")
    r = subprocess.run([PYTHON, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"),
                        "--python-executable", str(venv.python), str(user)],
                       cwd=tmp_path, capture_output=True, text=True)
    # Exactly the three mistakes, found through the installed package's hints (py.typed).
    errors = [line.split(": error: ")[1] for line in r.stdout.splitlines() if ": error: " in line]
    assert errors == [
        'Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]',
        'Unexpected keyword argument "heigth" for "show"; did you mean "height"?  [call-arg]',
        'Argument "theme" to "show" has incompatible type "Literal[\'sepia\']"; '
        'expected "Literal[\'auto\', \'dark\', \'light\', \'high-contrast\']"  [arg-type]',
    ], r.stdout + r.stderr
    # And the package itself passes --strict.
    package = next(venv.path.glob("lib/python3*/site-packages/attnlab"))
    own = subprocess.run([PYTHON, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), str(package)],
                         cwd=tmp_path, capture_output=True, text=True)
    assert own.stdout.strip() == "Success: no issues found in 1 source file", own.stdout + own.stderr
