// Serves the built site (dist/) as any static host would, on the loopback interface.
// Used by scripts/run.sh for people and by the browser tests.
//
//   node scripts/serve.mjs [--dir dist] [--host 127.0.0.1] [--port 8080]

import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';

/** Starts a static server for `dir`; resolves to { server, url } once listening. */
export function serve({ dir, host = '127.0.0.1', port = 0 }) {
  const handler = sirv(dir, { dev: false, etag: true, single: false });
  const server = http.createServer((req, res) => {
    handler(req, res, () => {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(`not found: ${req.url}\n`);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address();
      resolve({ server, url: `http://${host}:${bound}/` });
    });
  });
}

function option(args, name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dir = path.resolve(option(args, '--dir', 'dist'));
  const host = option(args, '--host', '127.0.0.1');
  const port = Number(option(args, '--port', '8080'));
  serve({ dir, host, port })
    .then(({ url }) => console.log(`gatepath is served at ${url} (from ${dir}); Ctrl-C stops it.`))
    .catch((e) => {
      console.error(`could not serve ${dir} on ${host}:${port}: ${e.message}`);
      process.exit(1);
    });
}
