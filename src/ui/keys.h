// The keys the app reacts to. The app numbers keys as GLFW does (the platform passes GLFW's
// key events through, on the desktop and in Emscripten's GLFW alike), under GLFW's own
// names, so the key handling reads like GLFW's documentation without the ui layer including
// a window system's header. Each definition is token for token the one in <GLFW/glfw3.h>,
// which makes it a valid redefinition in a file that includes both.
#pragma once

#define GLFW_KEY_SPACE              32
#define GLFW_KEY_H                  72
#define GLFW_KEY_P                  80
#define GLFW_KEY_Y                  89
#define GLFW_KEY_Z                  90
#define GLFW_KEY_LEFT_BRACKET       91
#define GLFW_KEY_RIGHT_BRACKET      93
#define GLFW_KEY_ENTER              257
#define GLFW_KEY_RIGHT              262
#define GLFW_KEY_LEFT               263
#define GLFW_KEY_DOWN               264
#define GLFW_KEY_UP                 265
#define GLFW_KEY_PAGE_UP            266
#define GLFW_KEY_PAGE_DOWN          267
