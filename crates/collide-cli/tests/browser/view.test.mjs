// Browser test of `collide view`, in Debian's headless chromium:
//
// 1. Drag: on the built-in scene, drag the ball into the crate and expect the page to report
//    that pair colliding (computed by the library on the server).
// 2. Walk: `collide view --walk` opens the built-in walk level in walk mode; toggle it off and
//    on with G, hold W to walk the capsule up the stair (it rises by the stair's height and
//    stands on the landing), then on into the wall (it stops a skin away and stays there while
//    W is held, the status listing the wall as hit).
//
// Saves a screenshot of each.
//
//   node view.test.mjs [SCREENSHOT.png]     (the walk's goes beside it, as NAME-walk.png)
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
const walkShot = shot.replace(/(\.png)?$/, '-walk.png');

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

// Starts the server (with extra arguments) and resolves with its URL (the first line of its output).
function startServer(extra = []) {
  return new Promise((res, rej) => {
    const child = spawn(bin, ['view', '--port', '0', '--exit-after', '120', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
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

// Opens a page on a server, fails the run on script errors, waits for the scene.
async function openViewer(context, url, errors) {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.collideViewer && window.collideViewer.ready, null, { timeout: 15000 });
  return page;
}

// Waits until `test(state)` holds for the character's state, then returns that state;
// on a timeout, returns the last state seen (the checks that follow say what was wrong).
async function walkUntil(page, test, timeout = 15000) {
  await page.waitForFunction(
    (src) => {
      const c = window.collideViewer.walkState();
      return c !== null && new Function('c', `return (${src})(c)`)(c);
    },
    test.toString(),
    { timeout, polling: 16 },
  ).catch(() => {});
  return page.evaluate(() => window.collideViewer.walkState());
}

// Waits for `n` more ticks answered by the server.
async function ticks(page, n) {
  const t0 = await page.evaluate(() => window.collideViewer.walkTicks());
  await page.waitForFunction((t) => window.collideViewer.walkTicks() >= t, t0 + n, { timeout: 10000, polling: 16 });
}

// The walk scenario on `collide view --walk`.
async function walkScenario(context, errors) {
  const walkServer = await startServer(['--walk']);
  try {
    const page = await openViewer(context, walkServer.url, errors);
    check('--walk opens in walk mode', await page.evaluate(() => window.collideViewer.walking()));

    // G toggles the mode off (drag mode's status is back) and on again (a fresh character).
    await page.keyboard.press('g');
    await page.waitForFunction(() => !window.collideViewer.walking(), null, { timeout: 5000 }).catch(() => {});
    const offStatus = await page.textContent('#status');
    check('G turns walk mode off', !(await page.evaluate(() => window.collideViewer.walking())) && !/Walking/.test(offStatus), offStatus);
    await page.keyboard.press('g');
    await page.waitForFunction(() => window.collideViewer.walking(), null, { timeout: 5000 }).catch(() => {});
    const start = await walkUntil(page, (c) => c.grounded);
    check('G turns walk mode on: the capsule stands on the ground', start && start.grounded && start.touching.includes('ground'), JSON.stringify(start));

    const box = (name) => page.evaluate((n) => window.collideViewer.bodyBox(n), name);
    const [ground, landing, wall] = [await box('ground'), await box('landing'), await box('wall')];
    const stairHeight = landing.max[1] - ground.max[1];

    // Hold W: the camera looks along -z, so the capsule walks up the stair onto the landing.
    await page.keyboard.down('w');
    const onTop = await walkUntil(
      page,
      new Function('c', `return c.grounded && c.position[2] < ${landing.max[2] - 0.5}`),
    );
    const rise = onTop.position[1] - start.position[1];
    check(
      `holding W climbs the stair: the capsule rose by the stair's height (${stairHeight.toFixed(2)} m)`,
      Math.abs(rise - stairHeight) < 0.01,
      `rose ${rise.toFixed(4)} m: ${JSON.stringify(onTop)}`,
    );
    check(
      'it stands on the landing, grounded on a level normal',
      onTop.grounded && onTop.ground_normal && onTop.ground_normal[1] > 0.999 && onTop.touching.includes('landing'),
      JSON.stringify(onTop),
    );

    // Still holding W: on into the wall, where it stops.
    await walkUntil(page, (c) => c.hit.includes('wall'));
    await ticks(page, 12);
    const log = (await page.evaluate(() => window.collideViewer.walkLog())).slice(-10);
    const gaps = log.map((c) => c.position[2] - c.radius - wall.max[2]);
    const skin = log[0].skin;
    check(
      `walking into the wall stops the capsule a skin (${skin} m) from it, for 10 ticks`,
      log.length === 10 && gaps.every((g) => Math.abs(g - skin) < 2e-3),
      `gaps ${gaps.map((g) => g.toFixed(4)).join(' ')}`,
    );
    const zs = log.map((c) => c.position[2]);
    check('it stays put while W is held', Math.max(...zs) - Math.min(...zs) < 1e-3, zs.join(' '));
    check('every one of those ticks hit the wall, grounded', log.every((c) => c.hit.includes('wall') && c.grounded), JSON.stringify(log.map((c) => c.hit)));
    const status = await page.textContent('#status');
    check('the status lists the wall as hit', /hit: [^·]*\bwall\b/.test(status), status);
    await page.keyboard.up('w');

    mkdirSync(dirname(walkShot), { recursive: true });
    await page.screenshot({ path: walkShot });
    console.log(`screenshot: ${walkShot}`);
  } finally {
    walkServer.child.kill();
  }
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
  const errors = [];
  const page = await openViewer(context, server.url, errors);
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

  mkdirSync(dirname(shot), { recursive: true });
  await page.screenshot({ path: shot });
  console.log(`screenshot: ${shot}`);

  await walkScenario(context, errors);
  check('no script errors', errors.length === 0, errors.join('; '));
} catch (e) {
  check('browser scenario runs', false, e && e.stack ? e.stack : String(e));
} finally {
  if (context) await context.close().catch(() => {});
  if (server) server.child.kill();
  rmSync(userData, { recursive: true, force: true });
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
