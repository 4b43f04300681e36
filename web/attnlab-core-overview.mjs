// attnlab-core-overview.mjs: an overview of attention too long to hold (up to 32,768 tokens),
// merged into the API of attnlab-core.mjs. The math is src/core/attention/overview.h.
//
// overviewBegin({q, k, nq, nk, dk, block = 32, pool = 'mean', causal = false, scale}) -> job
//   q: Float32Array (nq*dk), k: (nk*dk), row-major, finite; nq, nk up to 32768, dk up to 1024;
//   scale: the multiplier of Q K^T (default 1/sqrt(dk)); causal: query i sees keys j <= i.
//   q and k are copied into the module (the caller keeps them). The weights
//   P = softmax(q k^T * scale, masked) are never held whole: a streaming pass over the query
//   rows, run in pieces by job.step(rows), pools them over block x block blocks.
//   job.rows, job.cols: the pooled matrix's shape, ceil(nq/block) x ceil(nk/block) (at most
//     2^22 cells); job.scale: the scale used.
//   job.step(rows) -> {rowsDone, progress, done}: the next `rows` query rows (a whole number
//     >= 1); progress is the share of the score cells computed (0 to 1).
//   job.result() -> {pooled: Float32Array (rows*cols), rows, cols, keyTotals: Float32Array (nk),
//     rowMax: Float32Array (nq), rowLse: Float64Array (nq), scale}, once done (an Error before):
//     pooled is each block's mean over its actual cells (edge blocks have fewer; with causal the
//     masked cells count as zeros) or its max (pool: 'max'); keyTotals[j] = sum_i P[i][j];
//     rowMax[i] = max_j S[i][j] and rowLse[i] = ln sum_j e^S[i][j] of the scaled, masked scores.
//   job.region({q0, q1, k0, k1}) -> {weights: Float32Array ((q1-q0)*(k1-k0)), rows, cols}: the
//     exact weights P[q0:q1][k0:k1] (half-open, at most 1024 a side), once done.
//   job.dispose() frees the module's copy (so does garbage collection of the job); any later
//     call throws an Error.
//   An unknown argument or a wrong type is a TypeError; a wrong size, a cap or a NaN a RangeError.
import { checkFloat32, knownArguments, refused } from './attnlab-core-checks.mjs';

const BEGIN_ARGS = ['q', 'k', 'nq', 'nk', 'dk', 'block', 'pool', 'causal', 'scale'];
const REGION_ARGS = ['q0', 'q1', 'k0', 'k1'];

export default function overviewApi(wasm) {
  // A job garbage-collected without dispose() frees its copy of q and k here.
  const finalizer = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((id) => wasm.overviewFree(id)) : null;
  return {
    overviewBegin(args = {}) {
      knownArguments(args, BEGIN_ARGS, 'overviewBegin');
      const { q, k, nq, nk, dk, block = 32, pool = 'mean', causal = false, scale } = args ?? {};
      checkFloat32('q', q);
      checkFloat32('k', k);
      if (pool !== 'mean' && pool !== 'max') throw new RangeError("pool must be 'mean' or 'max'");
      if (typeof causal !== 'boolean') throw new TypeError('causal must be true or false');
      if (scale !== undefined && !Number.isFinite(scale)) throw new RangeError('scale must be a finite number');
      const begun = refused(wasm.overviewBegin({ q, k, nq, nk, dk, block, max: pool === 'max', causal, scale: scale ?? null }));
      let id = begun.id;
      const live = () => {
        if (id === null) throw new Error('this overview was disposed');
        return id;
      };
      const job = {
        rows: begun.rows,
        cols: begun.cols,
        scale: begun.scale,
        step(rows) {
          return refused(wasm.overviewStep(live(), rows));
        },
        result() {
          const r = wasm.overviewResult(live());
          if (r?.error !== undefined) throw new Error(r.error);
          return r;
        },
        region(regionArgs = {}) {
          knownArguments(regionArgs, REGION_ARGS, 'region');
          const { q0, q1, k0, k1 } = regionArgs ?? {};
          return refused(wasm.overviewRegion(live(), q0, q1, k0, k1));
        },
        dispose() {
          if (id === null) return;
          wasm.overviewFree(id);
          finalizer?.unregister(job);
          id = null;
        },
      };
      finalizer?.register(job, id, job);
      return Object.freeze(job);
    },
  };
}
