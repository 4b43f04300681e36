// attnlab-core-kernels.mjs: the output-only fast paths of the SIMD kernels, merged into the
// API of attnlab-core.mjs (see also attention({..., returnWeights: false}) there).
//
// multiHeadAttentionOutput({x, wq, wk, wv, wo, nq, dModel, heads, causal = false})
//   -> {output: Float32Array (nq*dModel)}: the same math as multiHeadAttention (projections
//   x W, head h on columns [h*dk, (h+1)*dk), concat W^O) with every head computed by
//   streaming attention (online softmax, no nq x nq matrix, no weights returned).
//   x: Float32Array (nq*dModel), each W: Float32Array (dModel*dModel), row-major.
//   Throws a TypeError / RangeError naming the argument on bad input.
// kernelInfo() -> {isa, lanes, tileRows, tileCols}: the instruction set of the kernels
//   ('simd128' in the browser), floats per vector, the GEMM register tile.
// wasmMemoryBytes() -> number: the size of this instance's WebAssembly memory in bytes
//   (it only grows: after a call it is that call's high-water mark, plus what came before).
import { MAX_DIM, checkArray, checkDim } from './attnlab-core-checks.mjs';
export default function kernelsApi(wasm) {
  return {
    multiHeadAttentionOutput({ x, wq, wk, wv, wo, nq, dModel, heads, causal = false } = {}) {
      checkDim('nq', nq); checkDim('dModel', dModel); checkDim('heads', heads);
      if (dModel % heads !== 0) throw new RangeError(`dModel ${dModel} is not divisible by heads ${heads}`);
      if (typeof causal !== 'boolean') throw new TypeError('causal must be true or false');
      checkArray('x', x, nq * dModel);
      for (const [name, w] of [['wq', wq], ['wk', wk], ['wv', wv], ['wo', wo]]) checkArray(name, w, dModel * dModel);
      const result = wasm.multiHeadAttentionOutput({ x, wq, wk, wv, wo, nq, dModel, heads, causal });
      if (result.error) throw new RangeError(result.error);
      return result;
    },
    kernelInfo() {
      return wasm.kernelInfo();
    },
    wasmMemoryBytes() {
      return wasm.wasmMemoryBytes();
    },
  };
}
