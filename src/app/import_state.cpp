#include "app/import_state.h"

#include "app/app_messages.h"

#include "core/attention/softmax.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace attn {

// ---- 1 loading ------------------------------------------------------------------------------

void set_imported(AppState& state, ImportedAttention data, const std::string& name) {
  state.imported = std::make_shared<const ImportedAttention>(std::move(data));
  state.imported_name = name;
  Settings& s = state.settings;
  s.source = SceneSource::Imported;
  s.import_id += 1;
  s.heads = state.imported->heads;
  s.layer = 0;
  s.head = 0;
  s.diff_head = state.imported->heads > 1 ? 1 : 0;
  s.cursor = 0;
  s.compare = false;
  s.panel = Panel::ModelView;
  state.notice = Status::success();
}

Status import_into_state(AppState& state, const std::uint8_t* bytes, std::size_t size, const std::string& name,
                         const ImportOptions& options, const InflateFn& inflate) {
  ImportedAttention data;
  const Status s = import_attention(bytes, size, options, inflate, data);
  if (!s.ok) return s.within(name);
  set_imported(state, std::move(data), name);
  return Status::success();
}

// ---- 2 special tokens ---------------------------------------------------------------------

bool is_special_token(const std::string& raw) {
  std::string t = raw;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.erase(t.begin());
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
  static const char* const kSpecial[] = {"[CLS]", "[SEP]", "[PAD]", "[MASK]", "[UNK]", "<s>", "</s>", "<pad>",
                                         "<unk>", "<mask>", "<bos>", "<eos>", "<BOS>", "<EOS>", "<cls>", "<sep>"};
  for (const char* k : kSpecial)
    if (t == k) return true;
  // <|endoftext|>, <|begin_of_text|>, <|im_start|>, ...
  return t.size() >= 5 && t.compare(0, 2, "<|") == 0 && t.compare(t.size() - 2, 2, "|>") == 0;
}

// ---- 3 the layer as a trace -----------------------------------------------------------------

VisibleTokens visible_tokens(const ImportedAttention& data, bool hide_special) {
  VisibleTokens v;
  auto keep = [&](const std::vector<std::string>& tokens, int n, std::vector<int>& out) {
    for (int i = 0; i < n; ++i)
      if (!hide_special || i >= static_cast<int>(tokens.size()) || !is_special_token(tokens[i])) out.push_back(i);
    if (out.empty())
      for (int i = 0; i < n; ++i) out.push_back(i);
  };
  keep(data.query_tokens, data.n_q, v.rows);
  keep(data.key_tokens, data.n_k, v.cols);
  return v;
}

namespace {

Mat select(const Mat& m, const std::vector<int>& rows, const std::vector<int>* cols) {
  if (m.size() == 0) return m;
  const int nc = cols ? static_cast<int>(cols->size()) : static_cast<int>(m.cols());
  Mat out(static_cast<int>(rows.size()), nc);
  for (int i = 0; i < out.rows(); ++i)
    for (int j = 0; j < nc; ++j) out(i, j) = m(rows[i], cols ? (*cols)[j] : j);
  return out;
}

}  // namespace

Mat shown_weights(const ImportedAttention& data, int layer, int head, const VisibleTokens& visible, bool renormalise) {
  Mat w = select(data.head_weights(layer, head), visible.rows, &visible.cols);
  if (renormalise) {
    for (int i = 0; i < w.rows(); ++i) {
      const float sum = w.row(i).sum();
      if (sum > 0.0f) w.row(i) /= sum;
    }
  }
  return w;
}

float first_token_share(const Mat& w) {
  if (w.rows() == 0 || w.cols() == 0) return 0.0f;
  return w.col(0).mean();
}

Mat pooled(const Mat& m, int max_side) {
  const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
  if (rows <= max_side && cols <= max_side) return m;
  const int out_r = std::min(rows, max_side), out_c = std::min(cols, max_side);
  Mat out = Mat::Zero(out_r, out_c);
  Mat count = Mat::Zero(out_r, out_c);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const int oi = static_cast<int>(static_cast<long long>(i) * out_r / rows);
      const int oj = static_cast<int>(static_cast<long long>(j) * out_c / cols);
      out(oi, oj) += m(i, j);
      count(oi, oj) += 1.0f;
    }
  return out.cwiseQuotient(count);
}

void update_imported_results(AppState& state) {
  const ImportedAttention& data = *state.imported;
  Settings& s = state.settings;
  s.heads = data.heads;
  s.layer = std::clamp(s.layer, 0, data.layers - 1);
  const VisibleTokens visible = visible_tokens(data, s.hide_special);
  state.visible_rows = visible.rows;
  state.visible_cols = visible.cols;
  state.tokens.clear();
  state.key_tokens.clear();
  for (int i : visible.rows) state.tokens.push_back(data.query_tokens[i]);
  for (int j : visible.cols) state.key_tokens.push_back(data.key_tokens[j]);
  const int n_q = static_cast<int>(visible.rows.size()), n_k = static_cast<int>(visible.cols.size());
  s.head = std::clamp(s.head, 0, data.heads - 1);
  s.diff_head = std::clamp(s.diff_head, 0, data.heads - 1);
  s.cursor = std::clamp(s.cursor, -1, n_q - 1);

  // 1 thumbnails of every layer and head for the model view (as shown: hidden tokens out).
  // Only when the file or the token view changed: picking a layer does not redo them.
  const bool thumbs_stale = !state.has_results || state.computed_for.source != SceneSource::Imported ||
                            state.computed_for.import_id != s.import_id || state.computed_for.hide_special != s.hide_special ||
                            state.computed_for.renormalise != s.renormalise;
  if (thumbs_stale) {
    state.thumbnails.assign(static_cast<size_t>(data.layers) * data.heads, Mat());
    state.thumbnails_done = 0;
  }

  // 2 the selected layer as a trace: one HeadTrace per head (side B too with Q/K/V in
  // compare mode: the same Q, K, V under the compare settings).
  state.sink_share.clear();
  state.qkv_max_difference = 0.0f;
  auto layer_trace = [&](const MathSettings& math, bool record) {
    PipelineTrace trace;
    const PipelineConfig config = pipeline_config(s, math, n_k);
    for (int h = 0; h < data.heads; ++h) {
      const Mat file_weights = shown_weights(data, s.layer, h, visible, s.renormalise);
      if (record) state.sink_share.push_back(first_token_share(data.head_weights(s.layer, h)));
      HeadTrace head;
      if (data.has_qkv) {
        // Recompute from Q, K, V with the lab's math settings (scale, temperature, mask).
        const Mat q = select(data.head_q(s.layer, h), visible.rows, nullptr);
        const Mat k = select(data.head_k(s.layer, h), visible.cols, nullptr);
        const Mat v = select(data.head_v(s.layer, h), visible.cols, nullptr);
        MaskSpec mask = config.mask;
        mask.global_tokens.clear();  // token indices of the text scene; not the file's
        mask.key_padding.clear();
        const BoolMat allowed = validate_mask(mask, n_q, n_k).ok ? build_mask(mask, n_q, n_k)
                                                                 : BoolMat::Constant(n_q, n_k, true);
        head = run_head(q, k, v, allowed, Mat(), config, nullptr, h);
        if (record)
          state.qkv_max_difference = std::max(state.qkv_max_difference, (head.weights - file_weights).cwiseAbs().maxCoeff());
      } else {
        // Weights only: the file's weights are the result; there are no scores to show.
        head.weights = file_weights;
        head.fully_masked_rows.assign(n_q, 0);
      }
      trace.heads.push_back(std::move(head));
    }
    return trace;
  };
  PipelineTrace trace = layer_trace(s.math, true);
  state.compare_trace = s.compare && data.has_qkv ? layer_trace(s.compare_math, false) : PipelineTrace();
  state.trace = std::move(trace);
  state.head_metrics.clear();
  for (const HeadTrace& h : state.trace.heads) state.head_metrics.push_back(head_metrics(h.weights));
}

bool advance_thumbnails(AppState& state, double budget_ms) {
  if (state.settings.source != SceneSource::Imported || !state.imported || !state.has_results) return false;
  const ImportedAttention& data = *state.imported;
  const int total = static_cast<int>(state.thumbnails.size());
  if (state.thumbnails_done >= total) return false;
  const VisibleTokens visible{state.visible_rows, state.visible_cols};
  const auto start = std::chrono::steady_clock::now();
  do {
    const int i = state.thumbnails_done++;
    state.thumbnails[i] = pooled(shown_weights(data, i / data.heads, i % data.heads, visible, state.computed_for.renormalise), kThumbnailSide);
  } while (state.thumbnails_done < total &&
           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < budget_ms);
  return true;
}

// ---- 4 panels that need Q/K/V ---------------------------------------------------------------

bool imported_panel_needs_qkv(const AppState& state, Panel panel) {
  if (state.settings.source != SceneSource::Imported || !state.imported || state.imported->has_qkv) return false;
  return panel_info(panel).has(kPanelNeedsScores);
}

}  // namespace attn
