"""Oracles for attention as current models run it, written from the papers' formulas in numpy
(float64), never from attnlab's code, and compared with attnlab-cli. One JSON line per case:
{"name", "max_abs_diff", "checked", "detail"}; tests/node/modern_cli.test.mjs asserts each
difference is within 1e-5.

    /usr/bin/python3 tests/python/modern_reference.py build/native/attnlab-cli WORKDIR

- RoPE (Su et al. 2021, eq. 34): the pair (x_{2i}, x_{2i+1}) of a row at position m turned by
  m * theta_i, theta_i = base^(-2i/d) (interleaved, as the paper writes it); LLaMA's
  "rotate_half" pairs x_i with x_{i+d/2} instead: x * cos + rotate_half(x) * sin with the
  angles repeated over both halves.
- ALiBi (Press et al. 2022, section 3): scores + m * (-(i - j)) for the causal model; the lab
  also offers the symmetric -m |i - j| for a bidirectional one.
- Grouped-query attention (Ainslie et al. 2023): multi-head attention with each key/value
  head repeated H/G times (torch.repeat_interleave, as Hugging Face's repeat_kv does).
- FlashAttention (Dao et al. 2022): the output is exact attention's; after a row's last tile
  m is its maximum score and l is sum_j exp(s_ij - m).
"""
import json
import os
import sys

import numpy as np
import torch

from cli_files import CliFiles

CLI, WORK = sys.argv[1], sys.argv[2]
files = CliFiles(CLI, WORK)
run = files.run
rng = np.random.default_rng(20261201)


def save(name, array):
    return files.save(name, array.astype(np.float32))


def load(out, name):
    return files.load(out, name).astype(np.float64)


def report(name, got, want, detail=""):
    diff = float(np.max(np.abs(got - want)))
    print(json.dumps({"name": name, "max_abs_diff": diff, "checked": int(np.size(want)), "detail": detail or f"shape {np.shape(want)}"}))


def softmax(s):
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def sdpa(q, k, v, bias=None, causal=False):
    s = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    if bias is not None:
        s = s + bias
    if causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    w = softmax(s)
    return s, w, w @ v


# ---- RoPE -----------------------------------------------------------------------------
def rope_interleaved(x, base):
    """The paper's form: R_{theta,m} applied to consecutive pairs."""
    n, d = x.shape
    theta = base ** (-2.0 * np.arange(d // 2) / d)
    out = x.copy()
    for m in range(n):
        for i in range(d // 2):
            c, s = np.cos(m * theta[i]), np.sin(m * theta[i])
            a, b = x[m, 2 * i], x[m, 2 * i + 1]
            out[m, 2 * i], out[m, 2 * i + 1] = a * c - b * s, a * s + b * c
    return out


def rope_half(x, base):
    """LLaMA's form: x * cos + rotate_half(x) * sin, angles concatenated over both halves."""
    n, d = x.shape
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2) / d))
    freqs = np.outer(np.arange(n), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    rotated = np.concatenate([-x[:, d // 2:], x[:, : d // 2]], axis=-1)
    return x * np.cos(emb) + rotated * np.sin(emb)


for pairing, turn in (("half", rope_half), ("interleaved", rope_interleaved)):
    for base, n, d in ((10000.0, 37, 64), (500.0, 24, 16)):
        q, k, v = rng.standard_normal((n, d)), rng.standard_normal((n, d)), rng.standard_normal((n, 8))
        qp, kp, vp = save("rq.npy", q), save("rk.npy", k), save("rv.npy", v)
        out = f"rope-{pairing}-{int(base)}"
        run("sdpa", "--q", qp, "--k", kp, "--v", vp, "--causal", "--rope", str(base), "--rope-pairing", pairing, "--out", os.path.join(WORK, out))
        qf, kf, vf = (np.load(p).astype(np.float64) for p in (qp, kp, vp))
        s, w, o = sdpa(turn(qf, base), turn(kf, base), vf, causal=True)
        finite = np.isfinite(s)
        report(f"RoPE {pairing} base {int(base)}: weights", load(out, "weights.npy"), w)
        report(f"RoPE {pairing} base {int(base)}: output", load(out, "output.npy"), o)
        report(f"RoPE {pairing} base {int(base)}: scores", load(out, "scores.npy")[finite], s[finite], "scores where not masked")

# ---- ALiBi ------------------------------------------------------------------------------
n, d = 29, 32
q, k, v = rng.standard_normal((n, d)), rng.standard_normal((n, d)), rng.standard_normal((n, 8))
qp, kp, vp = save("aq.npy", q), save("ak.npy", k), save("av.npy", v)
qf, kf, vf = (np.load(p).astype(np.float64) for p in (qp, kp, vp))
i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
for slope, causal in ((0.25, True), (2.0 ** -5, False)):
    out = f"alibi-{slope}-{causal}"
    run("sdpa", "--q", qp, "--k", kp, "--v", vp, "--alibi-slope", repr(slope), "--out", os.path.join(WORK, out), *(["--causal"] if causal else []))
    bias = -slope * ((i - j) if causal else np.abs(i - j))
    s, w, o = sdpa(qf, kf, vf, bias=bias, causal=causal)
    report(f"ALiBi slope {slope}{' causal' if causal else ''}: weights", load(out, "weights.npy"), w)
    report(f"ALiBi slope {slope}{' causal' if causal else ''}: output", load(out, "output.npy"), o)

# ---- grouped-query attention ------------------------------------------------------------------
for heads, kv_heads, causal in ((8, 2, True), (6, 1, False), (4, 4, True)):
    n, dk, dv = 21, 16, 12
    q, k, v = rng.standard_normal((heads, n, dk)), rng.standard_normal((kv_heads, n, dk)), rng.standard_normal((kv_heads, n, dv))
    qp, kp, vp = save("gq.npy", q), save("gk.npy", k), save("gv.npy", v)
    out = f"gqa-{heads}-{kv_heads}"
    run("gqa", "--q", qp, "--k", kp, "--v", vp, "--out", os.path.join(WORK, out), *(["--causal"] if causal else []))
    qt, kt, vt = (torch.from_numpy(np.load(p).astype(np.float64)) for p in (qp, kp, vp))
    k_rep = torch.repeat_interleave(kt, heads // kv_heads, dim=0)  # Hugging Face's repeat_kv
    v_rep = torch.repeat_interleave(vt, heads // kv_heads, dim=0)
    _, w, o = sdpa(qt.numpy(), k_rep.numpy(), v_rep.numpy(), causal=causal)
    name = f"GQA {heads} query heads / {kv_heads} kv heads{' causal' if causal else ''}"
    report(f"{name}: weights", load(out, "weights.npy"), w)
    report(f"{name}: output", load(out, "output.npy"), o)

# ---- FlashAttention ------------------------------------------------------------------------------
for n_q, n_k, bq, bk, causal in ((50, 50, 7, 9, True), (45, 33, 16, 5, False), (10, 10, 3, 4, True)):
    q, k, v = rng.standard_normal((n_q, 32)), rng.standard_normal((n_k, 32)), rng.standard_normal((n_k, 16))
    qp, kp, vp = save("fq.npy", q), save("fk.npy", k), save("fv.npy", v)
    out = f"flash-{n_q}-{bq}-{bk}"
    line = json.loads(run("flash", "--q", qp, "--k", kp, "--v", vp, "--block-q", str(bq), "--block-k", str(bk),
                          "--out", os.path.join(WORK, out), *(["--causal"] if causal else [])))
    qf, kf, vf = (np.load(p).astype(np.float64) for p in (qp, kp, vp))
    s, w, o = sdpa(qf, kf, vf, causal=causal)
    name = f"FlashAttention {n_q}x{n_k} tiles {bq}x{bk}{' causal' if causal else ''}"
    report(f"{name}: output", load(out, "output.npy"), o)
    # After each query tile's last step: m = the row's max score, l = sum exp(s - m).
    last = {}
    for step in line["steps"]:
        last[step["qTile"]] = step
    m_got, l_got, m_want, l_want = [], [], [], []
    for step in last.values():
        for r, row in enumerate(range(step["qBegin"], step["qEnd"])):
            seen = s[row][np.isfinite(s[row])]
            m_want.append(seen.max())
            l_want.append(np.exp(seen - seen.max()).sum())
            m_got.append(step["m"][r])
            l_got.append(step["l"][r])
    report(f"{name}: last step's m", np.array(m_got), np.array(m_want), f"{len(line['steps'])} steps")
    report(f"{name}: last step's l / true l - 1", np.array(l_got) / np.array(l_want) - 1, np.zeros(len(l_want)), "relative")
