// The ONNX graphs the ONNX Runtime peers run (web and node), built with onnx-proto:
// the same math as ours, in standard operators (opset 17), float32.
//   single head:  O = softmax(Q K^T * scale) V            inputs Q, K, V (n, d)
//   multi-head:   Y = concat_h(softmax(Q_h K_h^T / sqrt(dk)) V_h) Wo, Q = X Wq, K = X Wk,
//                 V = X Wv; input X (n, dModel), the four W as initializers
// ONNX Runtime fuses the transposes into its MatMul where it can (graph optimisation 'all').
//
// The fused variants (the extra row 'ONNX Runtime Web (fused attention)'): the same math with
// the attention core as one operator, ONNX Runtime's contrib MultiHeadAttention (domain
// com.microsoft, opset 1), which its wasm (CPU) backend runs. Inputs are 3-D, batch 1:
//   single head:  O = MultiHeadAttention(Q, K, V; num_heads 1, scale 1/sqrt(d))
//                 inputs Q, K, V (1, n, d), output O (1, n, d)
//   multi-head:   Y = MultiHeadAttention(X Wq, X Wk, X Wv; num_heads h, scale 1/sqrt(dk)) Wo
//                 input X (1, n, dModel), output Y (1, n, dModel); the projections are the
//                 plain graph's MatMuls with the same four W
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

function valueInfo(name, dims) {
  return onnx.ValueInfoProto.create({
    name,
    type: onnx.TypeProto.create({
      tensorType: onnx.TypeProto.Tensor.create({
        elemType: FLOAT,
        shape: onnx.TensorShapeProto.create({ dim: dims.map((d) => onnx.TensorShapeProto.Dimension.create({ dimValue: d })) }),
      }),
    }),
  });
}

// Attribute values: an array -> INTS, a number -> INT, float(x) -> FLOAT.
const float = (value) => ({ float: value });

function node(opType, inputs, outputs, attributes = {}, domain = '') {
  const { INTS, INT, FLOAT: FLOAT_ATTR } = onnx.AttributeProto.AttributeType;
  const attribute = Object.entries(attributes).map(([name, value]) => Array.isArray(value)
    ? onnx.AttributeProto.create({ name, type: INTS, ints: value })
    : typeof value === 'object'
      ? onnx.AttributeProto.create({ name, type: FLOAT_ATTR, f: value.float })
      : onnx.AttributeProto.create({ name, type: INT, i: value }));
  return onnx.NodeProto.create({ opType, input: inputs, output: outputs, attribute, ...(domain ? { domain } : {}) });
}

function floatTensor(name, dims, values) {
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, floatData: Array.from(values) });
}

function int64Tensor(name, values) {
  return onnx.TensorProto.create({ name, dims: [values.length], dataType: INT64, int64Data: values });
}

// opsets: domain -> version.
function model(graph, opsets = { '': 17 }) {
  return onnx.ModelProto.encode(onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: Object.entries(opsets).map(([domain, version]) => onnx.OperatorSetIdProto.create({ domain, version })),
    producerName: 'attnlab-bench',
    graph,
  })).finish();
}

export function singleHeadModel(n, d) {
  const scale = 1 / Math.sqrt(d);
  return model(onnx.GraphProto.create({
    name: 'sdpa',
    input: [valueInfo('Q', [n, d]), valueInfo('K', [n, d]), valueInfo('V', [n, d])],
    output: [valueInfo('O', [n, d])],
    initializer: [floatTensor('scale', [], [scale])],
    node: [
      node('Transpose', ['K'], ['KT'], { perm: [1, 0] }),
      node('MatMul', ['Q', 'KT'], ['S']),
      node('Mul', ['S', 'scale'], ['SS']),
      node('Softmax', ['SS'], ['P'], { axis: -1 }),
      node('MatMul', ['P', 'V'], ['O']),
    ],
  }));
}

export function multiHeadModel(n, dModel, heads, { wq, wk, wv, wo }) {
  const dk = dModel / heads;
  return model(onnx.GraphProto.create({
    name: 'mha',
    input: [valueInfo('X', [n, dModel])],
    output: [valueInfo('Y', [n, dModel])],
    initializer: [
      floatTensor('Wq', [dModel, dModel], wq), floatTensor('Wk', [dModel, dModel], wk),
      floatTensor('Wv', [dModel, dModel], wv), floatTensor('Wo', [dModel, dModel], wo),
      floatTensor('scale', [], [1 / Math.sqrt(dk)]),
      int64Tensor('split_shape', [n, heads, dk]), int64Tensor('merge_shape', [n, dModel]),
    ],
    node: [
      node('MatMul', ['X', 'Wq'], ['Qp']), node('MatMul', ['X', 'Wk'], ['Kp']), node('MatMul', ['X', 'Wv'], ['Vp']),
      node('Reshape', ['Qp', 'split_shape'], ['Q3']), node('Transpose', ['Q3'], ['Qh'], { perm: [1, 0, 2] }),
      node('Reshape', ['Kp', 'split_shape'], ['K3']), node('Transpose', ['K3'], ['KhT'], { perm: [1, 2, 0] }),
      node('Reshape', ['Vp', 'split_shape'], ['V3']), node('Transpose', ['V3'], ['Vh'], { perm: [1, 0, 2] }),
      node('MatMul', ['Qh', 'KhT'], ['S']), node('Mul', ['S', 'scale'], ['SS']),
      node('Softmax', ['SS'], ['P'], { axis: -1 }), node('MatMul', ['P', 'Vh'], ['Oh']),
      node('Transpose', ['Oh'], ['O3'], { perm: [1, 0, 2] }), node('Reshape', ['O3', 'merge_shape'], ['O']),
      node('MatMul', ['O', 'Wo'], ['Y']),
    ],
  }));
}

// The fused variants (see the top of this file).
export const FUSED_OPERATOR = 'com.microsoft MultiHeadAttention';
const FUSED_OPSETS = { '': 17, 'com.microsoft': 1 };

export function singleHeadFusedModel(n, d) {
  return model(onnx.GraphProto.create({
    name: 'sdpa_fused',
    input: [valueInfo('Q', [1, n, d]), valueInfo('K', [1, n, d]), valueInfo('V', [1, n, d])],
    output: [valueInfo('O', [1, n, d])],
    node: [node('MultiHeadAttention', ['Q', 'K', 'V'], ['O'], { num_heads: 1, scale: float(1 / Math.sqrt(d)) }, 'com.microsoft')],
  }), FUSED_OPSETS);
}

export function multiHeadFusedModel(n, dModel, heads, { wq, wk, wv, wo }) {
  const dk = dModel / heads;
  return model(onnx.GraphProto.create({
    name: 'mha_fused',
    input: [valueInfo('X', [1, n, dModel])],
    output: [valueInfo('Y', [1, n, dModel])],
    initializer: [
      floatTensor('Wq', [dModel, dModel], wq), floatTensor('Wk', [dModel, dModel], wk),
      floatTensor('Wv', [dModel, dModel], wv), floatTensor('Wo', [dModel, dModel], wo),
    ],
    node: [
      node('MatMul', ['X', 'Wq'], ['Q']), node('MatMul', ['X', 'Wk'], ['K']), node('MatMul', ['X', 'Wv'], ['V']),
      node('MultiHeadAttention', ['Q', 'K', 'V'], ['O'], { num_heads: heads, scale: float(1 / Math.sqrt(dk)) }, 'com.microsoft'),
      node('MatMul', ['O', 'Wo'], ['Y']),
    ],
  }), FUSED_OPSETS);
}
