#include "app/variants_state.h"

#include "app/app_messages.h"
#include "core/base/rng.h"
#include "core/attention/streaming.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <nlohmann/json.hpp>

namespace attn {

// ---- 1 settings -------------------------------------------------------------------------

EfficientConfig efficient_config(const VariantSettings& v) {
  EfficientConfig c;
  c.kind = v.kind;
  c.window = v.window;
  c.stride = v.stride;
  c.block = v.block;
  c.features = v.features;
  c.rank = v.rank;
  c.causal = v.causal && efficient_kind_info(v.kind).causal;  // the kinds without a causal form ignore it
  c.seed = v.seed;
  return c;
}

namespace {

bool same_variant(const VariantSettings& a, const VariantSettings& b) {
  return a.kind == b.kind && a.window == b.window && a.stride == b.stride && a.block == b.block &&
         a.features == b.features && a.rank == b.rank && a.causal == b.causal && a.seed == b.seed;
}

Mat to_float(const BoolMat& m) { return m.cast<float>(); }

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// ---- 2 results --------------------------------------------------------------------------

void compute_scoring(const HeadTrace& h, const BoolMat& allowed, const ProjectionWeights& weights, int head,
                     VariantResults& out) {
  const int d_k = static_cast<int>(h.q.cols());
  // The worked example has no additive parameters of its own: draw a set of the right size.
  ProjectionWeights fallback;
  const ProjectionWeights* w = &weights;
  int w_head = head;
  if (static_cast<int>(weights.additive_wq.size()) <= head || weights.additive_wq[head].rows() != d_k) {
    fallback = random_projection_weights(d_k, 1, 0xadd1);
    w = &fallback;
    w_head = 0;
  }
  out.additive_wq = w->additive_wq[w_head];
  out.additive_wk = w->additive_wk[w_head];
  out.additive_v = w->additive_v[w_head];

  const struct {
    const char* name;
    ScoreFunction score;
    ScaleKind scale;
  } functions[] = {{"dot", ScoreFunction::Dot, ScaleKind::None},
                   {"scaled-dot", ScoreFunction::Dot, ScaleKind::Default},
                   {"cosine", ScoreFunction::Cosine, ScaleKind::None},
                   {"additive", ScoreFunction::Additive, ScaleKind::None}};
  out.scoring.clear();
  for (const auto& f : functions) {
    PipelineConfig c;
    c.score = f.score;
    c.scale_kind = f.scale;
    const HeadTrace t = run_head(h.q, h.k, h.v, allowed, Mat(), c, w, w_head);
    ScoringResult r;
    r.name = f.name;
    r.scale = t.scale;
    r.raw_scores = t.raw_scores;
    r.weights = t.weights;
    out.scoring.push_back(std::move(r));
  }
  for (ScoringResult& r : out.scoring) r.difference = r.weights - out.scoring[1].weights;
  out.has_scoring = true;
}

void compute_variant(const HeadTrace& h, const VariantSettings& settings, VariantResults& out) {
  const EfficientConfig config = efficient_config(settings);
  const int n = static_cast<int>(h.q.rows()), d_k = static_cast<int>(h.q.cols()), d_v = static_cast<int>(h.v.cols());
  out.has_variant = false;
  if (out.status = validate_efficient_config(config, n, d_k); !out.status.ok) return;
  out.report = efficient_report(h.q, h.k, h.v, config, true);
  if (out.status = out.report.status; !out.status.ok) return;
  out.pattern = out.report.has_display ? to_float(out.report.pattern) : Mat();
  out.cost = efficient_cost(config, n, d_k, d_v);
  EfficientConfig exact = config;
  exact.kind = EfficientKind::Exact;
  out.exact_cost = efficient_cost(exact, n, d_k, d_v);
  // Measured time of the real algorithms alone (no error, no display), short and median.
  TimingOptions timing;
  timing.min_seconds = 0.002;
  timing.measurements = 3;
  const EfficientParams params = draw_efficient_params(config, n, d_k);
  const Timing t = time_efficient(h.q, h.k, h.v, config, params, timing);
  const Timing te = time_efficient(h.q, h.k, h.v, exact, EfficientParams{}, timing);
  out.seconds = t.median_seconds;
  out.exact_seconds = te.median_seconds;
  out.has_variant = true;
}

}  // namespace

bool update_variant_results(const PipelineTrace& trace, const ProjectionWeights& weights, std::uint64_t revision,
                            int head, const VariantSettings& settings, VariantResults& out) {
  if (!trace.status.ok || trace.heads.empty()) {
    const bool had = out.has_scoring || out.has_variant;
    out.has_scoring = out.has_variant = false;
    out.scene_revision = revision;
    out.status = trace.status.ok ? Status::error(msg::app_no_results) : trace.status;
    return had;
  }
  head = std::clamp(head, 0, static_cast<int>(trace.heads.size()) - 1);
  const bool scene_changed = out.scene_revision != revision || out.head != head;
  const bool variant_changed = scene_changed || !same_variant(settings, out.settings);
  if (!scene_changed && !variant_changed) return false;
  const HeadTrace& h = trace.heads[head];
  if (scene_changed) compute_scoring(h, trace.allowed, weights, head, out);
  compute_variant(h, settings, out);
  out.scene_revision = revision;
  out.head = head;
  out.settings = settings;
  ++out.version;
  return true;
}

// ---- 3 the cost chart run ---------------------------------------------------------------

CostChartConfig app_cost_chart_config() {
  CostChartConfig c;
  c.d_k = 32;
  c.d_v = 32;
  c.timing.min_seconds = 0.004;
  c.timing.measurements = 3;
  return c;
}

int CostChartRun::samples_done() const {
  int done = 0;
  for (size_t i = 0; i < std::min(task, tasks.size()); ++i) done += tasks[i].record ? 1 : 0;
  return done;
}

int CostChartRun::samples_total() const {
  return static_cast<int>(std::count_if(tasks.begin(), tasks.end(), [](const Task& t) { return t.record; }));
}

void start_cost_chart(CostChartRun& run, const CostChartConfig& config, int request) {
  run = CostChartRun{};
  run.request = request;
  run.config = config;
  if (run.chart.status = validate_cost_chart_config(run.config); !run.chart.status.ok) return;
  run.chart.fit_min_n = run.config.fit_min_n;
  for (EfficientKind kind : run.config.kinds) {
    CostSeries s;
    s.kind = kind;
    run.chart.series.push_back(s);
  }
  const int smallest = *std::min_element(run.config.ns.begin(), run.config.ns.end());
  const int kinds = static_cast<int>(run.config.kinds.size());
  for (int s = 0; s < kinds; ++s) run.tasks.push_back({s, smallest, false});
  // n outer, kinds inner: a slow spell of the machine then hits every kind alike.
  for (int n : run.config.ns)
    for (int s = 0; s < kinds; ++s) run.tasks.push_back({s, n, true});
  run.running = true;
}

namespace {

EfficientConfig task_config(const CostChartRun& run, const CostChartRun::Task& t) {
  EfficientConfig c = run.config.variant;
  c.kind = run.config.kinds[t.series];
  c.projection = LinformerProjection::Random;
  return c;
}

// The same inputs as measure_cost_sample: q, k, v ~ N(0, 1) from Rng(seed + n).
void prepare_sample(CostChartRun& run) {
  const CostChartRun::Task& t = run.tasks[run.task];
  const EfficientConfig c = task_config(run, t);
  const int n = t.n, d_k = run.config.d_k, d_v = run.config.d_v;
  Rng rng(run.config.variant.seed + static_cast<std::uint64_t>(n));
  run.q = rng.normal_matrix(n, d_k);
  run.k = rng.normal_matrix(n, d_k);
  run.v = rng.normal_matrix(n, d_v);
  run.params = draw_efficient_params(c, n, d_k);
  run.out.resize(n, d_v);
  run.workspace = EfficientWorkspace{};
  // Exact attention: pieces of about 2^25 multiply-adds (tens of milliseconds in wasm).
  run.piece_rows = n;
  if (c.kind == EfficientKind::Exact)
    run.piece_rows = std::clamp(static_cast<int>((std::int64_t{1} << 25) / (std::int64_t{n} * (d_k + d_v))), 64, n);
  run.pieces = (n + run.piece_rows - 1) / run.piece_rows;
  run.piece = 0;
  run.runs = 1;
  run.run_seconds = 0.0;
  run.measurements.clear();
  run.warmed = false;
  run.prepared = true;
}

// Times one piece: `runs` whole runs of the variant, or one slice of exact attention's
// query rows (the streaming algorithm itself, as run_efficient_into calls it).
double time_piece(CostChartRun& run, const EfficientConfig& c) {
  const double start = now_seconds();
  if (run.pieces == 1) {
    for (int r = 0; r < run.runs; ++r) run_efficient_into(run.q, run.k, run.v, c, run.params, run.workspace, run.out);
  } else {
    const int first = run.piece * run.piece_rows;
    const int rows = std::min(run.piece_rows, static_cast<int>(run.q.rows()) - first);
    const StreamingResult r = streaming_attention(run.q.middleRows(first, rows), run.k, run.v, StreamingOptions{});
    run.out.middleRows(first, rows) = r.output;
  }
  return now_seconds() - start;
}

void finish_chart(CostChartRun& run) {
  const int largest = *std::max_element(run.config.ns.begin(), run.config.ns.end());
  for (CostSeries& s : run.chart.series) {
    std::vector<double> x, y;
    for (const CostSample& p : s.samples) {
      x.push_back(p.n);
      y.push_back(p.seconds);
    }
    s.slope = fit_loglog_slope(x, y, run.config.fit_min_n, &s.fit_points);
    EfficientConfig c = run.config.variant;
    c.kind = s.kind;
    s.formulas = efficient_cost(c, largest, run.config.d_k, run.config.d_v);
  }
  run.q = run.k = run.v = run.out = Mat();
  run.workspace = EfficientWorkspace{};
  run.running = false;
}

// One step: the warm-up run, or one piece of a measurement.
void step_once(CostChartRun& run) {
  if (!run.prepared) prepare_sample(run);
  const CostChartRun::Task& t = run.tasks[run.task];
  const EfficientConfig c = task_config(run, t);
  if (!run.warmed) {
    // Warm-up (caches, the workspace): one whole run or one piece. Its length sets how
    // many runs fill a measurement of at least min_seconds.
    const double d = time_piece(run, c);
    if (run.pieces == 1)
      run.runs = std::clamp(static_cast<int>(std::ceil(run.config.timing.min_seconds / std::max(d, 1e-7))), 1,
                            kMaxRunsPerMeasurement);
    run.piece = 0;
    run.warmed = true;
    return;
  }
  run.run_seconds += time_piece(run, c);
  if (++run.piece < run.pieces) return;
  // A measurement of whole runs lasts at least a quarter of min_seconds. A slow warm-up (the
  // workspace's first allocation, a page fault, another process) can leave `runs` too low,
  // and a fast run then ends within a tick of a coarse clock (browsers round to 0.1 ms) and
  // measures 0; such a measurement is taken again with twice the runs.
  if (run.pieces == 1 && run.run_seconds < 0.25 * run.config.timing.min_seconds && run.runs < kMaxRunsPerMeasurement) {
    run.runs = std::min(2 * run.runs, kMaxRunsPerMeasurement);
    ++run.retries;
    run.piece = 0;
    run.run_seconds = 0.0;
    return;
  }
  run.measurements.push_back(run.run_seconds / run.runs);
  run.piece = 0;
  run.run_seconds = 0.0;
  if (static_cast<int>(run.measurements.size()) < run.config.timing.measurements) return;
  std::vector<double> sorted = run.measurements;
  std::sort(sorted.begin(), sorted.end());
  const size_t mid = sorted.size() / 2;
  if (t.record) {
    const EfficientCost cost = efficient_cost(c, t.n, run.config.d_k, run.config.d_v);
    CostSample sample;
    sample.n = t.n;
    sample.seconds = sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
    sample.runs_per_measurement = run.runs;
    sample.multiply_adds = cost.multiply_adds;
    sample.memory_floats = cost.memory_floats;
    run.chart.series[t.series].samples.push_back(sample);
  }
  run.prepared = false;
  if (++run.task == run.tasks.size()) finish_chart(run);
}

}  // namespace

void step_cost_chart(CostChartRun& run, double budget_seconds) {
  if (!run.running) return;
  ++run.frames;
  const double start = now_seconds();
  do {
    step_once(run);
  } while (run.running && now_seconds() - start < budget_seconds);
  run.seconds += now_seconds() - start;
}

}  // namespace attn

// ---- 5 the app's door ----------------------------------------------------------------------

namespace attn {

using json = nlohmann::json;

void update_variant_panels(const SceneView& scene, const VariantSettings& v, VariantResults& r, CostChartRun& run,
                           double chart_budget_seconds) {
  if (scene.has_results && r.mask_revision != scene.revision) {
    r.mask_allowed = scene.trace.status.ok ? to_float(scene.trace.allowed) : Mat();
    r.mask_revision = scene.revision;
  }
  if (scene.has_results && (scene.panel == Panel::Scoring || scene.panel == Panel::Variants))
    update_variant_results(scene.trace, scene.weights, scene.revision, scene.head, v, r);
  if (v.cost_chart_request != run.request) start_cost_chart(run, app_cost_chart_config(), v.cost_chart_request);
  step_cost_chart(run, chart_budget_seconds);
}

json variant_figures_json(const VariantResults& r, const CostChartRun& run) {
  json figures = json::object();
  if (r.has_scoring) {
    json scoring = json::array();
    for (const ScoringResult& f : r.scoring) scoring.push_back({{"name", f.name}, {"scale", f.scale}});
    figures["scoring"] = scoring;
  }
  if (r.has_variant) {
    figures["variant"] = {{"kind", efficient_kind_name(r.settings.kind)},
                          {"relativeError", r.report.relative_error},
                          {"seconds", r.seconds},
                          {"exactSeconds", r.exact_seconds},
                          {"multiplyAdds", r.cost.multiply_adds},
                          {"multiplyAddsFormula", r.cost.multiply_adds_formula},
                          {"memoryFloats", r.cost.memory_floats},
                          {"memoryFormula", r.cost.memory_formula},
                          {"exactMultiplyAdds", r.exact_cost.multiply_adds},
                          {"exactMemoryFloats", r.exact_cost.memory_floats},
                          {"nonzeros", r.report.nonzeros}};
  } else if (!r.status.ok) {
    figures["variantError"] = r.status.message;
  }
  json series = json::array();
  for (const CostSeries& s : run.chart.series) {
    json samples = json::array();
    for (const CostSample& p : s.samples) samples.push_back({{"n", p.n}, {"seconds", p.seconds}, {"multiplyAdds", p.multiply_adds}});
    json entry = {{"kind", efficient_kind_name(s.kind)}, {"samples", samples}, {"fitPoints", s.fit_points}};
    entry["slope"] = std::isfinite(s.slope) ? json(s.slope) : json(nullptr);
    series.push_back(entry);
  }
  figures["costChart"] = {{"request", run.request}, {"running", run.running}, {"done", run.samples_done()},
                          {"total", run.samples_total()}, {"frames", run.frames}, {"seconds", run.seconds},
                          {"fitMinN", run.config.fit_min_n}, {"dk", run.config.d_k}, {"series", series}};
  if (!run.chart.status.ok) figures["costChart"]["error"] = run.chart.status.message;
  return figures;
}

const Mat* variant_matrix(const VariantResults& r, const std::string& name) {
  if (name == "maskAllowed") return r.mask_allowed.size() ? &r.mask_allowed : nullptr;
  if (name.rfind("scoring/", 0) == 0 && r.has_scoring) {
    if (name == "scoring/additive/wq") return &r.additive_wq;
    if (name == "scoring/additive/wk") return &r.additive_wk;
    if (name == "scoring/additive/v") return &r.additive_v;
    for (const ScoringResult& f : r.scoring) {
      const std::string prefix = "scoring/" + std::string(f.name) + "/";
      if (name.rfind(prefix, 0) != 0) continue;
      const std::string what = name.substr(prefix.size());
      if (what == "rawScores") return &f.raw_scores;
      if (what == "weights") return &f.weights;
      if (what == "difference") return &f.difference;
    }
    return nullptr;
  }
  if (name.rfind("variant/", 0) == 0 && r.has_variant) {
    const std::string what = name.substr(8);
    const Mat* m = nullptr;
    if (what == "pattern") m = &r.pattern;
    else if (what == "weights") m = &r.report.weights;
    else if (what == "exactWeights") m = &r.report.exact_weights;
    else if (what == "weightError") m = &r.report.weight_error;
    else if (what == "output") m = &r.report.output;
    else if (what == "exactOutput") m = &r.report.exact_output;
    return m && m->size() ? m : nullptr;
  }
  return nullptr;
}

}  // namespace attn
