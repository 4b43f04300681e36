// Types of attnlab-core-offthread.mjs (`attention-lab/core/offthread`): long attention in a
// module Web Worker. Written by hand beside the module's comments.
import type { AttentionArgs } from './attnlab-core.js';

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
