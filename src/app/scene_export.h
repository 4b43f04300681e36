// The scene's matrices for export (files/export_figure.h writes them): a stage of side A by
// the page's getMatrix names, with the scene's token labels and title. Reads the whole state.
#pragma once

#include "app/app_state.h"
#include "files/export_figure.h"

#include <string>

namespace attn {

// A named matrix of the current scene, as the page's getMatrix names them: "weights",
// "q", "k", "v", "rawScores", "scaledScores", "mask", "maskedScores", "output" of `head`.
// Returns null when there is no such matrix (or it is empty: weights-only imports).
const Mat* scene_matrix(const AppState& state, const std::string& name, int head);

// A request for that matrix with the scene's labels and the colour scale the panels use.
ExportRequest scene_export_request(const AppState& state, const std::string& name, ExportFormat format, int scale);

}  // namespace attn
