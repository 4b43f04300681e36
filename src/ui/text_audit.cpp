#include "ui/text_audit.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace attn::ui {

namespace {

struct Glyph {
  float x0, y0, x1, y1;
  int order;  // its place among the list's quads: neighbours of one string overlap a little
};

std::uint64_t uv_key(ImVec2 uv) {
  std::uint32_t u, v;
  std::memcpy(&u, &uv.x, 4);
  std::memcpy(&v, &uv.y, 4);
  return (static_cast<std::uint64_t>(u) << 32) | v;
}

// Every glyph of the atlas by the texture corner its quad starts at, and by the one it ends at.
struct GlyphIndex {
  std::unordered_map<std::uint64_t, const ImFontGlyph*> by_start, by_end;
  ImVec2 white;  // the texel of untextured shapes
  explicit GlyphIndex(const ImFontAtlas& atlas) : white(atlas.TexUvWhitePixel) {
    for (const ImFont* font : atlas.Fonts)
      for (const ImFontGlyph& g : font->Glyphs) {
        if (!g.Visible) continue;
        by_start.emplace(uv_key(ImVec2(g.U0, g.V0)), &g);
        by_end.emplace(uv_key(ImVec2(g.U1, g.V1)), &g);
      }
  }
};

// Two triangles over four vertices in order, as ImGui writes a rectangle (and a glyph).
bool is_quad(const ImDrawIdx* idx) {
  const unsigned a = idx[0];
  return idx[1] == a + 1 && idx[2] == a + 2 && idx[3] == a && idx[4] == a + 2 && idx[5] == a + 3;
}

void fault(std::vector<TextFault>& out, size_t limit, const char* kind, const char* window, float x0, float y0, float x1,
           float y1) {
  if (out.size() < limit) out.push_back({kind, window ? window : "", x0, y0, x1 - x0, y1 - y0});
}

// The glyphs of one draw list; a glyph cut by its clip rect (or clipped on the CPU, as a
// button's label is) is reported as it is found.
std::vector<Glyph> list_glyphs(const ImDrawList& list, const GlyphIndex& index, bool scrolls_y,
                               std::vector<TextFault>& out, size_t limit) {
  std::vector<Glyph> glyphs;
  int order = 0;
  const float slack = 1.5f;  // a glyph's box carries a pixel of empty padding
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback) continue;
    const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
    for (unsigned i = 0; i + 6 <= cmd.ElemCount;) {
      if (!is_quad(idx + i)) {
        i += 3;
        continue;
      }
      const ImDrawVert* v = list.VtxBuffer.Data + cmd.VtxOffset + idx[i];
      i += 6;
      const auto start = index.by_start.find(uv_key(v[0].uv));
      const auto end = index.by_end.find(uv_key(v[2].uv));
      if (start == index.by_start.end() && end == index.by_end.end()) {
        // An opaque rectangle drawn over earlier glyphs hides them (an exercise's veil).
        const bool solid = v[0].uv.x == index.white.x && v[0].uv.y == index.white.y && v[2].uv.x == index.white.x &&
                           (v[0].col >> IM_COL32_A_SHIFT & 0xFF) == 0xFF && (v[2].col >> IM_COL32_A_SHIFT & 0xFF) == 0xFF;
        if (solid && v[2].pos.x - v[0].pos.x > 8 && v[2].pos.y - v[0].pos.y > 8) {
          const ImRect cover(v[0].pos, v[2].pos);
          glyphs.erase(std::remove_if(glyphs.begin(), glyphs.end(), [&](const Glyph& g) {
                         return cover.Contains(ImVec2((g.x0 + g.x1) / 2, (g.y0 + g.y1) / 2));
                       }), glyphs.end());
        }
        continue;  // not a glyph
      }
      const float x0 = v[0].pos.x, y0 = v[0].pos.y, x1 = v[2].pos.x, y1 = v[2].pos.y;
      if (x1 <= x0 || y1 <= y0) continue;
      // Trimmed on the CPU (a frame's text, ImGui::RenderTextClipped): which sides were cut?
      const ImFontGlyph* g = start != index.by_start.end() ? start->second : end->second;
      const bool trim_x = v[0].uv.x != g->U0 || v[2].uv.x != g->U1;
      const bool trim_y = v[0].uv.y != g->V0 || v[2].uv.y != g->V1;
      const ImVec4& c = cmd.ClipRect;
      const bool outside_x = x0 < c.x - slack || x1 > c.z + slack, outside_y = y0 < c.y - slack || y1 > c.w + slack;
      const bool hidden = x1 <= c.x || x0 >= c.z || y1 <= c.y || y0 >= c.w;
      if (hidden) continue;  // wholly outside: scrolled away, not cut
      // In a window that scrolls, a line half under its top or bottom edge is one scroll away.
      if (trim_x || outside_x || (!scrolls_y && (trim_y || outside_y)))
        fault(out, limit, "cut", list._OwnerName, x0, y0, x1, y1);
      glyphs.push_back({std::max(x0, c.x), std::max(y0, c.y), std::min(x1, c.z), std::min(y1, c.w),
                        order++});
    }
  }
  return glyphs;
}

// Glyphs of different strings over each other: more than a quarter of the smaller one covered.
// Neighbours in the list's order (one string's letters) may touch.
void find_overlaps(std::vector<Glyph> glyphs, const char* window, std::vector<TextFault>& out, size_t limit) {
  std::sort(glyphs.begin(), glyphs.end(), [](const Glyph& a, const Glyph& b) { return a.x0 < b.x0; });
  std::vector<const Glyph*> open;
  for (const Glyph& g : glyphs) {
    open.erase(std::remove_if(open.begin(), open.end(), [&](const Glyph* o) { return o->x1 <= g.x0; }), open.end());
    for (const Glyph* o : open) {
      if (std::abs(o->order - g.order) <= 1) continue;
      const float w = std::min(o->x1, g.x1) - std::max(o->x0, g.x0);
      const float h = std::min(o->y1, g.y1) - std::max(o->y0, g.y0);
      if (w <= 0 || h <= 0) continue;
      const float smaller = std::min((o->x1 - o->x0) * (o->y1 - o->y0), (g.x1 - g.x0) * (g.y1 - g.y0));
      if (w * h > smaller / 4) {
        fault(out, limit, "overlap", window, g.x0, g.y0, g.x1, g.y1);
        break;
      }
    }
    open.push_back(&g);
  }
}

}  // namespace

std::vector<TextFault> audit_text(const ImDrawData& data, size_t limit) {
  std::vector<TextFault> out;
  const ImGuiContext* g = ImGui::GetCurrentContext();
  if (!g || !data.Valid) return out;
  const GlyphIndex index(*ImGui::GetIO().Fonts);
  std::vector<std::vector<Glyph>> lists(data.CmdListsCount);
  std::vector<const ImGuiWindow*> owners(data.CmdListsCount);
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    owners[l] = list._OwnerName ? ImGui::FindWindowByName(list._OwnerName) : nullptr;
    // Scrolling: the list's window or one it is nested in (a table inside a scrolling column).
    bool scrolls = false;
    for (const ImGuiWindow* w = owners[l]; w; w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr)
      scrolls = scrolls || w->ScrollbarY;
    lists[l] = list_glyphs(list, index, scrolls, out, limit);
    find_overlaps(lists[l], list._OwnerName, out, limit);
  }
  // Glyphs under a window drawn later (a card, a popup) that is not their own window's child.
  for (int upper = 0; upper < data.CmdListsCount; ++upper) {
    const ImGuiWindow* top = owners[upper];
    if (!top || (top->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip))) continue;
    const ImRect r = top->Rect();
    for (int l = 0; l < upper; ++l) {
      if (owners[l] && owners[l]->RootWindow == top) continue;
      for (const Glyph& gl : lists[l])
        if (r.Contains(ImVec2((gl.x0 + gl.x1) / 2, (gl.y0 + gl.y1) / 2)))
          fault(out, limit, "covered", data.CmdLists[l]->_OwnerName, gl.x0, gl.y0, gl.x1, gl.y1);
    }
  }
  // Windows whose items reach past what the window shows, with no scrollbar to reach them.
  for (const ImGuiWindow* w : g->Windows) {
    if (!w->WasActive || w->Hidden || (w->Flags & ImGuiWindowFlags_Tooltip)) continue;
    // A text field's own child ("Parent/##label_ID") scrolls its text with the caret.
    if ((w->Flags & ImGuiWindowFlags_ChildWindow) && std::strstr(w->Name, "/##")) continue;
    if (w->DC.CursorMaxPos.x > w->InnerClipRect.Max.x + 1.0f && !w->ScrollbarX)
      fault(out, limit, "wider", w->Name, w->InnerClipRect.Max.x, w->InnerClipRect.Min.y, w->DC.CursorMaxPos.x,
            w->InnerClipRect.Max.y);  // from the window's edge to the farthest item
  }
  return out;
}

}  // namespace attn::ui
