// armlab.viz scene canvas: draws the 3-D scene sent by the kernel on a 2-D <canvas>.
// Orthographic projection; drag to orbit, wheel to zoom, double-click to go back to the kernel's view; with
// the keyboard (while the canvas has the focus): arrow keys turn, + and − zoom, Home or 0 go back.
// The kernel sends only what moves (points, colours, texts); everything is drawn here. It also sends the
// scene's text alternative (``label``, the canvas is role="img") and what to announce after a move
// (``status``, read out by a visually hidden aria-live region).

const DEG = Math.PI / 180;
const HALO = 1.5;  // half the white halo around a text

function rgba(color, alpha) {
  if (alpha === undefined || alpha === null || alpha >= 1) return color;
  const n = parseInt(color.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
}

function camera(view) {
  // matplotlib's convention: azim about z from +x, elev above the xy plane; the eye looks at the centre.
  const a = view.azim * DEG, e = view.elev * DEG;
  const ca = Math.cos(a), sa = Math.sin(a), ce = Math.cos(e), se = Math.sin(e);
  return {
    right: [-sa, ca, 0],                    // screen x
    up: [-se * ca, -se * sa, ce],           // screen y (upwards)
    toward: [ce * ca, ce * sa, se],         // towards the eye: larger = nearer
  };
}

// The starting view (the kernel's camera) fits the scene's fit points into the canvas; orbiting and
// zooming keep that scale and that centre, so nothing rescales while the picture moves.
function fitting(scene, home, width, height) {
  const cam = camera(home), s = scene.scale || [1, 1, 1], f = scene.fit;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  const c = [0, 0, 0];
  const m = f.length / 3;
  for (let i = 0; i < f.length; i += 3) { c[0] += f[i] / m; c[1] += f[i + 1] / m; c[2] += f[i + 2] / m; }
  for (let i = 0; i < f.length; i += 3) {
    const dx = (f[i] - c[0]) * s[0], dy = (f[i + 1] - c[1]) * s[1], dz = (f[i + 2] - c[2]) * s[2];
    const u = dx * cam.right[0] + dy * cam.right[1], v = dx * cam.up[0] + dy * cam.up[1] + dz * cam.up[2];
    x0 = Math.min(x0, u); x1 = Math.max(x1, u); y0 = Math.min(y0, v); y1 = Math.max(y1, v);
  }
  const pad = scene.title ? 18 : 0;
  const k = Math.min(width / Math.max(x1 - x0, 1e-9), (height - pad) / Math.max(y1 - y0, 1e-9)) / (scene.margin || 1.08);
  // the screen point of c: the middle of the fitted box
  return {c, k, ox: width / 2 - k * (x0 + x1) / 2, oy: pad + (height - pad) / 2 + k * (y0 + y1) / 2, top: pad};
}

function projector(scene, view, fit) {
  const cam = camera(view);
  const s = scene.scale || [1, 1, 1], c = fit.c, k = fit.k * view.zoom, ox = fit.ox, oy = fit.oy;
  return (x, y, z) => {
    const dx = (x - c[0]) * s[0], dy = (y - c[1]) * s[1], dz = (z - c[2]) * s[2];
    return [ox + k * (dx * cam.right[0] + dy * cam.right[1]),
            oy - k * (dx * cam.up[0] + dy * cam.up[1] + dz * cam.up[2]),
            dx * cam.toward[0] + dy * cam.toward[1] + dz * cam.toward[2]];
  };
}

// One list of primitives (segments, markers, arrow heads), sorted far to near; texts are drawn last.
function collect(scene, P) {
  const prims = [];
  for (const item of scene.items) {
    if (item.t === "line") {
      const p = item.p, pts = [];
      for (let i = 0; i < p.length; i += 3) pts.push(p[i] === null ? null : P(p[i], p[i + 1], p[i + 2]));
      const style = {c: rgba(item.c, item.a), w: item.w, d: item.d};
      for (let i = 0; i + 1 < pts.length; i++) {
        const a = pts[i], b = pts[i + 1];
        if (!a || !b) continue;
        prims.push({k: "seg", z: (a[2] + b[2]) / 2, a, b, s: style});
        if (item.arrow && (i + 2 >= pts.length || !pts[i + 2])) {
          prims.push({k: "head", z: b[2] + 1e-9, a, b, s: style, size: item.hs || 9});
        }
      }
      if (item.m) {
        const ms = {c: rgba(item.mfc || item.c, item.a), e: rgba(item.mec || item.c, item.a), r: item.ms / 2, m: item.m};
        for (const q of pts) if (q) prims.push({k: "mark", z: q[2] + 1e-9, q, s: ms});
      }
    } else if (item.t === "segs") {
      const p = item.p;
      for (let j = 0, i = 0; i + 5 < p.length; i += 6, j++) {
        if (p[i] === null || p[i + 3] === null) continue;
        const a = P(p[i], p[i + 1], p[i + 2]), b = P(p[i + 3], p[i + 4], p[i + 5]);
        prims.push({k: "seg", z: (a[2] + b[2]) / 2, a, b,
                    s: {c: rgba(item.c[j % item.c.length], item.a[j % item.a.length]), w: item.w[j % item.w.length], d: null}});
      }
    }
  }
  prims.sort((u, v) => u.z - v.z);
  return prims;
}

// A text's box around the point it is drawn at, [left, top, right, bottom] in pixels (halo included).
function textBox(ctx, font, align, s) {
  ctx.font = font; ctx.textAlign = align; ctx.textBaseline = "middle";
  const m = ctx.measureText(s);
  return [-m.actualBoundingBoxLeft - HALO, -m.actualBoundingBoxAscent - HALO,
          m.actualBoundingBoxRight + HALO, m.actualBoundingBoxDescent + HALO];
}

// The scene's texts where they are drawn: {p: the projected anchor, dx, dy: the pixel offset, box, ...}.
function texts(ctx, scene, P) {
  const out = [];
  for (const item of scene.items) {
    if (item.t !== "text") continue;
    const font = `${item.fw || "normal"} ${item.fs || 11}px sans-serif`, align = item.ha || "left";
    out.push({p: P(item.p[0], item.p[1], item.p[2]), dx: item.dx || 0, dy: -(item.dy || 0), s: item.s, font, align,
              box: textBox(ctx, font, align, item.s), color: rgba(item.c, item.a)});
  }
  return out;
}

// A light box around the limits (frame views only): its edges, and the ticks and axis names on the edges
// nearest the viewer, each a text pushed outwards from the box's middle by a few pixels.
function boxParts(ctx, scene, P) {
  const [X, Y, Z] = scene.limits;
  const corners = [];
  for (const x of X) for (const y of Y) for (const z of Z) corners.push([x, y, z]);
  const edges = [];
  for (let i = 0; i < 8; i++) for (let j = i + 1; j < 8; j++) {
    const a = corners[i], b = corners[j];
    if ((a[0] !== b[0]) + (a[1] !== b[1]) + (a[2] !== b[2]) === 1) edges.push([P(...a), P(...b)]);
  }
  // the bottom corner nearest the eye carries the x and y ticks; the left-most bottom corner the z ticks
  const bottom = corners.filter(c => c[2] === Z[0]);
  const near = bottom.reduce((u, v) => (P(...u)[2] > P(...v)[2] ? u : v));
  const left = bottom.reduce((u, v) => (P(...u)[0] < P(...v)[0] ? u : v));
  const mid = P((X[0] + X[1]) / 2, (Y[0] + Y[1]) / 2, (Z[0] + Z[1]) / 2);
  const labels = [];
  const label = (p, s, push, font) => {
    const dx = p[0] - mid[0], dy = p[1] - mid[1], L = Math.hypot(dx, dy) || 1;
    labels.push({p, dx: push * dx / L, dy: push * dy / L, s, font, align: "center", box: textBox(ctx, font, "center", s),
                 color: "#555"});
  };
  const axes = [["x", 0, near], ["y", 1, near], ["z", 2, left]];
  for (const [name, k, corner] of axes) {
    const ticks = (scene.ticks || [[], [], []])[k];
    const along = (v) => { const c = corner.slice(); c[k] = v; return P(...c); };
    ticks.forEach((v, i) => label(along(v), scene.tick_text ? scene.tick_text[k][i] : String(v), 14, "10px sans-serif"));
    const lims = scene.limits[k];
    label(along(lims[0] + 0.5 * (lims[1] - lims[0])), name, 30, "bold 11px sans-serif");  // outside the tick labels
  }
  return {edges, labels};
}

// The largest factor ≤ 1 by which the picture may be scaled about the fit's centre so that everything drawn
// (lines and their widths, arrowheads, markers, texts) stays inside the canvas below the title.
const EDGE = 4;  // px kept free along the canvas's edges

function shrink(fit, w, h, prims, labels, edges) {
  let s = 1;
  const keep = (x, y, l, t, r, b) => {  // a point that scales, with a box in pixels around it that does not
    const dx = x - fit.ox, dy = y - fit.oy;
    if (dx > 0) s = Math.min(s, (w - EDGE - r - fit.ox) / dx);
    else if (dx < 0) s = Math.min(s, (fit.ox + l - EDGE) / -dx);
    if (dy > 0) s = Math.min(s, (h - EDGE - b - fit.oy) / dy);
    else if (dy < 0) s = Math.min(s, (fit.oy + t - fit.top - EDGE) / -dy);
  };
  for (const pr of prims) {
    if (pr.k === "seg") {
      const r = pr.s.w / 2;
      keep(pr.a[0], pr.a[1], -r, -r, r, r); keep(pr.b[0], pr.b[1], -r, -r, r, r);
    } else if (pr.k === "head") {
      const r = 0.75 * pr.size + pr.s.w / 2;  // the head's corners lie within 0.75·size of the segment's end
      keep(pr.b[0], pr.b[1], -r, -r, r, r);
    } else {
      const r = pr.s.r + 0.6;
      keep(pr.q[0], pr.q[1], -r, -r, r, r);
    }
  }
  for (const t of labels) keep(t.p[0], t.p[1], t.dx + t.box[0], t.dy + t.box[1], t.dx + t.box[2], t.dy + t.box[3]);
  for (const [a, b] of edges) { keep(a[0], a[1], -0.5, -0.5, 0.5, 0.5); keep(b[0], b[1], -0.5, -0.5, 0.5, 0.5); }
  return Math.max(s, 0.05);
}

// What was drawn, in pixels: the page (and the browser test) read it from the canvas's data-extent.
function extent() {
  const e = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (x0, y0, x1, y1) => {
    e[0] = Math.min(e[0], x0); e[1] = Math.min(e[1], y0); e[2] = Math.max(e[2], x1); e[3] = Math.max(e[3], y1);
  };
  return {e, add, point: (p, r) => add(p[0] - r, p[1] - r, p[0] + r, p[1] + r)};
}

function drawPrims(ctx, prims, ext) {
  for (const pr of prims) {
    const s = pr.s;
    if (pr.k === "seg") {
      ctx.strokeStyle = s.c; ctx.lineWidth = s.w; ctx.setLineDash(s.d || []);
      ctx.beginPath(); ctx.moveTo(pr.a[0], pr.a[1]); ctx.lineTo(pr.b[0], pr.b[1]); ctx.stroke();
      ext.point(pr.a, s.w / 2); ext.point(pr.b, s.w / 2);
    } else if (pr.k === "head") {
      const dx = pr.b[0] - pr.a[0], dy = pr.b[1] - pr.a[1], L = Math.hypot(dx, dy);
      if (L < 1) continue;
      const size = Math.min(pr.size, 0.6 * L), ux = dx / L, uy = dy / L;
      const bx = pr.b[0] + ux * 0.4 * size, by = pr.b[1] + uy * 0.4 * size;
      const corners = [[bx, by], [bx - ux * size - uy * size * 0.45, by - uy * size + ux * size * 0.45],
                       [bx - ux * size + uy * size * 0.45, by - uy * size - ux * size * 0.45]];
      ctx.fillStyle = s.c; ctx.setLineDash([]);
      ctx.beginPath();
      for (const [x, y] of corners) { ctx.lineTo(x, y); ext.point([x, y], 0); }
      ctx.closePath(); ctx.fill();
    } else {
      const [x, y] = pr.q;
      ctx.setLineDash([]); ctx.fillStyle = s.c; ctx.strokeStyle = s.e; ctx.lineWidth = 1.2;
      ctx.beginPath();
      if (s.m === "*") {
        for (let i = 0; i < 10; i++) {
          const r = i % 2 ? s.r * 0.45 : s.r, t = -Math.PI / 2 + i * Math.PI / 5;
          ctx.lineTo(x + r * Math.cos(t), y + r * Math.sin(t));
        }
        ctx.closePath();
      } else {
        ctx.arc(x, y, s.r, 0, 2 * Math.PI);
      }
      ctx.fill(); ctx.stroke();
      ext.point(pr.q, s.r + 0.6);
    }
  }
}

// Labels that would cover one another (a wrist's "noflip" and "flip", frames {4}, {5}, {6} in a small view) are
// moved apart: each in turn, in order, goes to the nearest of the spots a few rows up or down and a label's width
// aside where it overlaps no label placed before it and stays inside the canvas. Returns how many still overlap
// (the page's tests read it).
const SPOTS = (() => {
  const out = [];
  for (let i = -2; i <= 2; i++) for (let j = -6; j <= 6; j++) out.push([i, j]);
  return out.sort((a, b) => Math.hypot(2 * a[0], a[1]) - Math.hypot(2 * b[0], b[1]));
})();

function declutter(list, fixed, w, h, top) {
  const rect = (t, dx, dy) => [t.p[0] + t.dx + dx + t.box[0], t.p[1] + t.dy + dy + t.box[1],
                               t.p[0] + t.dx + dx + t.box[2], t.p[1] + t.dy + dy + t.box[3]];
  const hits = (r, placed) => placed.some(q => r[0] < q[2] && q[0] < r[2] && r[1] < q[3] && q[1] < r[3]);
  const inside = (r) => r[0] >= 0 && r[2] <= w && r[1] >= top && r[3] <= h;
  const placed = fixed.map(t => rect(t, 0, 0));
  let left = 0;
  for (const t of list) {
    const across = t.box[2] - t.box[0] + 2, down = t.box[3] - t.box[1] + 1;
    const spot = SPOTS.find(([i, j]) => { const r = rect(t, i * across, j * down); return inside(r) && !hits(r, placed); });
    if (spot) { t.dx += spot[0] * across; t.dy += spot[1] * down; } else left++;
    placed.push(rect(t, 0, 0));
  }
  return left;
}

function drawTexts(ctx, list, ext, halo) {
  ctx.setLineDash([]); ctx.textBaseline = "middle";
  for (const t of list) {
    const x = t.p[0] + t.dx, y = t.p[1] + t.dy;
    ctx.font = t.font; ctx.textAlign = t.align;
    if (halo) { ctx.lineWidth = 2 * HALO; ctx.strokeStyle = "rgba(255,255,255,0.85)"; ctx.strokeText(t.s, x, y); }
    ctx.fillStyle = t.color;
    ctx.fillText(t.s, x, y);                 // a white halo keeps a label readable over lines
    ext.add(x + t.box[0], y + t.box[1], x + t.box[2], y + t.box[3]);
  }
}

function drawEdges(ctx, edges, ext) {
  ctx.strokeStyle = "#d0d0d0"; ctx.lineWidth = 1; ctx.setLineDash([]);
  for (const [a, b] of edges) {
    ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
    ext.point(a, 0.5); ext.point(b, 0.5);
  }
}

// The title on one line across the top: a smaller font if it is wider than the canvas.
function drawTitle(ctx, title, w, ext) {
  let size = 12;
  ctx.textAlign = "center"; ctx.textBaseline = "top";
  for (; size > 8; size -= 0.5) {
    ctx.font = `${size}px sans-serif`;
    if (ctx.measureText(title).width <= w - 8) break;
  }
  const m = ctx.measureText(title);
  ctx.fillStyle = "#222";
  ctx.fillText(title, w / 2, 4);
  ext.add(w / 2 - m.actualBoundingBoxLeft, 4 - m.actualBoundingBoxAscent, w / 2 + m.actualBoundingBoxRight,
          4 + m.actualBoundingBoxDescent);
}

const HELP = "3-D view. Drag or arrow keys: turn the view; wheel or + and −: zoom; double-click, Home or 0: reset";
let serial = 0;

function render({ model, el }) {
  const wrap = document.createElement("div");
  wrap.className = "armlab-scene";
  const canvas = document.createElement("canvas");
  canvas.className = "armlab-scene-canvas";
  canvas.tabIndex = 0;
  canvas.setAttribute("role", "img");
  canvas.title = HELP;
  const help = document.createElement("span");
  help.className = "armlab-sr-only";
  help.id = `armlab-scene-help-${++serial}-${Math.random().toString(36).slice(2, 8)}`;
  help.textContent = HELP;
  canvas.setAttribute("aria-describedby", help.id);
  const live = document.createElement("div");
  live.className = "armlab-sr-only";
  live.setAttribute("aria-live", "polite");
  wrap.append(canvas, help, live);
  el.appendChild(wrap);
  const named = () => {
    canvas.setAttribute("aria-label", model.get("label") || "3-D view");
    if (live.textContent !== model.get("status")) live.textContent = model.get("status");
  };
  const ctx = canvas.getContext("2d");
  let view = Object.assign({}, model.get("view"));

  function size() {
    const w = model.get("width"), h = model.get("height"), dpr = window.devicePixelRatio || 1;
    // at most the container's width (reflow at 200 % zoom): the height follows the canvas's own aspect
    canvas.style.width = w + "px"; canvas.style.height = "auto";
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
    }
    return [w, h, dpr];
  }

  // The scale: the kernel's fit points fill the starting view, shrunk only as far as the drawing needs to stay
  // inside the canvas in that view (an arrow or an ellipsoid reaching past the fit points). Orbiting and
  // zooming keep it; a new scene may change it.
  function scaled(scene, w, h) {
    const home = model.get("view"), fit = fitting(scene, home, w, h);
    const P = projector(scene, {azim: home.azim, elev: home.elev, zoom: 1}, fit);
    const box = scene.box ? boxParts(ctx, scene, P) : {edges: [], labels: []};
    const s = shrink(fit, w, h, collect(scene, P), texts(ctx, scene, P).concat(box.labels), box.edges);
    return Object.assign({}, fit, {k: fit.k * s});
  }

  let text = null, scene = null, fit = null, fitFor = null;
  function draw() {
    if (model.get("scene") !== text) { text = model.get("scene"); scene = JSON.parse(text); fit = null; }
    const [w, h, dpr] = size();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = "#ffffff"; ctx.fillRect(0, 0, w, h);
    if (!scene || !scene.items) return;
    ctx.lineCap = "round"; ctx.lineJoin = "round";
    const key = JSON.stringify([model.get("view"), w, h]);
    if (!fit || fitFor !== key) { fit = scaled(scene, w, h); fitFor = key; }
    const P = projector(scene, view, fit), ext = extent();
    const box = scene.box ? boxParts(ctx, scene, P) : {edges: [], labels: []};
    if (scene.box) {
      drawEdges(ctx, box.edges, ext);
      drawTexts(ctx, box.labels, ext, false);
    }
    drawPrims(ctx, collect(scene, P), ext);
    const labels = texts(ctx, scene, P);
    canvas.dataset.overlaps = String(declutter(labels, box.labels, w, h, fit.top));
    drawTexts(ctx, labels, ext, true);
    if (scene.title) drawTitle(ctx, scene.title, w, ext);
    canvas.dataset.extent = ext.e.map(v => (Number.isFinite(v) ? v.toFixed(1) : "0")).join(",");
  }

  // drag to orbit, wheel to zoom, double-click to reset (the view is the browser's; the kernel keeps its own)
  let drag = null;
  canvas.addEventListener("pointerdown", (e) => {
    drag = {x: e.clientX, y: e.clientY, azim: view.azim, elev: view.elev};
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!drag) return;
    view.azim = drag.azim - 0.5 * (e.clientX - drag.x);
    view.elev = Math.max(-90, Math.min(90, drag.elev + 0.5 * (e.clientY - drag.y)));
    draw();
  });
  const end = () => { drag = null; };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    view.zoom = Math.max(0.2, Math.min(8, view.zoom * Math.exp(-0.0015 * e.deltaY)));
    draw();
  }, {passive: false});
  canvas.addEventListener("dblclick", () => { view = Object.assign({}, model.get("view")); draw(); });
  // keys only while the canvas has the focus; the ones used are kept from JupyterLab (its "0 0" restarts
  // the kernel, its arrows move between cells)
  canvas.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key, turn = e.shiftKey ? 1 : 5;
    if (k === "ArrowLeft") view.azim += turn;
    else if (k === "ArrowRight") view.azim -= turn;
    else if (k === "ArrowUp") view.elev = Math.min(90, view.elev + turn);
    else if (k === "ArrowDown") view.elev = Math.max(-90, view.elev - turn);
    else if (k === "+" || k === "=") view.zoom = Math.min(8, view.zoom * 1.15);
    else if (k === "-" || k === "_" || k === "−") view.zoom = Math.max(0.2, view.zoom / 1.15);
    else if (k === "Home" || k === "0") view = Object.assign({}, model.get("view"));
    else return;
    e.preventDefault(); e.stopPropagation();
    draw();
  });

  model.on("change:scene", draw);
  model.on("change:view", () => { view = Object.assign({}, model.get("view")); draw(); });
  model.on("change:width", draw);
  model.on("change:height", draw);
  model.on("change:label", named);
  model.on("change:status", named);
  named();
  draw();
  return () => model.off(null, null, null);
}

export default { render };
