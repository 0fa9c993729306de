// The documentation site in a browser (npm run test:site): builds it, serves
// docs/.vitepress/dist on 127.0.0.1, and drives Debian's Chromium through
// playwright-core: the home page's hero, the quick start's sidebar and code
// block, the design notes' diagram (Mermaid), the benchmarks page's chart,
// and the local search. Screenshots go to reports/site/.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const dist = join(root, 'docs/.vitepress/dist');
const shots = join(root, 'reports/site');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Generous: the machine has two busy cores.
const TIMEOUT = 60_000;

function fail(message) {
  console.error(`test:site FAILED: ${message}`);
  process.exitCode = 1;
}

function build() {
  return new Promise((done, reject) => {
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [join(root, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs'],
      { cwd: root, stdio: 'inherit' },
    );
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? done(Date.now() - started)
        : reject(new Error(`vitepress build docs exited with ${code}`)),
    );
  });
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

async function isFile(path) {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** A static server for the built site, with cleanUrls: /a/b serves a/b.html. */
function serve() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const base = normalize(join(dist, path));
    if (!base.startsWith(dist)) {
      res.writeHead(403).end();
      return;
    }
    for (const file of [base, `${base}.html`, join(base, 'index.html')]) {
      if (await isFile(file)) {
        res.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        });
        res.end(await readFile(file));
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(await readFile(join(dist, '404.html')));
  });
  return listen(server);
}

/** Listens on 127.0.0.1, on a free port the system picks. */
async function listen(server) {
  await new Promise((done, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => done());
  });
  return server;
}

/** Waits for a locator to be visible; fails naming what was missing. */
async function visible(locator, what) {
  try {
    await locator.waitFor({ state: 'visible' });
  } catch {
    throw new Error(`${what} did not appear within ${TIMEOUT / 1000} s`);
  }
}

async function check(name, step) {
  try {
    await step();
    console.log(`ok   ${name}`);
  } catch (error) {
    fail(`${name}: ${error instanceof Error ? error.message : error}`);
  }
}

async function main() {
  if (!existsSync(CHROMIUM)) {
    fail(
      `${CHROMIUM} is missing; install Debian's Chromium: apt-get install -y chromium`,
    );
    return;
  }
  const ms = await build();
  console.log(`test:site: built in ${(ms / 1000).toFixed(1)} s`);
  await mkdir(shots, { recursive: true });
  const server = await serve();
  const url = `http://127.0.0.1:${server.address().port}`;
  console.log(`test:site: serving ${dist} on ${url}`);
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  let results = 0;
  try {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
    });
    page.setDefaultTimeout(TIMEOUT);
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await check('home page: the hero renders', async () => {
      await page.goto(`${url}/`, { waitUntil: 'load' });
      const hero = page.locator('.VPHero');
      await visible(hero, 'the hero (.VPHero)');
      const text = await hero.locator('.text').innerText();
      if (!/MCP tools/.test(text)) throw new Error(`hero text: "${text}"`);
      await visible(page.locator('.VPFeature').first(), 'a feature card');
      await page.screenshot({ path: join(shots, 'home.png'), fullPage: true });
    });

    await check('quick start: the sidebar and a code block', async () => {
      await page.goto(`${url}/get-started/quick-start`, { waitUntil: 'load' });
      await visible(page.locator('.VPSidebar'), 'the sidebar (.VPSidebar)');
      const links = await page.locator('.VPSidebar a').count();
      if (links < 10) throw new Error(`${links} sidebar links, expected 29`);
      await visible(
        page.locator('.vp-doc div[class*="language-"] pre').first(),
        'a code block (div[class*="language-"] pre)',
      );
      await page.screenshot({
        path: join(shots, 'quick-start.png'),
        fullPage: true,
      });
    });

    await check('design notes: the diagram of a call is drawn', async () => {
      await page.goto(`${url}/design/`, { waitUntil: 'load' });
      const diagram = page.locator('.vp-doc .mermaid svg');
      await visible(diagram, 'the diagram (.mermaid svg)');
      const text = await diagram.evaluate((svg) => svg.textContent ?? '');
      for (const step of ['POST /mcp', 'dispatcher', 'interceptors']) {
        if (!text.includes(step))
          throw new Error(`no "${step}" in the diagram`);
      }
      // The top bar stays on screen and would cover the diagram's top.
      await page.addStyleTag({ content: '.VPNav { visibility: hidden; }' });
      await diagram.screenshot({ path: join(shots, 'call-diagram.png') });
    });

    await check('benchmarks: the chart has its bars', async () => {
      await page.goto(`${url}/reference/benchmarks`, { waitUntil: 'load' });
      const chart = page.locator('.benchmark-chart');
      await visible(chart.locator('svg'), 'the chart (.benchmark-chart svg)');
      const widths = await chart
        .locator('rect.bar')
        .evaluateAll((bars) =>
          bars.map((bar) => bar.getBoundingClientRect().width),
        );
      if (widths.length !== 8 || widths.some((width) => !(width > 0))) {
        throw new Error(
          `bars of widths ${widths.join(', ')}, expected 8 drawn`,
        );
      }
      // The loader's ratios are bench/run.mjs's: the run's own target line says them.
      const caption = await chart.locator('figcaption').innerText();
      const file = /bench\/results\/(\S+\.json)/.exec(caption)?.[1];
      if (!file) throw new Error(`no results file named in "${caption}"`);
      const run = JSON.parse(
        await readFile(join(root, 'bench/results', file), 'utf8'),
      );
      const peers = run.targets.find((t) =>
        t.target.includes('2x @rekog/mcp-nest and the SDK'),
      ).measured;
      for (const [figure] of peers.matchAll(/\d+\.\d\dx \S+/g)) {
        if (!caption.includes(figure)) {
          throw new Error(`"${figure}" (${file}) is not in "${caption}"`);
        }
      }
      await chart.screenshot({ path: join(shots, 'benchmarks.png') });
    });

    await check('local search: "OAuth" finds a result', async () => {
      await page.locator('.VPNavBarSearch button').click();
      const input = page.locator('.VPLocalSearchBox input');
      await visible(input, 'the search box');
      await input.fill('OAuth');
      const result = page.locator('.VPLocalSearchBox .results li');
      await visible(result.first(), 'a search result for "OAuth"');
      results = await result.count();
      console.log(`     ${results} result(s) for "OAuth"`);
    });

    if (errors.length > 0) fail(`errors in the page: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    server.close();
  }
  if (!process.exitCode) {
    console.log(`test:site: screenshots in ${shots}`);
    console.log(
      `test:site: passed: 5 checks (hero; quick start's sidebar and code; ` +
        `the call's diagram; the benchmark chart's bars; ` +
        `${results} search result(s) for "OAuth"), site built in ${(ms / 1000).toFixed(1)} s`,
    );
  }
}

main().catch((error) => {
  fail(error instanceof Error ? (error.stack ?? error.message) : error);
});
