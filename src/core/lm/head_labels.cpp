#include "core/lm/head_labels.h"

namespace attn::lm {

const char* head_kind_name(HeadKind k) {
  switch (k) {
    case HeadKind::Previous: return "previous";
    case HeadKind::First: return "first";
    case HeadKind::Self: return "self";
    case HeadKind::WordStart: return "word-start";
    case HeadKind::PreviousLine: return "previous-line";
    case HeadKind::Punctuation: return "punctuation";
    case HeadKind::Mixed: return "mixed";
  }
  return "mixed";
}

float head_kind_threshold(HeadKind k) {
  return (k == HeadKind::WordStart || k == HeadKind::PreviousLine || k == HeadKind::Punctuation) ? 0.3f : 0.5f;
}

namespace {

bool word_character(std::uint32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\'' ||
         (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7);
}

bool punctuation_mark(std::uint32_t c) {
  switch (c) {
    case 0xFF0C: case 0x3002: case 0xFF01: case 0xFF1F: case 0xFF1B: case 0xFF1A: case 0x3001:  // ，。！？；：、
    case ',': case '.': case '!': case '?': case ';': case ':': return true;
    default: return false;
  }
}

// For each position of the weights (0 = start token), the key each kind looks at, or -1.
struct Targets {
  std::vector<int> word_start, previous_line, punctuation;
};

Targets targets_of(const std::vector<std::uint32_t>& chars) {
  const int n = static_cast<int>(chars.size()) + 1;
  Targets t;
  t.word_start.assign(static_cast<std::size_t>(n), -1);
  t.previous_line.assign(static_cast<std::size_t>(n), -1);
  t.punctuation.assign(static_cast<std::size_t>(n), -1);
  for (int p = 1, last = -1; p < n; ++p) {
    if (last >= 0 && last <= p - 2) t.punctuation[static_cast<std::size_t>(p)] = last;
    if (punctuation_mark(chars[static_cast<std::size_t>(p - 1)])) last = p;
  }
  int start = -1;
  for (int p = 1; p < n; ++p) {
    const std::uint32_t c = chars[static_cast<std::size_t>(p - 1)];
    if (!word_character(c)) {
      start = -1;
      continue;
    }
    if (start < 0) start = p;
    if (start <= p - 2) t.word_start[static_cast<std::size_t>(p)] = start;
  }
  // Line starts (positions), line by line.
  std::vector<int> line_start{1};
  for (int p = 1; p < n; ++p)
    if (chars[static_cast<std::size_t>(p - 1)] == '\n') line_start.push_back(p + 1);
  for (std::size_t L = 1; L < line_start.size(); ++L) {
    // Line L's previous line is L - 1; a query's column must exist in it.
    const int prev = line_start[L - 1], cur = line_start[L];
    const int prev_len = cur - 1 - prev;  // without its '\n'
    const int end = L + 1 < line_start.size() ? line_start[L + 1] - 1 : n;
    for (int p = cur; p < end && p < n; ++p)
      if (p - cur < prev_len) t.previous_line[static_cast<std::size_t>(p)] = prev + (p - cur);
  }
  return t;
}

}  // namespace

std::vector<HeadLabel> label_heads(const std::vector<std::uint32_t>& chars, const std::vector<Mat>& weights,
                                   int layers, int heads) {
  std::vector<HeadLabel> out;
  const Targets t = targets_of(chars);
  for (int l = 0; l < layers; ++l)
    for (int h = 0; h < heads; ++h) {
      HeadLabel lab;
      lab.layer = l;
      lab.head = h;
      const Mat& w = weights[static_cast<std::size_t>(l) * heads + h];
      const int n = static_cast<int>(w.rows());
      double sum[kHeadKinds] = {};
      auto add = [&](HeadKind k, float v) {
        sum[static_cast<int>(k)] += v;
        ++lab.counted[static_cast<int>(k)];
      };
      for (int i = 1; i < n; ++i) {
        add(HeadKind::Previous, w(i, i - 1));
        add(HeadKind::Self, w(i, i));
        if (i >= 2) add(HeadKind::First, w(i, 0));
        if (i < static_cast<int>(t.word_start.size()) && t.word_start[i] >= 0) add(HeadKind::WordStart, w(i, t.word_start[i]));
        if (i < static_cast<int>(t.previous_line.size()) && t.previous_line[i] >= 0)
          add(HeadKind::PreviousLine, w(i, t.previous_line[i]));
        if (i < static_cast<int>(t.punctuation.size()) && t.punctuation[i] >= 0) add(HeadKind::Punctuation, w(i, t.punctuation[i]));
      }
      for (int k = 0; k < kHeadKinds; ++k) {
        lab.scores[k] = lab.counted[k] > 0 ? static_cast<float>(sum[k] / lab.counted[k]) : 0.0f;
        const HeadKind kind = static_cast<HeadKind>(k);
        if (lab.counted[k] > 0 && lab.scores[k] >= head_kind_threshold(kind) && lab.scores[k] > lab.label_score) {
          lab.label = kind;
          lab.label_score = lab.scores[k];
        }
      }
      out.push_back(lab);
    }
  return out;
}

}  // namespace attn::lm
