// GLFW without a GL header of its own: the GL header is gfx/gl.h's choice (GLES 3.0 for
// WebGL2, glcorearb on the desktop), and a second one from GLFW would clash with it.
#pragma once

#include "gfx/gl.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
