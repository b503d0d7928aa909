// trunk post-build hook: writes the site's Content-Security-Policy into the staged
// index.html. trunk's loader is an inline module script whose text changes with every
// build (it names the hashed wasm), so the policy allows exactly that script by its
// sha256 and nothing else inline. Everything else must come from the site's own origin,
// except model files, which the model manager may also fetch (when the user asks it to)
// from the hosts in GATEPATH_MODEL_HOSTS (space-separated; default: Hugging Face and its
// download hosts; empty: the site's own origin only).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('csp.mjs: TRUNK_STAGING_DIR is not set (run it as a trunk hook)');
  process.exit(1);
}
const file = path.join(dir, 'index.html');
let html = readFileSync(file, 'utf8');
const hashes = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(
  (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
);
if (hashes.length === 0) {
  console.error('csp.mjs: no inline loader script found in index.html');
  process.exit(1);
}
const modelHosts = (
  process.env.GATEPATH_MODEL_HOSTS ?? 'https://huggingface.co https://*.huggingface.co https://*.hf.co'
)
  .split(/\s+/)
  .filter(Boolean);
for (const host of modelHosts) {
  if (!/^https:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(host)) {
    console.error(`csp.mjs: GATEPATH_MODEL_HOSTS entry ${host} is not an https:// host`);
    process.exit(1);
  }
}
const policy = [
  "default-src 'none'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`,
  "worker-src 'self'",
  ["connect-src 'self'", ...modelHosts].join(' '),
  "img-src 'self' data: blob:",
  "style-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');
const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/g, '');
html = html.replace(/(<meta charset="utf-8" \/>)/, `$1\n    ${meta}`);
if (!html.includes(meta)) {
  console.error('csp.mjs: could not place the policy after <meta charset>');
  process.exit(1);
}
writeFileSync(file, html);
