// attnlab-core-kernels.mjs: the output-only fast paths of the SIMD kernels, merged into the
// API of attnlab-core.mjs (see also attention({..., returnWeights: false}) there).
//
// multiHeadAttentionOutput({x, wq, wk, wv, wo, nq, dModel, heads, causal = false})
//   -> {output: Float32Array (nq*dModel)}: the same math as multiHeadAttention (projections
//   x W, head h on columns [h*dk, (h+1)*dk), concat W^O) with every head computed by
//   streaming attention (online softmax, no nq x nq matrix, no weights returned).
//   x: Float32Array (nq*dModel), each W: Float32Array (dModel*dModel), row-major.
//   into: {output}, the caller's Float32Array (nq*dModel) to write and return instead of a
//   fresh one, as attention()'s into (attnlab-core.mjs); written only when the call succeeds.
//   Throws a TypeError / RangeError naming the argument on bad input.
// multiHeadLayer({wq, wk, wv, wo, dModel, heads}) -> layer: the weights of
//   multiHeadAttentionOutput copied into the module and packed for its GEMM once, as an
//   inference session holds a model's weights. Then
//   layer.output({x, nq, causal = false, into}) -> {output: Float32Array (nq*dModel)}: the same
//   floats as multiHeadAttentionOutput with these weights, without passing them again; the
//   call for running one layer on many inputs. layer.dispose() frees the weights (so does
//   garbage collection of the layer); a disposed layer's output() throws an Error.
//   An unknown argument is a TypeError; a wrong size or a NaN weight a RangeError.
// kernelInfo() -> {isa, lanes, tileRows, tileCols}: the instruction set of the kernels
//   ('simd128' in the browser), floats per vector, the GEMM register tile.
// wasmMemoryBytes() -> number: the size of this instance's WebAssembly memory in bytes
//   (it only grows: after a call it is that call's high-water mark, plus what came before).
import { checkFloat32, intoOption, knownArguments, refused } from './attnlab-core-checks.mjs';

const LAYER_ARGS = ['wq', 'wk', 'wv', 'wo', 'dModel', 'heads'];
const LAYER_OUTPUT_ARGS = ['x', 'nq', 'causal', 'into'];
const OUTPUT_ARGS = ['x', 'wq', 'wk', 'wv', 'wo', 'nq', 'dModel', 'heads', 'causal', 'into'];

// {output: nq*dModel floats}, or null while they are not whole numbers (the module names them).
const outputSize = (nq, dModel) => ({ output: [nq, dModel].every((n) => Number.isSafeInteger(n) && n > 0) ? nq * dModel : null });

export default function kernelsApi(wasm) {
  // A layer garbage-collected without dispose() frees its packed weights here.
  const finalizer = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((id) => wasm.multiHeadLayerDispose(id)) : null;
  return {
    multiHeadAttentionOutput(args = {}) {
      knownArguments(args, OUTPUT_ARGS, 'multiHeadAttentionOutput');
      const { x, wq, wk, wv, wo, nq, dModel, heads, causal = false } = args ?? {};
      if (typeof causal !== 'boolean') throw new TypeError('causal must be true or false');
      for (const [name, m] of [['x', x], ['wq', wq], ['wk', wk], ['wv', wv], ['wo', wo]]) checkFloat32(name, m);
      const into = intoOption(args?.into, outputSize(nq, dModel), 'multiHeadAttentionOutput');
      return refused(wasm.multiHeadAttentionOutput({ x, wq, wk, wv, wo, nq, dModel, heads, causal, into }));
    },
    multiHeadLayer(args = {}) {
      knownArguments(args, LAYER_ARGS, 'multiHeadLayer');
      const { wq, wk, wv, wo, dModel, heads } = args ?? {};
      for (const [name, m] of [['wq', wq], ['wk', wk], ['wv', wv], ['wo', wo]]) checkFloat32(name, m);
      let id = refused(wasm.multiHeadLayerCreate({ wq, wk, wv, wo, dModel, heads })).id;
      const layer = {
        dModel,
        heads,
        output(outputArgs = {}) {
          knownArguments(outputArgs, LAYER_OUTPUT_ARGS, 'layer.output');
          const { x, nq, causal = false } = outputArgs ?? {};
          if (id === null) throw new Error('this layer was disposed');
          if (typeof causal !== 'boolean') throw new TypeError('causal must be true or false');
          checkFloat32('x', x);
          const into = intoOption(outputArgs?.into, outputSize(nq, dModel), 'layer.output');
          return refused(wasm.multiHeadLayerOutput(id, { x, nq, causal, into }));
        },
        dispose() {
          if (id === null) return;
          wasm.multiHeadLayerDispose(id);
          finalizer?.unregister(layer);
          id = null;
        },
      };
      finalizer?.register(layer, id, layer);
      return Object.freeze(layer);
    },
    kernelInfo() {
      return wasm.kernelInfo();
    },
    wasmMemoryBytes() {
      return wasm.wasmMemoryBytes();
    },
  };
}
