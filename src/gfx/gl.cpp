// The GLSL dialect of the GL header gfx/gl.h picks: ES 3.00 for WebGL2, 3.30 core on the desktop.
#include "gfx/gl.h"

namespace attn::gfx {

#if defined(__EMSCRIPTEN__)
const char* glsl_version() { return "#version 300 es"; }
const char* glsl_prelude() { return "#version 300 es\nprecision highp float;\nprecision highp int;\n"; }
#else
const char* glsl_version() { return "#version 330 core"; }
const char* glsl_prelude() { return "#version 330 core\n"; }
#endif

}  // namespace attn::gfx
