#include "ui/frame_picture.h"

#include "ui/heatmap_widget.h"
#include "ui/ui_context.h"

#include <cstring>

namespace attn::ui {

namespace {

template <typename T>
void put(std::vector<unsigned char>& out, const T& value) {
  const auto* p = reinterpret_cast<const unsigned char*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

void put_bytes(std::vector<unsigned char>& out, const void* data, size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  out.insert(out.end(), p, p + bytes);
}

}  // namespace

void describe_picture(const ImDrawData& data, int fb_width, int fb_height, ImVec4 clear, std::uint64_t texture_uploads,
                      std::vector<unsigned char>& out) {
  out.clear();
  put(out, fb_width);
  put(out, fb_height);
  put(out, clear);
  put(out, texture_uploads);
  put(out, data.DisplayPos);
  put(out, data.DisplaySize);
  put(out, data.FramebufferScale);
  put(out, data.CmdListsCount);
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    put(out, list.VtxBuffer.Size);
    put_bytes(out, list.VtxBuffer.Data, sizeof(ImDrawVert) * list.VtxBuffer.Size);
    put(out, list.IdxBuffer.Size);
    put_bytes(out, list.IdxBuffer.Data, sizeof(ImDrawIdx) * list.IdxBuffer.Size);
    put(out, list.CmdBuffer.Size);
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      put(out, cmd.ClipRect);
      put(out, cmd.TextureId);
      put(out, cmd.VtxOffset);
      put(out, cmd.IdxOffset);
      put(out, cmd.ElemCount);
      put(out, cmd.UserCallback);
      if (cmd.UserCallback == &heatmap_callback) {
        // The heatmap's quad is drawn from its HeatmapDraw, field by field (no padding bytes).
        const auto& d = *static_cast<const HeatmapDraw*>(cmd.UserCallbackData);
        put(out, d.program);
        put(out, d.texture);
        put(out, d.style.range_lo);
        put(out, d.style.range_hi);
        put(out, d.style.colormap);
        put(out, d.style.grid.r);
        put(out, d.style.grid.g);
        put(out, d.style.grid.b);
        put(out, d.view.x0);
        put(out, d.view.y0);
        put(out, d.view.w);
        put(out, d.view.h);
        put(out, d.x);
        put(out, d.y);
        put(out, d.w);
        put(out, d.h);
      } else {
        put(out, cmd.UserCallbackData);
      }
    }
  }
}

}  // namespace attn::ui
