// Types of attnlab-core-offthread.mjs (`attention-lab/core/offthread`): long attention in a
// module Web Worker. Written by hand beside the module's comments.
import type {
  AttentionArgs, LanguageModelTrainerInfo, LanguageModelTrainerOptions, OverviewArgs, OverviewRegion, OverviewResult,
} from './attnlab-core.js';

export interface WorkerAttentionResult {
  /** (nq, dv) */
  output: Float32Array;
  milliseconds: number;
  wasmMemoryBytes: number;
  isa: string;
}

export interface WorkerOverviewResult extends OverviewResult {
  milliseconds: number;
  /** The worker's module instance after the pass: its high-water mark. */
  wasmMemoryBytes: number;
  isa: string;
}

export interface AttentionWorker {
  /** Always the streaming path; q, k and v are copied to the worker. */
  attention(args: AttentionArgs): Promise<WorkerAttentionResult>;
  /** overviewBegin(args) run to its end in the worker; onProgress after each slice of about 0.1 s. */
  overview(
    args: OverviewArgs,
    options?: { onProgress?: (progress: { rowsDone: number; progress: number }) => void },
  ): Promise<WorkerOverviewResult>;
  /** The exact weights of a region (at most 1024 a side) of the last overview. */
  region(args: { q0: number; q1: number; k0: number; k1: number }): Promise<OverviewRegion>;
  /** Drops the last overview's q and k from the worker. */
  freeOverview(): Promise<{ freed: boolean }>;
  /** Stops the worker; calls still pending reject. */
  terminate(): void;
}

/** url: where attnlab-core-worker.mjs is (default: beside this file). */
export function createAttentionWorker(options?: { url?: string | URL }): AttentionWorker;

/** What a model does at one step: each head's label on the held-out part's first context - 1
 * characters, and a sample written after its first characters (temperature 0.8, top-k 20, seed 1). */
export type LanguageModelLook =
  | {
    heads: { layer: number; head: number; label: string; score: number; previous: number }[];
    sample: { prompt: string; text: string };
  }
  /** The look could not be taken (the run goes on without it). */
  | { error: string };

export interface LanguageModelTrainingProgress {
  step: number;
  steps: number;
  /** Mean training loss of the last slice of steps, bits per token (absent at step 0). */
  trainBits?: number;
  /** The held-out sample's bits per character, at evaluation points only. */
  heldOutBits?: number;
  charactersPerSecond: number;
  /** Seconds of training so far (pauses not counted). */
  seconds: number;
  /** At step 0 and at evaluation points. */
  look?: LanguageModelLook;
}

export interface LanguageModelEvaluation { heldOutBits: number; bigramBits: number; tokens: number }

export interface LanguageModelTrainerWorker {
  /** Rejects with the reason for a refused text; the previous run stays. */
  start(options: LanguageModelTrainerOptions): Promise<LanguageModelTrainerInfo>;
  /** Resolves when the planned steps are done or stop() was called. */
  run(): Promise<{ step: number; stopped: boolean; evaluation: LanguageModelEvaluation | null }>;
  pause(): void;
  resume(): void;
  stop(): void;
  /** The .attnlm file of the run as it is now. */
  save(): Promise<Uint8Array>;
  evaluate(): Promise<LanguageModelEvaluation>;
  /** The model as it is now (where it paused or stopped). */
  look(): Promise<{ step: number; look: LanguageModelLook }>;
  terminate(): void;
}

export function createLanguageModelTrainerWorker(options?: {
  url?: string | URL;
  onProgress?: (progress: LanguageModelTrainingProgress) => void;
}): LanguageModelTrainerWorker;
