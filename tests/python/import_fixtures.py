"""Files for the import tests, written the way researchers write them: numpy and torch.

Run with Debian's /usr/bin/python3 (python3-numpy, python3-torch):
    /usr/bin/python3 tests/python/import_fixtures.py fixtures OUTDIR
        writes the test files into OUTDIR and prints one JSON line describing them:
        {"files": {name: {layers, heads, n_q, n_k, probes: [[layer, head, row, col, value]]}}}
    /usr/bin/python3 tests/python/import_fixtures.py large OUTFILE [LAYERS HEADS N]
    /usr/bin/python3 tests/python/import_fixtures.py large-json OUTFILE [LAYERS HEADS N]
        a (12, 12, 512, 512) float16 .npy of softmax rows (about 75 MB) for the benchmark,
        or (12, 12, 128, 128) in the JSON format (about 50 MB) for its --json run
    /usr/bin/python3 tests/python/import_fixtures.py check-npy EXPORTED SOURCE KEY LAYER HEAD
        loads an exported .npy with numpy and compares it with SOURCE[KEY][LAYER, HEAD];
        prints {"shape": [...], "dtype": "...", "max_abs_diff": x}
"""
import json
import os
import sys

import numpy as np
import torch


def softmax_attention(q, k):
    """q: (L, H, n_q, d), k: (L, H, n_k, d) -> weights (L, H, n_q, n_k), as torch computes them."""
    scores = torch.matmul(q, k.transpose(-1, -2)) / (q.shape[-1] ** 0.5)
    return torch.softmax(scores, dim=-1)


def probes(weights, count, rng):
    layers, heads, n_q, n_k = weights.shape
    out = []
    for _ in range(count):
        l, h, i, j = (int(rng.integers(0, s)) for s in (layers, heads, n_q, n_k))
        out.append([l, h, i, j, float(weights[l, h, i, j])])
    # the last cell of the last head too (an off-by-one in the layout would miss it)
    out.append([layers - 1, heads - 1, n_q - 1, n_k - 1, float(weights[-1, -1, -1, -1])])
    return out


def describe(weights, rng):
    layers, heads, n_q, n_k = weights.shape
    return {"layers": layers, "heads": heads, "n_q": n_q, "n_k": n_k, "probes": probes(weights, 12, rng)}


def fixtures(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(9)
    rng = np.random.default_rng(9)
    files = {}

    # 1 cross-attention, float32, 2 layers x 3 heads, 4 queries x 6 keys, deflate-compressed
    #   (np.savez_compressed), tokens per side as '<U' arrays.
    q = torch.randn(2, 3, 4, 8)
    k = torch.randn(2, 3, 6, 8)
    w = softmax_attention(q, k).numpy().astype(np.float32)
    np.savez_compressed(os.path.join(out_dir, "cross_f32.npz"), attentions=w,
                        query_tokens=np.array(["<s>", "le", "chat", "dort"]),
                        key_tokens=np.array(["[CLS]", "the", "cat", "is", "asleep", "[SEP]"]))
    files["cross_f32.npz"] = describe(w, rng)

    # 2 self-attention, float16, 3 layers x 2 heads, 7 tokens with special tokens, stored
    #   (np.savez), as a Hugging Face model's output_attentions stacked: (batch, L, H, n, n).
    q = torch.randn(2, 3, 2, 7, 16)
    k = torch.randn(2, 3, 2, 7, 16)
    w = softmax_attention(q, k).to(torch.float16).numpy()
    tokens = np.array([["[CLS]", "the", "cat", "sat", "on", "it", "[SEP]"],
                       ["[CLS]", "a", "dog", "ran", "[SEP]", "[PAD]", "[PAD]"]])
    np.savez(os.path.join(out_dir, "self_f16_batch.npz"), attentions=w, tokens=tokens)
    files["self_f16_batch.npz"] = {**describe(w[1], rng), "batch": 2, "batch_index": 1,
                                   "tokens": tokens[1].tolist()}

    # 3 Q, K, V given: every panel can recompute the weights.
    q = torch.randn(2, 2, 5, 4)
    k = torch.randn(2, 2, 5, 4)
    v = torch.randn(2, 2, 5, 3)
    w = softmax_attention(q, k).numpy().astype(np.float32)
    np.savez(os.path.join(out_dir, "qkv_f32.npz"), attentions=w, q=q.numpy(), k=k.numpy(), v=v.numpy(),
             tokens=np.array(["<s>", "one", "two", "three", "</s>"]))
    files["qkv_f32.npz"] = describe(w, rng)

    # 4 a bare float16 .npy, (L, H, n, n), no tokens
    w = softmax_attention(torch.randn(2, 4, 9, 8), torch.randn(2, 4, 9, 8)).to(torch.float16).numpy()
    np.save(os.path.join(out_dir, "bare_f16.npy"), w)
    files["bare_f16.npy"] = describe(w, rng)

    # 5 not an attention file at all, and a damaged archive
    with open(os.path.join(out_dir, "not_attention.npz"), "wb") as f:
        f.write(b"PK\x03\x04 this is not really a zip archive")
    print(json.dumps({"files": files}))


def large(path, layers=12, heads=12, n=512):
    """Softmax rows with a first-token sink, float16, built layer by layer to keep memory low."""
    rng = np.random.default_rng(75)
    out = np.lib.format.open_memmap(path, mode="w+", dtype=np.float16, shape=(layers, heads, n, n))
    for l in range(layers):
        scores = rng.standard_normal((heads, n, n), dtype=np.float32)
        scores[:, :, 0] += 3.0  # the attention sink on the first token
        scores -= scores.max(axis=-1, keepdims=True)
        e = np.exp(scores)
        out[l] = (e / e.sum(axis=-1, keepdims=True)).astype(np.float16)
    out.flush()
    print(json.dumps({"path": path, "bytes": os.path.getsize(path), "shape": [layers, heads, n, n],
                      "probe": [layers - 1, heads - 1, n - 1, 0, float(out[-1, -1, -1, 0])]}))


def large_json(path, layers=12, heads=12, n=128):
    """The same rows in the lab's JSON format, each float32 written as Python writes the
    double it widens to (up to 17 digits: what json.dump of a tensor's tolist() gives)."""
    rng = np.random.default_rng(75)
    with open(path, "w") as f:
        f.write('{"format": "attnlab-attention", "version": 1, "attentions": [')
        for l in range(layers):
            scores = rng.standard_normal((heads, n, n), dtype=np.float32)
            scores[:, :, 0] += 3.0
            scores -= scores.max(axis=-1, keepdims=True)
            e = np.exp(scores)
            f.write(("" if l == 0 else ", ") + json.dumps((e / e.sum(axis=-1, keepdims=True)).tolist()))
        f.write("]}")
    print(json.dumps({"path": path, "bytes": os.path.getsize(path), "shape": [layers, heads, n, n]}))


def check_npy(exported, source, key, layer, head):
    got = np.load(exported)
    src = np.load(source)
    want = src[key] if isinstance(src, np.lib.npyio.NpzFile) else src
    want = want[int(layer), int(head)].astype(np.float32)
    diff = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))) if got.shape == want.shape else None
    print(json.dumps({"shape": list(got.shape), "dtype": str(got.dtype), "want_shape": list(want.shape),
                      "max_abs_diff": diff}))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "fixtures":
        fixtures(sys.argv[2])
    elif command == "large":
        large(sys.argv[2], *(int(a) for a in sys.argv[3:6]))
    elif command == "large-json":
        large_json(sys.argv[2], *(int(a) for a in sys.argv[3:6]))
    elif command == "check-npy":
        check_npy(*sys.argv[2:7])
    else:
        sys.exit("usage: import_fixtures.py fixtures OUTDIR | large OUTFILE [L H N] | large-json OUTFILE [L H N] | check-npy ...")
