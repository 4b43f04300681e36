// Fuzz target: attention import (src/core/io/import_attention.h, import_job.h), the door
// for every file a user drops on the page or the desktop: .npy, .npz (stored and deflate,
// through zlib here as on the desktop) and the JSON format, picked from the first bytes.
//
// Any bytes: a refusal has a message and leaves the output as it was; an accepted import is
// consistent (shapes within the caps, one label per token, every head's weights of the
// stated shape, Q/K/V all present or all absent; or, without weights, q and k present within
// the overview's caps and v present or absent). The import run as a job in small steps
// (the page's way) ends with the same message or the same data.
#include "core/io/import_attention.h"
#include "core/io/import_job.h"
#include "files/native/file_import.h"
#include "fuzz_check.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

ATTNLAB_FUZZ_TARGET(import) {
  attn::ImportOptions options;
  options.uint16_is_bfloat16 = size > 0 && (data[size - 1] & 1);
  attn::ImportedAttention out;
  out.layers = -7;  // a marker: a refusal must leave the output untouched
  const attn::Status st = attn::import_attention(data, size, options, attn::native::zlib_inflate, out);
  // The same import as a job in small steps (as the page runs it) ends the same way.
  attn::ImportJob job;
  attn::Status stepped = job.begin(data, size, options, attn::native::zlib_inflate);
  // Small steps, but at most about 64 of them over a large inflated array (a fast target).
  const std::size_t budget = std::max<std::size_t>(1 + (size > 1 ? data[1] % 97 : 0), job.work_bytes() / 64);
  while (stepped.ok && job.active()) stepped = job.step(budget);
  FUZZ_CHECK(stepped.ok == st.ok && stepped.message == st.message);
  if (!st.ok) {
    FUZZ_CHECK(!st.message.empty());
    FUZZ_CHECK(out.layers == -7);
    return 0;
  }
  const attn::ImportedAttention by_steps = job.take();
  FUZZ_CHECK(by_steps.weights.data == out.weights.data && by_steps.weights.shape == out.weights.shape);
  FUZZ_CHECK(by_steps.query_tokens == out.query_tokens && by_steps.key_tokens == out.key_tokens);
  FUZZ_CHECK(by_steps.q.data == out.q.data && by_steps.k.data == out.k.data && by_steps.v.data == out.v.data);
  FUZZ_CHECK(by_steps.has_weights == out.has_weights);
  FUZZ_CHECK(out.layers >= 1 && out.layers <= attn::kImportMaxLayers);
  FUZZ_CHECK(out.heads >= 1 && out.heads <= attn::kImportMaxHeads);
  const int max_tokens = out.has_weights ? attn::kImportMaxTokens : attn::kImportMaxOverviewTokens;
  FUZZ_CHECK(out.n_q >= 1 && out.n_q <= max_tokens);
  FUZZ_CHECK(out.n_k >= 1 && out.n_k <= max_tokens);
  FUZZ_CHECK(out.has_weights || (out.has_qk && out.weights.data.empty()));
  FUZZ_CHECK(out.has_qk || !out.has_qkv);
  FUZZ_CHECK(out.query_tokens.size() == static_cast<std::size_t>(out.n_q));
  FUZZ_CHECK(out.key_tokens.size() == static_cast<std::size_t>(out.n_k));
  FUZZ_CHECK(out.batch_index >= 0 && out.batch_index < out.batch);
  const int last_layer = out.layers - 1, last_head = out.heads - 1;
  for (const auto& [l, h] : {std::pair{0, 0}, std::pair{last_layer, last_head}}) {
    const attn::Mat w = out.head_weights(l, h);
    if (out.has_weights) FUZZ_CHECK(w.rows() == out.n_q && w.cols() == out.n_k);
    else FUZZ_CHECK(w.size() == 0);
    if (out.has_qk) {
      FUZZ_CHECK(out.head_q(l, h).rows() == out.n_q && out.head_q(l, h).cols() == out.d_k);
      FUZZ_CHECK(out.head_k(l, h).rows() == out.n_k && out.head_k(l, h).cols() == out.d_k);
    } else {
      FUZZ_CHECK(out.head_q(l, h).size() == 0);
    }
    if (out.has_qkv) FUZZ_CHECK(out.head_v(l, h).rows() == out.n_k && out.head_v(l, h).cols() == out.d_v);
    else FUZZ_CHECK(out.head_v(l, h).size() == 0);
  }
  FUZZ_CHECK(out.head_weights(out.layers, 0).size() == 0);  // out of range: empty
  return 0;
}
