// Serves the built site (dist/) as any static host would, on the loopback interface.
// Used by scripts/run.sh for people and by the browser tests.
//
//   node scripts/serve.mjs [--dir dist] [--host 127.0.0.1] [--port 8080] [--base /sub/path/]
//
// `--base` serves the site under a sub-path, as a host that publishes it in a folder
// would (the site's URLs are relative, so it works there unchanged).

import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';

/**
 * Starts a static server for `dir` under the URL path `base`; `mounts` maps a path
 * inside the site (`results/`) to another folder served there instead. Resolves to
 * { server, url } once listening, `url` being the site's address (base included).
 */
export function serve({ dir, host = '127.0.0.1', port = 0, base = '/', mounts = {} }) {
  const options = { dev: false, etag: true, single: false };
  const prefix = `/${base.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');
  const handlers = [
    ...Object.entries(mounts).map(([at, folder]) => [`/${at.replace(/^\/+|\/+$/g, '')}/`, sirv(folder, options)]),
    ['/', sirv(dir, options)],
  ];
  const notFound = (req, res) => {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(`not found: ${req.url}\n`);
  };
  const server = http.createServer((req, res) => {
    if (!req.url.startsWith(prefix)) return notFound(req, res);
    const inside = `/${req.url.slice(prefix.length)}`;
    const [at, handler] = handlers.find(([at]) => inside.startsWith(at));
    req.url = `/${inside.slice(at.length)}`;
    handler(req, res, () => notFound(req, res));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address();
      resolve({ server, url: `http://${host}:${bound}${prefix}` });
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
  const base = option(args, '--base', '/');
  serve({ dir, host, port, base })
    .then(({ url }) => console.log(`gatepath is served at ${url} (from ${dir}); Ctrl-C stops it.`))
    .catch((e) => {
      console.error(`could not serve ${dir} on ${host}:${port}: ${e.message}`);
      process.exit(1);
    });
}
