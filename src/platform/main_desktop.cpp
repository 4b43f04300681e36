// Desktop entry point: GLFW window with an OpenGL 3.3 core context, a plain while loop.
// Everything above this file is shared with the browser build.
#include "platform/gl.h"
#include "ui/app.h"

#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace attn::platform {
const char* glsl_prelude() { return "#version 330 core\n"; }
}  // namespace attn::platform

namespace {

void print_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: attnlab [--width W] [--height H] [--frames N]\n"
               "  --width W, --height H   window size in pixels (default 1280 x 800)\n"
               "  --frames N              draw N frames, then exit (0 = run until closed)\n");
}

bool parse_int(const char* text, int lo, int hi, int& out) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!text[0] || *end || v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int width = 1280, height = 800, frames = 0;
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
    } else if (arg == "--frames") {
      value(0, 1000000, frames);
    } else {
      std::fprintf(stderr, "attnlab: unknown argument '%s'\n", arg.c_str());
      print_usage(stderr);
      return 2;
    }
  }

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
  std::string error;
  if (!app.init(window, "#version 330 core", scale_x, error)) {
    std::fprintf(stderr, "attnlab: %s\n", error.c_str());
    glfwDestroyWindow(window);
    glfwTerminate();
    return 1;
  }
  int drawn = 0;
  while (!glfwWindowShouldClose(window) && (frames == 0 || drawn < frames)) {
    glfwPollEvents();
    app.frame();
    glfwSwapBuffers(window);
    ++drawn;
  }
  app.shutdown();
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}
