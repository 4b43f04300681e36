// loader.mjs: fetches the build of the app this browser can run and its other assets.
//
// Two builds of the app ship side by side: with WebAssembly SIMD (the fast one) and without it
// (older Safari, classroom tablets), chosen by feature detection, never by user agent.
// Assets are named relative to this file, so a page in a subfolder loads the same ones; in the
// published site (scripts/make-site.mjs) every name below becomes its content-hashed name. The
// single-file offline page carries the assets inline (data blocks and inline scripts) and this
// loader takes them from there instead of the network.
//
//   chooseBuild()                 'simd' or 'scalar'
//   loadAppFactory(build)         the Emscripten factory of that build (its glue script loaded)
//   loadAsset(name, onProgress)   Uint8Array of an asset; onProgress(fraction) while downloading

import { hasWasmSimd } from './wasm-simd.mjs';

export const BUILDS = {
  simd: { script: 'attnlab.js', wasm: 'attnlab.wasm', factory: 'createAttnlabApp' },
  scalar: { script: 'attnlab-nosimd.js', wasm: 'attnlab-nosimd.wasm', factory: 'createAttnlabAppNoSimd' },
};

export function chooseBuild() {
  return hasWasmSimd() ? 'simd' : 'scalar';
}

// The offline page keeps each binary asset base64-encoded in a non-executed data block.
function inlineAsset(name) {
  const block = document.querySelector(`script[type="application/octet-stream"][data-asset="${CSS.escape(name)}"]`);
  if (!block) return null;
  const text = atob(block.textContent.trim());
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export async function loadAsset(name, onProgress = () => {}) {
  const inline = inlineAsset(name);
  if (inline) return inline;
  const url = new URL(name, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${name} (HTTP ${response.status})`);
  const total = Number(response.headers.get('content-length')) || 0;
  if (!total || !response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress(Math.min(1, received / total));
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function loadScript(name) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL(name, import.meta.url).href;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${name}`));
    document.head.appendChild(script);
  });
}

export async function loadAppFactory(build) {
  const { script, factory } = BUILDS[build];
  // The offline page defines the factories in inline scripts before this module runs.
  if (typeof globalThis[factory] !== 'function') await loadScript(script);
  if (typeof globalThis[factory] !== 'function') throw new Error(`${script} did not define ${factory}`);
  return globalThis[factory];
}
