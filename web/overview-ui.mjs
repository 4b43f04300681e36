// The page's side of the long-input overview (app/overview_state.h): the pass over up to 32,768
// tokens runs in the math module's Worker (attnlab-core-offthread.mjs's createAttentionWorker),
// never on the page's thread. Every POLL_MS this file asks the app whether a pass is wanted
// (overviewPending), hands the Worker the head's q and k (overviewInputs), and reports the
// Worker's progress and result back (overviewProgress, overviewResult); the panel draws them.
// A newer pass makes an older one's reports stale: the app ignores them by request number.
//
// The offline single-file page (file://) and a browser without module Workers leave the pass to
// the app itself, which runs it a few rows a frame.

const OFFTHREAD = 'attnlab-core-offthread.mjs';
const POLL_MS = 200;

export function setupOverview(module) {
  if (location.protocol === 'file:' || typeof Worker !== 'function') return;
  module.overviewExternal();
  let worker = null;
  const run = async (pass) => {
    const { q, k } = module.overviewInputs();
    try {
      if (!worker) {
        const { createAttentionWorker } = await import(new URL(OFFTHREAD, document.baseURI).href);
        worker = createAttentionWorker({ url: new URL('attnlab-core-worker.mjs', document.baseURI) });
      }
      const result = await worker.overview({ q, k, nq: pass.nq, nk: pass.nk, dk: pass.dk, block: pass.block, pool: pass.pool, causal: pass.causal },
        { onProgress: (p) => module.overviewProgress(pass.request, Math.min(1, Math.max(0, p.progress))) });
      const refused = module.overviewResult(pass.request, result);
      if (refused) module.overviewError(pass.request, refused);
      worker.freeOverview();
    } catch (error) {
      module.overviewError(pass.request, String(error?.message ?? error));
    }
  };
  const timer = setInterval(() => {
    const pending = module.overviewPending();
    if (pending) run(JSON.parse(pending));
  }, POLL_MS);
  // A stopped lab is asked nothing more (the crash screen says why it stopped).
  module.attnlabLife.onDeath(() => {
    clearInterval(timer);
    worker?.terminate();
  });
}
