#!/usr/bin/env python3
"""Writes the binary seed corpora of the fuzz targets (tests/fuzz/corpus/npy, model_file, lm_file, import):
valid files and near-valid ones (one defect each), so that fuzzing starts next to the
formats' edges. The text corpora (state_json, tokenizer) are written by hand.

    /usr/bin/python3 tests/fuzz/make_corpus.py [path/to/attnlab-cli]

Standard library only. The model files come from `attnlab-cli train` (a tiny model,
3 steps); without the CLI that part is skipped. Re-running rewrites the same files."""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def npy(descr, shape, data, version=(1, 0), fortran=False, header_extra=""):
    """The bytes np.save would write (header padded to 64), for any descr and data."""
    shape_text = "(" + "".join(f"{d}, " for d in shape).rstrip(" ")
    if len(shape) > 1:
        shape_text = shape_text.rstrip(",")
    shape_text += ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, %s}" % (
        descr, "True" if fortran else "False", shape_text, header_extra)
    length_bytes = 2 if version == (1, 0) else 4
    prefix = 6 + 2 + length_bytes
    pad = 64 - (prefix + len(header) + 1) % 64
    header = header + " " * (pad % 64) + "\n"
    fmt = "<H" if length_bytes == 2 else "<I"
    return b"\x93NUMPY" + bytes(version) + struct.pack(fmt, len(header)) + header.encode("latin-1") + data


def write(folder, name, data):
    path = os.path.join(CORPUS, folder)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, name), "wb") as f:
        f.write(data)


def npy_corpus():
    f32 = struct.pack("<6f", 1.0, -2.5, 0.0, 3.25, -0.0, 1e-3)
    files = {
        "f4_2x3.npy": npy("<f4", (2, 3), f32),
        "f8_scalar.npy": npy("<f8", (), struct.pack("<d", 3.5)),
        "f2_4.npy": npy("<f2", (4,), struct.pack("<4H", 0x3C00, 0x7C00, 0x0001, 0xFE00)),
        "b1_2x2.npy": npy("|b1", (2, 2), bytes([1, 0, 0, 1])),
        "u2_3.npy": npy("<u2", (3,), struct.pack("<3H", 0x3F80, 0, 65535)),
        "i4_2.npy": npy("<i4", (2,), struct.pack("<2i", -1, 7)),
        "i8_1x2x1.npy": npy("<i8", (1, 2, 1), struct.pack("<2q", 2**40, -3)),
        "f4_empty_0x3.npy": npy("<f4", (0, 3), b""),
        "f4_v2.npy": npy("<f4", (2,), struct.pack("<2f", 1, 2), version=(2, 0)),
        "f4_v3.npy": npy("<f4", (1,), struct.pack("<f", 1), version=(3, 0)),
        "f4_nan_inf.npy": npy("<f4", (3,), struct.pack("<3f", float("nan"), float("inf"), 1)),
        # near-valid: one defect each
        "bad_fortran.npy": npy("<f4", (2, 3), f32, fortran=True),
        "bad_big_endian.npy": npy(">f4", (2, 3), f32),
        "bad_complex.npy": npy("<c8", (1,), b"\0" * 8),
        "bad_truncated.npy": npy("<f4", (2, 3), f32[:20]),
        "bad_trailing.npy": npy("<f4", (2, 3), f32 + b"\0"),
        "bad_negative_dim.npy": npy("<f4", (-1, 3), f32),
        "bad_huge_shape.npy": npy("<f4", (2**62, 2**62), f32),
        "bad_bool_byte.npy": npy("|b1", (2,), bytes([1, 2])),
        "bad_extra_key.npy": npy("<f4", (1,), struct.pack("<f", 1), header_extra="'x': 1, "),
        "bad_version.npy": npy("<f4", (1,), struct.pack("<f", 1), version=(9, 0)),
        "bad_magic.npy": b"\x93NUMPZ" + npy("<f4", (1,), struct.pack("<f", 1))[6:],
        "bad_header_only.npy": npy("<f4", (2, 3), f32)[:40],
    }
    for name, data in files.items():
        write("npy", name, data)


def model_corpus(cli):
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in (("tiny_copy.attnmodel", []), ("tiny_weights_only.attnmodel", ["--weights-only"])):
            out = os.path.join(tmp, name)
            subprocess.run([cli, "train", "--task", "copy", "--layers", "1", "--heads", "1", "--d-model", "4",
                            "--d-mlp", "4", "--steps", "3", "--seed", "1", "--out", out] + extra,
                           check=True, stdout=subprocess.DEVNULL)
            with open(out, "rb") as f:
                data = f.read()
            write("model_file", name, data)
        good = data  # the weights-only file
        # near-valid: one defect each (the fuzz target also tries each with length and CRC fixed)
        write("model_file", "bad_truncated.attnmodel", good[:-9])
        write("model_file", "bad_crc.attnmodel", good[:-1] + bytes([good[-1] ^ 1]))
        flipped = bytearray(good)
        flipped[24] ^= 0x40  # the vocab field of the config
        body = bytes(flipped[:-4])
        write("model_file", "bad_config.attnmodel", body + struct.pack("<I", zlib.crc32(body)))
        write("model_file", "bad_header.attnmodel", good[:19])


def lm_corpus(cli):
    """Tiny language model files (lm_file): one trained on a few lines, and near-valid defects."""
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "data"))
        with open(os.path.join(tmp, "data", "tiny"), "w", encoding="utf-8") as f:
            f.write("".join(line + "\n%\n" for line in ["ab ba", "月光 ab", "ba 月"] * 10))
        out = os.path.join(tmp, "tiny.attnlm")
        subprocess.run([cli, "lm-train", "--data-dir", os.path.join(tmp, "data"), "--steps", "2", "--context", "4",
                        "--layers", "1", "--heads", "1", "--d-model", "2", "--d-mlp", "2", "--batch", "2",
                        "--min-count", "2", "--eval-every", "1", "--eval-characters", "8", "--out", out],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out, "rb") as f:
            good = f.read()
        write("lm_file", "tiny.attnlm", good)
        write("lm_file", "bad_truncated.attnlm", good[:-9])
        write("lm_file", "bad_crc.attnlm", good[:-1] + bytes([good[-1] ^ 1]))
        flipped = bytearray(good)
        flipped[20] ^= 0x40  # the vocab field of the config
        body = bytes(flipped[:-4])
        write("lm_file", "bad_config.attnlm", body + struct.pack("<I", zlib.crc32(body)))


def zip_archive(members, deflate):
    """An .npz as np.savez (stored) or np.savez_compressed (raw deflate) writes it."""
    out, central = b"", b""
    for name, data in members:
        crc = zlib.crc32(data)
        if deflate:
            c = zlib.compressobj(6, zlib.DEFLATED, -15)
            body, method = c.compress(data) + c.flush(), 8
        else:
            body, method = data, 0
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0, crc, len(body), len(data),
                            len(name), 0) + name.encode()
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0, crc, len(body),
                               len(data), len(name), 0, 0, 0, 0, 0, len(out)) + name.encode()
        out += local + body
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(central), len(out), 0)
    return out + central + end


def import_corpus():
    """Attention files: 2 layers x 2 heads x 3 x 3 weights, tokens, cross-attention, Q/K/V; q and k alone."""
    rows = [1 / 3] * 9
    w = struct.pack("<36f", *(rows * 4))
    weights = npy("<f4", (2, 2, 3, 3), w)
    write("import", "weights.npy", weights)
    write("import", "weights_f16.npy", npy("<f2", (2, 3, 3), struct.pack("<18e", *(rows * 2))))
    tokens = npy("<U3", (3,), "".join(t.ljust(3, "\0") for t in ["the", "cat", "sat"]).encode("utf-32-le"))
    members = [("attentions.npy", weights), ("tokens.npy", tokens)]
    write("import", "stored.npz", zip_archive(members, False))
    write("import", "deflate.npz", zip_archive(members, True))
    cross = npy("<f4", (1, 1, 2, 3), struct.pack("<6f", *([1 / 3] * 6)))
    qt = npy("<U1", (2,), "ab".encode("utf-32-le"))
    write("import", "cross.npz", zip_archive([("attentions.npy", cross), ("query_tokens.npy", qt),
                                              ("key_tokens.npy", tokens)], False))
    qkv = [(n + ".npy", npy("<f4", (2, 2, 3, 2), struct.pack("<24f", *range(24)))) for n in "qkv"]
    write("import", "qkv.npz", zip_archive(members + qkv, True))
    write("import", "small.json", b'{"format": "attnlab-attention", "version": 1, "tokens": ["a", "b"], '
                                  b'"attentions": [[[[0.5, 0.5], [0.25, 0.75]]]]}')
    write("import", "bad_crc.npz", zip_archive(members, False)[:-30] + b"\0" * 30)
    # q and k without weights (the overview's input), (n, d) and with v and a batch axis.
    q2 = npy("<f4", (3, 2), struct.pack("<6f", *range(6)))
    write("import", "qk.npz", zip_archive([("q.npy", q2), ("k.npy", q2), ("tokens.npy", tokens)], False))
    qkv5 = [(n + ".npy", npy("<f4", (1, 2, 1, 3, 2), struct.pack("<12f", *range(12)))) for n in "qkv"]
    write("import", "qkv_batch.npz", zip_archive(qkv5, True))
    write("import", "qk.json", b'{"format": "attnlab-attention", "version": 1, "q": [[1, 0], [0, 1]], '
                               b'"k": [[1, 1], [0, 1], [2, 0]]}')


if __name__ == "__main__":
    npy_corpus()
    import_corpus()
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build", "native", "attnlab-cli")
    if os.path.exists(cli):
        model_corpus(cli)
        lm_corpus(cli)
    else:
        print(f"no CLI at {cli}: model_file corpus not written", file=sys.stderr)
