// The scene's matrices for export (app/scene_export.h).
#include "app/scene_export.h"

namespace attn {

const Mat* scene_matrix(const AppState& state, const std::string& name, int head) {
  return state.has_results ? stage_matrix(state.trace, name, head) : nullptr;
}

ExportRequest scene_export_request(const AppState& state, const std::string& name, ExportFormat format, int scale) {
  const Settings& s = state.settings;
  const std::string source = s.source == SceneSource::Imported ? state.imported_name : std::string();
  return stage_export_request(name, format, scale, state.tokens, state.key_tokens, s.layer, s.head, source);
}

}  // namespace attn
