// collide view: draws the scene on a 2-D canvas with its own perspective projection and
// painter's order; every move goes to the server, where the collide library decides.
'use strict';

const canvas = document.getElementById('view');
const ctx = canvas.getContext('2d');

// ---- small vector and quaternion helpers (arrays of 3 and 4 numbers) ----
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const mul = (a, k) => [a[0] * k, a[1] * k, a[2] * k];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a) => Math.sqrt(dot(a, a));
const norm = (a) => { const l = len(a); return l > 0 ? mul(a, 1 / l) : [0, 0, 0]; };
// q = [x, y, z, w]; rotate v by q: v + 2w(u×v) + 2u×(u×v).
function qrot(q, v) {
  const u = [q[0], q[1], q[2]];
  const t = mul(cross(u, v), 2);
  return add(add(v, mul(t, q[3])), cross(u, t));
}
function qmul(a, b) {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}
function qaxis(axis, angle) {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}
function qnorm(q) {
  const l = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  return q.map((c) => c / l);
}

// ---- state ----
let scene = null; // { label, bodies: [{ name, kind, mesh, hulls, closed, radius }] }
let state = null; // { bodies: [...poses and volumes], pairs: [...] }
let poses = []; // local poses [{ p, q }], ahead of the server while dragging
const show = { aabb_fast: true, aabb_tight: false, obb: true, sphere: false, hull: true, planes: true, contacts: true };
const cam = { yaw: 0.3, pitch: 0.38, dist: 14, target: [0, 1, 0], fov: (40 * Math.PI) / 180 };
let selected = -1;
let drag = null;
let lastTris = []; // projected triangles of the last frame, for picking
let dirty = true;
// Walk mode: null when off; otherwise the character as the server last moved it.
//   { state: { position, grounded, ground_normal, hit, touching, radius, half_height, skin, floor },
//     ticks, log: [recent states], last: time of the last tick (ms) }
let walk = null;
const held = new Set(); // walk keys held down (KeyboardEvent.code)
const WALK_KEYS = new Set(['KeyW', 'KeyA', 'KeyS', 'KeyD', 'Space']);
const WALK_TICK_MS = 1000 / 60;
const WALK_LOG = 60;

const PALETTE = ['#48aaa0', '#e8ac48', '#967cd6', '#5ca2e8', '#7ec260', '#de7cac', '#ccba92'];
const RED = [232, 64, 52];
const AMBER = [236, 178, 64];
const GROUNDED = [111, 207, 127];
const AIRBORNE = [92, 162, 232];

function hexRgb(h) {
  return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
}

// ---- camera ----
let W = 800, H = 600, eye = [0, 0, 0], back = [0, 0, 1], right = [1, 0, 0], up = [0, 1, 0], focal = 1;

function updateCamera() {
  const cp = Math.cos(cam.pitch);
  back = [cp * Math.sin(cam.yaw), Math.sin(cam.pitch), cp * Math.cos(cam.yaw)];
  eye = add(cam.target, mul(back, cam.dist));
  right = norm(cross([0, 1, 0], back));
  up = cross(back, right);
  focal = (H / 2) / Math.tan(cam.fov / 2);
}

// Pixel x, y and depth (distance along the view direction); null behind the eye.
function project(p) {
  const v = sub(p, eye);
  const z = -dot(v, back);
  if (z < 0.05) return null;
  return [W / 2 + (focal * dot(v, right)) / z, H / 2 - (focal * dot(v, up)) / z, z];
}

// The ray through a pixel: direction from the eye.
function rayDir(sx, sy) {
  return norm(add(add(mul(right, (sx - W / 2) / focal), mul(up, -(sy - H / 2) / focal)), mul(back, -1)));
}

function resize() {
  const dpr = window.devicePixelRatio || 1;
  const r = canvas.getBoundingClientRect();
  W = Math.max(100, r.width);
  H = Math.max(100, r.height);
  canvas.width = Math.round(W * dpr);
  canvas.height = Math.round(H * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  dirty = true;
}

// ---- drawing ----
function worldOf(i, p) {
  return add(qrot(poses[i].q, p), poses[i].p);
}

function line(a, b, color, width) {
  const pa = project(a), pb = project(b);
  if (!pa || !pb) return;
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.moveTo(pa[0], pa[1]);
  ctx.lineTo(pb[0], pb[1]);
  ctx.stroke();
}

function boxLines(c, color, width) {
  for (let i = 0; i < 8; i++) for (const bit of [1, 2, 4]) if (!(i & bit)) line(c[i], c[i | bit], color, width);
}

function aabbCorners(b) {
  const out = [];
  for (let i = 0; i < 8; i++) {
    out.push([i & 1 ? b.max[0] : b.min[0], i & 2 ? b.max[1] : b.min[1], i & 4 ? b.max[2] : b.min[2]]);
  }
  return out;
}

function obbCorners(o) {
  const out = [];
  for (let i = 0; i < 8; i++) {
    let p = o.center;
    p = add(p, mul(o.axes[0], (i & 1 ? 1 : -1) * o.half_extents[0]));
    p = add(p, mul(o.axes[1], (i & 2 ? 1 : -1) * o.half_extents[1]));
    p = add(p, mul(o.axes[2], (i & 4 ? 1 : -1) * o.half_extents[2]));
    out.push(p);
  }
  return out;
}

function draw() {
  dirty = false;
  updateCamera();
  const g = ctx.createLinearGradient(0, 0, 0, H);
  g.addColorStop(0, '#2e3440');
  g.addColorStop(1, '#16191f');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  if (!scene || !state) return;

  // Ground grid on y = 0 (in walk mode, on the floor the character cannot fall through).
  const gy = walk ? walk.state.floor : 0;
  for (let k = -10; k <= 10; k++) {
    line([k, gy, -10], [k, gy, 10], 'rgba(255,255,255,0.07)', 1);
    line([-10, gy, k], [10, gy, k], 'rgba(255,255,255,0.07)', 1);
  }

  const light = norm(add(add(mul(back, 0.8), mul(up, 0.7)), mul(right, -0.35)));
  const queue = [];
  scene.bodies.forEach((body, i) => {
    const pos = body.mesh.positions;
    const wp = [];
    for (let k = 0; k < pos.length; k += 3) wp.push(worldOf(i, [pos[k], pos[k + 1], pos[k + 2]]));
    const bright = i === selected ? 1.18 : 1;
    shadeTriangles(queue, wp, body.mesh.triangles, body.closed, bodyColor(i), bright, light, i);
  });
  if (walk) {
    const c = walk.state;
    const mesh = capsuleMesh(c.radius, c.half_height);
    const wp = mesh.positions.map((p) => add(p, c.position));
    shadeTriangles(queue, wp, mesh.triangles, true, c.grounded ? GROUNDED : AIRBORNE, 1, light, -1);
  }
  if (show.planes) {
    for (const pr of state.pairs) {
      if (pr.colliding || !pr.plane) continue;
      const ia = indexOf(pr.a), ib = indexOf(pr.b);
      const sa = state.bodies[ia].sphere, sb = state.bodies[ib].sphere;
      const size = 0.55 * (sa.radius + sb.radius);
      const mid = mul(add(sa.center, sb.center), 0.5);
      const n = pr.plane.normal;
      const c = sub(mid, mul(n, dot(n, mid) + pr.plane.d));
      const u = norm(Math.abs(n[0]) < 0.9 ? cross(n, [1, 0, 0]) : cross(n, [0, 1, 0]));
      const v = cross(n, u);
      const N = 6;
      const at = (s, t) => add(c, add(mul(u, size * (-1 + (2 * s) / N)), mul(v, size * (-1 + (2 * t) / N))));
      for (let s = 0; s < N; s++) {
        for (let t = 0; t < N; t++) {
          const q = [at(s, t), at(s + 1, t), at(s + 1, t + 1), at(s, t + 1)].map(project);
          if (q.some((x) => !x)) continue;
          queue.push({ depth: q.reduce((acc, x) => acc + x[2], 0) / 4, pts: q, fill: 'rgba(120,170,255,0.28)', body: -1, solid: false });
        }
      }
      const corners = [at(0, 0), at(N, 0), at(N, N), at(0, N)];
      planeOutlines.push(corners);
    }
  }
  queue.sort((x, y) => y.depth - x.depth);
  for (const q of queue) {
    ctx.beginPath();
    ctx.moveTo(q.pts[0][0], q.pts[0][1]);
    for (let k = 1; k < q.pts.length; k++) ctx.lineTo(q.pts[k][0], q.pts[k][1]);
    ctx.closePath();
    ctx.fillStyle = q.fill;
    ctx.fill();
    if (q.solid) {
      ctx.strokeStyle = q.fill;
      ctx.lineWidth = 0.7;
      ctx.stroke();
    }
  }
  lastTris = queue.filter((q) => q.body >= 0).reverse(); // nearest first

  for (const corners of planeOutlines) {
    for (let k = 0; k < 4; k++) line(corners[k], corners[(k + 1) % 4], 'rgba(150,195,255,0.85)', 1.5);
  }
  planeOutlines.length = 0;

  // Bounding volumes (the server's, for the pose it last saw) drawn over the bodies.
  state.bodies.forEach((b, i) => {
    const w = i === selected ? 2.2 : 1.4;
    if (show.aabb_fast) boxLines(aabbCorners(b.aabb_fast), b.colliding ? 'rgba(240,87,74,0.95)' : 'rgba(245,215,110,0.9)', w);
    if (show.aabb_tight) boxLines(aabbCorners(b.aabb_tight), 'rgba(245,154,74,0.9)', w);
    if (show.obb) boxLines(obbCorners(b.obb), 'rgba(110,230,250,0.9)', w);
    if (show.sphere) {
      const s = b.sphere;
      for (const [u, v] of [[[1, 0, 0], [0, 1, 0]], [[0, 1, 0], [0, 0, 1]], [[0, 0, 1], [1, 0, 0]]]) {
        for (let k = 0; k < 48; k++) {
          const t0 = (k / 48) * 2 * Math.PI, t1 = ((k + 1) / 48) * 2 * Math.PI;
          line(add(s.center, mul(add(mul(u, Math.cos(t0)), mul(v, Math.sin(t0))), s.radius)),
            add(s.center, mul(add(mul(u, Math.cos(t1)), mul(v, Math.sin(t1))), s.radius)), 'rgba(200,200,220,0.6)', 1);
        }
      }
    }
  });
  if (show.hull) {
    scene.bodies.forEach((body, i) => {
      for (const h of body.hulls) {
        const p = h.positions, e = h.edges;
        const wp = [];
        for (let k = 0; k < p.length; k += 3) wp.push(worldOf(i, [p[k], p[k + 1], p[k + 2]]));
        for (let k = 0; k < e.length; k += 2) line(wp[e[k]], wp[e[k + 1]], 'rgba(255,255,255,0.28)', 1);
      }
    });
  }
  if (show.contacts) {
    for (const pr of state.pairs) {
      if (!pr.contact) continue;
      for (const p of pr.contact.points) {
        line(p, add(p, mul(pr.contact.normal, 0.6)), 'rgba(255,245,120,1)', 2);
        const q = project(p);
        if (q) {
          ctx.fillStyle = 'rgba(255,245,120,1)';
          ctx.beginPath();
          ctx.arc(q[0], q[1], 3.5, 0, 2 * Math.PI);
          ctx.fill();
        }
      }
    }
  }
  // Motion over the frame: an arrow along each velocity, a cross at each time-of-impact point.
  state.bodies.forEach((b, i) => {
    const v = b.velocity;
    if (!v || (v[0] === 0 && v[1] === 0 && v[2] === 0)) return;
    const a = poses[i].p, e = add(a, v);
    line(a, e, 'rgba(235,235,245,0.9)', 2);
    const d = norm(v), l = len(v) * 0.12;
    const side = norm(Math.abs(d[1]) < 0.9 ? cross(d, [0, 1, 0]) : cross(d, [1, 0, 0]));
    line(e, add(sub(e, mul(d, l)), mul(side, l * 0.5)), 'rgba(235,235,245,0.9)', 2);
    line(e, sub(sub(e, mul(d, l)), mul(side, l * 0.5)), 'rgba(235,235,245,0.9)', 2);
  });
  for (const pr of state.pairs) {
    if (!pr.impact || pr.colliding) continue;
    const q = project(pr.impact.point);
    if (!q) continue;
    ctx.strokeStyle = 'rgba(255,245,120,1)';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(q[0] - 6, q[1] - 6); ctx.lineTo(q[0] + 6, q[1] + 6);
    ctx.moveTo(q[0] - 6, q[1] + 6); ctx.lineTo(q[0] + 6, q[1] - 6);
    ctx.stroke();
  }

  // The ground the character stands on: its normal, from the capsule's foot.
  if (walk && walk.state.ground_normal) {
    const c = walk.state;
    const foot = sub(c.position, [0, c.half_height + c.radius + c.skin, 0]);
    line(foot, add(foot, mul(c.ground_normal, 0.8)), 'rgba(255,245,120,1)', 2.5);
  }

  // Body names at their centres.
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  scene.bodies.forEach((body, i) => {
    const q = project(add(poses[i].p, [0, body.radius + 0.25, 0]));
    if (!q) return;
    ctx.fillStyle = i === selected ? '#ffffff' : 'rgba(215,220,229,0.75)';
    ctx.fillText(body.name, q[0], q[1]);
  });
}
const planeOutlines = [];

// A body's colour: red when it collides in the scene or the character hit it this tick,
// amber when the character touches it, its own colour otherwise.
function bodyColor(i) {
  const name = scene.bodies[i].name;
  if ((state.bodies[i] && state.bodies[i].colliding) || (walk && walk.state.hit.includes(name))) return RED;
  if (walk && walk.state.touching.includes(name)) return AMBER;
  return hexRgb(PALETTE[i % PALETTE.length]);
}

// Queues the triangles `tri` (flat index triples) over world points `wp`, lit by `light`;
// `body` is the index picking returns (-1: not pickable).
function shadeTriangles(queue, wp, tri, closed, base, bright, light, body) {
  const pp = wp.map(project);
  for (let k = 0; k < tri.length; k += 3) {
    const a = wp[tri[k]], b = wp[tri[k + 1]], c = wp[tri[k + 2]];
    const pa = pp[tri[k]], pb = pp[tri[k + 1]], pc = pp[tri[k + 2]];
    if (!pa || !pb || !pc) continue;
    let n = norm(cross(sub(b, a), sub(c, a)));
    const facing = dot(n, sub(eye, a));
    if (closed && facing < 0) continue;
    if (facing < 0) n = mul(n, -1);
    const k2 = Math.min(1.25, (0.38 + 0.62 * Math.max(0, dot(n, light))) * bright);
    const col = base.map((v) => Math.min(255, Math.round(v * k2)));
    queue.push({ depth: (pa[2] + pb[2] + pc[2]) / 3, pts: [pa, pb, pc], fill: `rgb(${col[0]},${col[1]},${col[2]})`, body, solid: true });
  }
}

// An upright capsule around the origin: rings of latitude over two hemispheres joined by the
// cylinder; outward-facing triangles (counter-clockwise seen from outside).
function capsuleMesh(radius, halfHeight) {
  const around = 16, cap = 5;
  const positions = [];
  const ring = (y, r) => {
    for (let j = 0; j < around; j++) {
      const t = (j / around) * 2 * Math.PI;
      positions.push([r * Math.cos(t), y, r * Math.sin(t)]);
    }
  };
  positions.push([0, -halfHeight - radius, 0]); // bottom pole
  for (let k = 1; k <= cap; k++) {
    const a = -Math.PI / 2 + (k / cap) * (Math.PI / 2);
    ring(-halfHeight + radius * Math.sin(a), radius * Math.cos(a));
  }
  for (let k = 0; k < cap; k++) {
    const a = (k / cap) * (Math.PI / 2);
    ring(halfHeight + radius * Math.sin(a), radius * Math.cos(a));
  }
  positions.push([0, halfHeight + radius, 0]); // top pole
  const rings = 2 * cap, top = positions.length - 1;
  const at = (r, j) => 1 + r * around + (j % around);
  const triangles = [];
  for (let j = 0; j < around; j++) {
    triangles.push(0, at(0, j), at(0, j + 1));
    for (let r = 0; r + 1 < rings; r++) {
      triangles.push(at(r, j), at(r + 1, j), at(r + 1, j + 1));
      triangles.push(at(r, j), at(r + 1, j + 1), at(r, j + 1));
    }
    triangles.push(top, at(rings - 1, j + 1), at(rings - 1, j));
  }
  return { positions, triangles };
}

function indexOf(name) {
  return scene.bodies.findIndex((b) => b.name === name);
}

// ---- panel ----
function fmt(v) {
  // No "-0.00": what rounds to zero prints as zero.
  return v.map((x) => (Math.abs(x) < 0.005 ? 0 : x).toFixed(2)).join(', ');
}

// The walking character's line: grounded or not, on what normal, what it hit and touches.
function walkStatus(c) {
  const ground = c.grounded ? `grounded, normal (${fmt(c.ground_normal)})` : 'in the air';
  return `Walking: ${ground} · hit: ${c.hit.length ? c.hit.join(', ') : 'nothing'}`
    + ` · touching: ${c.touching.length ? c.touching.join(', ') : 'nothing'}`;
}

function updatePanel() {
  const hits = state.pairs.filter((p) => p.colliding);
  const status = document.getElementById('status');
  const meets = state.pairs.filter((p) => !p.colliding && p.impact);
  if (walk) {
    status.textContent = walkStatus(walk.state);
    status.className = walk.state.hit.length ? 'hit' : '';
    document.getElementById('walk').textContent = 'Walk mode (G): on';
    document.getElementById('walkpos').textContent = `capsule at (${fmt(walk.state.position)})`;
  } else {
    status.textContent = (hits.length === 0
      ? 'No collisions'
      : `${hits.length} colliding: ` + hits.map((p) => `${p.a} × ${p.b}`).join(', '))
      + (meets.length ? ` · ${meets.length} hit this frame: ` + meets.map((p) => `${p.a} × ${p.b}`).join(', ') : '');
    status.className = hits.length ? 'hit' : '';
    document.getElementById('walk').textContent = 'Walk mode (G): off';
    document.getElementById('walkpos').textContent = '';
  }
  const list = document.getElementById('pairs');
  list.textContent = '';
  if (state.pairs.length === 0) {
    list.innerHTML = '<div class="detail">none</div>';
  }
  for (const p of state.pairs) {
    const d = document.createElement('div');
    d.className = 'pair' + (p.colliding ? ' hit' : '');
    d.dataset.pair = `${p.a}|${p.b}`;
    const names = document.createElement('div');
    names.className = 'names';
    names.textContent = `${p.a} × ${p.b}: ${p.colliding ? 'colliding' : p.impact ? 'hit this frame' : 'separated'}`;
    d.appendChild(names);
    const badges = document.createElement('div');
    badges.className = 'badges';
    for (const [k, label] of [['aabb_fast', 'AABB'], ['aabb_tight', 'tight'], ['obb', 'OBB'], ['sphere', 'sphere'], ['exact', 'exact']]) {
      const b = document.createElement('span');
      b.className = 'b' + (p.tests[k] ? ' y' : '');
      b.textContent = (p.tests[k] ? '✓ ' : '✗ ') + label;
      badges.appendChild(b);
    }
    d.appendChild(badges);
    const det = document.createElement('div');
    det.className = 'detail';
    if (p.contact) det.textContent = `normal (${fmt(p.contact.normal)}) depth ${p.contact.depth.toFixed(3)}`;
    else if (p.plane) det.textContent = `plane n (${fmt(p.plane.normal)}) d ${p.plane.d.toFixed(3)}`;
    if (p.impact) det.textContent += (det.textContent ? ' · ' : '') + `impact at t = ${p.impact.toi.toFixed(3)}`;
    d.appendChild(det);
    list.appendChild(d);
  }
  const sel = document.getElementById('sel');
  if (selected >= 0) {
    const b = state.bodies[selected];
    sel.textContent = `${b.name} (${scene.bodies[selected].kind}) at (${fmt(b.position)})`;
  } else {
    sel.textContent = 'none — click a body';
  }
}

// ---- server ----
let inflight = false;
let pending = null;

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

function acceptState(s, keep) {
  state = s;
  s.bodies.forEach((b, i) => {
    if (i !== keep) poses[i] = { p: b.position.slice(), q: b.rotation.slice() };
  });
  updatePanel();
  dirty = true;
}

function sendPose(i) {
  pending = i;
  if (inflight) return;
  const go = () => {
    const k = pending;
    pending = null;
    inflight = true;
    api('/api/pose', { body: scene.bodies[k].name, position: poses[k].p, rotation: poses[k].q })
      .then((s) => acceptState(s, drag ? drag.body : -1))
      .catch((e) => { document.getElementById('status').textContent = 'server: ' + e.message; })
      .finally(() => {
        inflight = false;
        if (pending !== null) go();
        else window.collideViewer.settled = true;
      });
  };
  window.collideViewer.settled = false;
  go();
}

// ---- walk mode ----
// The walking direction on the ground, (x, z), from the keys held and the camera's heading:
// W forward (away from the camera), S back, A left, D right; unit length or zero.
function walkHeading() {
  const f = (held.has('KeyW') ? 1 : 0) - (held.has('KeyS') ? 1 : 0);
  const s = (held.has('KeyD') ? 1 : 0) - (held.has('KeyA') ? 1 : 0);
  const forward = [-Math.sin(cam.yaw), -Math.cos(cam.yaw)];
  const side = [Math.cos(cam.yaw), -Math.sin(cam.yaw)];
  const h = [forward[0] * f + side[0] * s, forward[1] * f + side[1] * s];
  const l = Math.hypot(h[0], h[1]);
  return l > 0 ? [h[0] / l, h[1] / l] : [0, 0];
}

function acceptWalk(c) {
  walk.state = c;
  walk.ticks += 1;
  walk.log.push(c);
  if (walk.log.length > WALK_LOG) walk.log.shift();
  cam.target = c.position.slice();
  updatePanel();
  dirty = true;
}

// One tick per frame while walk mode is on: the next goes out when the last has come back.
async function walkLoop(session) {
  while (walk === session) {
    const now = performance.now();
    const dt = Math.min(0.1, (now - session.last) / 1000);
    session.last = now;
    try {
      const c = await api('/api/walk', { heading: walkHeading(), jump: held.has('Space'), dt });
      if (walk === session) acceptWalk(c);
    } catch (e) {
      document.getElementById('status').textContent = 'server: ' + e.message;
    }
    const wait = WALK_TICK_MS - (performance.now() - now);
    await new Promise((res) => setTimeout(res, Math.max(0, wait)));
  }
}

// Walk mode on: the server puts the character in the scene; the camera follows it, looking
// along -z (drag to turn it). Off: back to dragging bodies.
async function toggleWalk() {
  if (walk) {
    walk = null;
    held.clear();
    updatePanel();
    dirty = true;
    return;
  }
  let c;
  try {
    c = await api('/api/walk/start', {});
  } catch (e) {
    document.getElementById('status').textContent = 'server: ' + e.message;
    return;
  }
  const session = { state: c, ticks: 0, log: [], last: performance.now() };
  walk = session;
  cam.yaw = 0;
  cam.pitch = 0.35;
  cam.dist = 7;
  acceptWalk(c);
  walkLoop(session);
}

window.addEventListener('keydown', (e) => {
  if (e.code === 'KeyG' && !e.repeat) {
    toggleWalk();
    return;
  }
  if (walk && WALK_KEYS.has(e.code)) {
    held.add(e.code);
    e.preventDefault();
  }
});
window.addEventListener('keyup', (e) => held.delete(e.code));
window.addEventListener('blur', () => held.clear());

// ---- input ----
function pick(x, y) {
  for (const t of lastTris) {
    const [a, b, c] = t.pts;
    const s1 = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
    const s2 = (c[0] - b[0]) * (y - b[1]) - (c[1] - b[1]) * (x - b[0]);
    const s3 = (a[0] - c[0]) * (y - c[1]) - (a[1] - c[1]) * (x - c[0]);
    if ((s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)) return t.body;
  }
  return -1;
}

// Where the ray through pixel (x, y) meets the plane through `p` facing the camera.
function onViewPlane(x, y, p) {
  const d = rayDir(x, y);
  const denom = dot(d, back);
  if (Math.abs(denom) < 1e-6) return null;
  const t = dot(sub(p, eye), back) / denom;
  return t > 0 ? add(eye, mul(d, t)) : null;
}

function localXY(e) {
  const r = canvas.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}

canvas.addEventListener('contextmenu', (e) => e.preventDefault());
canvas.addEventListener('mousedown', (e) => {
  const [x, y] = localXY(e);
  const b = pick(x, y);
  canvas.classList.add('dragging');
  if (b >= 0) {
    selected = b;
    const rotate = e.shiftKey || e.button === 2;
    const hit = onViewPlane(x, y, poses[b].p);
    drag = { mode: rotate ? 'rotate' : 'move', body: b, x, y, offset: hit ? sub(hit, poses[b].p) : [0, 0, 0] };
  } else {
    drag = { mode: 'orbit', body: -1, x, y, moved: false };
  }
  updatePanel();
  dirty = true;
});
window.addEventListener('mousemove', (e) => {
  if (!drag) return;
  const [x, y] = localXY(e);
  const dx = x - drag.x, dy = y - drag.y;
  drag.x = x;
  drag.y = y;
  if (drag.mode === 'orbit') {
    if (Math.abs(dx) + Math.abs(dy) > 0) drag.moved = true;
    cam.yaw -= dx * 0.008;
    cam.pitch = Math.max(-1.5, Math.min(1.5, cam.pitch + dy * 0.008));
  } else if (drag.mode === 'move') {
    const hit = onViewPlane(x, y, poses[drag.body].p);
    if (hit) {
      poses[drag.body].p = sub(hit, drag.offset);
      sendPose(drag.body);
    }
  } else {
    const dq = qmul(qaxis(up, dx * 0.012), qaxis(right, dy * 0.012));
    poses[drag.body].q = qnorm(qmul(dq, poses[drag.body].q));
    sendPose(drag.body);
  }
  dirty = true;
});
window.addEventListener('mouseup', () => {
  if (drag && drag.mode === 'orbit' && !drag.moved) selected = -1;
  if (drag && drag.body >= 0) sendPose(drag.body);
  drag = null;
  canvas.classList.remove('dragging');
  if (state) updatePanel();
  dirty = true;
});
canvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  cam.dist = Math.max(1, Math.min(200, cam.dist * Math.exp(e.deltaY * 0.001)));
  dirty = true;
}, { passive: false });
document.querySelectorAll('input[data-show]').forEach((el) => {
  el.addEventListener('change', () => { show[el.dataset.show] = el.checked; dirty = true; });
});
document.getElementById('walk').addEventListener('click', (e) => {
  e.currentTarget.blur(); // Space would press the button again
  toggleWalk();
});
document.getElementById('reset').addEventListener('click', () => {
  api('/api/reset', {}).then((s) => acceptState(s, -1));
});
window.addEventListener('resize', resize);

function frame() {
  if (dirty) draw();
  requestAnimationFrame(frame);
}

// ---- hooks for scripts and tests ----
window.collideViewer = {
  ready: false,
  settled: true,
  // Page coordinates of a body's centre.
  screenOf(name) {
    const i = indexOf(name);
    updateCamera();
    const q = project(poses[i].p);
    const r = canvas.getBoundingClientRect();
    return { x: r.left + q[0], y: r.top + q[1] };
  },
  collidingPairs() {
    return state.pairs.filter((p) => p.colliding).map((p) => `${p.a}|${p.b}`);
  },
  // Walk mode: whether it is on, the character after the last tick, how many ticks the
  // server has answered, and the last few ticks' states (oldest first).
  walking() {
    return walk !== null;
  },
  walkState() {
    return walk && walk.state;
  },
  walkTicks() {
    return walk ? walk.ticks : 0;
  },
  walkLog() {
    return walk ? walk.log.slice() : [];
  },
  // A body's tight box in its current pose: { min, max }.
  bodyBox(name) {
    return state.bodies[indexOf(name)].aabb_tight;
  },
};

// ---- start ----
async function start() {
  resize();
  try {
    scene = await api('/api/scene');
  } catch (e) {
    document.getElementById('status').textContent = 'cannot load the scene: ' + e.message;
    return;
  }
  document.getElementById('label').textContent = scene.label;
  // Frame the scene: look at the centre of the bodies' boxes from far enough away.
  let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const b of scene.state.bodies) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], b.aabb_tight.min[k]);
      hi[k] = Math.max(hi[k], b.aabb_tight.max[k]);
    }
  }
  if (isFinite(lo[0])) {
    cam.target = mul(add(lo, hi), 0.5);
    cam.dist = Math.max(3, (len(sub(hi, lo)) / 2 / Math.sin(cam.fov / 2)) * 0.8);
  }
  acceptState(scene.state, -1);
  if (scene.walk && scene.walk.start) await toggleWalk();
  window.collideViewer.ready = true;
  requestAnimationFrame(frame);
}
start();
