// A small static file server for the built site (build/web/dist), bound to 127.0.0.1.
//   node scripts/serve.mjs [--port N] [--root DIR]
// Prints the URL when it listens. The tests import startServer() from here too.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png',
  '.svg': 'image/svg+xml', '.ttf': 'font/ttf', '.otf': 'font/otf', '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

// A name with a content hash (cmake/steps/make-site.mjs: "attnlab.d83d9f555452.wasm") never
// changes what it holds, so the browser may keep it without asking again; every other file
// is asked about each time and answered "304 Not Modified" while unchanged. Both let the
// browser reuse what it cached, with the WebAssembly it compiled from it (V8 caches compiled
// code beside a cached response): a page opened again starts without compiling the app anew.
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;

function cacheHeaders(file, stat) {
  return {
    'cache-control': HASHED.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
    'last-modified': stat.mtime.toUTCString(),
  };
}

export function startServer({ root, port = 0, host = '127.0.0.1' }) {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = path.resolve(base, '.' + pathname);
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    fs.stat(file, (statErr, stat) => {
      if (statErr || !stat.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const headers = cacheHeaders(file, stat);
      if (req.headers['if-none-match'] === headers.etag) {
        res.writeHead(304, headers).end();
        return;
      }
      fs.readFile(file, (err, data) => {
        if (err) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', ...headers });
        res.end(data);
      });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve({ server, url: `http://${host}:${server.address().port}/` }));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  let port = 8080;
  let root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build', 'web', 'dist');
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--port' && /^\d+$/.test(args[i + 1] ?? '') && Number(args[i + 1]) < 65536) port = Number(args[++i]);
    else if (args[i] === '--root' && args[i + 1]) root = args[++i];
    else {
      console.error(`serve.mjs: unknown or incomplete argument '${args[i]}' (use --port N, --root DIR)`);
      process.exit(2);
    }
  }
  startServer({ root, port }).then(({ url }) => console.log(`Attention Lab is at ${url}  (Ctrl+C stops)`),
    (err) => { console.error(`serve.mjs: cannot listen on 127.0.0.1:${port}: ${err.message}`); process.exit(1); });
}
