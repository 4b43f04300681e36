// What a frame would put on the screen, as bytes: equal bytes, equal pictures. The app
// compares a frame's with the last drawn one's and skips drawing an unchanged frame
// (AppOptions::skip_unchanged_frames), so an idle page costs no GPU work.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <vector>

namespace attn::ui {

// Everything the GL calls of a frame read: the framebuffer's size and clear colour, every
// draw list's vertices, indices and commands (with what a heatmap callback draws, which
// lives outside the list), and the count of texture uploads so far (gfx::texture_uploads()).
void describe_picture(const ImDrawData& data, int fb_width, int fb_height, ImVec4 clear, std::uint64_t texture_uploads,
                      std::vector<unsigned char>& out);

}  // namespace attn::ui
