"""The attnlab package's API, as the wheel installed it (conftest.py): its version is the site's,
Hugging Face's tuple of per-layer tensors becomes the import's (B, L, H, n, n) member with the
tokens, inputs over the import's caps are refused naming the cap, a package without its page says
where the page comes from, a figure carries its file and settings, __html__ is _repr_html_, and
the theme reaches the figure (its settings, or the served page's URL) or is refused."""
from __future__ import annotations

import base64
import html
import io
import json
import pathlib
import re
import subprocess
from types import ModuleType
from typing import Any, Dict

import numpy as np
import pytest
import torch

from conftest import PYTHON


def figure_blocks(page: str) -> Dict[str, Any]:
    """The figure's options and its .npz file, from the blocks before </body>."""
    options = re.search(r'<script type="application/json" id="attnlab-figure">([^<]*)</script>', page)
    data = re.search(r'<script type="application/octet-stream" id="attnlab-file" data-name="attention.npz" '
                     r'data-batch="(\d+)">([^<]+)</script>', page)
    assert options and data, "the page has no figure blocks"
    return {"options": json.loads(options.group(1)), "batch": int(data.group(1)),
            "npz": np.load(io.BytesIO(base64.b64decode(data.group(2))))}


def srcdoc(fragment: str) -> str:
    match = re.fullmatch(r'<iframe class="attnlab-figure" style="width:100%;height:(\d+)px;border:0" '
                         r'title="Attention Lab figure" srcdoc="([^"]*)"></iframe>', fragment)
    assert match, fragment[:200]
    return html.unescape(match.group(2))


def test_version_is_the_sites(attnlab: ModuleType, site_version: str) -> None:
    assert attnlab.__version__ == site_version


def test_torch_layers_become_attentions_blhnn_with_tokens_and_a_pair_is_cross_attention(attnlab: ModuleType) -> None:
    torch.manual_seed(0)
    layers = tuple(torch.softmax(torch.randn(2, 3, 4, 4), -1) for _ in range(5))
    z = np.load(io.BytesIO(attnlab.to_npz_bytes(layers, ["a", "b", "c", "d"])))
    assert z["attentions"].shape == (2, 5, 3, 4, 4)
    assert z["attentions"].dtype == np.float32
    assert z["tokens"].tolist() == ["a", "b", "c", "d"]
    np.testing.assert_array_equal(z["attentions"][:, 3], layers[3].numpy())
    x = np.load(io.BytesIO(attnlab.to_npz_bytes(np.ones((1, 1, 2, 3), np.float64), (["q1", "q2"], ["k1", "k2", "k3"]))))
    assert x["query_tokens"].tolist() == ["q1", "q2"]
    assert x["key_tokens"].tolist() == ["k1", "k2", "k3"]
    assert x["attentions"].dtype == np.float32


@pytest.mark.parametrize("call, message", [
    (lambda a: a.to_npz_bytes(np.zeros((1, 1, 1025, 1025), np.float16)),
     "attnlab: 1025 tokens on a side; the lab's import takes at most 1024"),
    (lambda a: a.to_npz_bytes(np.zeros((1, 600, 256, 1000), np.float16)),
     "attnlab: the weights have 153,600,000 elements; the lab's import takes at most 134,217,728 (128 Mi) "
     "for the batch entry it shows"),
    (lambda a: a.figure(np.eye(3), height=20), "attnlab: height must be a whole number of pixels from 100 to 4000, not 20"),
    (lambda a: a.figure(np.eye(3), batch=-1), "attnlab: batch must be a whole number >= 0, not -1"),
    (lambda a: a.to_npz_bytes(np.array([object()])), "attnlab: attentions holds Python objects, not numbers (shape (1,))"),
])
def test_inputs_over_the_caps_and_bad_options_are_refused_naming_the_cap(attnlab: ModuleType, call: Any, message: str) -> None:
    with pytest.raises(attnlab.AttnlabError) as refused:
        call(attnlab)
    assert str(refused.value) == message


def test_without_its_page_the_package_says_where_the_page_comes_from(attnlab: ModuleType, tmp_path: pathlib.Path) -> None:
    bare = tmp_path / "attnlab"
    bare.mkdir()
    (bare / "__init__.py").write_text(pathlib.Path(attnlab.__file__ or "").read_text(encoding="utf-8"), encoding="utf-8")
    r = subprocess.run([PYTHON, "-c", "import numpy as np, attnlab\ntry:\n    attnlab.figure(np.eye(2)).page()\n"
                        "except attnlab.AttnlabError as e:\n    print(e)"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == (f"attnlab: the lab's page {bare}/static/attnlab-embed-offline.html is missing. It is "
                                "copied there by the web build (scripts/build.sh web in the repository); install the "
                                "package again after building.")


def test_a_figure_carries_its_file_and_settings_and_html_is_repr_html(attnlab: ModuleType) -> None:
    fig = attnlab.figure(np.eye(3, dtype=np.float32), ["x", "y", "z"], layer=0, head=0, height=450)
    fragment = fig.__html__()
    assert fragment == fig._repr_html_()
    blocks = figure_blocks(srcdoc(fragment))
    assert blocks["npz"]["attentions"].tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    assert blocks["npz"]["tokens"].tolist() == ["x", "y", "z"]
    assert blocks["options"] == {"controls": False, "tabs": False, "release": False,
                                 "state": {"panel": "model", "layer": 0, "head": 0}}
    assert 'style="width:100%;height:450px;border:0"' in fragment


def test_the_packages_themes_are_the_pages(attnlab: ModuleType) -> None:
    # make-site.mjs writes the lab's themes into the embed's script (web/embed.mjs, THEMES).
    page_themes = re.search(r"const THEMES = \[([^\]]*)\];", attnlab.offline_page())
    assert page_themes, "the figure page lists no themes"
    assert attnlab.THEMES == ("auto", *re.findall(r"'([^']+)'", page_themes.group(1)))
    assert attnlab.THEMES == ("auto", "dark", "light", "high-contrast")


@pytest.mark.parametrize("theme", ["dark", "light", "high-contrast"])
def test_a_theme_reaches_the_figures_settings_and_the_served_pages_url(attnlab: ModuleType, theme: str) -> None:
    fig = attnlab.figure(np.eye(2), theme=theme)
    assert figure_blocks(srcdoc(fig.__html__()))["options"]["state"] == {"panel": "model", "theme": theme}
    served = attnlab.figure(np.eye(2), theme=theme, server="http://127.0.0.1:8080/").__html__()
    assert f'new URL("embed.html?tabs=0&controls=0&release=0&theme={theme}&origins="' in served
    assert f'"theme": "{theme}"' in served  # the state posted after the file


def test_auto_leaves_the_theme_to_the_browser(attnlab: ModuleType) -> None:
    assert attnlab.figure(np.eye(2)).theme == "auto"
    state = figure_blocks(srcdoc(attnlab.figure(np.eye(2), theme="auto").__html__()))["options"]["state"]
    assert state == {"panel": "model"}
    served = attnlab.figure(np.eye(2), server="http://127.0.0.1:8080/").__html__()
    assert 'new URL("embed.html?tabs=0&controls=0&release=0&origins="' in served


@pytest.mark.parametrize("theme", ["sepia", "Light", "", None, 1])
def test_a_theme_that_is_not_one_is_refused_by_show_figure_and_save_html(attnlab: ModuleType, theme: Any,
                                                                        tmp_path: pathlib.Path) -> None:
    message = f"attnlab: theme must be one of 'auto', 'dark', 'light', 'high-contrast', not {theme!r}"
    for call in (lambda: attnlab.show(np.eye(2), theme=theme), lambda: attnlab.figure(np.eye(2), theme=theme),
                 lambda: attnlab.save_html(tmp_path / "f.html", np.eye(2), theme=theme)):
        with pytest.raises(ValueError) as refused:
            call()
        assert str(refused.value) == message
    assert not (tmp_path / "f.html").exists()


def test_save_html_writes_the_page_with_the_theme(attnlab: ModuleType, tmp_path: pathlib.Path) -> None:
    written = attnlab.save_html(tmp_path / "figure.html", np.eye(2, dtype=np.float32), ["a", "b"], theme="light")
    assert written == str(tmp_path / "figure.html")
    blocks = figure_blocks((tmp_path / "figure.html").read_text(encoding="utf-8"))
    assert blocks["options"]["state"] == {"panel": "model", "theme": "light"}
    assert blocks["npz"]["attentions"].tolist() == [[1.0, 0.0], [0.0, 1.0]]
