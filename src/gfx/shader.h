// Compiling and linking the programs in shaders/ for both GL dialects.
#pragma once

#include "gfx/gl.h"

#include <string>

namespace attn::gfx {

// Compiles a vertex + fragment body (from shaders/, embedded at build time) with the
// dialect's #version prelude (glsl_prelude, gfx/gl.h). Returns 0 and fills `error` on failure.
GLuint build_program(const char* vertex_body, const char* fragment_body, std::string& error);

}  // namespace attn::gfx
