#include "app/lm_state.h"

#include "app/app_messages.h"
#include "core/base/crc32.h"
#include "core/attention/tokenizer.h"
#include "core/base/utf8.h"
#include "core/lm/evaluate.h"
#include "core/lm/lm_messages.h"
#include "files/import_view.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace attn {

bool LmSettings::same_scene(const LmSettings& o) const {
  return ablated == o.ablated && half == o.half && tokens == o.tokens && temperature == o.temperature &&
         top_k == o.top_k && seed == o.seed && shown == o.shown;
}

Status load_lm_scene(std::shared_ptr<const LmScene>& scene, const std::uint8_t* bytes, std::size_t size,
                     const std::string& name) {
  auto s = std::make_shared<LmScene>();
  if (Status st = lm::parse_language_model(bytes, size, s->model); !st.ok) return st.within(name);
  s->name = name;
  s->fingerprint = (static_cast<std::uint64_t>(size) << 32) | crc32(bytes, size);
  scene = std::move(s);
  return Status::success();
}

void release_lm_text_results(LmResults& r) {
  LmResults kept;
  kept.fingerprint = r.fingerprint;
  kept.bits_base = std::move(r.bits_base);
  kept.bits_now = std::move(r.bits_now);
  kept.bits_characters = std::move(r.bits_characters);
  kept.bits_for = std::move(r.bits_for);
  kept.ablation_rise = std::move(r.ablation_rise);
  kept.ablation_for = std::move(r.ablation_for);
  r = std::move(kept);
}

lm::RunOptions lm_run_options(const MathSettings& math, const LmSettings& lm, const lm::LanguageModel& model) {
  lm::RunOptions r;
  r.scale = math.scale_kind != ScaleKind::None;
  r.attention_temperature = std::clamp(math.temperature, lm::kMinAttentionTemperature, lm::kMaxAttentionTemperature);
  r.causal = math.mask.causal;
  r.large_negative_fill = math.fill == MaskFill::Finite;
  r.half_precision = lm.half;
  const int heads = model.config.layers * model.config.heads;
  r.ablated.assign(static_cast<std::size_t>(heads), 0);
  for (int i : lm.ablated)
    if (i >= 0 && i < heads) r.ablated[static_cast<std::size_t>(i)] = 1;
  return r;
}

namespace {

// A key naming everything a result depends on, to know when to compute it again.
std::string options_key(const lm::RunOptions& o) {
  std::string key = std::to_string(o.scale) + std::to_string(o.causal) + std::to_string(o.large_negative_fill) +
                    std::to_string(o.half_precision) + "/" + std::to_string(o.attention_temperature) + "/";
  for (std::uint8_t a : o.ablated) key += a ? '1' : '0';
  return key;
}

std::vector<int> sample_tokens(const lm::LanguageModel& m, const lm::HeldOutSample& s) {
  return lm::entry_stream(m.vocabulary, {s.text});
}

void update_bits(const lm::LanguageModel& m, const lm::RunOptions& run, LmResults& r) {
  const std::string key = options_key(run);
  if (r.bits_for == key && r.bits_now.size() == m.samples.size()) return;
  if (r.bits_base.size() != m.samples.size()) {  // once per model (update_lm_results drops another's)
    r.bits_base.clear();
    r.bits_characters.clear();
    for (const lm::HeldOutSample& s : m.samples) {
      const lm::Bits b = lm::score_tokens(m, sample_tokens(m, s), lm::RunOptions{});
      r.bits_base.push_back(b.per_character());
      r.bits_characters.push_back(b.scored);
    }
  }
  r.bits_now.clear();
  for (const lm::HeldOutSample& s : m.samples) r.bits_now.push_back(lm::score_tokens(m, sample_tokens(m, s), run).per_character());
  r.bits_for = key;
}

}  // namespace

Status update_lm_results(const LmScene& scene, const std::string& sentence, const MathSettings& math,
                         const LmSettings& settings, LmResults& results) {
  const lm::LanguageModel& m = scene.model;
  const lm::RunOptions run = lm_run_options(math, settings, m);
  // Another model's results (its held-out baseline, its ablation table) are not this one's.
  LmResults r = results.fingerprint == scene.fingerprint ? results : LmResults{};
  r.fingerprint = scene.fingerprint;
  // 1 generation from the sentence, when asked for and when its inputs changed
  if (settings.shown > 0) {
    const std::string key = sentence + "\x1f" + options_key(run) + "/" + std::to_string(settings.tokens) + "/" +
                            std::to_string(settings.temperature) + "/" + std::to_string(settings.top_k) + "/" +
                            std::to_string(settings.seed);
    if (r.generated_for != key) {
      lm::GenerateOptions g;
      g.tokens = settings.tokens;
      g.sample.temperature = settings.temperature;
      g.sample.top_k = settings.top_k;
      g.sample.seed = settings.seed;
      if (Status st = lm::generate(m, sentence, run, g, r.generated); !st.ok) return st;
      r.generated_for = key;
    }
  }
  // 2 the text the panels show: the sentence and the shown generated tokens
  // The view holds the sentence and as many generated characters as the context leaves room for.
  std::string text = sentence;
  const int room = m.config.context - 1 - static_cast<int>(decode_utf8(sentence).size());
  const int shown = std::min({settings.shown, static_cast<int>(r.generated.size()), std::max(0, room)});
  for (int i = 0; i < shown; ++i) {
    const int t = r.generated[static_cast<std::size_t>(i)].token;
    text += t == lm::kStartToken ? std::string("\n") : m.vocabulary.token_text(t);
  }
  if (Status st = lm::text_attention(m, text, run, r.attention); !st.ok) return st;
  r.text = text;
  r.labels = lm::label_heads(r.attention.encoded.characters, r.attention.trace.weights, m.config.layers, m.config.heads);
  Rng rng(1);
  r.next = lm::choose_token(r.attention.logits.row(r.attention.logits.rows() - 1).data(), m.config.vocab,
                            lm::SampleOptions{}, rng)
               .top;
  // 3 held-out bits under these switches
  update_bits(m, run, r);
  const std::string ablation_key = options_key(run);
  if (r.ablation_for != ablation_key) {
    r.ablation_rise.assign(static_cast<std::size_t>(m.config.layers * m.config.heads), -1.0);
    r.ablation_for = ablation_key;
    r.ablation_job.reset();
  }
  results = std::move(r);
  return Status::success();
}

bool advance_lm_ablation(const LmScene& scene, const MathSettings& math, const LmSettings& settings, LmResults& r,
                         double budget_ms) {
  const lm::LanguageModel& m = scene.model;
  if (r.bits_now.size() != m.samples.size()) return false;
  const auto start = std::chrono::steady_clock::now();
  do {
    if (!r.ablation_job) {  // the next unmeasured head
      const auto next = std::find(r.ablation_rise.begin(), r.ablation_rise.end(), -1.0);
      if (next == r.ablation_rise.end()) return false;
      r.ablation_job = std::make_shared<LmAblationJob>();
      r.ablation_job->head = static_cast<int>(next - r.ablation_rise.begin());
    }
    LmAblationJob& job = *r.ablation_job;
    if (!job.scorer) {
      if (job.sample == m.samples.size()) {  // every sample scored: the head's rise
        r.ablation_rise[static_cast<std::size_t>(job.head)] =
            job.characters > 0 ? (job.bits_after - job.bits_before) / static_cast<double>(job.characters) : 0.0;
        r.ablation_job.reset();
        continue;
      }
      lm::RunOptions run = lm_run_options(math, settings, m);
      run.ablated[static_cast<std::size_t>(job.head)] = 1;
      job.scorer = std::make_unique<lm::StreamScorer>(m, sample_tokens(m, m.samples[job.sample]), run);
    }
    job.scorer->step();
    if (job.scorer->done()) {
      const lm::Bits& b = job.scorer->bits();
      job.bits_after += b.bits;
      job.bits_before += r.bits_now[job.sample] * static_cast<double>(b.scored);
      job.characters += b.scored;
      job.scorer.reset();
      ++job.sample;
    }
  } while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < budget_ms);
  return true;
}

LmAblationProgress lm_ablation_progress(const LmResults& r, std::size_t samples) {
  if (!r.ablation_job || samples == 0) return {};
  const LmAblationJob& job = *r.ablation_job;
  double part = 0;
  if (job.scorer && !job.scorer->tokens().empty())
    part = static_cast<double>(job.scorer->scanned()) / static_cast<double>(job.scorer->tokens().size());
  return {job.head, std::min(1.0, (static_cast<double>(job.sample) + part) / static_cast<double>(samples))};
}

bool advance_lm_play(LmSettings& l, LmResults& r, double now) {
  double& last = r.played_at;
  bool changed = false;
  if (l.playing) {
    if (l.shown >= l.tokens) {
      l.playing = false;
      changed = true;
    } else if (last < 0 || now - last >= kLmPlaySeconds) {
      ++l.shown;
      last = now;
      changed = true;
    }
  } else {
    last = -1;
  }
  return changed;
}

nlohmann::json lm_figures_json(const LmScene* scene, const LmResults& r, bool shown) {
  nlohmann::json f = {{"loaded", scene != nullptr}};
  if (!scene) return f;
  const lm::LanguageModel& m = scene->model;
  f["name"] = scene->name;
  f["vocab"] = m.config.vocab;
  f["layers"] = m.config.layers;
  f["heads"] = m.config.heads;
  f["context"] = m.config.context;
  f["parameters"] = m.parameters.size();
  if (!shown) return f;
  auto top = [&](const std::vector<std::pair<int, float>>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [t, p] : list) out.push_back({{"token", m.vocabulary.token_text(t)}, {"id", t}, {"p", p}});
    return out;
  };
  f["text"] = r.text;
  f["next"] = top(r.next);
  nlohmann::json gen = nlohmann::json::array();
  for (const lm::GeneratedToken& g : r.generated)
    gen.push_back({{"token", m.vocabulary.token_text(g.token)}, {"id", g.token}, {"top", top(g.top)},
                   {"cacheBytes", g.cache_bytes}});
  f["generated"] = gen;
  nlohmann::json unknown = nlohmann::json::array();
  for (std::uint32_t cp : r.attention.encoded.unknown) unknown.push_back(encode_utf8(cp));
  f["unknown"] = unknown;
  nlohmann::json labels = nlohmann::json::array();
  for (const lm::HeadLabel& h : r.labels)
    labels.push_back({{"layer", h.layer}, {"head", h.head}, {"label", lm::head_kind_name(h.label)}, {"score", h.label_score}});
  f["labels"] = labels;
  nlohmann::json bits = nlohmann::json::array();
  for (std::size_t i = 0; i < r.bits_now.size() && i < m.samples.size(); ++i)
    bits.push_back({{"language", m.samples[i].language == 0 ? "english" : "chinese"}, {"base", r.bits_base[i]},
                    {"now", r.bits_now[i]}, {"characters", r.bits_characters[i]}});
  f["bits"] = bits;
  f["ablation"] = r.ablation_rise;
  // The heads panel's random head (random_beside): its mean weight on the previous token, the
  // figure its beside-the-learned view is about.
  if (r.random_head.rows() > 1) {
    double previous = 0.0;
    for (int i = 1; i < r.random_head.rows(); ++i) previous += r.random_head(i, i - 1);
    f["randomHead"] = {{"rows", r.random_head.rows()}, {"previous", previous / (r.random_head.rows() - 1)}};
  } else {
    f["randomHead"] = nullptr;
  }
  return f;
}

std::string lm_token_label(const lm::Vocabulary& v, int token) {
  if (token == lm::kStartToken) return "<s>";
  const std::string t = v.token_text(token);
  if (t == " ") return "\xC2\xB7";          // U+00B7 middle dot (in the UI font, unlike U+2423)
  if (t == "\n") return "\xE2\x86\xB5";  // U+21B5 downwards arrow with corner leftwards
  return t;
}

PipelineTrace lm_scene_trace(const LmScene& scene, const LmResults& r, int layer, const PipelineConfig& config,
                             std::vector<std::string>& tokens) {
  const lm::LanguageModel& m = scene.model;
  const int n = static_cast<int>(r.attention.tokens.size());
  tokens.clear();
  for (int t : r.attention.tokens) tokens.push_back(lm_token_label(m.vocabulary, t));
  PipelineTrace trace;
  layer = std::clamp(layer, 0, m.config.layers - 1);
  const int dk = m.head_dim();
  const Mat& q = r.attention.trace.q[static_cast<std::size_t>(layer)];
  const Mat& k = r.attention.trace.k[static_cast<std::size_t>(layer)];
  const Mat& v = r.attention.trace.v[static_cast<std::size_t>(layer)];
  for (int h = 0; h < m.config.heads; ++h) {
    PipelineConfig one = config;
    one.d_model = dk;
    one.heads = 1;
    one.positional = false;  // the model's learned positions are already in its input
    PipelineTrace t = run_pipeline_qkv(q.block(0, h * dk, n, dk), k.block(0, h * dk, n, dk), v.block(0, h * dk, n, dk), one);
    if (!t.status.ok) return t;
    if (h == 0) trace.allowed = t.allowed;
    trace.heads.push_back(std::move(t.heads[0]));
  }
  trace.concat = Mat(n, m.config.d_model);
  for (int h = 0; h < m.config.heads; ++h) trace.concat.block(0, h * dk, n, dk) = trace.heads[h].output;
  const train::ModelTensors<const float*> p = train::tensors_of(m.config, m.parameters.data());
  const Eigen::Map<const Mat> wo(p.layers[static_cast<std::size_t>(layer)].wo, m.config.d_model, m.config.d_model);
  trace.output = trace.concat * wo;
  return trace;
}

void update_random_head(const std::vector<std::string>& tokens, int d_model, int heads, int head, std::uint64_t seed,
                        LmResults& results) {
  std::string key = std::to_string(d_model) + "/" + std::to_string(heads) + "/" + std::to_string(head) + "/" +
                    std::to_string(seed) + "/";
  for (const std::string& t : tokens) key += t + '\x1f';
  if (key == results.random_head_for) return;
  results.random_head_for = key;
  results.random_head = Mat();
  if (tokens.empty() || heads < 1 || d_model % heads != 0 || head < 0 || head >= heads) return;
  std::vector<Token> as_tokens;
  for (const std::string& t : tokens) as_tokens.push_back(Token{t});
  // As the generated scene draws them (app_state.cpp): the same seeds, the same positions.
  const Mat x = token_embeddings(as_tokens, d_model, seed);
  const ProjectionWeights w = random_projection_weights(d_model, heads, seed ^ 0x5eedf00dull);
  PipelineConfig c;
  c.d_model = d_model;
  c.heads = heads;
  c.positional = true;
  c.mask.causal = true;
  const PipelineTrace trace = run_pipeline(x, x, x, w, c);
  if (trace.status.ok && head < static_cast<int>(trace.heads.size())) results.random_head = trace.heads[head].weights;
}

}  // namespace attn
