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
import { checkFloat32, refused } from './attnlab-core-checks.mjs';

export default function kernelsApi(wasm) {
  return {
    multiHeadAttentionOutput({ x, wq, wk, wv, wo, nq, dModel, heads, causal = false } = {}) {
      if (typeof causal !== 'boolean') throw new TypeError('causal must be true or false');
      for (const [name, m] of [['x', x], ['wq', wq], ['wk', wk], ['wv', wv], ['wo', wo]]) checkFloat32(name, m);
      return refused(wasm.multiHeadAttentionOutput({ x, wq, wk, wv, wo, nq, dModel, heads, causal }));
    },
    kernelInfo() {
      return wasm.kernelInfo();
    },
    wasmMemoryBytes() {
      return wasm.wasmMemoryBytes();
    },
  };
}
