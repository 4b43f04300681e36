// The one place that picks the OpenGL header and the GLSL dialect: WebGL2 (GLES 3.0) in the
// browser, desktop GL 3.3 core elsewhere. The drawing code, the panels and the platform
// include this and use the common subset of both.
#pragma once

#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#endif

namespace attn::gfx {

// The GLSL version line without its newline ("#version 330 core" or "#version 300 es"), as
// Dear ImGui's OpenGL backend takes it.
const char* glsl_version();

// Prepended to every shader body from shaders/ (which carry no #version line): the version
// line and, in GLSL ES, the default precisions.
const char* glsl_prelude();

}  // namespace attn::gfx
