// An attention file into the app, with no page around it: the one import path that the page's
// Import button and drops (web/import.mjs), an embed's importFile message and its inert data
// block (web/embed.mjs) all take. The file is read in 4 MiB slices straight into the app's
// memory (the frame loop keeps running between slices), .npz members compressed with deflate
// are inflated by the browser's DecompressionStream, then the app parses it
// (src/core/io/import_job.h): the headers at once, the data (a JSON file's text, checksums,
// the move into place, the NaN/Inf check) in steps of about 8 ms, one per animation frame.
//
//   importInto(module, file, {batch, bfloat16, stepBytes, onProgress, waitFrame})
//     file: a Blob with a name (a File, or new File([bytes], name)); module: the running app.
//     onProgress(fraction, text) reports how far it is; waitFrame() resolves at the next
//     frame. Resolves once the app holds the imported scene (drawn at its next frame) to the
//     finish phase's figures {steps, frames, ms, at, longestStepMs}; rejects with the app's
//     reason, which names the file, and frees what was read. The Error's message is English
//     (what a script reads); its `localized` is the same reason in the lab's language (what
//     the page and an embed show), and onProgress's texts are in that language too.

const SLICE_BYTES = 4 << 20;

// A page string of the app's table (src/ui/strings.h) in the lab's language, its %s and %d
// filled in order.
export function pageText(module, name, ...args) {
  let i = 0;
  return String(module.uiString(name)).replace(/%[sd]/g, () => String(args[i++] ?? ''));
}

// The app's refusal: `english` as the message, the app's own translation as `localized`
// (refusalText names `label` before it as the English does).
function refusal(module, english, label = '') {
  const error = new Error(label ? `${label}: ${english}` : english);
  error.localized = module.refusalText(label) || error.message;
  return error;
}

// A refusal the page makes itself: English message, the table's text as `localized`.
function pageRefusal(module, english, name, ...args) {
  const error = new Error(english);
  error.localized = pageText(module, name, ...args);
  return error;
}
const STEP_MS = 8;  // the finish phase's work per animation frame

// Reads the slices into the app's buffer; the view is fetched again for every slice
// because the wasm heap may have grown (detaching older views) while we awaited.
// Resolves to the format the app reads from the first slice ('npz', 'npy', 'json' or ''):
// the format's rule lives in the app alone. An archive's share of the bar is smaller
// (inflating its members follows).
async function readInto(module, file, onProgress) {
  let format = '';
  for (let offset = 0; offset < file.size; offset += SLICE_BYTES) {
    const chunk = new Uint8Array(await file.slice(offset, offset + SLICE_BYTES).arrayBuffer());
    module.importFileView().set(chunk, offset);
    if (offset === 0) format = module.importFormat(chunk.length);
    const share = format === 'npz' ? 0.4 : 0.5;
    onProgress((share * (offset + chunk.length)) / file.size, pageText(module, 'web_import_reading', file.name));
  }
  return format;
}

async function inflateMembers(module, file, members, onProgress) {
  const packed = members.filter((m) => m.method === 8);
  let done = 0;
  for (const m of packed) {
    const index = module.importMemberBegin(m.offset, m.uncompressedSize);
    if (index < 0) {
      throw pageRefusal(module, `${file.name}: the archive inflates to more than the import limit`, 'web_import_inflate_limit', file.name);
    }
    const stream = file.slice(m.offset, m.offset + m.compressedSize).stream()
      .pipeThrough(new DecompressionStream('deflate-raw'));
    const reader = stream.getReader();
    let at = 0;
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      if (at + value.length > m.uncompressedSize) {
        await reader.cancel();
        throw pageRefusal(module, `${file.name}: member ${m.name} inflates to more than the ${m.uncompressedSize} bytes it announces`,
          'web_import_member_long', file.name, m.name, m.uncompressedSize);
      }
      module.importMemberView(index).set(value, at);
      at += value.length;
    }
    if (at !== m.uncompressedSize) {
      throw pageRefusal(module, `${file.name}: member ${m.name} inflates to ${at} bytes, not ${m.uncompressedSize}`,
        'web_import_member_size', file.name, m.name, at, m.uncompressedSize);
    }
    done += 1;
    onProgress(0.4 + (0.35 * done) / packed.length, pageText(module, 'web_import_inflating', m.name));
  }
}

// The app checks and moves the data in steps, one per animation frame; the scene changes
// after the last. `from` is the progress bar's share already used.
async function finish(module, file, options, from) {
  const { onProgress, waitFrame } = options;
  const error = module.importFinishBegin(file.name, options.batch ?? 0, !!options.bfloat16);
  if (error) throw refusal(module, error);
  const started = performance.now(), framesBefore = module.framesDrawn();
  let figures = { steps: 0, frames: 0, ms: 0, at: started, longestStepMs: 0 };
  for (;;) {
    const stepStarted = performance.now();
    const r = module.importFinishStep(STEP_MS, options.stepBytes ?? 0);
    figures = {
      steps: figures.steps + 1, frames: module.framesDrawn() - framesBefore, ms: performance.now() - started, at: started,
      longestStepMs: Math.max(figures.longestStepMs, performance.now() - stepStarted),
    };
    options.onFinishStep?.(figures);
    if (r.error) throw refusal(module, r.error);
    if (r.done) return figures;
    onProgress(from + (1 - from) * r.progress, pageText(module, 'web_import_checking', file.name));
    await waitFrame();
  }
}

export async function importInto(module, file, options = {}) {
  const opts = { onProgress: () => {}, ...options };  // waitFrame: api.mjs's nextFrame
  try {
    const refused = module.importBegin(file.size);
    if (refused) throw refusal(module, refused, file.name);
    const zip = (await readInto(module, file, opts.onProgress)) === 'npz';
    if (zip) {
      const members = module.importMembers();
      if (members.error) throw refusal(module, members.error, file.name);
      if (members.some((m) => m.method === 8) && typeof DecompressionStream !== 'function') {
        throw pageRefusal(module, 'This browser has no DecompressionStream: save the archive with np.savez (not _compressed)',
          'web_import_no_inflater');
      }
      await inflateMembers(module, file, members, opts.onProgress);
    }
    return await finish(module, file, opts, zip ? 0.75 : 0.5);
  } catch (error) {
    module.importBegin(0);  // frees the partial buffers
    throw error;
  }
}
