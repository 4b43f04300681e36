// Desktop entry point: a GLFW window with an OpenGL 3.3 core context and a plain while loop,
// in the steps of Dear ImGui's example mains: parse the options, read the files they name,
// set up (window, app, scene), loop, clean up. Everything above this file is shared with the
// browser build.
//
// Sections: 1 options  2 files read before any window opens  3 set-up  4 the loop and what it
// saves  5 clean-up  6 main
#include "files/native/file_import.h"
#include "files/png_writer.h"
#include "platform/glfw.h"
#include "platform/imgui_host.h"
#include "ui/app.h"
#include "ui/layout_json.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int kGoOn = -1;  // a step's result when main goes on (else main's exit code)

// ---------------------------------------------------------------------------------------
// 1 options
// ---------------------------------------------------------------------------------------

struct Options {
  int width = 1280, height = 800;
  int frames = 0;  // 0 = until the window is closed
  int export_scale = 1;
  std::string state_path, screenshot_path, run_path, import_path, panel_path;
  std::string trained_path;
  bool trained_path_given = false;
  bool presentation = false;
};

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

// The argument at argv[i] and its value, if it takes one (i then moves past the value).
int parse_argument(int argc, char** argv, int& i, Options& o) {
  const std::string arg = argv[i];
  if (arg == "--help" || arg == "-h") {
    print_usage(stdout);
    return 0;
  }
  if (arg == "--present") {
    o.presentation = true;
    return kGoOn;
  }
  const struct {
    const char* flag;
    int lo, hi;
    int* value;
  } number_flags[] = {{"--width", 200, 16384, &o.width},
                      {"--height", 200, 16384, &o.height},
                      {"--frames", 0, 1000000, &o.frames},
                      {"--export-scale", 1, 4, &o.export_scale}};
  for (const auto& f : number_flags) {
    if (arg != f.flag) continue;
    if (i + 1 >= argc || !parse_int(argv[i + 1], f.lo, f.hi, *f.value)) {
      std::fprintf(stderr, "attnlab: %s needs a whole number from %d to %d\n", arg.c_str(), f.lo, f.hi);
      return 2;
    }
    ++i;
    return kGoOn;
  }
  const std::pair<const char*, std::string*> file_flags[] = {
      {"--state", &o.state_path},   {"--screenshot", &o.screenshot_path}, {"--load-run", &o.run_path},
      {"--import", &o.import_path}, {"--export-panel", &o.panel_path},    {"--trained-model", &o.trained_path}};
  for (const auto& [flag, path] : file_flags) {
    if (arg != flag) continue;
    if (i + 1 >= argc || !argv[i + 1][0]) {
      std::fprintf(stderr, "attnlab: %s needs a file name\n", arg.c_str());
      return 2;
    }
    *path = argv[++i];
    if (arg == "--trained-model") o.trained_path_given = true;
    return kGoOn;
  }
  std::fprintf(stderr, "attnlab: unknown argument '%s'\n", arg.c_str());
  print_usage(stderr);
  return 2;
}

int parse_options(int argc, char** argv, Options& o) {
#ifdef ATTNLAB_TRAINED_MODEL
  o.trained_path = ATTNLAB_TRAINED_MODEL;  // the shipped model in the source tree (cmake/targets/train_app.cmake)
#endif
  for (int i = 1; i < argc; ++i)
    if (const int code = parse_argument(argc, argv, i, o); code != kGoOn) return code;
  // A picture needs a few frames: ImGui settles its layout over the first ones.
  if ((!o.screenshot_path.empty() || !o.panel_path.empty()) && o.frames == 0) o.frames = 4;
  return kGoOn;
}

// ---------------------------------------------------------------------------------------
// 2 files read before any window opens, so a bad one is a quick, clear error
// ---------------------------------------------------------------------------------------

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

// A named model file that cannot be used is an error; the default trained model is optional
// (without it the trained scene is disabled).
int load_model_files(const Options& o, attn::TrainState& training) {
  if (!o.run_path.empty()) {
    const attn::Status st = attn::train_load_file(training, o.run_path);
    if (!st.ok) {
      std::fprintf(stderr, "attnlab: %s: %s\n", o.run_path.c_str(), st.message.c_str());
      return 2;
    }
  }
  if (o.trained_path.empty()) return kGoOn;
  std::string bytes;
  attn::Status st = read_file(o.trained_path, bytes) ? attn::Status::success() : attn::Status::error("cannot read the file");
  if (st.ok) {
    const std::string name = o.trained_path.substr(o.trained_path.find_last_of('/') + 1);
    st = attn::load_trained_scene(training, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), name);
  }
  if (!st.ok && o.trained_path_given) {
    std::fprintf(stderr, "attnlab: --trained-model %s: %s\n", o.trained_path.c_str(), st.message.c_str());
    return 2;
  }
  if (!st.ok) std::fprintf(stderr, "attnlab: no trained scene (%s: %s)\n", o.trained_path.c_str(), st.message.c_str());
  return kGoOn;
}

// The state file's text, checked by applying it to a scratch state (which may choose the
// trained scene, so it carries the one just loaded).
int read_state_file(const Options& o, const attn::TrainState& training, std::string& state_json) {
  if (o.state_path.empty()) return kGoOn;
  // Not read at all when over the state's cap (a large file would only be refused after).
  std::error_code size_error;
  const std::uintmax_t bytes = std::filesystem::file_size(o.state_path, size_error);
  if (!size_error && bytes > static_cast<std::uintmax_t>(attn::kMaxStateBytes)) {
    std::fprintf(stderr, "attnlab: state file %s is %ju bytes; at most %d are read\n", o.state_path.c_str(), bytes,
                 attn::kMaxStateBytes);
    return 2;
  }
  if (!read_file(o.state_path, state_json)) {
    std::fprintf(stderr, "attnlab: cannot read state file %s\n", o.state_path.c_str());
    return 2;
  }
  attn::AppState probe;
  probe.train.trained = training.trained;
  const attn::Status st = attn::apply_state_json(probe, state_json);
  if (!st.ok) {
    std::fprintf(stderr, "attnlab: state file %s: %s\n", o.state_path.c_str(), st.message.c_str());
    return 2;
  }
  return kGoOn;
}

// ---------------------------------------------------------------------------------------
// 3 set-up: window, app, scene
// ---------------------------------------------------------------------------------------

// A window with a current OpenGL 3.3 core context, or null (said on stderr).
GLFWwindow* open_window(const Options& o) {
  if (!glfwInit()) {
    std::fprintf(stderr, "attnlab: could not start GLFW (is there a display?)\n");
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(o.width, o.height, "Attention Lab", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "attnlab: could not create an OpenGL 3.3 core window\n");
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  return window;
}

bool start_app(attn::ui::App& app, attn::platform::ImGuiHost& host, const Options& o) {
  float scale_x = 1.0f, scale_y = 1.0f;
  glfwGetWindowContentScale(host.window(), &scale_x, &scale_y);
  attn::ui::AppOptions options;
  options.ignore_mouse = !o.screenshot_path.empty() || !o.panel_path.empty();
  std::string error;
  if (app.init(host, scale_x, options, error)) return true;
  std::fprintf(stderr, "attnlab: %s\n", error.c_str());
  return false;
}

// The file at `path` made the scene; on error the state is unchanged.
attn::Status import_path(attn::AppState& state, const std::string& path) {
  attn::ImportedAttention data;
  std::string name;
  if (attn::Status st = attn::native::import_file(path, attn::ImportOptions(), data, name); !st.ok) return st;
  return attn::set_imported(state, std::move(data), name);
}

// A file dropped on the window becomes the scene; when it cannot, the previous scene stays.
void import_dropped_file(GLFWwindow* window, int count, const char** paths) {
  attn::platform::ImGuiHost* host = attn::platform::ImGuiHost::of(window);
  if (!host || count < 1) return;
  attn::AppState& state = host->app().state();
  const attn::Status st = import_path(state, paths[0]);
  if (!st.ok) state.notice = st;
}

// The UI font (DejaVu Sans, fonts-dejavu-core, which scripts/setup.sh installs); without it
// the app falls back to Dear ImGui's built-in font.
void load_ui_font(attn::ui::App& app) {
  std::string bytes;
  if (read_file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", bytes))
    app.set_ui_font(std::vector<unsigned char>(bytes.begin(), bytes.end()));
  else
    std::fprintf(stderr, "attnlab: DejaVu Sans not found (install fonts-dejavu-core); using the built-in font\n");
}

// CJK glyphs come from a Debian font package when it is installed.
void load_cjk_font(attn::ui::App& app) {
  constexpr const char* kCjkFontPaths[] = {
      "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
      "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
  };
  for (const char* path : kCjkFontPaths) {
    std::string bytes;
    if (read_file(path, bytes)) {
      app.set_cjk_font(std::vector<unsigned char>(bytes.begin(), bytes.end()), 0);
      return;
    }
  }
}

// What the command line asked to show: the training run and trained scene, an imported file,
// the state (checked in step 2, though without the import), presentation mode.
int open_scene(attn::ui::App& app, GLFWwindow* window, const Options& o, attn::TrainState training,
               const std::string& state_json) {
  app.state().train = std::move(training);
#ifdef ATTNLAB_LM_MODEL
  {
    // The language model of the explorer's "language model" scene (optional: without it the
    // scene says so). cmake/targets/train_app.cmake names the shipped file.
    std::string bytes;
    attn::Status st = read_file(ATTNLAB_LM_MODEL, bytes) ? attn::Status::success() : attn::Status::error("cannot read the file");
    if (st.ok)
      st = attn::load_lm_scene(app.state().lm_scene, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(),
                               "fortunes-lm");
    if (!st.ok) {
      std::fprintf(stderr, "attnlab: no language model scene (%s: %s)\n", ATTNLAB_LM_MODEL, st.message.c_str());
      app.state().lm_unavailable = true;  // its tour steps and exercises say so
    }
  }
#else
  app.state().lm_unavailable = true;
#endif
  if (!o.import_path.empty()) {
    const attn::Status st = import_path(app.state(), o.import_path);
    if (!st.ok) {
      std::fprintf(stderr, "attnlab: %s\n", st.message.c_str());
      return 2;
    }
  }
  glfwSetDropCallback(window, import_dropped_file);
  if (!state_json.empty()) {
    const attn::Status st = attn::apply_state_json(app.state(), state_json);
    if (!st.ok) std::fprintf(stderr, "attnlab: state file %s: %s\n", o.state_path.c_str(), st.message.c_str());
  }
  if (o.presentation) app.state().settings.presentation = true;
  load_ui_font(app);
  load_cjk_font(app);
  return kGoOn;
}

// ---------------------------------------------------------------------------------------
// 4 the loop, and the pictures it saves
// ---------------------------------------------------------------------------------------

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
  attn::Status st;
  if (!app.capture_panel(scale, rgba, w, h, st)) {
    error = st.message;
    return false;
  }
  return attn::write_png_rgba(path, rgba.data(), w, h, error);
}

// After the last frame of a counted run: the screenshot and its layout, the panel. Returns
// the exit code (1 if a picture could not be saved).
int save_pictures(attn::ui::App& app, GLFWwindow* window, const Options& o) {
  std::string error;
  int exit_code = 0;
  if (!o.screenshot_path.empty() &&
      (!save_screenshot(window, o.screenshot_path, error) || !write_layout(app, o.screenshot_path + ".json", error))) {
    std::fprintf(stderr, "attnlab: %s\n", error.c_str());
    exit_code = 1;
  }
  if (!o.panel_path.empty() && !save_panel(app, o.export_scale, o.panel_path, error)) {
    std::fprintf(stderr, "attnlab: %s\n", error.c_str());
    exit_code = 1;
  }
  return exit_code;
}

int run_loop(attn::ui::App& app, GLFWwindow* window, const Options& o) {
  int drawn = 0, exit_code = 0;
  while (!glfwWindowShouldClose(window) && (o.frames == 0 || drawn < o.frames)) {
    glfwPollEvents();
    app.frame();
    ++drawn;
    if (drawn == o.frames) exit_code = save_pictures(app, window, o);
    glfwSwapBuffers(window);
  }
  return exit_code;
}

// ---------------------------------------------------------------------------------------
// 5 clean-up
// ---------------------------------------------------------------------------------------

void close_window(GLFWwindow* window) {
  glfwDestroyWindow(window);
  glfwTerminate();
}

}  // namespace

// ---------------------------------------------------------------------------------------
// 6 main
// ---------------------------------------------------------------------------------------

int main(int argc, char** argv) {
  Options options;
  if (const int code = parse_options(argc, argv, options); code != kGoOn) return code;
  attn::TrainState training;
  std::string state_json;
  if (const int code = load_model_files(options, training); code != kGoOn) return code;
  if (const int code = read_state_file(options, training, state_json); code != kGoOn) return code;

  GLFWwindow* window = open_window(options);
  if (!window) return 1;
  attn::ui::App app;
  attn::platform::ImGuiHost host(window, app);
  if (!start_app(app, host, options)) {
    close_window(window);
    return 1;
  }
  int exit_code = open_scene(app, window, options, std::move(training), state_json);
  if (exit_code == kGoOn) exit_code = run_loop(app, window, options);

  app.shutdown();
  close_window(window);
  return exit_code;
}
