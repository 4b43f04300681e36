// The application state: what the user chose (Settings), what the core computed from it
// (the scene's inputs and the attention trace), and nothing about windows or GL.
//
// Panels read and write Settings; update_results() recomputes only when Settings differ
// from the ones the current results were computed for, so a frame that changes nothing
// costs nothing. The same JSON schema is read and written by every door into the state
// (the page's window.attnlab handle now; the URL, postMessage and files later).
#pragma once

#include "core/attention.h"

#include <cstdint>
#include <string>

namespace attn {

enum class SceneSource {
  WorkedExample,  // the tutorial's 2-token example with given Q, K, V
  Random,         // Q, K, V drawn from N(0, 1) with the seed
};

enum class ScaleMode {
  Default,  // 1/sqrt(d_k)
  None,     // 1
  Custom,   // custom_scale
};

enum class MaskKind {
  None,
  Causal,
};

inline constexpr int kStateVersion = 1;
inline constexpr int kMaxTokens = 1024;
inline constexpr int kMaxDk = 512;

struct Settings {
  SceneSource source = SceneSource::Random;
  std::uint64_t seed = 1;
  int n = 8;     // tokens of the random scene
  int d_k = 16;  // width of q, k and v in the random scene
  ScaleMode scale_mode = ScaleMode::Default;
  float custom_scale = 1.0f;
  MaskKind mask = MaskKind::None;

  bool operator==(const Settings&) const = default;
};

struct AppState {
  Settings settings;

  // Results: derived from `computed_for`; never edited by panels.
  Settings computed_for;
  bool has_results = false;
  Mat q, k, v;  // (n, d_k) each
  AttentionResult result;
  std::uint64_t revision = 0;  // bumped on every recompute, so the GL side knows to re-upload
};

// Recomputes the results when the settings changed. Returns true if it did.
bool update_results(AppState& state);

// The state as JSON text: the settings plus read-only facts (version, n, d_k).
std::string state_to_json(const AppState& state);

// Applies a JSON object of settings to change. Every value is validated and clamped by the
// same rules as the UI; on any error nothing changes and the message says which key failed.
Status apply_state_json(AppState& state, const std::string& json_text);

// Clamps settings to their legal ranges (what the UI's sliders allow).
Settings clamped(Settings s);

const char* to_string(SceneSource s);
const char* to_string(MaskKind m);

}  // namespace attn
