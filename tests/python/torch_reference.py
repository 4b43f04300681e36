"""Compares attnlab-cli with PyTorch on random inputs and prints one JSON line per case.

Run with Debian's /usr/bin/python3 (it has python3-torch 1.13 and python3-numpy):
    /usr/bin/python3 tests/python/torch_reference.py build/native/attnlab-cli WORKDIR
Each line: {"name", "max_abs_diff", "checked", "detail"}. The Node test
tests/node/pytorch_cli.test.mjs runs this and asserts every difference is within 1e-5.

torch 1.13 has nn.MultiheadAttention but no public F.scaled_dot_product_attention, so the
sdpa reference is written from torch ops here, in float64 (the more exact side of the
comparison); PyTorch's fully masked rows come out NaN, where attnlab gives zeros.
"""
import json
import os
import sys

import numpy as np
import torch

from cli_files import CliFiles

CLI, WORK = sys.argv[1], sys.argv[2]
files = CliFiles(CLI, WORK)
save, run, load = files.save, files.run, files.load
torch.manual_seed(0)
rng = np.random.default_rng(20261130)


def max_diff(ours, ref):
    ours = np.asarray(ours, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if ours.shape != ref.shape:
        raise RuntimeError(f"shape {ours.shape} vs {ref.shape}")
    same_inf = np.isinf(ours) & np.isinf(ref) & (np.sign(ours) == np.sign(ref))
    if np.any(np.isinf(ours) != np.isinf(ref)):
        raise RuntimeError("the masked (-inf) entries differ")
    with np.errstate(invalid="ignore"):  # inf - inf where both are masked; replaced by 0
        d = np.where(same_inf, 0.0, np.abs(ours - ref))
    return float(np.max(d)) if d.size else 0.0


def sdpa_ref(q, k, v, mask=None, causal=False, scale=None, score="dot"):
    q, k, v = (torch.from_numpy(a).double() for a in (q, k, v))
    if score == "cosine":
        q = q / q.norm(dim=-1, keepdim=True)
        k = k / k.norm(dim=-1, keepdim=True)
    s = q @ k.transpose(-2, -1)
    s = s * (scale if scale is not None else 1.0 / np.sqrt(q.shape[-1]))
    n_q, n_k = s.shape[-2], s.shape[-1]
    if causal:
        s = s.masked_fill(~torch.ones(n_q, n_k, dtype=torch.bool).tril(), float("-inf"))
    if mask is not None:
        m = torch.from_numpy(mask)
        s = s.masked_fill(~m, float("-inf")) if m.dtype == torch.bool else s + m.double()
    w = torch.softmax(s, dim=-1)
    return s.numpy(), w.numpy(), (w @ v).numpy()


results = []


def case(name, fn):
    try:
        diff, checked, detail = fn()
        results.append({"name": name, "max_abs_diff": diff, "checked": checked, "detail": detail})
    except Exception as e:  # reported, and the Node test fails on it
        results.append({"name": name, "max_abs_diff": None, "checked": 0, "detail": f"error: {e}"})


def normal(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def sdpa_case(tag, q, k, v, mask=None, causal=False, scale=None, score="dot"):
    args = ["sdpa", "--q", save(f"{tag}_q.npy", q), "--k", save(f"{tag}_k.npy", k), "--v", save(f"{tag}_v.npy", v),
            "--out", os.path.join(WORK, tag)]
    if mask is not None:
        args += ["--mask", save(f"{tag}_mask.npy", mask)]
    if causal:
        args.append("--causal")
    if scale is not None:
        args += ["--scale", repr(scale)]
    if score != "dot":
        args += ["--score", score]
    run(*args)
    s, w, o = sdpa_ref(q, k, v, mask, causal, scale, score)
    diffs = [max_diff(load(tag, "scores.npy"), s), max_diff(load(tag, "weights.npy"), w),
             max_diff(load(tag, "output.npy"), o)]
    return max(diffs), int(w.size + o.size), f"scores/weights/output max diff {diffs[0]:.2e}/{diffs[1]:.2e}/{diffs[2]:.2e}, shape {o.shape}"


# --- sdpa ---------------------------------------------------------------------------------
B, NQ, NK, DK, DV = 2, 128, 96, 64, 48
case("sdpa: batch 2x3, n_q 128 != n_k 96, d_k 64 != d_v 48",
     lambda: sdpa_case("plain", normal(B, 3, NQ, DK), normal(B, 3, NK, DK), normal(B, 3, NK, DV)))


def bool_mask_case():
    m = rng.random((B, 1, NQ, NK)) > 0.3
    m[..., 0] = True  # every row keeps a key: PyTorch would give NaN for an empty row
    return sdpa_case("boolmask", normal(B, 3, NQ, DK), normal(B, 3, NK, DK), normal(B, 3, NK, DV), mask=m)


case("sdpa: boolean mask (True = attend), broadcast over heads", bool_mask_case)


def float_mask_case():
    m = normal(NQ, NK)
    m[rng.random((NQ, NK)) > 0.8] = -np.inf
    m[:, 1] = 0.5
    return sdpa_case("floatmask", normal(B, NQ, DK), normal(B, NK, DK), normal(B, NK, DV), mask=m)


case("sdpa: float mask added to the scores, with -inf entries", float_mask_case)
case("sdpa: causal with n_q != n_k (top-left aligned)",
     lambda: sdpa_case("causal", normal(B, NQ, DK), normal(B, NK, DK), normal(B, NK, DV), causal=True))
case("sdpa: custom scale 0.3 and cosine scores",
     lambda: sdpa_case("cosine", normal(B, NQ, DK), normal(B, NK, DK), normal(B, NK, DV), scale=0.3, score="cosine"))


def fully_masked_case():
    q, k, v = normal(1, 4, 8), normal(1, 5, 8), normal(1, 5, 3)
    m = np.ones((4, 5), dtype=bool)
    m[2] = False
    run("sdpa", "--q", save("fm_q.npy", q), "--k", save("fm_k.npy", k), "--v", save("fm_v.npy", v),
        "--mask", save("fm_mask.npy", m), "--out", os.path.join(WORK, "fm"))
    w, o = load("fm", "weights.npy"), load("fm", "output.npy")
    _, w_ref, o_ref = sdpa_ref(q, k, v, m)
    if not np.all(np.isnan(w_ref[0, 2])):
        raise RuntimeError("expected PyTorch to give NaN for the fully masked row")
    if np.any(w[0, 2] != 0) or np.any(o[0, 2] != 0):
        raise RuntimeError("the fully masked row should be zeros")
    rows = [0, 1, 3]
    return max(max_diff(w[0, rows], w_ref[0, rows]), max_diff(o[0, rows], o_ref[0, rows])), int(w.size), \
        "fully masked row: attnlab zeros where PyTorch gives NaN; other rows compared"


case("sdpa: a fully masked row gives zeros (PyTorch: NaN)", fully_masked_case)


# --- mha ----------------------------------------------------------------------------------
def mha_case(tag, E, H, n_q, n_k, cross=False, bias=True, kpm=None, attn_mask=None, causal=False):
    mha = torch.nn.MultiheadAttention(E, H, bias=bias, batch_first=True).double()
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.from_numpy(normal(3 * E, E) / np.sqrt(E)))
        mha.out_proj.weight.copy_(torch.from_numpy(normal(E, E) / np.sqrt(E)))
        if bias:
            mha.in_proj_bias.copy_(torch.from_numpy(normal(3 * E)))
            mha.out_proj.bias.copy_(torch.from_numpy(normal(E)))
    x = normal(2, n_q, E)
    kx, vx = (normal(2, n_k, E), normal(2, n_k, E)) if cross else (x, x)
    args = ["mha", "--query", save(f"{tag}_x.npy", x), "--heads", str(H),
            "--in-proj-weight", save(f"{tag}_w.npy", mha.in_proj_weight.detach().float().numpy()),
            "--out-proj-weight", save(f"{tag}_wo.npy", mha.out_proj.weight.detach().float().numpy()),
            "--out", os.path.join(WORK, tag)]
    if cross:
        args += ["--key", save(f"{tag}_k.npy", kx), "--value", save(f"{tag}_v.npy", vx)]
    if bias:
        args += ["--in-proj-bias", save(f"{tag}_b.npy", mha.in_proj_bias.detach().float().numpy()),
                 "--out-proj-bias", save(f"{tag}_bo.npy", mha.out_proj.bias.detach().float().numpy())]
    if kpm is not None:
        args += ["--key-padding-mask", save(f"{tag}_kpm.npy", kpm)]
    if attn_mask is not None:
        args += ["--attn-mask", save(f"{tag}_am.npy", attn_mask)]
    torch_mask = None if attn_mask is None else torch.from_numpy(attn_mask)
    if torch_mask is not None and torch_mask.dtype != torch.bool:
        torch_mask = torch_mask.double()
    if causal:
        args.append("--causal")
        torch_mask = torch.ones(n_q, n_k, dtype=torch.bool).tril().logical_not()
    run(*args)
    with torch.no_grad():
        out, w = mha(torch.from_numpy(x).double(), torch.from_numpy(kx).double(), torch.from_numpy(vx).double(),
                     key_padding_mask=None if kpm is None else torch.from_numpy(kpm),
                     attn_mask=torch_mask, need_weights=True, average_attn_weights=False)
    d_out = max_diff(load(tag, "output.npy"), out.numpy())
    d_w = max_diff(load(tag, "weights.npy"), w.numpy())
    return max(d_out, d_w), int(out.numel() + w.numel()), \
        f"output/weights max diff {d_out:.2e}/{d_w:.2e}, weights shape {tuple(w.shape)}"


case("mha: self-attention, E 64, H 4, n 128, with biases",
     lambda: mha_case("mha_self", 64, 4, 128, 128))


def mha_masks():
    kpm = np.zeros((2, 100), dtype=bool)
    kpm[0, 90:] = True
    kpm[1, 70:] = True
    am = rng.random((128, 100)) > 0.85
    am[:, 0] = False  # keep key 0 for every query: no fully masked row
    return mha_case("mha_masks", 64, 8, 128, 100, cross=True, kpm=kpm, attn_mask=am)


case("mha: cross-attention n_q 128 != n_k 100, H 8, key padding + boolean attn_mask", mha_masks)


def mha_float_masks():
    am = (normal(2 * 4, 128, 128) * 0.5).astype(np.float32)
    kpm = np.zeros((2, 128), dtype=bool)
    kpm[1, 120:] = True
    return mha_case("mha_float", 64, 4, 128, 128, kpm=kpm, attn_mask=am)


case("mha: per-head float attn_mask (batch*H, n_q, n_k) + key padding", mha_float_masks)
case("mha: causal, no biases", lambda: mha_case("mha_causal", 32, 2, 64, 64, bias=False, causal=True))


# --- fp16 softmax against numpy.float16, operation by operation ----------------------------
def fp16_case():
    rows = np.concatenate([normal(64, 16) * 4, normal(16, 16) * 6 + 4]).astype(np.float32)
    worst = 0.0
    overflow_seen = False
    for naive in (False, True):
        out = run("softmax", "--in", save("sm.npy", rows), "--half", *(["--naive"] if naive else []),
                  "--out", os.path.join(WORK, "sm_naive" if naive else "sm_stable"))
        flags = json.loads(out)
        ours = load("sm_naive" if naive else "sm_stable", "weights.npy")
        ref = np.empty_like(ours)
        with np.errstate(over="ignore", invalid="ignore"):
            for r, row in enumerate(rows.astype(np.float16)):
                m = np.max(row)
                e = [np.exp(x if naive else np.float16(x - m)) for x in row]  # float16 in, float16 out
                s = np.float16(0)
                for x in e:
                    s = np.float16(s + x)
                ref[r] = [np.float16(x / s) for x in e]
        if naive:
            overflow_seen = flags["overflow"] and np.isnan(ref).any()
        both_nan = np.isnan(ours) & np.isnan(ref)
        if np.any(np.isnan(ours) != np.isnan(ref)):
            raise RuntimeError("NaN positions differ from numpy.float16")
        worst = max(worst, float(np.max(np.where(both_nan, 0, np.abs(ours - ref)))))
    if not overflow_seen:
        raise RuntimeError("the naive fp16 softmax should overflow on these rows")
    return worst, int(rows.size * 2), "stable and naive float16 softmax, every op rounded, vs numpy.float16"


case("softmax: simulated fp16 equals numpy.float16 step by step", fp16_case)

# --- attention rollout (Abnar & Zuidema 2020) across nn.MultiheadAttention layers ----------
def rollout_ref(weights, heads, residual):
    """weights (L, H, n, n) -> R (L, n, n), written from the paper in float64: the layer's heads
    pooled, A~ = rownormalise((1 - a) A + a I), R_0 = A~_0, R_l = A~_l R_(l-1)."""
    w = weights.astype(np.float64)
    rolled, out = None, []
    for layer in w:
        a = layer.mean(axis=0) if heads == "mean" else layer.max(axis=0)
        a = (1.0 - residual) * a + residual * np.eye(a.shape[0])
        a = a / a.sum(axis=-1, keepdims=True)
        rolled = a if rolled is None else a @ rolled
        out.append(rolled)
    return np.stack(out)


def stacked_mha_weights(layers=3, E=32, H=4, n=40, batch=2, causal=False):
    """Per-head weights of a stack of self-attention layers, each reading the last one's
    output plus its input (a residual stream): (batch, L, H, n, n) float32."""
    x = torch.from_numpy(normal(batch, n, E))
    mask = torch.ones(n, n, dtype=torch.bool).triu(1) if causal else None
    per_layer = []
    with torch.no_grad():
        for _ in range(layers):
            mha = torch.nn.MultiheadAttention(E, H, batch_first=True)
            out, w = mha(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=False)
            per_layer.append(w)  # (batch, H, n, n)
            x = x + out
    return torch.stack(per_layer, dim=1).numpy().astype(np.float32)


ROLLOUT_WEIGHTS = {}


def rollout_case(tag, heads, residual, causal=False, batch_index=1):
    key = "causal" if causal else "full"
    if key not in ROLLOUT_WEIGHTS:
        ROLLOUT_WEIGHTS[key] = stacked_mha_weights(causal=causal)
    weights = ROLLOUT_WEIGHTS[key]
    path = save(f"rollout_{key}.npy", weights)
    out = os.path.join(WORK, f"{tag}.npy")
    run("rollout", "--in", path, "--batch", str(batch_index), "--heads", heads, "--residual", str(residual), "--out", out)
    ours = np.load(out)
    ref = rollout_ref(weights[batch_index], heads, residual)
    return max_diff(ours, ref), int(ref.size), f"{weights.shape[1]} layers x {weights.shape[2]} heads, n {weights.shape[3]}, " \
        f"batch entry {batch_index}, heads {heads}, residual {residual}, rows sum to 1 within " \
        f"{float(np.max(np.abs(ours.sum(axis=-1) - 1))):.1e}"


case("rollout: head mean, residual 0.5, three MHA layers", lambda: rollout_case("ro_mean_05", "mean", 0.5))
case("rollout: head mean, residual 0 (the plain product)", lambda: rollout_case("ro_mean_0", "mean", 0.0))
case("rollout: head max, residual 0.5", lambda: rollout_case("ro_max_05", "max", 0.5))
case("rollout: head max, residual 0.25, causal layers", lambda: rollout_case("ro_max_025", "max", 0.25, causal=True))

for r in results:
    print(json.dumps(r))
