// The one place that picks the OpenGL header: WebGL2 (GLES 3.0) in the browser,
// desktop GL 3.3 core elsewhere. Code above the platform layer includes this and uses
// the common subset of both.
#pragma once

#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#else
#define GLFW_INCLUDE_NONE
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#endif

namespace attn::platform {

// Prepended to every shader body from shaders/ (which carry no #version line).
const char* glsl_prelude();

}  // namespace attn::platform
