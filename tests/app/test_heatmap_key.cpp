// The heatmap widget's key (ui/heatmap_key.h): two matrices of one panel never share it, a
// matrix made in the frame is keyed by what it holds, and the owner's version renews it.
#include "ui/heatmap_key.h"

#include <catch2/catch.hpp>

#include <limits>

using attn::Mat;
using attn::ui::hash_values;
using attn::ui::heatmap_key;

namespace {

Mat filled(int rows, int cols, float start) {
  Mat m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = start + 0.25f * static_cast<float>(i);
  return m;
}

}  // namespace

TEST_CASE("a held matrix is keyed by where it lives, its shape and its owner's version", "[heatmap_key]") {
  const Mat a = filled(3, 4, 0.0f), b = filled(3, 4, 0.0f);  // equal values, two matrices
  CHECK(heatmap_key(a, 7, false) == heatmap_key(a, 7, false));
  CHECK_FALSE(heatmap_key(a, 7, false) == heatmap_key(b, 7, false));
  CHECK_FALSE(heatmap_key(a, 7, false) == heatmap_key(a, 8, false));
  CHECK(heatmap_key(a, 7, false).content == 0);  // its values are not read
  Mat c = filled(3, 4, 0.0f);
  const auto before = heatmap_key(c, 7, false);
  c.resize(4, 3);  // the same number of values in another shape
  const auto after = heatmap_key(c, 7, false);
  CHECK_FALSE(before == after);
  CHECK(after.rows == 4);
  CHECK(after.cols == 3);
}

TEST_CASE("a matrix made in the frame is keyed by its values, wherever it lives", "[heatmap_key]") {
  Mat d = filled(5, 5, 1.0f);
  const auto first = heatmap_key(d, 3, true);
  CHECK(first.data == nullptr);
  CHECK(heatmap_key(filled(5, 5, 1.0f), 3, true) == first);  // another buffer, the same values
  d(4, 2) = -d(4, 2);  // same address, one value changed
  CHECK_FALSE(heatmap_key(d, 3, true) == first);
  d(4, 2) = -d(4, 2);
  CHECK(heatmap_key(d, 3, true) == first);
  CHECK_FALSE(heatmap_key(d, 4, true) == first);  // the owner's version still counts
  Mat z = Mat::Zero(5, 5);
  const auto zeros = heatmap_key(z, 3, true);
  z(0, 0) = std::numeric_limits<float>::infinity();
  CHECK_FALSE(heatmap_key(z, 3, true) == zeros);
  CHECK_FALSE(heatmap_key(Mat::Zero(1, 25), 3, true) == zeros);  // the same values in another shape
}

TEST_CASE("the hash of the values sees every value, in place", "[heatmap_key]") {
  const Mat m = filled(16, 16, -2.0f);
  const std::uint64_t h = hash_values(m);
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    Mat n = m;
    n.data()[i] = std::nextafter(n.data()[i], 100.0f);  // the smallest change a float can make
    CHECK(hash_values(n) != h);
  }
  Mat swapped = m;
  std::swap(swapped(0, 0), swapped(0, 1));
  CHECK(hash_values(swapped) != h);
  CHECK(hash_values(Mat()) != hash_values(Mat::Zero(1, 1)));
}
