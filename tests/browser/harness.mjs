// The browser-test harness: serves the built site (dist/) on 127.0.0.1 with the same
// static server people use, drives Debian's chromium through playwright-core, and
// records everything a test must fail on — console errors, uncaught exceptions (a wasm
// panic is one), and any request that would leave the loopback host.

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = path.join(ROOT, 'dist');
export const ARTIFACTS = process.env.GATEPATH_ARTIFACTS ?? path.join(ROOT, 'tests', 'artifacts');
const CHROMIUM = process.env.GATEPATH_CHROMIUM ?? '/usr/bin/chromium';

// Flags for a quiet, offline-safe headless Chromium on a machine without a GPU.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// WebGPU on SwiftShader (software Vulkan): real WebGPU, slowly.
const WEBGPU_FLAGS = ['--enable-unsafe-webgpu'];

/**
 * Runs in the worker (which owns WebGPU) before any of its scripts when
 * `openApp({ gpuProbe: true })`: counts the bytes of live GPU buffers (and their peak)
 * and keeps every WebGPU device the worker creates, so a test can read GPU memory and
 * lose the device on purpose (`session.probe('bytes')`, `session.probe('loseDevices')`).
 */
function gpuProbe() {
  if (typeof GPUAdapter === 'undefined') return;
  const probe = { live: 0, peak: 0, devices: [] };
  const createBuffer = GPUDevice.prototype.createBuffer;
  GPUDevice.prototype.createBuffer = function (descriptor) {
    const buffer = createBuffer.call(this, descriptor);
    const size = Number(descriptor.size) || 0;
    probe.live += size;
    probe.peak = Math.max(probe.peak, probe.live);
    let counted = true;
    const destroy = buffer.destroy;
    buffer.destroy = function () {
      if (counted) probe.live -= size;
      counted = false;
      return destroy.call(this);
    };
    return buffer;
  };
  const requestDevice = GPUAdapter.prototype.requestDevice;
  GPUAdapter.prototype.requestDevice = async function (descriptor) {
    const device = await requestDevice.call(this, descriptor);
    probe.devices.push(device);
    return device;
  };
  globalThis.gatepathGpuProbe = {
    bytes: () => ({ live: probe.live, peak: probe.peak }),
    /** Destroys every device the worker holds: WebGPU reports them lost. */
    loseDevices: () => probe.devices.forEach((d) => d.destroy()),
  };
}

/**
 * Opens the app in a fresh Chromium profile. `workerPrelude` is a function run in the
 * worker before any of its scripts (as `gpuProbe` is), to change what the browser
 * gives the worker (e.g. a storage that is full).
 * `base` serves the site under that sub-path, and `mounts` serves other folders inside
 * it (see scripts/serve.mjs).
 * @param {{ webgpu: boolean, query?: string, gpuProbe?: boolean, workerPrelude?: Function,
 *           base?: string, mounts?: Record<string, string> }} options
 * @returns {Promise<Session>}
 */
export async function openApp({ webgpu, query = '', gpuProbe: probe = false, workerPrelude = null, base = '/', mounts = {} }) {
  if (!existsSync(path.join(DIST, 'index.html'))) {
    throw new Error(`${DIST}/index.html is missing: build the site first (trunk build)`);
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run scripts/setup.sh (Debian's chromium)`);
  }
  const { server, url } = await serve({ dir: DIST, base, mounts });
  const profile = await mkdtemp(path.join(tmpdir(), 'gatepath-chromium-'));
  const context = await launch(profile, [...FLAGS, ...(webgpu ? WEBGPU_FLAGS : [])]);
  const session = new Session({ server, url, profile, context });
  await session.ready;
  // The worker's script, with the probe and the prelude run first.
  const preludes = [probe ? gpuProbe : null, workerPrelude].filter(Boolean);
  if (preludes.length > 0) {
    await context.route('**/worker_loader.js', async (route) => {
      const response = await route.fetch();
      const body = `${preludes.map((f) => `(${f})();\n`).join('')}${await response.text()}`;
      await route.fulfill({ response, body });
    });
  }
  const page = context.pages()[0] ?? (await context.newPage());
  session.watch(page);
  await page.goto(url + query);
  session.page = page;
  return session;
}

/**
 * Starts Chromium on a profile. Debian's Chromium has been seen to die with SIGSEGV
 * while starting on a loaded 2-core machine, before any page exists; that says
 * nothing about the app, so a launch that fails is tried once more on an emptied profile.
 */
async function launch(profile, args) {
  const options = { executablePath: CHROMIUM, headless: true, args, viewport: { width: 1100, height: 800 } };
  try {
    return await chromium.launchPersistentContext(profile, options);
  } catch (first) {
    console.error(`Chromium did not start (${String(first).split('\n')[0]}); trying once more`);
    await rm(profile, { recursive: true, force: true });
    await mkdir(profile, { recursive: true });
    return chromium.launchPersistentContext(profile, options);
  }
}

export class Session {
  constructor({ server, url, profile, context }) {
    this.server = server;
    this.url = url;
    this.profile = profile;
    this.context = context;
    this.page = null;
    /** Console messages of type error, and uncaught exceptions. */
    this.errors = [];
    /** Every console message, for the failure report. */
    this.console = [];
    /** Requests to anything but the site's own host. */
    this.foreignRequests = [];
    /** Paths of every request to the site, the worker's included (tests clear it). */
    this.requests = [];
    /** The same requests with their method and Range header: `{ path, method, range }`. */
    this.requestLog = [];
    const own = new URL(url).host;
    // Block and record anything that would leave 127.0.0.1.
    this.ready = context.route('**/*', (route) => {
      const target = route.request().url();
      const { protocol, host } = new URL(target);
      if ((protocol === 'http:' || protocol === 'https:' || protocol === 'ws:' || protocol === 'wss:') && host !== own) {
        this.foreignRequests.push(target);
        return route.abort('blockedbyclient');
      }
      const request = route.request();
      this.requests.push(new URL(target).pathname);
      this.requestLog.push({
        path: new URL(target).pathname,
        method: request.method(),
        range: request.headers().range ?? null,
      });
      return route.continue();
    });
  }

  watch(page) {
    page.on('worker', (worker) => {
      this.worker = worker;
      worker.on('close', () => {
        if (this.worker === worker) this.worker = null;
      });
    });
    page.on('console', (msg) => {
      const line = `[${msg.type()}] ${msg.text()}`;
      this.console.push(line);
      if (msg.type() === 'error') this.errors.push(line);
    });
    page.on('pageerror', (err) => this.errors.push(`[pageerror] ${err.message}`));
    page.on('crash', () => this.errors.push('[crash] the page crashed'));
  }

  /**
   * `page.evaluate(fn, arg)`, but rejected as soon as the page reports an error: a wasm
   * panic leaves the page's promise pending forever, and a test should say why at once.
   */
  async evaluate(fn, arg) {
    let timer;
    const failed = new Promise((_, reject) => {
      const seen = this.errors.length;
      timer = setInterval(() => {
        if (this.errors.length > seen) reject(new Error(`the page failed:\n${this.report()}`));
      }, 250);
    });
    try {
      return await Promise.race([this.page.evaluate(fn, arg), failed]);
    } finally {
      clearInterval(timer);
    }
  }

  /** Calls `gatepathGpuProbe[name]()` in the worker (see `gpuProbe`). */
  async probe(name) {
    if (!this.worker) throw new Error('the page has no worker');
    return this.worker.evaluate((n) => globalThis.gatepathGpuProbe[n](), name);
  }

  /** Saves a full-page screenshot to tests/artifacts/<name>.png and returns its path. */
  async screenshot(name) {
    await mkdir(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, `${name}.png`);
    await this.page.screenshot({ path: file, fullPage: true });
    return file;
  }

  /** A report of what the browser said, for assertion messages. */
  report() {
    return [
      `errors: ${JSON.stringify(this.errors, null, 2)}`,
      `foreign requests: ${JSON.stringify(this.foreignRequests)}`,
      `console (last 30):\n${this.console.slice(-30).join('\n')}`,
    ].join('\n');
  }

  async close() {
    await this.context.close().catch(() => {});
    await new Promise((resolve) => this.server.close(resolve));
    await rm(this.profile, { recursive: true, force: true });
  }
}
