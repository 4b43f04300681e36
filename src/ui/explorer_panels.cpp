// Panels of the explorer.
//   1 controls   scene, model, math, mask, compare, view
//   2 pipeline   every stage of the focused head as a heatmap
//   3 token      the query cursor: its row everywhere, bar charts, the lines view
//   4 heads      one small heatmap per head, metrics, focus, difference A - B
//   5 compare    the same input under two settings, and their difference
//   6 hover      the derivation of a hovered value
#include "ui/panels.h"
#include "ui/drawn_text.h"

#include "core/base/utf8.h"
#include "ui/exercise_card.h"
#include "ui/heatmap_widget.h"
#include "ui/message_strings.h"
#include "ui/model_view_panel.h"
#include "ui/plot.h"
#include "ui/schema_controls.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string>

namespace attn::ui {
namespace {

const HeadTrace* focused_head(const AppState& s, int head) {
  if (!s.has_results || !s.trace.status.ok || s.trace.heads.empty()) return nullptr;
  return &s.trace.heads[std::clamp(head, 0, static_cast<int>(s.trace.heads.size()) - 1)];
}

void hover_to_context(UiContext& ctx, const AppState& state, const std::string& id, const std::string& matrix,
                      int head, const HeatmapResult& r) {
  if (!r.hovered) return;
  ctx.hover.heatmap = id;
  ctx.hover.row = r.row;
  ctx.hover.col = r.col;
  ctx.hover.derivation = derivation_text(state, matrix, head, r.row, r.col);
  if (!ctx.hover.derivation.empty()) ImGui::SetTooltip("%s", ctx.hover.derivation.c_str());
}

// Side A's or side B's math; both sides have the same ranges in the schema, so the sliders
// take side A's keys.
void math_controls(MathSettings& m, bool show_mask_patterns, const char* id) {
  ImGui::PushID(id);
  int score = static_cast<int>(m.score);
  choice_row(tr(S::score_function), score, {tr(S::score_dot), tr(S::score_cosine), tr(S::score_additive)});
  m.score = static_cast<ScoreFunction>(score);

  int scale = static_cast<int>(m.scale_kind);
  choice_row(tr(S::scaling), scale, {tr(S::scale_default), tr(S::scale_none), tr(S::scale_custom)});
  m.scale_kind = static_cast<ScaleKind>(scale);
  if (m.scale_kind == ScaleKind::Custom) schema_slider(tr(S::custom_scale), m.custom_scale, "scale");
  schema_slider(tr(S::temperature), m.temperature, "temperature", "%.2f", ImGuiSliderFlags_Logarithmic);

  ImGui::Checkbox(tr(S::mask_causal), &m.mask.causal);
  if (show_mask_patterns) {
    schema_slider(tr(S::mask_window), m.mask.window, "mask.window");
    schema_slider(tr(S::mask_stride), m.mask.stride, "mask.stride");
    schema_slider(tr(S::mask_block), m.mask.block, "mask.block");
  }
  int fill = static_cast<int>(m.fill);
  choice_row(tr(S::mask_fill), fill, {tr(S::fill_neg_inf), tr(S::fill_finite)});
  if (fill == 1 && m.fill != MaskFill::Finite) m.finite_fill = -1e9f;
  m.fill = static_cast<MaskFill>(fill);
  ImGui::PopID();
}

}  // namespace

// ---------------------------------------------------------------------------------------
// 1 controls
// ---------------------------------------------------------------------------------------

namespace {

// Which scene the explorer shows (app/scene.h's kSceneSources): the sources any state may choose
// on one line, those that need a model or a file on the next; the trained scene only once there
// is a model, the imported one only once there is a file. The language model is fetched the
// first time its scene is chosen (app/lm_state.h).
void scene_source_radios(AppState& state) {
  static constexpr S kLabels[] = {
#define ATTNLAB_SCENE_SOURCE_LABEL(value, name, label, ...) S::label,
      ATTNLAB_SCENE_SOURCES(ATTNLAB_SCENE_SOURCE_LABEL)
#undef ATTNLAB_SCENE_SOURCE_LABEL
  };
  Settings& s = state.settings;
  int source = static_cast<int>(s.source);
  bool first = true, second_line = false;
  for (const SceneSourceInfo& row : kSceneSources) {
    if (row.needs == SceneSourceNeeds::ImportedFile && !state.imported) continue;
    const char* label = tr(kLabels[static_cast<int>(row.value)]);
    const bool needs = row.needs != SceneSourceNeeds::Nothing;
    if (!first && needs == second_line) same_line_or_wrap(label, true);
    first = false;
    second_line = needs;
    ImGui::BeginDisabled(row.needs == SceneSourceNeeds::TrainedModel && !state.train.trained);
    ImGui::RadioButton(label, &source, static_cast<int>(row.value));
    ImGui::EndDisabled();
  }
  s.source = static_cast<SceneSource>(source);
}

// The sentence of the generated scene: shown (the page's HTML field edits it) or edited here,
// then the presets.
void sentence_editor(AppState& state, const ControlsOptions& options) {
  Settings& s = state.settings;
  if (options.sentence_in_html_field) {
    // A long text is shortened here (the field above holds all of it).
    const std::vector<std::uint32_t> cps = decode_utf8(s.sentence);
    std::string shown;
    for (size_t i = 0; i < std::min<size_t>(cps.size(), 160); ++i) shown += encode_utf8(cps[i]);
    if (cps.size() > 160) shown += " ...";
    wrapped_text(shown.c_str());
    hint_text(tr(S::sentence_web_hint));
  } else {
    // The buffer lives in a std::string; ImGui edits a copy with room to grow.
    char buffer[4096];
    std::snprintf(buffer, sizeof buffer, "%s", s.sentence.c_str());
    if (ImGui::InputTextMultiline("##sentence", buffer, sizeof buffer, ImVec2(-1, ImGui::GetFontSize() * 3.5f))) {
      const std::string text = buffer;
      const Status st = check_sentence(text);
      if (st.ok) s.sentence = text;
      else state.notice = st;
    }
  }
  ImGui::TextUnformatted(tr(S::presets));
  ImGui::SameLine();
  if (ImGui::SmallButton(tr(S::preset_english))) s.sentence = kDefaultSentence;
  ImGui::SameLine();
  if (ImGui::SmallButton(tr(S::preset_cat_mouse))) s.sentence = "猫追老鼠";
  ImGui::SameLine();
  if (ImGui::SmallButton(tr(S::preset_mouse_cat))) s.sentence = "老鼠追猫";
}

// The trained model's name and shape, and which of its layers the scene shows.
void trained_scene_summary(AppState& state) {
  Settings& s = state.settings;
  if (!state.train.trained) {
    wrapped_text(tr(S::trained_not_loaded));
    return;
  }
  const train::TrainConfig& c = state.train.trained->model.config();
  ImGui::TextWrapped(tr(S::trained_summary), state.train.trained->name.c_str(), task_label(c.task), c.layers, c.heads, c.d_model,
                     static_cast<long long>(state.train.trained->model.steps()), tr(S::train_step));
  int layer = s.layer;
  if (ImGui::SliderInt(fitted(tr(S::trained_layer)), &layer, 0, c.layers - 1)) s.layer = layer;
}

void scene_section(AppState& state, const ControlsOptions& options) {
  Settings& s = state.settings;
  scene_source_radios(state);
  if (s.source == SceneSource::Generated || s.source == SceneSource::Language) sentence_editor(state, options);
  if (s.source == SceneSource::Language && state.lm_scene) {
    const train::ModelConfig& m = state.lm_scene->model.config;
    int layer = s.layer;
    if (ImGui::SliderInt(fitted(tr(S::trained_layer)), &layer, 0, m.layers - 1)) s.layer = layer;
  }
  else if (s.source == SceneSource::Trained) trained_scene_summary(state);
  else if (s.source == SceneSource::Imported) draw_import_summary(state);
  else wrapped_text(tr(S::worked_inputs));
  if (!state.notice.ok) {  // wrapped: a long notice is read whole, not cut at the window's edge
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.35f, 1.0f));
    wrapped_text(status_text(state.notice));
    ImGui::PopStyleColor();
  }
}

// Where positions come from: none, sinusoidal (added to x), RoPE (q and k turned), ALiBi
// (a bias on the scores). RoPE needs an even d_k; its base and pairing show with it.
void positional_controls(Settings& s) {
  // The labels and notes of kPositionals' rows, in its order.
  const S names[] = {S::positional_none, S::positional_sinusoidal, S::positional_rope, S::positional_alibi};
  const S notes[] = {S::positional_none_note, S::positional_sinusoidal_note, S::positional_rope_note, S::positional_alibi_note};
  static_assert(std::size(names) == std::size(kPositionals) && std::size(notes) == std::size(kPositionals));
  const bool odd_dk = (s.d_model / s.heads) % 2 != 0;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::BeginCombo(tr(S::positional), tr(names[static_cast<int>(s.positional)]))) {
    for (const PositionalInfo& row : kPositionals) {
      const int i = static_cast<int>(row.value);
      const bool refused = row.even_dk && odd_dk;
      ImGui::BeginDisabled(refused);
      if (ImGui::Selectable(tr(names[i]), s.positional == row.value)) s.positional = row.value;
      ImGui::EndDisabled();
      if (refused && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tr(S::rope_needs_even));
    }
    ImGui::EndCombo();
  }
  if (positional_info(s.positional).even_dk && odd_dk) s.positional = Positional::None;
  ImGui::TextDisabled("%s", tr(notes[static_cast<int>(s.positional)]));
  if (positional_info(s.positional).inside == PositionalKind::Rope) {
    schema_slider(tr(S::rope_base), s.rope_base, "ropeBase", "%.0f", ImGuiSliderFlags_Logarithmic);
    int pairing = s.rope_pairing == RopePairing::Interleaved ? 1 : 0;
    ImGui::RadioButton(tr(S::rope_pairing_half), &pairing, 0);
    same_line_or_wrap(tr(S::rope_pairing_interleaved), true);
    ImGui::RadioButton(tr(S::rope_pairing_interleaved), &pairing, 1);
    s.rope_pairing = pairing ? RopePairing::Interleaved : RopePairing::Half;
  }
}

// d_model, heads, positional encoding and seed: fixed (and greyed, with the reason) by any
// scene other than the generated one.
void model_section(Settings& s) {
  const bool locked = s.source != SceneSource::Generated;
  const char* why = s.source == SceneSource::Trained    ? tr(S::locked_by_trained)
                    : s.source == SceneSource::Language ? tr(S::locked_by_language)
                    : s.source == SceneSource::Imported ? tr(S::locked_by_imported)
                                                        : tr(S::locked_by_worked);
  ImGui::BeginDisabled(locked);
  int d_model = s.d_model;
  const int heads = s.heads;
  if (schema_slider(tr(S::d_model), d_model, "dModel")) {
    s.d_model = d_model;
    if (s.d_model % s.heads != 0) s.heads = 1;
  }
  head_count_radios(s.heads, heads, s.d_model, {1, 2, 4, 8, 16}, "");
  positional_controls(s);
  seed_field(s.seed);
  ImGui::EndDisabled();
  if (locked && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", why);
  if (locked) ImGui::TextDisabled("%s", why);
}

void compare_section(Settings& s) {
  ImGui::Checkbox(tr(S::compare_enable), &s.compare);
  if (s.compare) {
    ImGui::TextUnformatted(tr(S::side_b));
    math_controls(s.compare_math, false, "B");
  }
}

void view_section(Settings& s) {
  int theme = static_cast<int>(s.theme);
  choice_row(tr(S::theme), theme, {tr(S::theme_dark), tr(S::theme_light), tr(S::theme_contrast)});
  s.theme = static_cast<Theme>(theme);
  // The weights' colours: at 1,000 tokens every weight is near 1/n, one flat colour on [0, 1].
  int range = static_cast<int>(s.weight_range);
  choice_row(tr(S::weight_range), range, {tr(S::weight_range_fixed), tr(S::weight_range_row), tr(S::weight_range_log)});
  s.weight_range = static_cast<WeightRange>(range);
  ImGui::Checkbox(tr(S::presentation), &s.presentation);
  schema_slider(tr(S::ui_scale), s.ui_scale, "uiScale", "%.2f");
  hint_text(tr(S::keys_hint));
}

}  // namespace

void draw_controls_panel(AppState& state, UiContext& ctx, const ControlsOptions& options) {
  Settings& s = state.settings;
  if (ImGui::CollapsingHeader(tr(S::scene), ImGuiTreeNodeFlags_DefaultOpen)) scene_section(state, options);
  if (ImGui::CollapsingHeader(tr(S::model), ImGuiTreeNodeFlags_DefaultOpen)) model_section(s);
  if (ImGui::CollapsingHeader(tr(S::math), ImGuiTreeNodeFlags_DefaultOpen)) math_controls(s.math, true, "A");
  if (ImGui::CollapsingHeader(tr(S::compare))) compare_section(s);
  if (ImGui::CollapsingHeader(tr(S::view))) view_section(s);
  (void)ctx;
}

// ---------------------------------------------------------------------------------------
// 2 pipeline
// ---------------------------------------------------------------------------------------

void draw_pipeline_panel(AppState& state, UiContext& ctx) {
  const HeadTrace* h = focused_head(state, state.settings.head);
  if (!h) {
    ImGui::TextUnformatted(state.trace.status.ok ? tr(S::no_results) : status_text(state.trace.status).c_str());
    return;
  }
  const int head = state.settings.head;
  ImGui::Text(tr(S::pipeline_header), head, static_cast<int>(state.trace.heads.size()),
              h->scale, static_cast<int>(h->q.cols()));
  struct Stage {
    const char* id;
    const char* title;  // Q, K, V are symbols, the rest come from the string table
    const Mat* m;
    Colormap map;
    bool token_cols;
  };
  const Stage stages[] = {
      {"q", "Q", &h->q, Colormap::Diverging, false},
      {"k", "K", &h->k, Colormap::Diverging, false},
      {"v", "V", &h->v, Colormap::Diverging, false},
      {"rawScores", tr(S::raw_scores), &h->raw_scores, Colormap::Diverging, true},
      {"scaledScores", tr(S::scaled_scores), &h->scaled_scores, Colormap::Diverging, true},
      {"mask", tr(S::mask_added), &h->mask_add, Colormap::Diverging, true},
      {"maskedScores", tr(S::masked_scores), &h->masked_scores, Colormap::Diverging, true},
      {"weights", tr(S::weights), &h->weights, Colormap::Sequential, true},
      {"output", tr(S::output), &h->output, Colormap::Diverging, false},
  };
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  ImVec2 avail = ImGui::GetContentRegionAvail();
  // The chosen cell's explanation takes the bottom of the panel.
  const float why_h = cell_why_shown(state) ? ImGui::GetFontSize() * 10.0f : 0.0f;
  avail.y -= why_h;
  // Each row: its titles' line, the heatmaps, and the gap under them.
  const float row_extra = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetFontSize() * 0.3f + 2 * ImGui::GetStyle().ItemSpacing.y;
  // Three stages a row, or two in a narrow figure (a course page's), where a third of the
  // width would leave a heatmap little room beside its labels and colour scale.
  const int columns = avail.x >= ImGui::GetFontSize() * 30.0f ? 3 : 2;
  const int rows = (9 + columns - 1) / columns;
  const float cell_w = (avail.x - (columns - 1) * gap) / columns;
  float cell_h = (avail.y - rows * row_extra) / rows - 1.0f;
  if (columns == 2) cell_h = std::max(cell_h, cell_w * 0.7f);  // the panel scrolls
  auto spec_of = [&](const Stage& st) {
    HeatmapSpec spec;
    spec.id = std::string("pipeline/") + st.id;
    spec.values = st.m;
    spec.version = state.revision;
    spec.colormap = st.map;
    const bool key_rows = st.id[0] == 'k' || st.id[0] == 'v';  // K and V: one row per key token
    spec.row_labels = key_rows ? &state.key_tokens : &state.tokens;
    spec.col_labels = st.token_cols ? &state.key_tokens : nullptr;
    spec.highlight_row = state.settings.cursor;
    return spec;
  };
  // A few tokens (the worked example, a short sentence) keep every row and column label: in a
  // short window the grid grows past the panel, which then scrolls, rather than thinning them.
  constexpr int kAllLabelsUpTo = 8;
  for (const Stage& st : stages)
    if (st.m->rows() <= kAllLabelsUpTo)
      cell_h = std::max(cell_h, heatmap_height_for_labels(ctx, spec_of(st), cell_w, static_cast<int>(st.m->rows()),
                                                          static_cast<int>(st.m->cols())));
  for (int i = 0; i < 9; ++i) {
    const Stage& st = stages[i];
    if (i % columns) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted(st.title);
    const HeatmapSpec spec = spec_of(st);
    const HeatmapResult r = heatmap_widget(ctx, spec, ImVec2(cell_w, cell_h));
    hover_to_context(ctx, state, spec.id, st.id, head, r);
    if (r.clicked) {
      state.settings.cursor = r.row;
      // A score or weight cell is the cell to explain; a row of Q, K, V or the output is not.
      state.settings.cursor_key = st.token_cols ? r.col : -1;
    }
    ImGui::EndGroup();
  }
  if (why_h > 0.0f) draw_cell_why(state, ctx, avail.x, why_h);
}

// ---------------------------------------------------------------------------------------
// 3 token by token
// ---------------------------------------------------------------------------------------

namespace {

// The query's row as bars over the key tokens (a masked key, -inf, has no bar): its raw
// scores, scaled scores and weights, `width` wide, in a column about `height` tall.
void query_row_bars(const AppState& state, UiContext& ctx, const HeadTrace& h, float width, float height) {
  const Settings& s = state.settings;
  const float font = ImGui::GetFontSize();
  const float plot_h = std::clamp(height * 0.22f, font * 7.0f, font * 10.0f);
  auto bars = [&](const char* id, const char* title, const Mat& m, ImU32 color) {
    PlotSpec p;
    p.id = id;
    p.y_title = title;
    p.x_title = tr(S::token_bars_keys);
    p.x_categories = state.key_tokens;
    p.include_zero_y = true;
    PlotSeries row;
    row.bars = true;
    row.color = color;
    for (int j = 0; j < m.cols(); ++j) {
      row.x.push_back(j);
      row.y.push_back(m(s.cursor, j));
    }
    p.series.push_back(std::move(row));
    plot_widget(ctx, p, ImVec2(width, plot_h));
  };
  if (h.raw_scores.size() > 0) {  // imported weights-only scenes have no scores
    bars("token/raw", tr(S::raw_scores), h.raw_scores, IM_COL32(230, 159, 0, 255));
    bars("token/scaled", tr(S::scaled_scores), h.masked_scores, IM_COL32(213, 94, 0, 255));
  }
  bars("token/weights-row", tr(S::weights), h.weights, IM_COL32(86, 180, 233, 255));
}

}  // namespace

void draw_token_panel(AppState& state, UiContext& ctx) {
  const HeadTrace* h = focused_head(state, state.settings.head);
  if (!h) {
    ImGui::TextUnformatted(tr(S::no_results));
    return;
  }
  Settings& s = state.settings;
  const int n = static_cast<int>(h->weights.rows());
  if (ImGui::Button(ctx.playing ? tr(S::pause) : tr(S::play))) {
    ctx.playing = !ctx.playing;
    if (ctx.playing && s.cursor >= n - 1) s.cursor = 0;
  }
  ImGui::SameLine();
  int cursor = s.cursor;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (ImGui::SliderInt(fitted(tr(S::query)), &cursor, 0, std::max(0, n - 1))) s.cursor = cursor;
  ImGui::SameLine();
  ImGui::Text("\"%s\"", s.cursor >= 0 && s.cursor < static_cast<int>(state.tokens.size()) ? state.tokens[s.cursor].c_str() : "");

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float left_w = avail.x * 0.55f;
  ImGui::BeginGroup();
  HeatmapSpec spec;
  spec.id = "token/weights";
  spec.values = &h->weights;
  spec.version = state.revision;
  spec.row_labels = &state.tokens;
  spec.col_labels = &state.key_tokens;
  spec.highlight_row = s.cursor;
  spec.zoomable = true;
  const HeatmapResult r = heatmap_widget(ctx, spec, ImVec2(left_w, avail.y - ImGui::GetFontSize()));
  hover_to_context(ctx, state, spec.id, "weights", s.head, r);
  if (r.clicked) s.cursor = r.row;
  ImGui::EndGroup();
  ImGui::SameLine();

  ImGui::BeginGroup();
  const float right_w = avail.x - left_w - ImGui::GetStyle().ItemSpacing.x;
  if (s.cursor >= 0 && s.cursor < n) {
    query_row_bars(state, ctx, *h, right_w, avail.y);
    if (h->fully_masked_rows[s.cursor]) ImGui::TextWrapped(tr(S::fully_masked), s.cursor);

    // Lines view: queries on the left, keys on the right, opacity = weight. It pairs
    // query i with key i, so it is drawn for self-attention only.
    if (h->weights.cols() != n) {
      ImGui::EndGroup();
      return;
    }
    ImGui::TextUnformatted(tr(S::lines_view));
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float lines_h = std::max(ImGui::GetFontSize() * 6, ImGui::GetContentRegionAvail().y - ImGui::GetFontSize());
    const float col_w = right_w * 0.3f;
    const int shown = std::min(n, 64);  // beyond that the lines merge into a blur
    const int first = std::clamp(s.cursor - shown / 2, 0, std::max(0, n - shown));
    const float row_h = lines_h / shown;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    for (int t = 0; t < shown; ++t) {
      const int idx = first + t;
      const float y = p0.y + (t + 0.5f) * row_h;
      if (row_h >= ImGui::GetFontSize() * 0.9f) {
        const char* label = state.tokens[idx].c_str();
        add_text(dl, ImVec2(p0.x + col_w - ImGui::CalcTextSize(label).x, y - ImGui::GetFontSize() * 0.5f),
                    idx == s.cursor ? IM_COL32(255, 64, 160, 255) : text, label);
        add_text(dl, ImVec2(p0.x + right_w - col_w, y - ImGui::GetFontSize() * 0.5f), text, label);
      }
    }
    const float qy = p0.y + (s.cursor - first + 0.5f) * row_h;
    for (int t = 0; t < shown; ++t) {
      const float w = h->weights(s.cursor, first + t);
      if (w <= 0.0f) continue;
      const float ky = p0.y + (t + 0.5f) * row_h;
      dl->AddLine(ImVec2(p0.x + col_w + 6, qy), ImVec2(p0.x + right_w - col_w - 6, ky),
                  IM_COL32(255, 64, 160, static_cast<int>(std::lround(255 * w))), std::max(1.5f, 3.0f * ctx.dpi_scale));
    }
    HeatmapPlacement& lp = ctx.placements["token/lines"];
    lp = {p0.x, p0.y, right_w, lines_h, shown, 2, {float(first), 0, float(shown), 1}, 0, 1};
    ImGui::Dummy(ImVec2(right_w, lines_h));
  }
  ImGui::EndGroup();
}

// ---------------------------------------------------------------------------------------
// 4 heads
// ---------------------------------------------------------------------------------------

// The language model's focused head beside a head of projections drawn from the scene's seed
// on the same characters (LmSettings::random_beside): what learning made of attention.
void draw_learned_beside_random(AppState& state, UiContext& ctx, float tile) {
  Settings& s = state.settings;
  ImGui::Separator();
  wrapped_checkbox(tr(S::heads_random_beside), &s.lm.random_beside);
  const Mat& random = state.lm.random_head;
  const int head = std::clamp(s.head, 0, static_cast<int>(state.trace.heads.size()) - 1);
  if (!s.lm.random_beside || random.rows() != state.trace.heads[head].weights.rows()) return;
  char title[160];
  std::snprintf(title, sizeof title, tr(S::heads_learned_title), s.layer, head);
  titled_heatmap(ctx, title, "heads/learned", state.trace.heads[head].weights, state.revision, Colormap::Sequential,
                 &state.tokens, ImVec2(tile, tile), false, s.cursor);
  ImGui::SameLine();
  std::snprintf(title, sizeof title, tr(S::heads_random_title), static_cast<int>(s.seed & 0x7fffffff));
  titled_heatmap(ctx, title, "heads/random", random, state.revision, Colormap::Sequential, &state.tokens,
                 ImVec2(tile, tile), false, s.cursor);
  wrapped_text(tr(S::heads_random_note));
}

void draw_heads_panel(AppState& state, UiContext& ctx) {
  if (!state.has_results || !state.trace.status.ok) {
    ImGui::TextUnformatted(tr(S::no_results));
    return;
  }
  Settings& s = state.settings;
  const int heads = static_cast<int>(state.trace.heads.size());
  ImGui::TextUnformatted(tr(S::focus_hint));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // As many heads a row as their readouts (a line each, wrapped at the tile) leave room for.
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float min_w = ImGui::CalcTextSize(tr(S::distance)).x + ImGui::GetFontSize() * 3.0f;
  const int fit = std::max(1, static_cast<int>((avail.x - 8 + spacing) / (min_w + spacing)));
  // Rows as even as they go: four heads where three fit are two rows of two, not three and one.
  const int most = std::min({heads, 4, fit});
  const int rows = (heads + most - 1) / most;
  const int per_row = (heads + rows - 1) / rows;
  const float tile = std::min((avail.x - 8) / per_row - spacing, avail.y * (rows == 1 ? 0.45f : 0.3f));
  for (int hd = 0; hd < heads; ++hd) {
    if (hd % per_row) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(tile, min_w));
    const HeadMetrics& m = state.head_metrics[hd];
    ImGui::TextColored(hd == s.head ? ImVec4(1.0f, 0.25f, 0.63f, 1.0f) : ImGui::GetStyle().Colors[ImGuiCol_Text], "%s %d",
                       tr(S::head), hd);
    HeatmapSpec spec;
    spec.id = "heads/" + std::to_string(hd);
    spec.values = &state.trace.heads[hd].weights;
    spec.version = state.revision;
    spec.highlight_row = s.cursor;
    spec.show_scale = false;
    const HeatmapResult r = heatmap_widget(ctx, spec, ImVec2(tile, tile));
    const float drawn_w = ImGui::GetItemRectSize().x;  // the heatmap as drawn (its last item spans it)
    hover_to_context(ctx, state, spec.id, "weights", hd, r);
    if (r.clicked) s.head = hd;
    ImGui::Text("%s %.2f", tr(S::entropy), m.mean_entropy);
    ImGui::Text("%s %.2f", tr(S::max_weight), m.mean_max_weight);
    ImGui::Text("%s %.2f", tr(S::distance), m.mean_distance);
    {
      const std::string label_id = "heads/label/" + std::to_string(hd);
      VeilGroup veil(ctx, label_id.c_str());
      draw_lm_head_label(state, hd);
      ImGui::Dummy(ImVec2(drawn_w, 0.0f));  // as wide as the heatmap: a veil the label's width would tell it
    }
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
  }
  if (state.computed_for.source == SceneSource::Language) draw_learned_beside_random(state, ctx, tile);
  if (heads >= 2) {
    ImGui::Separator();
    int a = s.head, b = s.diff_head;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderInt("A", &a, 0, heads - 1);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderInt("B", &b, 0, heads - 1);
    s.head = a;
    s.diff_head = b;
    ImGui::SameLine();
    ImGui::Text(tr(S::difference_heads), a, b);
    const Mat d = state.trace.heads[a].weights - state.trace.heads[b].weights;
    HeatmapSpec spec;
    spec.id = "heads/difference";
    spec.values = &d;
    spec.version = state.revision;
    spec.made_in_frame = true;
    spec.colormap = Colormap::Diverging;
    spec.row_labels = &state.tokens;
    spec.col_labels = &state.key_tokens;
    const float rest = ImGui::GetContentRegionAvail().y - ImGui::GetFontSize();
    heatmap_widget(ctx, spec, ImVec2(avail.x * 0.6f, std::max(rest, tile)));
  }
}

// ---------------------------------------------------------------------------------------
// 5 compare
// ---------------------------------------------------------------------------------------

void draw_compare_panel(AppState& state, UiContext& ctx) {
  Settings& s = state.settings;
  if (!s.compare) {
    wrapped_text(tr(S::compare_off));
    if (ImGui::Button(tr(S::compare_enable))) s.compare = true;
    return;
  }
  const HeadTrace* a = focused_head(state, s.head);
  if (!a || !state.compare_trace.status.ok || state.compare_trace.heads.empty()) {
    ImGui::TextUnformatted(state.compare_trace.status.ok ? tr(S::no_results) : status_text(state.compare_trace.status).c_str());
    return;
  }
  const HeadTrace& b = state.compare_trace.heads[std::min<size_t>(s.head, state.compare_trace.heads.size() - 1)];
  const Mat diff = a->weights - b.weights;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float w = (avail.x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3.0f, h = avail.y - ImGui::GetFontSize() * 2;
  const struct {
    const char* id;
    const char* title;
    const Mat* m;
    Colormap map;
  } views[] = {{"compare/a", tr(S::side_a), &a->weights, Colormap::Sequential},
               {"compare/b", tr(S::side_b), &b.weights, Colormap::Sequential},
               {"compare/difference", tr(S::difference), &diff, Colormap::Diverging}};
  for (int i = 0; i < 3; ++i) {
    if (i) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted(views[i].title);
    HeatmapSpec spec;
    spec.id = views[i].id;
    spec.values = views[i].m;
    spec.version = state.revision;
    spec.made_in_frame = views[i].m == &diff;
    spec.colormap = views[i].map;
    spec.row_labels = i == 0 ? &state.tokens : nullptr;
    spec.col_labels = &state.key_tokens;
    spec.highlight_row = s.cursor;
    heatmap_widget(ctx, spec, ImVec2(w, h));
    ImGui::EndGroup();
  }
}

// ---------------------------------------------------------------------------------------
// 6 hover derivation
// ---------------------------------------------------------------------------------------

std::string derivation_text(const AppState& state, const std::string& matrix, int head, int row, int col) {
  if (!state.has_results || !state.trace.status.ok || head < 0 || head >= static_cast<int>(state.trace.heads.size()))
    return {};
  const HeadTrace& h = state.trace.heads[head];
  const bool score_like = matrix == "rawScores" || matrix == "scaledScores" || matrix == "maskedScores" ||
                          matrix == "weights" || matrix == "mask";
  if (!score_like || row >= h.raw_scores.rows() || col >= h.raw_scores.cols()) return {};
  const std::string qi = "q" + std::to_string(row), kj = "k" + std::to_string(col);
  char buf[160];
  if (row >= static_cast<int>(state.tokens.size()) || col >= static_cast<int>(state.key_tokens.size())) return {};
  std::string out = state.tokens[row] + " -> " + state.key_tokens[col] + "\n";
  const ScoreFunction score = state.computed_for.math.score;
  if (score == ScoreFunction::Dot) {
    out += qi + "." + kj + " = ";
    const int d = static_cast<int>(h.q.cols());
    for (int c = 0; c < std::min(d, 6); ++c) {
      std::snprintf(buf, sizeof buf, "%s%.2f*%.2f", c ? " + " : "", h.q(row, c), h.k(col, c));
      out += buf;
    }
    if (d > 6) {
      std::snprintf(buf, sizeof buf, tr(S::derivation_terms), d);
      out += buf;
    }
  } else {
    out += score == ScoreFunction::Cosine ? "cos(" + qi + ", " + kj + ")" : "v . tanh(Wq " + qi + " + Wk " + kj + ")";
  }
  std::snprintf(buf, sizeof buf, " = %.4f\n", h.raw_scores(row, col));
  out += buf;
  std::snprintf(buf, sizeof buf, tr(S::derivation_scale), h.scale, h.scaled_scores(row, col));
  out += buf;
  const float masked = h.masked_scores(row, col);
  if (h.mask_add(row, col) != 0.0f) {
    std::snprintf(buf, sizeof buf, tr(S::derivation_masked), h.mask_add(row, col), masked);
    out += buf;
  }
  float row_max = -std::numeric_limits<float>::infinity(), sum = 0.0f;
  for (int j = 0; j < h.masked_scores.cols(); ++j) row_max = std::max(row_max, h.masked_scores(row, j));
  if (std::isinf(row_max)) return out + tr(S::derivation_all_masked);
  for (int j = 0; j < h.masked_scores.cols(); ++j)
    if (std::isfinite(h.masked_scores(row, j))) sum += std::exp(h.masked_scores(row, j) - row_max);
  std::snprintf(buf, sizeof buf, "softmax: exp(%.3f - %.3f) / %.3f = %.4f", masked, row_max, sum, h.weights(row, col));
  out += buf;
  return out;
}

}  // namespace attn::ui
