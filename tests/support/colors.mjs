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

// Expected colour of a cell holding probability `value` on a [lo, hi] scale.
export function expectedSequential(value, lo = 0, hi = 1) {
  const t = Math.min(1, Math.max(0, (value - lo) / (hi - lo)));
  return viridisAt(Math.round(t * 255) / 255);
}

export function colorDistance(a, b) {
  return Math.max(...a.map((v, i) => Math.abs(v - b[i])));
}
