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
const cam = { yaw: 0.35, pitch: 0.42, dist: 14, target: [0, 1, 0], fov: (40 * Math.PI) / 180 };
let selected = -1;
let drag = null;
let lastTris = []; // projected triangles of the last frame, for picking
let dirty = true;

const PALETTE = ['#48aaa0', '#e8ac48', '#967cd6', '#5ca2e8', '#7ec260', '#de7cac', '#ccba92'];
const RED = [232, 64, 52];

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

  // Ground grid on y = 0.
  for (let k = -10; k <= 10; k++) {
    line([k, 0, -10], [k, 0, 10], 'rgba(255,255,255,0.07)', 1);
    line([-10, 0, k], [10, 0, k], 'rgba(255,255,255,0.07)', 1);
  }

  const light = norm(add(add(mul(back, 0.8), mul(up, 0.7)), mul(right, -0.35)));
  const queue = [];
  scene.bodies.forEach((body, i) => {
    const hit = state.bodies[i] && state.bodies[i].colliding;
    const base = hit ? RED : hexRgb(PALETTE[i % PALETTE.length]);
    const pos = body.mesh.positions;
    const wp = [];
    for (let k = 0; k < pos.length; k += 3) wp.push(worldOf(i, [pos[k], pos[k + 1], pos[k + 2]]));
    const pp = wp.map(project);
    const tri = body.mesh.triangles;
    for (let k = 0; k < tri.length; k += 3) {
      const a = wp[tri[k]], b = wp[tri[k + 1]], c = wp[tri[k + 2]];
      const pa = pp[tri[k]], pb = pp[tri[k + 1]], pc = pp[tri[k + 2]];
      if (!pa || !pb || !pc) continue;
      let n = norm(cross(sub(b, a), sub(c, a)));
      const toEye = sub(eye, a);
      const facing = dot(n, toEye);
      if (body.closed && facing < 0) continue;
      if (facing < 0) n = mul(n, -1);
      let k2 = 0.38 + 0.62 * Math.max(0, dot(n, light));
      if (i === selected) k2 = Math.min(1.25, k2 * 1.18);
      const col = base.map((v) => Math.min(255, Math.round(v * k2)));
      queue.push({ depth: (pa[2] + pb[2] + pc[2]) / 3, pts: [pa, pb, pc], fill: `rgb(${col[0]},${col[1]},${col[2]})`, body: i, solid: true });
    }
  });
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
        const p = h.positions, t = h.triangles;
        const wp = [];
        for (let k = 0; k < p.length; k += 3) wp.push(worldOf(i, [p[k], p[k + 1], p[k + 2]]));
        const seen = new Set();
        for (let k = 0; k < t.length; k += 3) {
          for (const [a, b] of [[t[k], t[k + 1]], [t[k + 1], t[k + 2]], [t[k + 2], t[k]]]) {
            const key = a < b ? a * 100000 + b : b * 100000 + a;
            if (seen.has(key)) continue;
            seen.add(key);
            line(wp[a], wp[b], 'rgba(255,255,255,0.55)', 1);
          }
        }
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

function indexOf(name) {
  return scene.bodies.findIndex((b) => b.name === name);
}

// ---- panel ----
function fmt(v) {
  return v.map((x) => x.toFixed(2)).join(', ');
}

function updatePanel() {
  const hits = state.pairs.filter((p) => p.colliding);
  const status = document.getElementById('status');
  status.textContent = hits.length === 0
    ? 'No collisions'
    : `${hits.length} colliding: ` + hits.map((p) => `${p.a} × ${p.b}`).join(', ');
  status.className = hits.length ? 'hit' : '';
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
    names.textContent = `${p.a} × ${p.b}: ${p.colliding ? 'colliding' : 'separated'}`;
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
    if (p.impact) det.textContent += ` · impact at t = ${p.impact.toi.toFixed(3)}`;
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
    cam.dist = Math.max(3, (len(sub(hi, lo)) / 2 / Math.sin(cam.fov / 2)) * 1.05);
  }
  acceptState(scene.state, -1);
  window.collideViewer.ready = true;
  requestAnimationFrame(frame);
}
start();
