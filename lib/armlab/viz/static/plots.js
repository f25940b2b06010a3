// armlab.viz plot column: a caption and small line plots, laid out by the kernel (armlab/viz/plots.py) and
// drawn here on canvases. The points arrive as one int16 buffer, tenths of a pixel: nothing to parse.
// Each canvas is role="img" named by the plot's summary (written by the kernel), and a "data as a table"
// disclosure under it shows the plot's numbers when opened.

const GAP = -32768;  // a left-out point
const DASH = { "": [], dashed: [5, 3], dotted: [1.5, 2], dashdot: [6, 2, 1.5, 2], longdash: [10, 3],
               dashdotdot: [6, 2, 1.5, 2, 1.5, 2] };

function fillTable(details, spec) {
  const [head, rows] = spec.table || [[], []];
  const table = document.createElement("table");
  const caption = document.createElement("caption");
  caption.className = "armlab-sr-only";
  caption.textContent = spec.title || "plot data";
  const tr = document.createElement("tr");
  for (const h of head) { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; tr.appendChild(th); }
  table.append(caption, tr);
  for (const row of rows) {
    const r = document.createElement("tr");
    for (const v of row) { const td = document.createElement("td"); td.textContent = v.replace("-", "−"); r.appendChild(td); }
    table.appendChild(r);
  }
  details.querySelector("table")?.remove();
  details.appendChild(table);
}

function drawPlot(canvas, spec, pts) {
  const dpr = window.devicePixelRatio || 1;
  const w = spec.width, h = spec.height;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
    canvas.style.width = `${w}px`; canvas.style.height = "auto";  // narrower in a narrow column: same aspect
  }
  canvas.setAttribute("aria-label", spec.alt || spec.title || "plot");
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const [left, top, bw, bh] = spec.box;
  ctx.fillStyle = "white"; ctx.fillRect(left, top, bw, bh);
  ctx.lineWidth = 1; ctx.strokeStyle = "#bbb"; ctx.setLineDash([]);
  ctx.strokeRect(left + 0.5, top + 0.5, bw, bh);
  for (const [x1, y1, x2, y2, color, dash] of spec.lines) {
    ctx.strokeStyle = color; ctx.setLineDash(DASH[dash] || []);
    ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); ctx.stroke();
  }
  // 1 px: a line no wider than a device pixel takes the browser's fast path, 10x faster than 1.5 px
  // (5 ms against 0.5 ms for three lines of 1001 points, drawn without a GPU)
  ctx.lineWidth = 1.5;
  for (const [x, y, color, dash] of spec.legend || []) {  // the legend's samples: colour and dash of a series
    ctx.strokeStyle = color; ctx.setLineDash(DASH[dash] || []);
    ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + 16, y); ctx.stroke();
  }
  ctx.lineWidth = 1; ctx.lineJoin = "round";
  const n = spec.count;
  let drawn = 0, outside = 0;
  for (let k = 0; k < spec.colors.length; k++) {
    const row = (k + 1) * n;
    ctx.strokeStyle = spec.colors[k];
    ctx.setLineDash(DASH[(spec.dashes || [])[k]] || []);
    ctx.beginPath();
    let pen = false;
    for (let j = 0; j < n; j++) {
      const y = pts[row + j];
      if (y === GAP) continue;  // left out, as in the SVG form: the line joins its neighbours
      const px = pts[j] / 10, py = y / 10;
      if (pen) ctx.lineTo(px, py); else { ctx.moveTo(px, py); pen = true; }
      drawn++;
      if (px < left - 0.5 || px > left + bw + 0.5 || py < top - 0.5 || py > top + bh + 0.5) outside++;
    }
    ctx.stroke();
  }
  // what was drawn, for the page's tests: points drawn, and those outside the frame
  canvas.dataset.points = `${drawn},${outside}`;
  ctx.setLineDash([]);
  ctx.font = "11px sans-serif";
  const align = { start: "left", middle: "center", end: "right" };
  for (const [x, y, text, anchor, color, rotated] of spec.texts) {
    if (!text) continue;
    ctx.fillStyle = color || "black"; ctx.textAlign = align[anchor];
    if (rotated) {
      ctx.save(); ctx.translate(x + 6, y); ctx.rotate(-Math.PI / 2); ctx.fillText(text, -6, 0); ctx.restore();
    } else ctx.fillText(text, x, y);
  }
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "armlab-plots";
  const caption = document.createElement("div");
  caption.className = "armlab-plots-caption";
  root.appendChild(caption);
  el.appendChild(root);
  const figures = [];  // {title, canvas, shown: the title and note shown}

  let shown = null;  // the caption's HTML, parsed again only when it changes
  const draw = () => {
    const html = model.get("caption");
    if (html !== shown) {
      caption.innerHTML = html;
      caption.style.display = html ? "" : "none";
      shown = html;
    }
    const specs = JSON.parse(model.get("plots"));
    const view = model.get("points");
    // a copy: the buffer's offset need not be even, and an Int16Array needs it to be
    const data = view && view.byteLength
      ? new Int16Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength)) : new Int16Array(0);
    while (figures.length < specs.length) {
      const title = document.createElement("div");
      title.className = "armlab-plots-title";
      const canvas = document.createElement("canvas");
      canvas.className = "armlab-plots-canvas";
      canvas.setAttribute("role", "img");
      const details = document.createElement("details");
      details.className = "armlab-plots-data";
      const summary = document.createElement("summary");
      summary.textContent = "data as a table";
      details.appendChild(summary);
      const f = { title, canvas, details, spec: null };
      details.addEventListener("toggle", () => { if (details.open && f.spec) fillTable(details, f.spec); });
      root.append(title, canvas, details);
      figures.push(f);
    }
    while (figures.length > specs.length) {
      const f = figures.pop();
      f.title.remove(); f.canvas.remove(); f.details.remove();
    }
    let offset = 0;
    specs.forEach((spec, i) => {
      const f = figures[i], size = (spec.colors.length + 1) * spec.count;
      const head = `${spec.title}\n${spec.note}`;
      if (f.shown !== head) {  // a title written again would be laid out again
        const b = document.createElement("b");
        b.textContent = spec.title;
        f.title.replaceChildren(b, spec.note ? ` — ${spec.note}` : "");
        f.title.style.display = spec.title || spec.note ? "" : "none";
        f.shown = head;
      }
      drawPlot(f.canvas, spec, data.subarray(offset, offset + size));
      f.spec = spec;
      f.details.querySelector("summary").textContent = `data of “${spec.title || "the plot"}” as a table`;
      if (f.details.open) fillTable(f.details, spec);  // only an open table follows every move
      offset += size;
    });
  };
  // one message may change all three traits: draw once, after the last
  let queued = false;
  const schedule = () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; draw(); });
  };
  for (const name of ["caption", "plots", "points"]) model.on(`change:${name}`, schedule);
  draw();
  return () => model.off(null, null, null);
}

export default { render };
