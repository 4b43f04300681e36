// Types of attnlab-core.mjs (`attention-lab/core`): Attention Lab's math as an ES module, for
// browsers and Node 20. Written by hand beside the module's own comments, which say what each
// function computes; tests/types/ compiles an example against these with `tsc --strict`.
// Matrices are row-major Float32Arrays; a wrong type throws a TypeError naming the argument,
// a value out of range (the caps in README, "Limits") a RangeError.

/** Options of the module's factory, passed on to Emscripten (wasmBinary: the .wasm's bytes). */
export type CoreBuild = 'relaxed' | 'simd' | 'scalar';

export interface CoreModuleOptions {
  /** The build to load instead of the one the engine's probe picks ('simd' or 'scalar'); 'relaxed' is loaded only when asked for. One the engine cannot run is a RangeError. */
  build?: CoreBuild;
  /** That build's .wasm bytes, read beside the module when absent. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  [option: string]: unknown;
}

// ---- attention ------------------------------------------------------------------------

export interface AttentionArgs {
  /** (nq, dk) */ q: Float32Array;
  /** (nk, dk) */ k: Float32Array;
  /** (nk, dv) */ v: Float32Array;
  nq: number;
  nk: number;
  dk: number;
  dv: number;
  /** Query i sees keys j <= i (top-left aligned, as PyTorch's is_causal). */
  causal?: boolean;
  /** The multiplier of Q K^T; 1/sqrt(dk) when absent. */
  scale?: number;
  /** Positions inside attention: RoPE turns q and k, ALiBi adds -slope*|i - j| after the scaling. */
  positional?: RopeOptions | AlibiOptions | null;
}

/**
 * The caller's arrays that attention() writes and returns instead of fresh ones: scores and
 * weights of nq*nk floats, output of nq*dv. Two of them may not share memory. Written only
 * when the call succeeds.
 */
export interface AttentionInto {
  scores?: Float32Array;
  weights?: Float32Array;
  output?: Float32Array;
}

/** RoPE's pairs: 'half', 'interleaved' (choices().ropePairing). */
export type RopePairing = string; // @choices ropePairing

export interface RopeOptions {
  kind: 'rope';
  /** theta_i = base^(-2i/dk); 10000 when absent. */
  base?: number;
  /** 'half' (LLaMA's rotate-half pairs, the default) or 'interleaved' (the paper's). */
  pairing?: RopePairing;
}

export interface AlibiOptions {
  kind: 'alibi';
  /** The head's slope m. */
  slope: number;
}

export interface GroupedQueryArgs {
  /** (heads, n, dk), head-major */ q: Float32Array;
  /** (kvHeads, n, dk) */ k: Float32Array;
  /** (kvHeads, n, dv) */ v: Float32Array;
  n: number;
  dk: number;
  dv: number;
  heads: number;
  /** Divides heads: heads = kvHeads is multi-head, 1 is multi-query attention. */
  kvHeads: number;
  causal?: boolean;
}

export interface GroupedQueryResult {
  /** (heads, n, dv), head-major */
  output: Float32Array;
  /** (n, n) per query head */
  weights: Float32Array[];
  /** The key/value head each query head read. */
  kvHeadOf: number[];
}

export interface FlashArgs extends Pick<AttentionArgs, 'q' | 'k' | 'v' | 'nq' | 'nk' | 'dk' | 'dv' | 'causal' | 'scale'> {
  /** Tile sizes, 16 when absent. */
  blockQ?: number;
  blockK?: number;
}

export interface FlashStep {
  qTile: number;
  kTile: number;
  qBegin: number;
  qEnd: number;
  kBegin: number;
  kEnd: number;
  /** Per query row of the tile, after this step: the running maximum and sum. */
  m: Float32Array;
  l: Float32Array;
  /** exp(m_old - m_new) applied to the sum and output so far. */
  rescale: Float32Array;
}

export interface FlashResult {
  /** (nq, dv) */
  output: Float32Array;
  steps: FlashStep[];
  scale: number;
  /** Floats held beside the inputs and output: a tile of scores and the running m, l. */
  workingFloats: number;
}

export interface AttentionResult {
  /** (nq, nk) after scaling and masking; masked entries are -Infinity. */
  scores: Float32Array;
  /** (nq, nk) */
  weights: Float32Array;
  /** (nq, dv) */
  output: Float32Array;
  scale: number;
}

export interface MultiHeadAttentionArgs {
  /** (nq, dModel) */ x: Float32Array;
  /** Each (dModel, dModel); head h uses columns [h*dk, (h+1)*dk). */
  wq: Float32Array;
  wk: Float32Array;
  wv: Float32Array;
  wo: Float32Array;
  nq: number;
  dModel: number;
  heads: number;
  causal?: boolean;
}

export interface MultiHeadLayerArgs {
  /** Each (dModel, dModel), row-major, finite; copied and packed once. */
  wq: Float32Array;
  wk: Float32Array;
  wv: Float32Array;
  wo: Float32Array;
  dModel: number;
  heads: number;
}

/** Self-attention with its weights held in the module: multiHeadAttentionOutput without passing them. */
export interface MultiHeadLayer {
  readonly dModel: number;
  readonly heads: number;
  /** x (nq, dModel) -> output (nq*dModel), a fresh array or into.output; throws once disposed. */
  output(args: { x: Float32Array; nq: number; causal?: boolean; into?: { output?: Float32Array } }): { output: Float32Array };
  /** Frees the packed weights; a second call does nothing. */
  dispose(): void;
}

export interface OverviewArgs {
  /** (nq, dk) row-major, finite; copied into the module. */
  q: Float32Array;
  /** (nk, dk) row-major, finite. */
  k: Float32Array;
  /** 1 to 32768 each. */
  nq: number;
  nk: number;
  /** 1 to 1024. */
  dk: number;
  /** The pooling block's side (default 32); ceil(nq/block) * ceil(nk/block) at most 2^22. */
  block?: number;
  /** Each block's mean over its actual cells (masked ones count as zeros) or its max (default 'mean'). */
  pool?: 'mean' | 'max';
  /** Query i sees keys j <= i (default false). */
  causal?: boolean;
  /** Multiplier of Q K^T (default 1/sqrt(dk)). */
  scale?: number;
}

export interface OverviewProgress {
  rowsDone: number;
  /** Share of the score cells computed, 0 to 1. */
  progress: number;
  done: boolean;
}

export interface OverviewResult {
  /** (rows, cols) row-major: the weights pooled over block x block blocks. */
  pooled: Float32Array;
  rows: number;
  cols: number;
  /** (nk): each key's total weight over all queries. */
  keyTotals: Float32Array;
  /** (nq): each query row's largest scaled score. */
  rowMax: Float32Array;
  /** (nq): ln sum_j e^(score), the row's log-sum-exp. */
  rowLse: Float64Array;
  scale: number;
}

export interface OverviewRegion {
  /** (rows, cols) row-major: the exact weights of queries [q0, q1) and keys [k0, k1). */
  weights: Float32Array;
  rows: number;
  cols: number;
}

/** A streaming pass over the query rows, run in pieces; its q and k stay in the module for regions. */
export interface OverviewJob {
  readonly rows: number;
  readonly cols: number;
  readonly scale: number;
  /** The next `rows` query rows. */
  step(rows: number): OverviewProgress;
  /** Once done; throws an Error before. */
  result(): OverviewResult;
  /** Exact weights of a region of at most 1024 x 1024 (half-open ranges), once done. */
  region(args: { q0: number; q1: number; k0: number; k1: number }): OverviewRegion;
  /** Frees the module's copy of q and k; a second call does nothing. */
  dispose(): void;
}

export interface Token {
  text: string;
  /** UTF-8 byte offsets. */
  start: number;
  end: number;
  kind: 'word' | 'number' | 'punctuation' | 'cjk' | 'emoji' | 'other';
}

export interface SoftmaxResult {
  weights: Float32Array;
  overflow: boolean;
  nan: boolean;
  fullyMasked: boolean;
}

export interface SoftmaxOptions {
  stable?: boolean;
  precision?: 'float32' | 'float16';
}

// ---- efficient attention (docs/EFFICIENT.md) -------------------------------------------

// The names below are the core's tables' (choices()): a type ending in `// @choices TABLE
// [COLUMN]` is `string` here, and cmake/steps/make-site.mjs writes the union of the table's names
// (of the rows whose COLUMN is true) into the shipped declarations.

/** An approximation of efficientAttention() (the union lists them). */
export type EfficientVariant = string; // @choices efficientKind variant
/** A kind of costChart(): the variants and 'exact'. */
export type EfficientKind = string; // @choices efficientKind

/** A row of choices().efficientKind. */
export interface EfficientKindChoice {
  name: EfficientKind;
  /** One of efficientAttention()'s variants ('exact' is the reference). */
  variant: boolean;
  /** Has a causal form (causal: true is refused otherwise). */
  causal: boolean;
  /** The argument it reads (window, stride, block, features, rank), or null. */
  parameter: string | null;
}

/** The lab's positional schemes (the app state's `positional`; the union lists them). */
export type PositionalScheme = string; // @choices positional
/** A score function of the app state's `score` (the union lists them). */
export type ScoreFunction = string; // @choices scoreFunction
/** A colour theme of the app state's `theme`: 'dark', 'light', 'high-contrast'. */
export type Theme = string; // @choices theme

/** The core's tables of the lab's choices, a row per value. */
export interface CoreChoices {
  efficientKind: EfficientKindChoice[];
  positional: {
    name: PositionalScheme;
    /** Adds the sinusoidal encoding to x before the projections. */
    encoding: boolean;
    /** Acts inside attention (on q and k, or on the scores). */
    inside: boolean;
    /** Needs d_k = dModel / heads even. */
    evenDk: boolean;
  }[];
  ropePairing: { name: RopePairing }[];
  scoreFunction: {
    name: ScoreFunction;
    /** Computed from q and k alone (additive scoring has learned parameters of its own). */
    qk: boolean;
  }[];
  /** The lab's colour themes (the app state's `theme`): the embed's theme= is checked against them. */
  theme: { name: Theme }[];
}

export interface VariantParameters {
  window?: number;
  stride?: number;
  block?: number;
  features?: number;
  rank?: number;
  causal?: boolean;
  /** The random features and projections: a whole number >= 0. */
  seed?: number;
}

export interface EfficientAttentionArgs extends VariantParameters {
  variant: EfficientVariant;
  /** (n, dk) */ q: Float32Array;
  /** (n, dk) */ k: Float32Array;
  /** (n, dv) */ v: Float32Array;
  n: number;
  dk: number;
  dv: number;
  projection?: 'random' | 'identity';
  /** Also return the n x n display matrices (n <= 1024). */
  display?: boolean;
}

export interface EfficientCost {
  pairs: number;
  pairsFormula: string;
  multiplyAdds: number;
  multiplyAddsFormula: string;
  memoryFloats: number;
  memoryFormula: string;
}

export interface EfficientDisplay {
  /** (n, n): 1 where the variant reads the key. */
  pattern: Uint8Array;
  weights: Float32Array;
  exactWeights: Float32Array;
  weightError: Float32Array;
  /** Keys read per row. */
  nonzeros: Int32Array;
}

export interface EfficientAttentionResult {
  /** (n, dv) */
  output: Float32Array;
  /** ||output - exact||_F / ||exact||_F */
  relativeError: number;
  cost: EfficientCost;
  display?: EfficientDisplay;
}

export interface CostChartArgs extends VariantParameters {
  variants?: EfficientKind[];
  ns?: number[];
  dk?: number;
  dv?: number;
  minSeconds?: number;
  measurements?: number;
  fitMinN?: number;
}

export interface CostSeries {
  variant: EfficientKind;
  n: Float64Array;
  seconds: Float64Array;
  runs: Float64Array;
  multiplyAdds: Float64Array;
  memoryFloats: Float64Array;
  /** The log-log least-squares slope over n >= fitMinN; null with fewer than two such n. */
  slope: number | null;
  fitPoints: number;
  multiplyAddsFormula: string;
  memoryFormula: string;
  pairsFormula: string;
}

export interface CostChart {
  series: CostSeries[];
  fitMinN: number;
}

// ---- the scaling and softmax lab's data -----------------------------------------------

export interface VarianceArgs {
  dk: number;
  samples?: number;
  seed?: number;
  scaled?: boolean;
}

export interface HistogramArgs extends VarianceArgs {
  bins?: number;
}

export interface Histogram {
  lo: number;
  hi: number;
  counts: number[];
  variance: number;
  mean: number;
}

export interface SaturationArgs {
  dks: number[];
  scaled?: boolean;
  rows?: number;
  keys?: number;
  seed?: number;
}

export interface SaturationPoint {
  dk: number;
  maxWeight: number;
  entropy: number;
  jacobianNorm: number;
}

export interface SoftmaxPrecisionArgs extends SoftmaxOptions {
  row: Float32Array | number[];
}

/** Attention rollout across layers (Abnar & Zuidema 2020), as attnlab-cli rollout computes it. */
export interface RolloutArgs {
  /** (layers, heads, n, n) row-major: every row a query's weights over the n keys. */
  weights: Float32Array;
  layers: number;
  heads: number;
  n: number;
  /** How a layer's heads are pooled before the residual is mixed in (default 'mean'). */
  pool?: 'mean' | 'max';
  /** The residual stream's share, 0 to 1 (default 0.5; 0 is the plain product). */
  residual?: number;
}

// ---- kernels --------------------------------------------------------------------------

export interface KernelInfo {
  /** 'simd128' in the SIMD build, 'simd128-relaxed' in the relaxed-SIMD one, 'wasm32-scalar' without SIMD. */
  isa: string;
  lanes: number;
  tileRows: number;
  tileCols: number;
}

// ---- training (docs/TRAINING.md) -------------------------------------------------------

export type TrainingTaskName = 'copy' | 'reverse' | 'sort' | 'previous' | 'induction';

export interface TrainerOptions {
  task: TrainingTaskName;
  /** 1-2 */ layers?: number;
  /** 1-4 */ heads?: number;
  /** 1-128, divisible by heads */ dModel?: number;
  /** 0-512; 0 = dModel */ dMlp?: number;
  /** 1-256 */ batch?: number;
  /** (0, 1] */ lr?: number;
  seed?: number;
  /** true = no 1/sqrt(d_k) */ noScale?: boolean;
  init?: 'unit' | 'small';
}

export interface TrainTaskOptions extends TrainerOptions {
  steps?: number;
  evalSequences?: number;
}

export interface Evaluation {
  sequences: number;
  loss: number;
  tokenAccuracy: number;
  sequenceAccuracy: number;
}

export interface HeadScore {
  layer: number;
  head: number;
  previousToken: number;
  induction: number;
  diagonal: number;
  label: 'induction' | 'previous-token' | '';
}

export interface TrainerConfig {
  task: TrainingTaskName;
  layers: number;
  heads: number;
  dModel: number;
  dMlp: number;
  dK: number;
  scale: boolean;
  appliedScale: number;
  init: 'unit' | 'small';
  batch: number;
  lr: number;
  seed: number;
  vocab: number;
  context: number;
  parameters: number;
}

export interface TrainTaskResult {
  task: TrainingTaskName;
  steps: number;
  loss: Float32Array;
  accuracy: Float32Array;
  finalLoss: number | null;
  heldOut: Evaluation;
  heldOutAccuracy: number;
  heads: HeadScore[];
  config: TrainerConfig;
  seconds: number;
  stepsPerSecond: number;
}

export interface Probe {
  context: number;
  tokens: Int32Array;
  targets: Int32Array;
  predictions: Int32Array;
  scored: Uint8Array;
  layers: number;
  heads: number;
  /** (context, context) for each layer * heads + head. */
  weights: Float32Array[];
}

export interface Trainer {
  /** Runs n steps (0 to 1e6) and returns the steps so far. */
  step(n?: number): number;
  readonly steps: number;
  history(options?: { from?: number }): { from: number; loss: Float32Array; accuracy: Float32Array };
  evaluate(options?: { sequences?: number }): Evaluation;
  headScores(): HeadScore[];
  probe(): Probe;
  config(): TrainerConfig;
  /** The model file; with the optimizer state a loaded run continues exactly. */
  save(options?: { optimizer?: boolean }): Uint8Array;
  dispose(): void;
}

export interface TrainingTask {
  name: TrainingTaskName;
  symbols: number;
  vocab: number;
  length: number;
  context: number;
  special: number;
  /** Which positions of a sequence are scored. */
  scored: string;
  defaultSteps: number;
}

export interface TrainingTasks {
  tasks: TrainingTask[];
  thresholds: { previousToken: number; induction: number };
  defaults: Record<string, unknown>;
}

// ---- the language model (attnlab-core-lm.mjs) ------------------------------------------

/** The switches that break a trained model's math (all optional). */
export interface LanguageModelMath {
  noScale?: boolean;
  noCausal?: boolean;
  fill?: '-inf' | '-1e9';
  /** Attention in float16. */
  half?: boolean;
  /** 0.05 to 20; divides every layer's scores. */
  attentionTemperature?: number;
  /** 'LAYER.HEAD' or 'LAYER' (every head of the layer), counted from 0. */
  ablate?: string[];
}

export interface TokenProbability { token: string; id: number; p: number }

export interface GeneratedToken {
  token: string;
  id: number;
  /** The model's 10 most probable next tokens. */
  top: TokenProbability[];
  cacheBytes: number;
  keys: number;
  /** Per layer * heads + head: the choosing query's weights over the keys. */
  attention: Float32Array[];
}

export interface LanguageModelConfig {
  vocab: number; context: number; layers: number; heads: number; dModel: number; dMlp: number;
  parameters: number; steps: number; notes: string; characters: string; unknownClasses: number;
  curve: { step: number; trainBits: number; heldOutEnglish: number; heldOutChinese: number }[];
  samples: { language: 'english' | 'chinese'; text: string }[];
}

export interface LanguageModelHeadLabel {
  layer: number; head: number;
  label: 'previous' | 'first' | 'self' | 'word-start' | 'previous-line' | 'punctuation' | 'mixed';
  score: number;
  scores: Record<string, number>;
}

export interface LanguageModel {
  readonly vocabulary: { size: number; characters: string[]; unknownClasses: number };
  readonly config: LanguageModelConfig;
  encode(text: string): { tokens: Int32Array; unknown: string[] };
  generate(options: { prompt: string; tokens?: number; temperature?: number; topK?: number; seed?: number } & LanguageModelMath): GeneratedToken[];
  evaluate(text: string, math?: LanguageModelMath): { bitsPerToken: number; tokens: number };
  attention(text: string, math?: LanguageModelMath): {
    tokens: string[]; ids: Int32Array; layers: number; heads: number;
    /** Per layer * heads + head, (n * n) row-major. */
    weights: Float32Array[];
    labels: LanguageModelHeadLabel[];
    next: TokenProbability[];
    unknown: string[];
  };
  dispose(): void;
}

/** A trainer of the language model on one plain text (createLanguageModelTrainer). */
export interface LanguageModelTrainerOptions {
  /** UTF-8 text in any language: the last tenth or so (from a line break) is held out. */
  text: string;
  seed: number;
  /** The held-out share, in (0, 0.5]; 0.1 unless given. */
  heldOutFraction?: number;
  /** A name of languageModelTextPresets(); 'page' unless given. */
  preset?: string;
  layers?: number;
  heads?: number;
  dModel?: number;
  context?: number;
  /** The planned total of steps; the preset's unless given. */
  steps?: number;
}

export interface LanguageModelTextPreset {
  name: string; layers: number; heads: number; dModel: number; context: number; steps: number; default: boolean;
}

export interface LanguageModelTrainerInfo {
  steps: number; step: number; preset: string;
  characters: number; trainCharacters: number; heldOutCharacters: number;
  language: 'english' | 'chinese';
  vocab: number; layers: number; heads: number; dModel: number; context: number;
  /** Windows of `context` characters per step. */
  batch: number;
  /** Steps between evaluation points (where step() gives heldOutBits). */
  evalEvery: number;
}

export interface LanguageModelTrainer {
  readonly info: LanguageModelTrainerInfo;
  /** The planned total for this run. */
  readonly steps: number;
  /** Runs k more steps (1 unless given); heldOutBits only where an evaluation point fell. */
  step(k?: number): { step: number; trainBits: number; heldOutBits?: number };
  /** The held-out part's bits per character and the text's own character bigram's. */
  evaluate(): { heldOutBits: number; bigramBits: number; tokens: number };
  /** The model as its file keeps it: a new object the caller disposes. */
  model(): LanguageModel;
  /** The .attnlm file. */
  save(): Uint8Array;
  dispose(): void;
}

// ---- the module -----------------------------------------------------------------------

export interface AttnlabCore {
  /** Which WebAssembly build was loaded: relaxed SIMD (fused multiply-adds), SIMD, or neither. */
  readonly build: CoreBuild;
  /** The core's tables of the lab's choices: names and properties. */
  choices(): CoreChoices;
  attention(args: AttentionArgs & { returnWeights?: true; into?: AttentionInto }): AttentionResult;
  /** Streaming attention (online softmax over tiles, memory O(n*d)): the output alone. */
  attention(args: AttentionArgs & { returnWeights: false; into?: { output?: Float32Array } }): { output: Float32Array };
  tokenize(text: string): Token[];
  softmax(row: Float32Array | number[], options?: SoftmaxOptions): SoftmaxResult;
  multiHeadAttention(args: MultiHeadAttentionArgs): { output: Float32Array; weights: Float32Array[] };
  multiHeadAttentionOutput(args: MultiHeadAttentionArgs & { into?: { output?: Float32Array } }): { output: Float32Array };
  /** The weights packed once; layer.output({x, nq}) is multiHeadAttentionOutput on them. */
  multiHeadLayer(args: MultiHeadLayerArgs): MultiHeadLayer;
  groupedQueryAttention(args: GroupedQueryArgs): GroupedQueryResult;
  /** FlashAttention's forward pass tile by tile, every step recorded; at most 65,536 steps. */
  flashAttention(args: FlashArgs): FlashResult;
  /** N(0, 1) draws of the project's generator: the same numbers natively and in wasm. */
  randomNormal(args: { seed: number; rows: number; cols: number }): Float32Array;
  efficientAttention(args: EfficientAttentionArgs): EfficientAttentionResult;
  costChart(args?: CostChartArgs): CostChart;
  dotProductVariance(args: VarianceArgs): number;
  dotProductHistogram(args: HistogramArgs): Histogram;
  saturationCurve(args: SaturationArgs): SaturationPoint[];
  softmaxPrecision(args: SoftmaxPrecisionArgs): SoftmaxResult;
  /** R as (layers, n, n) row-major: R[l] = Ã_l ... Ã_0. */
  rollout(args: RolloutArgs): Float32Array;
  /** The weights of up to 32768 tokens pooled over blocks by a streaming pass, step by step. */
  overviewBegin(args: OverviewArgs): OverviewJob;
  kernelInfo(): KernelInfo;
  wasmMemoryBytes(): number;
  trainingTasks(): TrainingTasks;
  trainTask(options: TrainTaskOptions): TrainTaskResult;
  createTrainer(options: TrainerOptions): Trainer;
  loadTrainer(bytes: Uint8Array): Trainer;
  /** A language model file (.attnlm): assets/fortunes-lm.attnlm, or one attnlab-cli lm-train wrote. */
  loadLanguageModel(bytes: Uint8Array): LanguageModel;
  /** Trains the language model on a text of your own, synchronously, k steps per call. */
  createLanguageModelTrainer(options: LanguageModelTrainerOptions): LanguageModelTrainer;
  languageModelTextPresets(): LanguageModelTextPreset[];
}

export default function createAttnlabCore(options?: CoreModuleOptions): Promise<AttnlabCore>;
