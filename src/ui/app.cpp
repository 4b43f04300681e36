// The app shell. Sections: 1 init/shutdown  2 fonts and theme  3 keys  4 frame
#include "ui/app.h"

#include "app/exercise_grading.h"
#include "app/tour.h"
#include "core/base/utf8.h"
#include "files/import_view.h"
#include "gfx/gl.h"
#include "gfx/heatmap_gl.h"
#include "ui/drawn_text.h"
#include "ui/exercise_card.h"
#include "ui/font_coverage.h"
#include "ui/frame_picture.h"
#include "ui/heatmap_widget.h"
#include "ui/key_bindings.h"
#include "ui/panel_views.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"
#include "ui/tour_card.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <cfloat>
#include <cstdio>
#include <cmath>

namespace attn::ui {

// ---------------------------------------------------------------------------------------
// 1 init / shutdown
// ---------------------------------------------------------------------------------------

bool App::init(AppHost& host, float content_scale, const AppOptions& options, std::string& error) {
  host_ = &host;
  options_ = options;
  content_scale_ = content_scale > 0.0f ? content_scale : 1.0f;
  // The results first, before any GL call: a new context's GPU side is still being set up
  // (hundreds of milliseconds with a software rasteriser), and the first GL call that must
  // wait for it (a shader's compile status) waits less after this work than before it.
  update_results(state_);  // the training lab's runs too, if the first panel draws them
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout is ours, not a file's (the web has no file system)
  if (options.ignore_mouse) io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  if (!host.start(error)) return false;
  if (!ctx_.program.init(error)) return false;
  ctx_.model_files_on_disk = !options.controls.model_files_in_page;
  return true;
}

void App::shutdown() {
  release_gl();
  host_->stop();
  ImGui::DestroyContext();
}

void App::release_gl() {
  picture_shown_ = false;
  ctx_.draws.clear();
  ctx_.heatmaps.clear();  // their textures go with the context
  ctx_.program.shutdown();
  host_->stop_renderer();
}

bool App::restore_gl(std::string& error) {
  if (!host_->restart_renderer(error)) return false;
  fonts_dirty_ = true;  // the font atlas texture is rebuilt on the next frame
  return ctx_.program.init(error);
}

void App::set_content_scale(float scale) {
  if (scale > 0.0f) content_scale_ = scale;
}

// ---------------------------------------------------------------------------------------
// 2 fonts and theme
// ---------------------------------------------------------------------------------------

void App::set_ui_font(std::vector<unsigned char> bytes) {
  ui_font_ = std::move(bytes);
  fonts_dirty_ = true;
}

void App::set_cjk_font(std::vector<unsigned char> bytes, int face_index) {
  cjk_font_ = std::move(bytes);
  cjk_face_ = face_index;
  fonts_dirty_ = true;
}

void App::update_glyph_set() {
  // The characters beyond Latin-1 the figure may draw (ui/font_coverage.h).
  const bool chinese = state_.settings.language == UiLanguage::Chinese;
  if (glyphs_checked_revision_ == state_.revision && glyphs_checked_language_ == state_.settings.language &&
      glyphs_checked_controls_ == show_controls_)
    return;
  glyphs_checked_revision_ = state_.revision;
  glyphs_checked_language_ = state_.settings.language;
  glyphs_checked_controls_ = show_controls_;
  const std::set<unsigned> needed = glyphs_beyond_latin1(state_, show_controls_);
  const std::string ui_text = chinese ? chinese_ui_text() : std::string();  // the Chinese UI's own characters
  // The atlas keeps characters of earlier texts, so typing back and forth does not rebuild
  // it each time; once those are many, it starts again from what the text needs now, so its
  // size follows the current text, not everything ever typed.
  const bool missing = !std::includes(glyphs_wanted_.begin(), glyphs_wanted_.end(), needed.begin(), needed.end());
  const bool stale = glyphs_wanted_.size() > needed.size() + kStaleGlyphs;
  if (missing || stale) {
    if (stale) glyphs_wanted_.clear();
    glyphs_wanted_.insert(needed.begin(), needed.end());
    if (!cjk_font_.empty()) fonts_dirty_ = true;
  }
  // Count what the atlas lacks now (the next rebuild may fix it).
  missing_glyphs_ = 0;
  if (ImFont* font = ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0]) {
    auto count_missing = [&](const std::string& t) {
      for (std::uint32_t c : decode_utf8(t))
        if (c >= 0x100 && (c > 0xFFFF || !font->FindGlyphNoFallback(static_cast<ImWchar>(c)))) ++missing_glyphs_;
    };
    for (const std::string& t : state_.tokens) count_missing(t);
    count_missing(ui_text);
  }
}

void App::rebuild_fonts() {
  // Fonts are rasterised at the device's pixel density (and the UI scale) so text stays
  // crisp at DPR 2 and on projectors.
  const float scale = content_scale_ * state_.settings.ui_scale * (state_.settings.presentation ? 1.5f : 1.0f);
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float pixels = std::round(kUiFontPixels * scale);
  if (!ui_font_.empty()) {
    // The ranges the page's subset keeps (CMakeLists.txt, fonts/ui.ttf): Latin, Greek, the
    // punctuation, sub- and superscripts, arrows, math operators and shapes the UI writes.
    static const ImWchar kUiRanges[] = {0x0020, 0x024F, 0x0370, 0x03FF, 0x1D40, 0x1D6A, 0x2000, 0x209F,
                                        0x2190, 0x22FF, 0x25A0, 0x25FF, 0};
    ImFontConfig base;
    base.FontDataOwnedByAtlas = false;  // the bytes stay ours
    base.OversampleH = 2;
    io.Fonts->AddFontFromMemoryTTF(ui_font_.data(), static_cast<int>(ui_font_.size()), pixels, &base, kUiRanges);
  } else {
    ImFontConfig base;
    base.SizePixels = std::round(13.0f * scale);
    io.Fonts->AddFontDefault(&base);
  }
  glyph_ranges_.clear();
  if (!cjk_font_.empty() && !glyphs_wanted_.empty()) {
    // Ranges: each wanted character as its own [c, c] pair, then the 0 terminator.
    for (unsigned c : glyphs_wanted_) {
      glyph_ranges_.push_back(static_cast<unsigned short>(c));
      glyph_ranges_.push_back(static_cast<unsigned short>(c));
    }
    glyph_ranges_.push_back(0);
    ImFontConfig cjk;
    cjk.MergeMode = true;
    cjk.FontDataOwnedByAtlas = false;  // the bytes stay ours
    cjk.FontNo = cjk_face_;
    cjk.OversampleH = 1;
    cjk.PixelSnapH = true;
    io.Fonts->AddFontFromMemoryTTF(cjk_font_.data(), static_cast<int>(cjk_font_.size()), pixels, &cjk,
                                   reinterpret_cast<const ImWchar*>(glyph_ranges_.data()));
  }
  io.Fonts->Build();
  host_->upload_fonts();
  gfx::note_texture_upload();  // the atlas may come back under the same texture name
  fonts_built_for_ = scale;
  fonts_dirty_ = false;
  glyphs_checked_revision_ = ~0ull;  // recount what is missing
}

void App::apply_theme() {
  const float scale = content_scale_ * state_.settings.ui_scale * (state_.settings.presentation ? 1.5f : 1.0f);
  ImGuiStyle style;
  switch (state_.settings.theme) {
    case Theme::Dark: ImGui::StyleColorsDark(&style); break;
    case Theme::Light: ImGui::StyleColorsLight(&style); break;
    case Theme::HighContrast:
      // For projectors: black ground, white text, thick bright frames.
      ImGui::StyleColorsDark(&style);
      style.Colors[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 1);
      style.Colors[ImGuiCol_Text] = ImVec4(1, 1, 1, 1);
      style.Colors[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.15f, 1);
      style.Colors[ImGuiCol_Border] = ImVec4(1, 1, 0.2f, 1);
      style.Colors[ImGuiCol_CheckMark] = ImVec4(1, 1, 0.2f, 1);
      style.Colors[ImGuiCol_SliderGrab] = ImVec4(1, 1, 0.2f, 1);
      style.Colors[ImGuiCol_Header] = ImVec4(0.25f, 0.25f, 0.0f, 1);
      style.Colors[ImGuiCol_Tab] = ImVec4(0.2f, 0.2f, 0.2f, 1);
      style.Colors[ImGuiCol_TabActive] = ImVec4(0.55f, 0.55f, 0.0f, 1);
      style.FrameBorderSize = 1.0f;
      style.WindowBorderSize = 2.0f;
      break;
  }
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  theme_applied_ = state_.settings.theme;
  style_scale_applied_ = scale;
  ctx_.dpi_scale = scale;
}

// ---------------------------------------------------------------------------------------
// 3 keys: the table of ui/key_bindings.h (never while typing in a field)
// ---------------------------------------------------------------------------------------

void App::press_key(int key, bool ctrl) {
  if (pending_keys_.size() < 64) pending_keys_.push_back(key | (ctrl ? kCtrlKey : 0));
}

// Whether a key of `when` acts now: the page's keys and the answer field's Enter are read
// elsewhere (web/keys-overlay.mjs, ui/exercise_card.cpp).
static bool key_acts(KeyWhen when, bool touring, Panel panel) {
  switch (when) {
    case KeyWhen::Always: return true;
    case KeyWhen::NotTouring: return !touring;
    case KeyWhen::Touring: return touring;
    case KeyWhen::MaskPanel: return panel == Panel::Mask;
    case KeyWhen::AnswerField:
    case KeyWhen::Page: return false;
  }
  return false;
}

void App::handle_keys() {
  const ImGuiIO& io = ImGui::GetIO();
  std::vector<int> keys;
  keys.swap(pending_keys_);
  if (io.WantTextInput || ImGui::IsAnyItemActive()) return;
  // During the tour the left and right arrows step it; up and down still move the cursor.
  const bool touring = state_.settings.tour > 0 && tour_navigation_;
  // Each action at most once a frame, however many of its keys were pressed.
  std::array<bool, static_cast<size_t>(KeyAction::count)> act{};
  for (const KeyBinding& b : kKeyBindings) {
    const int code = b.key | (b.ctrl ? kCtrlKey : 0);
    if (key_acts(b.when, touring, state_.settings.panel) && std::find(keys.begin(), keys.end(), code) != keys.end())
      act[static_cast<size_t>(b.action)] = true;
  }
  for (size_t a = 0; a < act.size(); ++a)
    if (act[a]) do_key_action(static_cast<KeyAction>(a));
}

void App::do_key_action(KeyAction action) {
  Settings& s = state_.settings;
  const int n = static_cast<int>(state_.tokens.size());
  switch (action) {
    case KeyAction::QueryNext: s.cursor = std::min(n - 1, s.cursor + 1); break;
    case KeyAction::QueryPrevious: s.cursor = std::max(0, s.cursor - 1); break;
    case KeyAction::TourNext: s.tour = std::min(kTourSteps, s.tour + 1); break;
    case KeyAction::TourBack: s.tour = std::max(1, s.tour - 1); break;
    case KeyAction::PanelNext: s.panel = panel_after(s.panel, 1); break;
    case KeyAction::PanelPrevious: s.panel = panel_after(s.panel, -1); break;
    case KeyAction::NextHead: s.head = (s.head + 1) % std::max(1, s.heads); break;
    case KeyAction::Play: ctx_.playing = !ctx_.playing; break;
    case KeyAction::Presentation: s.presentation = !s.presentation; break;
    case KeyAction::MaskUndo: state_.mask_history.undo(s.math.mask); break;
    case KeyAction::MaskRedo: state_.mask_history.redo(s.math.mask); break;
    case KeyAction::ExerciseCheck:  // read by the exercise card's field (key_acts)
    case KeyAction::KeysList:       // the page's
    case KeyAction::KeysListClose:
    case KeyAction::count: break;
  }
}

bool App::typing_in_field() const { return ImGui::GetCurrentContext() != nullptr && ImGui::GetIO().WantTextInput; }

// ---------------------------------------------------------------------------------------
// 4 frame
// ---------------------------------------------------------------------------------------

void App::frame() {
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  const auto started = Clock::now();
  const std::uint64_t unchanged_before = frames_unchanged_;
  const std::uint64_t revision_before = state_.revision;
  const bool keys_waiting = !pending_keys_.empty();
  ctx_.timings = FrameTimings{};
  set_language(state_.settings.language == UiLanguage::Chinese ? Language::Chinese : Language::English);
  const float scale = content_scale_ * state_.settings.ui_scale * (state_.settings.presentation ? 1.5f : 1.0f);
  update_before_frame(scale);
  const auto computed = Clock::now();
  begin_imgui_frame();
  // Asked for (tests): the text this frame draws, from ImGui's log (every widget's text) and
  // ui/drawn_text.h (what the figures draw themselves), window by window.
  if (capture_text_) text_record() = {true, ""};
  advance_play();
  handle_keys();
  draw_windows(scale);
  if (capture_text_) {
    drawn_text_ = text_record().text;
    text_record() = {};
    capture_text_ = false;
  }
  const auto built = Clock::now();
  render_frame();
  ++frames_drawn_;
  const auto ended = Clock::now();
  last_frame_idle_ = frames_unchanged_ != unchanged_before && state_.revision == revision_before && !keys_waiting &&
                     !ctx_.playing && ms(started, computed) < 2.0 && !frames_have_work(state_);
  FrameTimings& t = ctx_.timings;
  // The results may have been computed outside the frame (setState computes at once).
  t.compute_ms = ms(started, computed) + ctx_.pending_compute_ms;
  t.ui_ms = ms(computed, built) - t.upload_ms;
  t.draw_ms = ms(built, ended);
  t.total_ms = t.compute_ms + t.ui_ms + t.upload_ms + t.draw_ms;
  t.frame = frames_drawn_;
  ctx_.pending_compute_ms = 0.0;
  if (state_.revision != ctx_.drawn_revision) {
    ctx_.last_recompute = t;
    ctx_.drawn_revision = state_.revision;
  }
  ctx_.frame_ms = ms(started, ended);
}

// Fonts and theme for this scale, then what changed since the last frame: a training slice,
// the results, a cost chart's slice, the model view's thumbnails, the glyphs in use.
void App::update_before_frame(float scale) {
  if (fonts_dirty_ || fonts_built_for_ != scale) rebuild_fonts();
  if (theme_applied_ != state_.settings.theme || style_scale_applied_ != scale) apply_theme();
  ctx_.weight_range = state_.settings.weight_range;

  // Training runs a time-budgeted slice per frame (nothing when paused); then compute only
  // what changed; textures follow the results' revision.
  train_tick(state_.train, state_.train.slice_ms, host_->seconds());
  update_tour(state_);
  update_exercise(state_);
  advance_lm(state_, host_->seconds());  // generation's play, a head of the ablation table
  update_results(state_);
  // A cost chart measures about 30 ms per frame, so the page stays responsive while it runs.
  update_variant_panels(state_, 0.03);
  update_modern_panels(state_);
  advance_thumbnails(state_, 8.0);
  advance_overview_panel(state_, 8.0);  // the long-input overview's pass where no Worker runs it
  update_glyph_set();
  if (fonts_dirty_) rebuild_fonts();
}

void App::begin_imgui_frame() {
  host_->new_frame();
  if (capture_scale_ > 0) {  // capture_panel: the same layout, larger, without the pointer
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(io.DisplaySize.x * capture_scale_, io.DisplaySize.y * capture_scale_);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  }
  ImGui::NewFrame();
  ctx_.draws.clear();
  ctx_.placements.clear();
  ctx_.plots.clear();
  ctx_.tabs.clear();
  ctx_.nav.clear();
  ctx_.random_note = {};
  ctx_.hover = Hover{};
}

// Autoregressive stepping: the cursor walks the tokens, one every 0.6 s.
void App::advance_play() {
  if (!ctx_.playing) return;
  ctx_.play_accumulator += ImGui::GetIO().DeltaTime;
  if (ctx_.play_accumulator < 0.6) return;
  ctx_.play_accumulator = 0.0;
  if (state_.settings.cursor + 1 < static_cast<int>(state_.tokens.size())) ++state_.settings.cursor;
  else ctx_.playing = false;
}

// The controls window on the left (unless hidden), the panel window on the right.
void App::draw_windows(float scale) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const bool present = state_.settings.presentation;
  // The lab folds the controls away on a panel that reads none of the scene's settings (its
  // own controls are in the panel), unless they are pinned open: the full page, and embeds too
  // (a course page's narrow figure gives the room to the panel's plot and its legend).
  const bool relevant = controls_pinned_ || panel_uses_scene_controls(state_.settings.panel);
  // A tour step's or an exercise's card takes a column at the right, so it covers nothing; in
  // a window narrower than 1100 CSS px (a course page's figure) the controls fold for it.
  const bool card = (state_.settings.tour >= 1 && state_.settings.tour <= kTourSteps) || exercise_card_shown(state_.settings);
  const bool room = vp->WorkSize.x >= 1100.0f * scale;
  const bool controls = !present && show_controls_ && relevant && (!card || room);
  controls_drawn_ = controls;
  const float panel_w = controls ? std::min(vp->WorkSize.x * 0.4f, 360.0f * scale) : 0.0f;
  // Clicking them never raises them over the tour's card.
  const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  float controls_h = 0.0f;
  if (controls) {
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(ImVec2(panel_w, vp->WorkSize.y));
    ImGui::Begin(tr(S::app_title), nullptr, fixed);
    record_window_begin();
    ImGui::PushTextWrapPos(0.0f);
    draw_controls_panel(state_, ctx_, options_.controls);
    ImGui::PopTextWrapPos();
    controls_h = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    record_window_end();
    ImGui::End();
  }
  preferred_height_ = std::max(controls_h, (vp->WorkSize.x - panel_w) * 0.625f);

  const float card_w = card ? side_card_width(vp->WorkSize.x - panel_w) : 0.0f;
  card_rect_[0] = vp->WorkPos.x + vp->WorkSize.x - card_w, card_rect_[1] = vp->WorkPos.y;
  card_rect_[2] = card_w, card_rect_[3] = vp->WorkSize.y;
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + panel_w, vp->WorkPos.y));
  ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x - panel_w - card_w, vp->WorkSize.y));
  // A panel taller than the window scrolls (a large UI scale, a small screen): nothing is cut.
  // The scrollbar comes when the content overflows and goes only when it is well inside again:
  // a scrollbar narrows the panel, which can make its content taller, and without this margin
  // a panel at the edge would gain and lose it on alternate frames (its figures jumping).
  ImGui::Begin("##main", nullptr, fixed | ImGuiWindowFlags_NoTitleBar | (main_scrollbar_ ? ImGuiWindowFlags_AlwaysVerticalScrollbar : ImGuiWindowFlags_NoScrollbar));
  panel_rect_[0] = ImGui::GetWindowPos().x;
  panel_rect_[1] = ImGui::GetWindowPos().y;
  panel_rect_[2] = ImGui::GetWindowSize().x;
  panel_rect_[3] = ImGui::GetWindowSize().y;
  scroll_to_spoken_of();
  record_window_begin();
  // Every line of text wraps at the window's edge rather than running past it (a narrow
  // figure on a course page).
  ImGui::PushTextWrapPos(0.0f);
  if (show_tabs_) draw_navigation();
  begin_exercise_frame(state_, ctx_);
  draw_panels();
  frame_asked(ctx_);
  ImGui::PopTextWrapPos();
  record_window_end();
  const float content_h = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
  const float window_h = ImGui::GetWindowHeight();
  if (!main_scrollbar_ && content_h > window_h + 1.0f) main_scrollbar_ = true;
  else if (main_scrollbar_ && content_h < window_h - ImGui::GetFontSize() * 3.0f) {
    main_scrollbar_ = false;
    ImGui::SetScrollY(0.0f);
  }
  ImGui::End();
  draw_tour_card(state_, ctx_, card_rect_, tour_navigation_);
  draw_exercise_card(state_, ctx_, card_rect_);
}

// A tour step's framed element, or the topmost block an exercise asks about, scrolled into
// view in the first frames after the step or the exercise opens (a narrow figure may put it
// below the fold); the learner may scroll away after. Reads the last frame's boxes, so it runs
// before this frame's panel replaces them.
void App::scroll_to_spoken_of() {
  const int step = state_.settings.tour, exercise = state_.settings.exercise;
  const int key = step > 0 ? step : exercise > 0 ? 1000 + exercise : 0;
  if (key != scrolled_for_) scrolled_for_ = key, scroll_frames_ = key ? 60 : 0;
  ctx_.scroll_to_asked = scroll_frames_ > 0;
  if (scroll_frames_ == 0) return;
  // (A block out of view may be empty: ImGui skips a table it clips. Its place still counts.)
  std::array<float, 4> box{0, 0, 0, 0};
  bool found = false;
  if (step > 0 && ctx_.tour.step == step && ctx_.tour.highlight_box[2] > 0) {
    box = {ctx_.tour.highlight_box[0], ctx_.tour.highlight_box[1], ctx_.tour.highlight_box[2], ctx_.tour.highlight_box[3]};
    found = true;
  }
  if (exercise > 0 && ctx_.exercise.id == exercise)
    for (const auto* blocks : {&ctx_.exercise.asked, &ctx_.exercise.veiled})  // panels' blocks, veiled heatmaps
      for (const auto& [id, b] : *blocks)
        if (!found || b[1] < box[1]) box = b, found = true;
  if (!found) return;  // not drawn yet (or the step frames nothing)
  // Until it is in view (a scrolling part of the panel may move it first, the panel may still
  // be growing its scrollbar), for a second or so at most.
  const float top = box[1] - ImGui::GetWindowPos().y, bottom = top + std::min(box[3], ImGui::GetWindowHeight() * 0.5f);
  if (top >= 0 && bottom <= ImGui::GetWindowHeight()) {
    scroll_frames_ = 0;  // in view: the learner's from here
    return;
  }
  --scroll_frames_;
  ImGui::SetScrollY(std::max(0.0f, ImGui::GetScrollY() + top - ImGui::GetFontSize() * 1.5f));
}

namespace {

// A button of the navigation, as wide as its whole label (rows wrap instead of cutting it);
// the chosen one drawn as active. Records it for layout().
bool nav_button(UiContext& ctx, const char* kind, const char* id, const char* text, bool selected, bool& first, float right) {
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const float text_w = ImGui::CalcTextSize(text).x;
  const float w = text_w + pad.x * 2;
  if (!first) {
    ImGui::SameLine(0.0f, ImGui::GetStyle().ItemSpacing.x * 0.5f);
    if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
  }
  first = false;
  if (selected) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const std::string label = std::string(text) + "###" + kind + "-" + id;
  const bool clicked = ImGui::Button(label.c_str(), ImVec2(w, 0));
  if (selected) ImGui::PopStyleColor();
  const ImVec2 min = ImGui::GetItemRectMin(), size = ImGui::GetItemRectSize();
  ctx.nav.push_back({kind, id, text, min.x, min.y, size.x, size.y, text_w, selected});
  return clicked;
}

}  // namespace

// The chapters of the tutorial in a row, then the panels of the shown one: every label whole.
void App::draw_navigation() {
  static constexpr S kChapterTitles[] = {
#define ATTNLAB_CHAPTER_TITLE(value, id, title) S::title,
      ATTNLAB_CHAPTERS(ATTNLAB_CHAPTER_TITLE)
#undef ATTNLAB_CHAPTER_TITLE
  };
  const Panel shown = state_.settings.panel;
  const Chapter current = panel_info(shown).chapter;
  chapter_panel_[static_cast<int>(current)] = static_cast<int>(shown) + 1;
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  ctx_.nav_right = right;
  std::optional<Panel> chosen;
  bool first = true;
  for (int c = 0; c < kChapterCount; ++c) {
    const Chapter chapter = static_cast<Chapter>(c);
    const PanelInfo* opening = nullptr;  // the chapter's panel last shown, else its first
    for (const PanelInfo& p : kPanels)
      if (p.chapter == chapter && (!opening || static_cast<int>(p.panel) + 1 == chapter_panel_[c])) opening = &p;
    if (!opening) continue;
    if (nav_button(ctx_, "chapter", chapter_id(chapter), tr(kChapterTitles[c]), chapter == current, first, right))
      chosen = opening->panel;
  }
  // The tour: offered on every visit, beside the chapters (the lab stays free to use).
  if (state_.settings.tour == 0 && nav_button(ctx_, "tour", "tour", tr(S::tour_start), false, first, right))
    state_.settings.tour = 1;
  // The exercises: the first of the shown chapter (the first of all where it has none).
  if (state_.settings.exercise == 0 && nav_button(ctx_, "exercise", "exercise", tr(S::exercise_start), false, first, right))
    state_.settings.exercise = first_exercise_of(current);
  // The scene's controls, folded away on this panel: a button brings them back (or folds them again).
  if (show_controls_ && !state_.settings.presentation && !panel_uses_scene_controls(shown) &&
      nav_button(ctx_, "toggle", "controls", tr(controls_pinned_ ? S::controls_hide : S::controls_show), false, first, right))
    controls_pinned_ = !controls_pinned_;
  first = true;
  ImGui::Spacing();
  for (const PanelView* v = panel_views_begin(); v != panel_views_end(); ++v) {
    if (panel_info(v->panel).chapter != current) continue;
    const bool on = v->panel == shown;
    if (nav_button(ctx_, "panel", to_string(v->panel), tr(v->title), on, first, right)) chosen = v->panel;
    const NavItem& item = ctx_.nav.back();
    ctx_.tabs[to_string(v->panel)] = {item.x, item.y, item.w, item.h};
  }
  ImGui::Separator();
  if (chosen) state_.settings.tour = state_.settings.exercise = 0;  // a panel chosen by hand leaves the tour or exercise
  if (chosen && *chosen != shown) {
    // A button clicked: this frame draws the panel, so its figures (computed only while a
    // panel shows) must be ready now.
    state_.settings.panel = *chosen;
    update_results(state_);
    update_modern_panels(state_);
  }
}

// The chosen panel (in an embed without navigation, the only one).
void App::draw_panels() {
  const PanelView& t = panel_view(state_.settings.panel);
  shown_panel_ = t.panel;
  // An imported file without Q/K/V has no scores: say so instead of drawing empty stages.
  if (imported_panel_needs_qkv(state_, t.panel)) {
    wrapped_text(tr(S::import_needs_qkv));
    return;
  }
  if (shows_random_projections(state_.settings)) draw_random_note();
  t.draw(state_, ctx_);
}

// One line above a panel of the generated scene: its projections come from the seed, so
// nothing it shows was learned (the language model's scene has heads that were).
void App::draw_random_note() {
  char text[512];
  std::snprintf(text, sizeof text, tr(S::random_projections_note), static_cast<int>(state_.settings.seed & 0x7fffffff));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  wrapped_text(text, width);
  ImGui::PopStyleColor();
  ctx_.random_note = {text, {at.x, at.y, width, ImGui::GetCursorScreenPos().y - at.y}};
}

void App::render_frame() {
  ImGui::Render();
  int fb_w = 0, fb_h = 0;
  host_->framebuffer_size(fb_w, fb_h);
  ctx_.framebuffer_w = fb_w;
  ctx_.framebuffer_h = fb_h;
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  if (options_.skip_unchanged_frames && capture_scale_ == 0) {
    describe_picture(*ImGui::GetDrawData(), fb_w, fb_h, bg, gfx::texture_uploads(), picture_);
    if (picture_shown_ && picture_ == shown_picture_) {  // the page shows this picture already
      ++frames_unchanged_;
      end_heatmap_frame(ctx_);
      return;
    }
    std::swap(picture_, shown_picture_);
    picture_shown_ = true;
  } else {
    picture_shown_ = false;  // a capture draws into its own framebuffer, then the next frame anew
  }
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  host_->render(ImGui::GetDrawData());
  end_heatmap_frame(ctx_);
}

}  // namespace attn::ui
