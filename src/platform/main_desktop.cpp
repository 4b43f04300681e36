// Desktop entry point: GLFW window with an OpenGL 3.3 core context, a plain while loop.
// Everything above this file is shared with the browser build.
#include "app/native/file_import.h"
#include "app/png_writer.h"
#include "platform/glfw.h"
#include "platform/imgui_host.h"
#include "ui/app.h"
#include "ui/layout_json.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void print_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: attnlab [--width W] [--height H] [--frames N] [--state FILE] [--screenshot OUT.png] [--present]\n"
               "               [--load-run FILE] [--trained-model FILE] [--import FILE]\n"
               "               [--export-panel OUT.png [--export-scale S]]\n"
               "  --width W, --height H   window size in pixels (default 1280 x 800)\n"
               "  --frames N              draw N frames, then exit (0 = run until closed)\n"
               "  --state FILE            start from this state (JSON, the same schema as the web app)\n"
               "  --screenshot OUT.png    draw a few frames, save the last as a PNG (and OUT.png.json,\n"
               "                          where each heatmap is), exit\n"
               "  --present               presentation mode: large UI, controls hidden (P toggles)\n"
               "  --load-run FILE         open a saved training run (.attnmodel) in the Training panel\n"
               "  --trained-model FILE    the explorer's trained scene (default: the shipped\n"
               "                          assets/induction-2l.attnmodel)\n"
               "  --import FILE           open attention from a .npy, .npz or JSON file (docs/IMPORT.md);\n"
               "                          files can also be dropped on the window\n"
               "  --export-panel OUT.png  draw a few frames, save the panel (without the controls) as a\n"
               "                          PNG at --export-scale S (1 to 4, default 1) times the window's\n"
               "                          pixels, for print; exit\n");
}

bool parse_int(const char* text, int lo, int hi, int& out) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!text[0] || *end || v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

constexpr const char* kCjkFontPaths[] = {
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
};

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

// Reads the back buffer (bottom-up in GL) into top-down RGBA rows and writes a PNG.
bool save_screenshot(GLFWwindow* window, const std::string& path, std::string& error) {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  std::vector<std::uint8_t> pixels(static_cast<size_t>(w) * h * 4), flipped(pixels.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  const size_t stride = static_cast<size_t>(w) * 4;
  for (int y = 0; y < h; ++y)
    std::copy(pixels.begin() + (h - 1 - y) * stride, pixels.begin() + (h - y) * stride,
              flipped.begin() + y * stride);
  for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
  return attn::write_png_rgba(path, flipped.data(), w, h, error);
}

// Beside a screenshot: where each heatmap landed and its colour range (ui/layout_json.h, what
// the page's attnlab.layout() reports), so tests can find cells in the picture.
bool write_layout(const attn::ui::App& app, const std::string& path, std::string& error) {
  std::ofstream out(path);
  out << attn::ui::layout_json(app) << '\n';
  out.close();
  if (out) return true;
  error = "cannot write " + path;
  return false;
}

// The panel drawn offscreen at `scale` (App::capture_panel), as a PNG.
bool save_panel(attn::ui::App& app, int scale, const std::string& path, std::string& error) {
  std::vector<std::uint8_t> rgba;
  int w = 0, h = 0;
  return app.capture_panel(scale, rgba, w, h, error) && attn::write_png_rgba(path, rgba.data(), w, h, error);
}

}  // namespace

int main(int argc, char** argv) {
  int width = 1280, height = 800, frames = 0, export_scale = 1;
  std::string state_path, screenshot_path, run_path, import_path, panel_path;
  std::string trained_path;
#ifdef ATTNLAB_TRAINED_MODEL
  trained_path = ATTNLAB_TRAINED_MODEL;  // the shipped model in the source tree (cmake/targets/train_app.cmake)
#endif
  bool trained_path_given = false;
  bool presentation = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](int lo, int hi, int& out) {
      if (i + 1 >= argc || !parse_int(argv[i + 1], lo, hi, out)) {
        std::fprintf(stderr, "attnlab: %s needs a whole number from %d to %d\n", arg.c_str(), lo, hi);
        std::exit(2);
      }
      ++i;
    };
    if (arg == "--help" || arg == "-h") {
      print_usage(stdout);
      return 0;
    } else if (arg == "--width") {
      value(200, 16384, width);
    } else if (arg == "--height") {
      value(200, 16384, height);
    } else if (arg == "--present") {
      presentation = true;
    } else if (arg == "--frames") {
      value(0, 1000000, frames);
    } else if (arg == "--export-scale") {
      value(1, 4, export_scale);
    } else if (arg == "--state" || arg == "--screenshot" || arg == "--load-run" || arg == "--trained-model" ||
               arg == "--import" || arg == "--export-panel") {
      if (i + 1 >= argc || !argv[i + 1][0]) {
        std::fprintf(stderr, "attnlab: %s needs a file name\n", arg.c_str());
        return 2;
      }
      std::string& target = arg == "--state" ? state_path : arg == "--screenshot" ? screenshot_path
                            : arg == "--load-run" ? run_path : arg == "--import" ? import_path
                            : arg == "--export-panel" ? panel_path : trained_path;
      target = argv[++i];
      if (arg == "--trained-model") trained_path_given = true;
    } else {
      std::fprintf(stderr, "attnlab: unknown argument '%s'\n", arg.c_str());
      print_usage(stderr);
      return 2;
    }
  }

  // Model files: a named file that cannot be used is an error before any window opens;
  // the default trained model is optional (without it the trained scene is disabled).
  attn::TrainState training;
  if (!run_path.empty()) {
    const attn::Status st = attn::train_load_file(training, run_path);
    if (!st.ok) {
      std::fprintf(stderr, "attnlab: %s: %s\n", run_path.c_str(), st.message.c_str());
      return 2;
    }
  }
  if (!trained_path.empty()) {
    std::string bytes;
    attn::Status st = read_file(trained_path, bytes) ? attn::Status::success() : attn::Status::error("cannot read the file");
    if (st.ok) {
      const std::string name = trained_path.substr(trained_path.find_last_of('/') + 1);
      st = attn::load_trained_scene(training, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), name);
    }
    if (!st.ok && trained_path_given) {
      std::fprintf(stderr, "attnlab: --trained-model %s: %s\n", trained_path.c_str(), st.message.c_str());
      return 2;
    }
    if (!st.ok) std::fprintf(stderr, "attnlab: no trained scene (%s: %s)\n", trained_path.c_str(), st.message.c_str());
  }
  // The state file is checked before any window opens, so a bad file is a quick, clear error.
  std::string state_json;
  if (!state_path.empty()) {
    // Not read at all when over the state's cap (a large file would only be refused after).
    std::error_code size_error;
    const std::uintmax_t bytes = std::filesystem::file_size(state_path, size_error);
    if (!size_error && bytes > static_cast<std::uintmax_t>(attn::kMaxStateBytes)) {
      std::fprintf(stderr, "attnlab: state file %s is %ju bytes; at most %d are read\n", state_path.c_str(), bytes,
                   attn::kMaxStateBytes);
      return 2;
    }
    if (!read_file(state_path, state_json)) {
      std::fprintf(stderr, "attnlab: cannot read state file %s\n", state_path.c_str());
      return 2;
    }
    attn::AppState probe;
    probe.train.trained = training.trained;  // a state may choose the trained scene
    const attn::Status st = attn::apply_state_json(probe, state_json);
    if (!st.ok) {
      std::fprintf(stderr, "attnlab: state file %s: %s\n", state_path.c_str(), st.message.c_str());
      return 2;
    }
  }
  // A screenshot needs a few frames: ImGui settles its layout over the first ones.
  if ((!screenshot_path.empty() || !panel_path.empty()) && frames == 0) frames = 4;

  if (!glfwInit()) {
    std::fprintf(stderr, "attnlab: could not start GLFW (is there a display?)\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(width, height, "Attention Lab", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "attnlab: could not create an OpenGL 3.3 core window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);

  float scale_x = 1.0f, scale_y = 1.0f;
  glfwGetWindowContentScale(window, &scale_x, &scale_y);
  attn::ui::App app;
  attn::platform::ImGuiHost host(window, app);
  std::string error;
  attn::ui::AppOptions options;
  options.ignore_mouse = !screenshot_path.empty() || !panel_path.empty();
  if (!app.init(host, scale_x, options, error)) {
    std::fprintf(stderr, "attnlab: %s\n", error.c_str());
    glfwDestroyWindow(window);
    glfwTerminate();
    return 1;
  }
  app.state().train = std::move(training);
  // A file given with --import (or dropped on the window later) becomes the scene.
  if (!import_path.empty()) {
    const attn::Status st = attn::native::import_file(app.state(), import_path, attn::ImportOptions());
    if (!st.ok) {
      std::fprintf(stderr, "attnlab: %s\n", st.message.c_str());
      app.shutdown();
      glfwDestroyWindow(window);
      glfwTerminate();
      return 2;
    }
  }
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    attn::platform::ImGuiHost* host = attn::platform::ImGuiHost::of(w);
    if (!host || count < 1) return;
    attn::AppState& state = host->app().state();
    const attn::Status st = attn::native::import_file(state, paths[0], attn::ImportOptions());
    if (!st.ok) state.notice = st.message;  // the previous scene stays
  });
  if (!state_json.empty()) {
    const attn::Status st = attn::apply_state_json(app.state(), state_json);  // checked above (without the import)
    if (!st.ok) std::fprintf(stderr, "attnlab: state file %s: %s\n", state_path.c_str(), st.message.c_str());
  }
  if (presentation) app.state().settings.presentation = true;
  // CJK glyphs come from a Debian font package when it is installed.
  for (const char* path : kCjkFontPaths) {
    std::string bytes;
    if (read_file(path, bytes)) {
      app.set_cjk_font(std::vector<unsigned char>(bytes.begin(), bytes.end()), 0);
      break;
    }
  }
  int drawn = 0, exit_code = 0;
  while (!glfwWindowShouldClose(window) && (frames == 0 || drawn < frames)) {
    glfwPollEvents();
    app.frame();
    ++drawn;
    if (!screenshot_path.empty() && drawn == frames) {
      if (!save_screenshot(window, screenshot_path, error)) {
        std::fprintf(stderr, "attnlab: %s\n", error.c_str());
        exit_code = 1;
      } else if (!write_layout(app, screenshot_path + ".json", error)) {
        std::fprintf(stderr, "attnlab: %s\n", error.c_str());
        exit_code = 1;
      }
    }
    if (!panel_path.empty() && drawn == frames && !save_panel(app, export_scale, panel_path, error)) {
      std::fprintf(stderr, "attnlab: %s\n", error.c_str());
      exit_code = 1;
    }
    glfwSwapBuffers(window);
  }
  app.shutdown();
  glfwDestroyWindow(window);
  glfwTerminate();
  return exit_code;
}
