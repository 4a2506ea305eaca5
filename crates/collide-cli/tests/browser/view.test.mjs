// Browser test of `collide view`: start it on the built-in scene, open the page in Debian's
// headless chromium, drag the ball into the crate, and expect the page to report that pair
// colliding (computed by the library on the server). Saves a screenshot.
//
//   node view.test.mjs [SCREENSHOT.png]
//
// Environment: COLLIDE_BIN (default: debug/collide in the target directory `cargo metadata`
// reports, which honours CARGO_TARGET_DIR), CHROMIUM (default /usr/bin/chromium).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.COLLIDE_BIN || defaultBin();

// The debug build of the program in cargo's target directory (wherever CARGO_TARGET_DIR or a
// cargo config puts it), as `cargo metadata` reports it.
function defaultBin() {
  const meta = JSON.parse(
    execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], {
      cwd: here,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    }),
  );
  const exe = process.platform === 'win32' ? 'collide.exe' : 'collide';
  return join(meta.target_directory, 'debug', exe);
}
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const shot = resolve(process.argv[2] || join(tmpdir(), 'collide-viewer.png'));

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`);
  }
}

// Starts the server and resolves with its URL (the first line of its output).
function startServer() {
  return new Promise((res, rej) => {
    const child = spawn(bin, ['view', '--port', '0', '--exit-after', '120'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => rej(new Error('collide view printed no URL within 20 s')), 20000);
    child.on('error', (e) => { clearTimeout(timer); rej(e); });
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) {
        clearTimeout(timer);
        res({ child, url: m[0] });
      }
    });
  });
}

const userData = mkdtempSync(join(tmpdir(), 'collide-chromium-'));
let server = null;
let context = null;
try {
  if (!existsSync(bin)) throw new Error(`no collide binary at ${bin} (run cargo build first)`);
  server = await startServer();
  context = await chromium.launchPersistentContext(userData, {
    executablePath: browserPath,
    headless: true,
    viewport: { width: 1280, height: 760 },
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url);
  await page.waitForFunction(() => window.collideViewer && window.collideViewer.ready, null, { timeout: 15000 });
  check('page loads the scene', true);

  const before = await page.evaluate(() => window.collideViewer.collidingPairs());
  check('crate and ball start apart', !before.includes('crate|ball'), JSON.stringify(before));

  const from = await page.evaluate(() => window.collideViewer.screenOf('ball'));
  const to = await page.evaluate(() => window.collideViewer.screenOf('crate'));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x + 25, to.y - 10, { steps: 25 });
  await page.mouse.up();
  await page.waitForFunction(
    () => window.collideViewer.settled && window.collideViewer.collidingPairs().includes('crate|ball'),
    null,
    { timeout: 10000 },
  ).catch(() => {});
  const after = await page.evaluate(() => window.collideViewer.collidingPairs());
  check('dragging the ball into the crate makes them collide', after.includes('crate|ball'), JSON.stringify(after));
  const status = await page.textContent('#status');
  check('the page reports the collision', /crate × ball/.test(status), status);
  const card = await page.locator('.pair.hit', { hasText: 'crate × ball' }).count();
  check('the pair list marks the pair colliding', card === 1, `cards: ${card}`);
  check('no script errors', errors.length === 0, errors.join('; '));

  mkdirSync(dirname(shot), { recursive: true });
  await page.screenshot({ path: shot });
  console.log(`screenshot: ${shot}`);
} catch (e) {
  check('browser scenario runs', false, e && e.stack ? e.stack : String(e));
} finally {
  if (context) await context.close().catch(() => {});
  if (server) server.child.kill();
  rmSync(userData, { recursive: true, force: true });
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
