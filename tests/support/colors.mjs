// The colours our heatmap shader must produce, computed independently of the app:
// viridis at nine stops, linear between them, looked up as the shader does (a 256-entry
// table, index = round(t * 255)).
const VIRIDIS = [
  [68, 1, 84], [71, 45, 123], [59, 82, 139], [44, 114, 142], [33, 145, 140],
  [40, 174, 128], [94, 201, 98], [173, 220, 48], [253, 231, 37],
];

function viridisAt(t) {
  const x = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS.length - 2);
  const f = x - i;
  return VIRIDIS[i].map((a, c) => Math.round(a + (VIRIDIS[i + 1][c] - a) * f));
}

// ColorBrewer RdBu reversed (blue low, white middle, red high), at t = 0, 0.1, ..., 1.
const RED_BLUE = [
  [5, 48, 97], [33, 102, 172], [67, 147, 195], [146, 197, 222], [209, 229, 240], [247, 247, 247],
  [253, 219, 199], [244, 165, 130], [214, 96, 77], [178, 24, 43], [103, 0, 31],
];

function interpolate(stops, t) {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2);
  const f = x - i;
  return stops[i].map((a, c) => Math.round(a + (stops[i + 1][c] - a) * f));
}

// Expected colour of a cell holding a signed value on a symmetric [lo, hi] scale.
export function expectedDiverging(value, lo, hi) {
  const t = Math.min(1, Math.max(0, (value - lo) / (hi - lo)));
  return interpolate(RED_BLUE, Math.round(t * 255) / 255);
}

// Expected colour of a cell holding probability `value` on a [lo, hi] scale.
export function expectedSequential(value, lo = 0, hi = 1) {
  const t = Math.min(1, Math.max(0, (value - lo) / (hi - lo)));
  return viridisAt(Math.round(t * 255) / 255);
}

export function colorDistance(a, b) {
  return Math.max(...a.map((v, i) => Math.abs(v - b[i])));
}
