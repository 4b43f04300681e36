#include "core/attention/positional.h"

#include "core/attention/attention_messages.h"

#include <cmath>
#include <string>

namespace attn {

Status validate_positional(const PositionalOptions& options, int d) {
  switch (options.kind) {
    case PositionalKind::None: return Status::success();
    case PositionalKind::Rope:
      if (d % 2 != 0) return Status::error(msg::att_rope_even, d);
      if (!std::isfinite(options.rope_base) || options.rope_base <= 0.0f)
        return Status::error(msg::att_rope_base);
      return Status::success();
    case PositionalKind::Alibi:
      if (!std::isfinite(options.alibi_slope)) return Status::error(msg::att_alibi_slope);
      return Status::success();
  }
  return Status::error(msg::att_positional_kind);
}

std::vector<double> rope_frequencies(int d, float base) {
  std::vector<double> theta(static_cast<std::size_t>(d / 2));
  // In double: the angle p * theta_i reaches thousands of radians for long inputs, where a
  // float's last bit is already a visible fraction of a turn.
  for (int i = 0; i < d / 2; ++i) theta[static_cast<std::size_t>(i)] = std::pow(static_cast<double>(base), -2.0 * i / d);
  return theta;
}

Mat apply_rope(const Eigen::Ref<const Mat>& x, int first_position, float base, RopePairing pairing) {
  const int n = static_cast<int>(x.rows()), d = static_cast<int>(x.cols()), half = d / 2;
  const std::vector<double> theta = rope_frequencies(d, base);
  Mat out = x;
  for (int r = 0; r < n; ++r) {
    const double p = static_cast<double>(first_position + r);
    for (int i = 0; i < half; ++i) {
      // The pair (a, b): (x_i, x_{i + d/2}) rotating half, (x_{2i}, x_{2i+1}) interleaved.
      const int ia = pairing == RopePairing::Half ? i : 2 * i;
      const int ib = pairing == RopePairing::Half ? i + half : 2 * i + 1;
      const double angle = p * theta[static_cast<std::size_t>(i)];
      const double c = std::cos(angle), s = std::sin(angle);
      const double a = x(r, ia), b = x(r, ib);
      out(r, ia) = static_cast<float>(a * c - b * s);
      out(r, ib) = static_cast<float>(a * s + b * c);
    }
  }
  return out;
}

std::vector<float> alibi_slopes(int heads) {
  // The geometric sequence for a power of two p: start = ratio = 2^(-8/p).
  auto power_of_two = [](int p) {
    std::vector<float> m(static_cast<std::size_t>(p));
    const double start = std::pow(2.0, -8.0 / p);
    for (int h = 0; h < p; ++h) m[static_cast<std::size_t>(h)] = static_cast<float>(std::pow(start, h + 1));
    return m;
  };
  if (heads <= 0) return {};
  int p = 1;
  while (p * 2 <= heads) p *= 2;
  std::vector<float> slopes = power_of_two(p);
  if (p == heads) return slopes;
  // The rest: every other slope of the next power of two, from its first.
  const std::vector<float> finer = power_of_two(2 * p);
  for (int h = 0; static_cast<int>(slopes.size()) < heads; h += 2) slopes.push_back(finer[static_cast<std::size_t>(h)]);
  return slopes;
}

Mat alibi_bias(int n_q, int n_k, float slope, bool causal) {
  Mat bias(n_q, n_k);
  for (int i = 0; i < n_q; ++i)
    for (int j = 0; j < n_k; ++j) {
      const float distance = causal ? static_cast<float>(i - j) : static_cast<float>(std::abs(i - j));
      bias(i, j) = -slope * distance;
    }
  return bias;
}

}  // namespace attn
