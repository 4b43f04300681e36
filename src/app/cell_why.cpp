#include "app/cell_why.h"

#include "app/app_messages.h"

#include <nlohmann/json.hpp>

namespace attn {

Status explain_cell(const HeadTrace& h, int row, int col, bool dot, const char* score_name, CellWhy& out) {
  if (!dot) return Status::error(msg::app_cell_not_dot, score_name);
  if (h.q.size() == 0 || h.k.size() == 0) return Status::error(msg::app_cell_no_qk);
  if (row < 0 || col < 0 || row >= h.raw_scores.rows() || col >= h.raw_scores.cols() || row >= h.q.rows() ||
      col >= h.k.rows())
    return Status::error(msg::app_cell_outside, row, col);
  out.terms = score_terms(h.q.row(row).data(), h.k.row(col).data(), static_cast<int>(h.q.cols()), kCellTermsShown);
  out.row = row;
  out.col = col;
  out.raw = h.raw_scores(row, col);
  out.scale = h.scale;
  out.scaled = h.scaled_scores(row, col);
  out.mask_add = h.mask_add.size() ? h.mask_add(row, col) : 0.0f;
  out.masked = h.masked_scores(row, col);
  out.weight = h.weights(row, col);
  out.shown = true;
  return Status::success();
}

nlohmann::json cell_why_json(const CellWhy& c) {
  nlohmann::json j;
  if (!c.status.ok) j["error"] = c.status.message;
  if (!c.shown) return j;
  nlohmann::json terms = nlohmann::json::array();
  for (const ScoreTerm& t : c.terms.top) terms.push_back({{"dim", t.dim}, {"q", t.q}, {"k", t.k}, {"product", t.product}});
  j.update({{"row", c.row}, {"col", c.col}, {"head", c.head}, {"terms", terms}, {"rest", c.terms.rest},
            {"restCount", c.terms.rest_count}, {"termsSum", c.terms.sum}, {"termsAbsSum", c.terms.abs_sum},
            {"raw", c.raw}, {"scale", c.scale}, {"scaled", c.scaled}, {"maskAdd", c.mask_add}, {"masked", c.masked},
            {"weight", c.weight}});
  if (c.rope) j["rawUnrotated"] = c.raw_unrotated;
  return j;
}

}  // namespace attn
