#include "ui/figure_text.h"

#include "ui/message_strings.h"
#include "ui/strings.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace attn::ui {
namespace {

template <typename... Args>
std::string format(S id, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, tr(id), args...);
  return buf;
}

// The key the query row attends to most: its index and weight (-1 if the row is empty).
std::pair<int, float> strongest(const Mat& w, int row) {
  if (row < 0 || row >= w.rows() || w.cols() == 0) return {-1, 0.0f};
  Eigen::Index j = 0;
  const float best = w.row(row).maxCoeff(&j);
  return {static_cast<int>(j), best};
}

const char* token(const AppState& s, int i) {
  return i >= 0 && i < static_cast<int>(s.tokens.size()) ? s.tokens[i].c_str() : "?";
}

std::string describe_attention(const AppState& state) {
  const Settings& s = state.settings;
  if (!state.has_results) return "";
  if (!state.trace.status.ok || state.trace.heads.empty()) return format(S::aria_error, status_text(state.trace.status).c_str());
  const int head = std::clamp(s.head, 0, static_cast<int>(state.trace.heads.size()) - 1);
  const Mat& w = state.trace.heads[head].weights;
  if (s.cursor < 0 || s.cursor >= w.rows()) return format(S::aria_no_query, head + 1, static_cast<int>(w.rows()));
  const auto [j, weight] = strongest(w, s.cursor);
  if (s.panel == Panel::Compare && s.compare && state.compare_trace.status.ok && !state.compare_trace.heads.empty()) {
    const auto [jb, wb] = strongest(state.compare_trace.heads[std::min<size_t>(head, state.compare_trace.heads.size() - 1)].weights, s.cursor);
    return format(S::aria_compare, token(state, s.cursor), token(state, j), weight, token(state, jb), wb);
  }
  return format(S::aria_attends, head + 1, token(state, s.cursor), token(state, j), weight);
}

}  // namespace

std::string describe_figure(const AppState& state) {
  const Settings& s = state.settings;
  const ScalingLabResults& r = state.scaling_lab;
  if (!state.has_scaling_lab) return describe_attention(state);
  switch (s.panel) {
    case Panel::DotProduct: return format(S::aria_dot, r.dot_qk, r.cos_qk, r.dot_q_long, r.cos_q_long);
    case Panel::Variance: return format(S::aria_variance, s.scaling_lab.dk, r.var_raw_at_dk, r.var_scaled_at_dk);
    case Panel::Saturation:
      return format(S::aria_saturation, r.example_max[0], r.example_max[1], r.example_max[2]);
    case Panel::Softmax: {
      if (r.weights.empty()) return "";
      const auto top = std::max_element(r.weights.begin(), r.weights.end());
      return format(S::aria_softmax, static_cast<int>(r.weights.size()), *top, static_cast<int>(top - r.weights.begin()) + 1);
    }
    case Panel::Stability: {
      auto word = [](bool overflow) { return tr(overflow ? S::overflow : S::fine); };
      return format(S::aria_stability, word(r.naive32_overflow), word(r.stable32_overflow), word(r.naive16_overflow),
                    word(r.stable16_overflow));
    }
    case Panel::Walkthrough: {
      const Mat& o = r.walk.output;
      if (!r.walk.status.ok || o.rows() < 2 || o.cols() < 2) return format(S::aria_error, status_text(r.walk.status).c_str());
      return format(S::aria_walkthrough, o(0, 0), o(0, 1), o(1, 0), o(1, 1));
    }
    default: return describe_attention(state);
  }
}

const char* tr_by_name(const std::string& name) {
  static const char* const names[] = {
#define ATTNLAB_UI_STRING_NAME(id, en, zh) #id,
      ATTNLAB_UI_STRINGS(ATTNLAB_UI_STRING_NAME)
#undef ATTNLAB_UI_STRING_NAME
  };
  for (int i = 0; i < static_cast<int>(S::count); ++i)
    if (name == names[i]) return tr(static_cast<S>(i));
  return "";
}

}  // namespace attn::ui
