// Types of attnlab-core-offthread.mjs (`attention-lab/core/offthread`): long attention in a
// module Web Worker. Written by hand beside the module's comments.
import type { AttentionArgs, LanguageModelTrainerInfo, LanguageModelTrainerOptions } from './attnlab-core.js';

export interface WorkerAttentionResult {
  /** (nq, dv) */
  output: Float32Array;
  milliseconds: number;
  wasmMemoryBytes: number;
  isa: string;
}

export interface AttentionWorker {
  /** Always the streaming path; q, k and v are copied to the worker. */
  attention(args: AttentionArgs): Promise<WorkerAttentionResult>;
  /** Stops the worker; calls still pending reject. */
  terminate(): void;
}

/** url: where attnlab-core-worker.mjs is (default: beside this file). */
export function createAttentionWorker(options?: { url?: string | URL }): AttentionWorker;

export interface LanguageModelTrainingProgress {
  step: number;
  steps: number;
  /** Mean training loss of the last slice of steps, bits per token. */
  trainBits: number;
  /** The held-out sample's bits per character, at evaluation points only. */
  heldOutBits?: number;
  charactersPerSecond: number;
  /** Seconds of training so far (pauses not counted). */
  seconds: number;
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
  terminate(): void;
}

export function createLanguageModelTrainerWorker(options?: {
  url?: string | URL;
  onProgress?: (progress: LanguageModelTrainingProgress) => void;
}): LanguageModelTrainerWorker;
