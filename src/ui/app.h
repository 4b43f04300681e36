// The application shell shared by browser and desktop: owns the state, the UI context and
// the ImGui context, and draws one frame. The platform layer creates the window and GL
// context and an AppHost for them (the ImGui backends), then calls init() once and frame()
// each time the display wants a picture.
#pragma once

#include "app/app_state.h"
#include "ui/app_host.h"
#include "ui/panels.h"
#include "ui/ui_context.h"

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace attn::ui {

enum class KeyAction;  // ui/key_bindings.h

struct AppOptions {
  ControlsOptions controls;
  bool ignore_mouse = false;  // screenshots: wherever the pointer is, no hover or tooltip
  // A frame whose picture is the one last drawn (the same draw lists, heatmaps, textures and
  // framebuffer) is not drawn again: the page keeps showing it, and the GPU (SwiftShader, a
  // CPU rasteriser, on many machines) rests while the lab is idle. The web build only: a
  // browser shows a canvas's last picture until it is drawn again; a desktop window would
  // swap in a stale buffer.
  bool skip_unchanged_frames = false;
};

class App {
 public:
  // `content_scale` is the device pixel ratio (web) or monitor scale (desktop). `host` is
  // used until shutdown().
  bool init(AppHost& host, float content_scale, const AppOptions& options, std::string& error);
  void frame();
  void shutdown();
  // WebGL context loss: every GL object is gone. release_gl() forgets them (while the context
  // is lost, so the deletes are no-ops); restore_gl() creates them again on the restored
  // context, and the next frame re-uploads every texture it draws.
  void release_gl();
  bool restore_gl(std::string& error);

  AppState& state() { return state_; }
  const UiContext& ui() const { return ctx_; }
  // Results computed outside frame() (setState): counted in the next frame's timings.
  void add_compute_ms(double ms) { ctx_.pending_compute_ms += ms; }
  std::uint64_t frames_drawn() const { return frames_drawn_; }
  // Frames whose picture was the last one drawn, so nothing was sent to the GPU
  // (AppOptions::skip_unchanged_frames).
  std::uint64_t frames_unchanged() const { return frames_unchanged_; }
  // Whether the last frame was idle: it drew nothing new, no work goes on over frames
  // (frames_have_work: training, the cost chart, the patching grid, ...), the results were
  // not recomputed, under 2 ms went before the UI was built, no key was waiting and nothing
  // plays. The web loop then runs the app less often (platform/main_web.cpp).
  bool last_frame_idle() const { return last_frame_idle_; }
  void set_content_scale(float scale);
  // A key pressed (or repeating) in the window, numbered as GLFW numbers keys (ui/keys.h).
  // Presses are queued as they arrive, so a press and release between two slow frames (a
  // loaded machine, SwiftShader) is still seen; the next frame consumes the queue.
  void press_key(int key, bool ctrl);
  // Whether a text field of the UI has the keyboard (the last frame's): keys are typed, not
  // acted on (the page's own keys too).
  bool typing_in_field() const;

  // The UI's own face (TTF bytes: DejaVu Sans, whose digits are tabular by default, so
  // columns of numbers align), drawn at kUiFontPixels CSS pixels. Without it the UI falls
  // back to Dear ImGui's built-in bitmap font.
  void set_ui_font(std::vector<unsigned char> bytes);
  bool has_ui_font() const { return !ui_font_.empty(); }
  // The UI font's size in CSS pixels (at DPR 1, UI scale 1, outside presentation mode).
  static constexpr float kUiFontPixels = 15.0f;
  // A font with CJK glyphs (TTF/OTF bytes, or a TTC and the face index). The atlas then
  // carries the CJK characters the current text uses, rebuilt when new ones appear.
  void set_cjk_font(std::vector<unsigned char> bytes, int face_index = 0);
  bool has_cjk_font() const { return !cjk_font_.empty(); }
  // Characters of the current tokens (and, in Chinese, of the UI's strings) that the font
  // atlas cannot draw.
  int missing_glyphs() const { return missing_glyphs_; }

  // The next frame records every string it draws (widgets and figures), one per line or
  // run; drawn_text() then returns them (tests: no English in the Chinese UI).
  void capture_drawn_text() { capture_text_ = true; }
  const std::string& drawn_text() const { return drawn_text_; }

  // Embeds: hide the controls window and/or the panel tabs (one panel, minimal chrome).
  void set_chrome(bool controls, bool tabs) {
    show_controls_ = controls;
    show_tabs_ = tabs;
  }
  bool controls_shown() const { return show_controls_; }
  // Whether the tour's card has Back and Next (false: an embed showing one step).
  void set_tour_navigation(bool on) { tour_navigation_ = on; }
  bool controls_drawn() const { return controls_drawn_; }  // this frame: folded away or not
  // Whether the page has its own text field for the sentence (the full page does: IMEs and
  // paste need one). Without it (an embed, a lab in a host page) the controls edit the
  // sentence in place.
  void set_sentence_in_page(bool in_page) { options_.controls.sentence_in_html_field = in_page; }
  // The height (framebuffer pixels) the layout would like: the controls' content, and a
  // 16:10 figure area at the current width. Embeds tell their host page (auto-height).
  float preferred_height() const { return preferred_height_; }

  // Draws one frame offscreen at `scale` (1 to 4) times the window's pixels, with fonts and
  // sizes scaled alike so the layout stays the same and no pointer hovers, and reads back the
  // panel window (tab bar and chosen panel, not the controls): `width` x `height` RGBA rows,
  // top-down, exactly `scale` times the panel's size at scale 1. The window's own picture is
  // untouched; the next frame draws at the usual scale again. (ui/panel_capture.cpp)
  bool capture_panel(int scale, std::vector<std::uint8_t>& rgba, int& width, int& height, Status& error);

 private:
  void rebuild_fonts();
  void apply_theme();
  void handle_keys();
  void do_key_action(KeyAction action);
  // The steps of frame(), in order.
  void update_before_frame(float scale);
  void begin_imgui_frame();
  void advance_play();
  void draw_windows(float scale);
  void draw_navigation();
  void draw_panels();
  void draw_random_note();
  void scroll_to_spoken_of();
  void render_frame();
  static constexpr int kCtrlKey = 1 << 20;  // or-ed into a queued key pressed with Ctrl
  std::vector<int> pending_keys_;
  void update_glyph_set();

  AppHost* host_ = nullptr;
  AppState state_;
  UiContext ctx_;
  AppOptions options_;
  float content_scale_ = 1.0f;
  float fonts_built_for_ = 0.0f;
  Theme theme_applied_ = Theme::Dark;
  float style_scale_applied_ = 0.0f;
  Panel shown_panel_ = Panel::Pipeline;
  std::array<int, kChapterCount> chapter_panel_{};  // per chapter: the panel last shown (-1: its first)
  std::vector<unsigned char> ui_font_;
  std::vector<unsigned char> cjk_font_;
  int cjk_face_ = 0;
  std::set<unsigned> glyphs_wanted_;     // CJK code points the atlas should carry
  static constexpr size_t kStaleGlyphs = 256;  // characters no longer shown before a fresh start
  std::vector<unsigned short> glyph_ranges_;  // ImWchar pairs for the atlas; alive while it is
  bool fonts_dirty_ = true;
  std::uint64_t glyphs_checked_revision_ = ~0ull;
  int missing_glyphs_ = 0;
  UiLanguage glyphs_checked_language_ = UiLanguage::English;
  bool glyphs_checked_controls_ = true;
  bool show_controls_ = true, show_tabs_ = true;
  bool tour_navigation_ = true;
  bool main_scrollbar_ = false;  // the panel window's scrollbar, with a margin against flicker
  bool capture_text_ = false;
  std::string drawn_text_;
  bool controls_pinned_ = false;   // the full lab: controls shown on a panel that reads none of them
  bool controls_drawn_ = true;     // the controls window was drawn in the last frame
  float preferred_height_ = 0.0f;
  std::uint64_t frames_drawn_ = 0;
  // What the last frame drew and what this one would draw, as bytes (ui/frame_picture.h);
  // picture_shown_ is false when the framebuffer may show something else (a start, a lost
  // context, a capture).
  std::vector<unsigned char> picture_, shown_picture_;
  bool picture_shown_ = false;
  std::uint64_t frames_unchanged_ = 0;
  bool last_frame_idle_ = false;
  int capture_scale_ = 0;             // while capture_panel draws: its scale (else 0)
  float panel_rect_[4] = {0, 0, 0, 0};  // the panel window in the last frame: x, y, w, h
  float card_rect_[4] = {0, 0, 0, 0};   // the column of the tour's or the exercise's card (w 0: none)
  int scrolled_for_ = 0;   // the tour step (or 1000 + the exercise) whose element is scrolled into view
  int scroll_frames_ = 0;  // frames left to do it in
};

}  // namespace attn::ui
