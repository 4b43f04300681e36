"""Attention Lab in Jupyter: any model's attention in the live lab, offline.

    import attnlab
    out = model(**batch, output_attentions=True)
    attnlab.show(out.attentions, tokens)          # the live lab in the cell's output
    attnlab.show(out.attentions, tokens, theme="light")   # or "dark", "high-contrast", "auto"
    attnlab.save_html("figure.html", out.attentions, tokens)

The figure is the lab's single-file page for one figure (attnlab-embed-offline.html, copied
into this package's static/ folder by the web build), with the attention written into it as an
.npz file in an inert data block: the lab reads it through the same import as a file dropped
on its page, so a malformed tensor gets the page's own message, shown in the figure. A
notebook cell shows it in an iframe's srcdoc, which needs no network, no server and no script
outside the figure (Jupyter Notebook, JupyterLab, VS Code, and an HTML export of the notebook).
Each such figure adds the page's size (about 12 MB) to the notebook file; `server=` points the
figure at a served build/web/dist instead (the file and about 2 KB of HTML per figure).

The figure's colours: theme="auto" (the default) follows the browser's colour scheme, as the
embedded page does; "dark", "light" or "high-contrast" (the lab's themes) fix them.

numpy is the one requirement; torch tensors are accepted when torch is installed. The package
is typed (py.typed).
"""
from __future__ import annotations

import base64
import html
import io
import json
import os
import pathlib
import uuid
import warnings
from typing import Any, Dict, Literal, Mapping, Optional, Sequence, Tuple, Union, cast, get_args

import numpy as np
import numpy.typing as npt

__version__ = "0.1.0"  # the site's version (package.json): tests check the two agree

__all__ = ["show", "figure", "save_html", "Figure", "offline_page", "to_npz_bytes", "AttnlabError", "THEMES",
           "__version__"]

# What the functions take: a tensor (torch, numpy, nested lists), Hugging Face's tuple of them,
# or a dict of docs/IMPORT.md's members; the tokens as a list, or (query tokens, key tokens).
Attentions = Union[npt.ArrayLike, Sequence[Any], Mapping[str, Any]]
Tokens = Union[Sequence[Any], Tuple[Sequence[Any], Sequence[Any]]]
Array = npt.NDArray[Any]

# The figure's themes: "auto" follows the browser's colour scheme (the page's default); the
# others are the lab's (src/app/view_choices.h; the tests compare them with the page's list).
Theme = Literal["auto", "dark", "light", "high-contrast"]
THEMES: Tuple[str, ...] = get_args(Theme)

# The import's caps (src/core/io/import_attention.h), checked here before a file is written
# into a notebook; the lab checks them again, with the rest, when it reads the file.
MAX_FILE_BYTES = 512 << 20
MAX_WEIGHT_ELEMENTS = 128 << 20
MAX_TOKENS = 1024
_STATIC = pathlib.Path(__file__).resolve().parent / "static"
_PAGE = "attnlab-embed-offline.html"


class AttnlabError(ValueError):
    """A figure that cannot be made (a missing page, an input over a cap)."""


def offline_page() -> str:
    """The text of the single-file figure page this package carries."""
    page = _STATIC / _PAGE
    if not page.is_file():
        raise AttnlabError(
            f"attnlab: the lab's page {page} is missing. It is copied there by the web build "
            "(scripts/build.sh web in the repository); install the package again after building.")
    return page.read_text(encoding="utf-8")


# ---- attention in, an .npz file out ------------------------------------------------------------

def _as_array(t: Any, name: str) -> Array:
    """A numpy array of a tensor (torch, numpy or nested lists)."""
    if hasattr(t, "detach") and hasattr(t, "cpu"):  # a torch tensor, without importing torch
        t = t.detach().cpu()
        if str(getattr(t, "dtype", "")) == "torch.bfloat16":
            t = t.float()
        t = t.numpy()
    a = np.asarray(t)
    if a.dtype == object:
        raise AttnlabError(f"attnlab: {name} holds Python objects, not numbers (shape {a.shape})")
    if a.dtype.kind == "f" and a.dtype != np.float16:
        a = a.astype(np.float32)
    return a


def _stack_attentions(attentions: Any) -> Array:
    """Hugging Face's tuple of L tensors (B, H, n, n) becomes (B, L, H, n, n); arrays pass."""
    if isinstance(attentions, (tuple, list)) and attentions and not np.isscalar(attentions[0]) and \
            getattr(attentions[0], "ndim", np.ndim(attentions[0])) == 4:
        return np.stack([_as_array(a, "attentions") for a in attentions], axis=1)
    return _as_array(attentions, "attentions")


def _members(attentions: Attentions, tokens: Optional[Tokens]) -> Dict[str, Array]:
    members: Dict[str, Array] = {}
    if isinstance(attentions, dict):
        for key, value in attentions.items():
            members[key] = _stack_attentions(value) if key in ("attentions", "attention", "attn", "weights") \
                else _as_array(value, key)
    else:
        members["attentions"] = _stack_attentions(attentions)
    if tokens is not None:
        if isinstance(tokens, tuple) and len(tokens) == 2:  # (query tokens, key tokens)
            members["query_tokens"] = np.array([str(t) for t in tokens[0]])
            members["key_tokens"] = np.array([str(t) for t in tokens[1]])
        else:
            members["tokens"] = np.array([str(t) for t in tokens])
    return members


def _check_caps(members: Mapping[str, Array], batch: int) -> None:
    weights = next((members[k] for k in ("attentions", "attention", "attn", "weights") if k in members), None)
    if weights is None:
        return
    shown = weights[batch] if weights.ndim == 5 and 0 <= batch < weights.shape[0] else weights
    if shown.size > MAX_WEIGHT_ELEMENTS:
        raise AttnlabError(f"attnlab: the weights have {shown.size:,} elements; the lab's import takes at most "
                           f"{MAX_WEIGHT_ELEMENTS:,} (128 Mi) for the batch entry it shows")
    if weights.ndim >= 2 and max(weights.shape[-2:]) > MAX_TOKENS:
        raise AttnlabError(f"attnlab: {max(weights.shape[-2:])} tokens on a side; the lab's import takes at most {MAX_TOKENS}")


def to_npz_bytes(attentions: Attentions, tokens: Optional[Tokens] = None, *, batch: int = 0) -> bytes:
    """The .npz file the figure carries: attentions (B, L, H, n_q, n_k) or as given, tokens,
    and q/k/v when `attentions` is a dict that has them (docs/IMPORT.md)."""
    members = _members(attentions, tokens)
    _check_caps(members, batch)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **members)
    data = buffer.getvalue()
    if len(data) > MAX_FILE_BYTES:
        raise AttnlabError(f"attnlab: the file would be {len(data):,} bytes; the lab's import takes at most 512 MiB")
    return data


# ---- the figure -------------------------------------------------------------------------------

def _check_theme(theme: object) -> Theme:
    if not isinstance(theme, str) or theme not in THEMES:
        raise AttnlabError(f"attnlab: theme must be one of {', '.join(map(repr, THEMES))}, not {theme!r}")
    return cast(Theme, theme)  # one of THEMES, which are Theme's values


def _figure_state(panel: str, layer: Optional[int], head: Optional[int], theme: str) -> Dict[str, Any]:
    """The settings patch the figure applies after its file ('auto' leaves the theme to the page)."""
    state: Dict[str, Any] = {"panel": panel}
    if layer is not None:
        state["layer"] = int(layer)
    if head is not None:
        state["head"] = int(head)
    if theme != "auto":
        state["theme"] = theme
    return state


def _fill_page(page: str, data: bytes, name: str, batch: int, options: Mapping[str, Any]) -> str:
    """The page with its figure's options and file as inert blocks before </body>."""
    blocks = (
        '<script type="application/json" id="attnlab-figure">'
        + json.dumps(options).replace("<", "\\u003c") + "</script>\n"
        f'<script type="application/octet-stream" id="attnlab-file" data-name="{html.escape(name)}" '
        f'data-batch="{int(batch)}">' + base64.b64encode(data).decode("ascii") + "</script>\n")
    at = page.rfind("</body>")
    if at < 0:
        raise AttnlabError("attnlab: the lab's page has no </body>; rebuild it (scripts/build.sh web)")
    return page[:at] + blocks + page[at:]


class Figure:
    """One lab figure; Jupyter shows it through _repr_html_, other HTML hosts through __html__."""

    def __init__(self, attentions: Attentions, tokens: Optional[Tokens] = None, *, layer: Optional[int] = None,
                 head: Optional[int] = None, panel: str = "model", height: int = 600, batch: int = 0,
                 controls: bool = False, tabs: bool = False, server: Optional[str] = None,
                 name: str = "attention.npz", theme: Theme = "auto") -> None:
        if not isinstance(height, int) or not 100 <= height <= 4000:
            raise AttnlabError(f"attnlab: height must be a whole number of pixels from 100 to 4000, not {height!r}")
        if not isinstance(batch, int) or batch < 0:
            raise AttnlabError(f"attnlab: batch must be a whole number >= 0, not {batch!r}")
        self.theme = _check_theme(theme)
        self.data = to_npz_bytes(attentions, tokens, batch=batch)
        self.name = name
        self.batch = batch
        self.height = height
        self.server = server
        self.options: Dict[str, Any] = {"controls": bool(controls), "tabs": bool(tabs), "release": False,
                                        "state": _figure_state(panel, layer, head, self.theme)}

    def page(self) -> str:
        """The figure as one HTML file: the lab's page with this figure's blocks."""
        return _fill_page(offline_page(), self.data, self.name, self.batch, self.options)

    def _repr_html_(self) -> str:
        style = f'width:100%;height:{self.height}px;border:0'
        if self.server:
            return self._served_html(style)
        return (f'<iframe class="attnlab-figure" style="{style}" title="Attention Lab figure" '
                f'srcdoc="{html.escape(self.page(), quote=True)}"></iframe>')

    def __html__(self) -> str:
        """The same HTML as _repr_html_, for hosts that ask for __html__ (markupsafe, Jinja)."""
        return self._repr_html_()

    def _served_html(self, style: str) -> str:
        # The served embed gets the file by the importFile message once it says it is ready.
        assert self.server is not None
        base = self.server.rstrip("/") + "/"
        # The served page reads its theme from the URL ('auto': none, the page follows the browser).
        theme = "" if self.theme == "auto" else "&theme=" + self.theme
        payload = json.dumps({"file": base64.b64encode(self.data).decode("ascii"), "name": self.name,
                              "batch": self.batch, "state": self.options["state"]})
        frame_id = "attnlab-" + uuid.uuid4().hex  # notebooks insert outputs without currentScript
        return (f'<iframe id="{frame_id}" class="attnlab-figure" style="{style}" title="Attention Lab figure"></iframe>'
                '<script>(() => {'
                f'const frame = document.getElementById("{frame_id}");'
                f'const p = {payload}; const base = {json.dumps(base)};'
                f'const url = new URL("embed.html?tabs={int(self.options["tabs"])}&controls={int(self.options["controls"])}'
                f'&release=0{theme}&origins=" + encodeURIComponent(location.origin), base);'
                'addEventListener("message", (e) => {'
                '  if (e.source !== frame.contentWindow || e.data?.attnlab !== 1) return;'
                '  if (e.data.event === "ready") {'
                '    const bytes = Uint8Array.from(atob(p.file), (c) => c.charCodeAt(0));'
                '    frame.contentWindow.postMessage({attnlab: 1, id: 1, type: "importFile", name: p.name, bytes, batch: p.batch}, url.origin);'
                '  } else if (e.data.type === "reply" && e.data.id === 1 && e.data.ok) {'
                '    frame.contentWindow.postMessage({attnlab: 1, id: 2, type: "setState", state: p.state}, url.origin);'
                '  }'
                '});'
                'frame.src = url.href;'
                '})();</script>')


_warned: bool = False


def figure(attentions: Attentions, tokens: Optional[Tokens] = None, **options: Any) -> Figure:
    """The Figure for `attentions` without showing it (see show for the arguments)."""
    return Figure(attentions, tokens, **options)


def show(attentions: Attentions, tokens: Optional[Tokens] = None, *, layer: Optional[int] = None,
         head: Optional[int] = None, panel: str = "model", height: int = 600, batch: int = 0,
         controls: bool = False, tabs: bool = False, server: Optional[str] = None, theme: Theme = "auto") -> None:
    """Shows the attention in the live lab, in the cell's output.

    attentions: Hugging Face's `output_attentions` (a tuple of L tensors (B, H, n, n)), an
        array (B, L, H, n_q, n_k), (L, H, n_q, n_k), (H, n, n) or (n_q, n_k), or a dict of
        docs/IMPORT.md's members (attentions, tokens, q, k, v, ...).
    tokens: a list of n tokens, or a pair (query tokens, key tokens) for cross-attention.
    layer, head: the ones to focus; panel: the lab's panel ('model', 'pipeline', 'token',
        'heads', ...); batch: the batch entry for B > 1; height in CSS pixels; controls and
        tabs show the lab's controls and panel tabs (hidden by default: the figure gets the
        room).
    server: the URL of a served build/web/dist (scripts/run.sh): the figure loads the lab
        from there instead of carrying it (the file and about 2 KB of HTML instead of about 12 MB).
    theme: 'auto' (the browser's colour scheme, as the page's default), 'dark', 'light' or
        'high-contrast'; any other value is refused (AttnlabError, a ValueError).
    """
    global _warned
    fig = Figure(attentions, tokens, layer=layer, head=head, panel=panel, height=height, batch=batch,
                 controls=controls, tabs=tabs, server=server, theme=theme)
    if server is None and not _warned:
        _warned = True
        warnings.warn("attnlab: each figure carries the lab's page (about 12 MB) in the notebook file; "
                      "show(..., server='http://127.0.0.1:8080/') points figures at a served lab instead",
                      stacklevel=2)
    try:
        from IPython.display import display  # type: ignore[import]  # IPython ships no type information
    except ImportError as error:
        raise AttnlabError("attnlab.show needs IPython (a Jupyter kernel); attnlab.save_html writes a file") from error
    display(fig)


def save_html(path: Union[str, "os.PathLike[str]"], attentions: Attentions, tokens: Optional[Tokens] = None, *,
              layer: Optional[int] = None, head: Optional[int] = None, panel: str = "model", batch: int = 0,
              controls: bool = False, tabs: bool = False, theme: Theme = "auto") -> str:
    """Writes the figure as one HTML file that opens without a network (file:// too)."""
    fig = Figure(attentions, tokens, layer=layer, head=head, panel=panel, batch=batch, controls=controls, tabs=tabs,
                 theme=theme)
    pathlib.Path(path).write_text(fig.page(), encoding="utf-8")
    return str(path)
