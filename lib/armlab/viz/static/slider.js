// armlab.viz slider: label, range track and an editable readout.
// The browser never sends back a value it was given: only what the person does travels to the kernel,
// so a value set from code (exact, off the step grid) is never overwritten by a snapped echo.
// Arrow keys move one step, Shift+arrow a tenth of a step; Shift+drag moves ten times finer.
// Accessible: the visible label names the track (<label for>) and the number box; the track's aria-valuetext
// reads "θ2 = 35.0°", "x = 0.578 m" (the unit from the description's "(unit)"); Enter in the number box
// takes the value and returns to the track, Escape drops the typing and returns to it.

let serial = 0;

// "θ2 (°)" → ["θ2", "°"]; "payload (kg)" → ["payload", "kg"]; "model error %" → ["model error", "%"]
function nameAndUnit(description) {
  const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(description) || /^(.*?)\s*(%)$/.exec(description);
  return m ? [m[1], m[2]] : [description, ""];
}

function spoken(description, text) {
  const [name, unit] = nameAndUnit(description);
  const tight = unit === "°" || unit === "%" || unit === "";
  return `${name} = ${text.replace("-", "−")}${tight ? unit : " " + unit}`;
}

function decimals(format) {
  const m = /\.(\d+)f/.exec(format || "");
  return m ? parseInt(m[1], 10) : 2;
}

function render({ model, el }) {
  const row = document.createElement("div");
  row.className = "armlab-slider";
  const id = `armlab-slider-${++serial}-${Math.random().toString(36).slice(2, 8)}`;
  const label = document.createElement("label");
  label.className = "armlab-slider-label";
  label.id = `${id}-label`;
  const track = document.createElement("input");
  track.type = "range";
  track.className = "armlab-slider-track";
  track.id = `${id}-track`;
  label.htmlFor = track.id;
  const readout = document.createElement("input");
  readout.type = "text";
  readout.className = "armlab-slider-readout";
  readout.spellcheck = false;
  readout.inputMode = "decimal";
  row.append(label, track, readout);
  el.appendChild(row);

  const clamp = (v) => Math.min(model.get("max"), Math.max(model.get("min"), v));
  const show = () => {
    const v = model.get("value");
    label.textContent = model.get("description");
    label.title = model.get("description");
    label.style.minWidth = model.get("description_width");  // wider when the text needs it (armlab.css)
    track.min = model.get("min"); track.max = model.get("max");
    track.step = "any";                      // the track holds any value; keys and drags use our steps
    track.value = v;
    track.disabled = readout.disabled = model.get("disabled");
    const text = v.toFixed(decimals(model.get("readout_format")));
    track.setAttribute("aria-valuetext", spoken(model.get("description"), text));
    readout.setAttribute("aria-label", `${model.get("description")}: type a value, Enter to set`);
    if (document.activeElement !== readout) readout.value = text;
  };
  const send = (v) => {
    v = clamp(v);
    if (v === model.get("value")) { show(); return; }
    model.set("value", v);
    model.save_changes();
    show();
  };
  const onGrid = (v) => {
    const step = model.get("step"), lo = model.get("min");
    return lo + Math.round((v - lo) / step) * step;
  };

  // keys: one step, or a tenth with Shift; Page keys ten steps; Home/End the ends
  track.addEventListener("keydown", (e) => {
    const step = model.get("step") * (e.shiftKey ? 0.1 : 1);
    const v = model.get("value");
    let next = null;
    if (e.key === "ArrowRight" || e.key === "ArrowUp") next = v + step;
    else if (e.key === "ArrowLeft" || e.key === "ArrowDown") next = v - step;
    else if (e.key === "PageUp") next = v + 10 * step;
    else if (e.key === "PageDown") next = v - 10 * step;
    else if (e.key === "Home") next = model.get("min");
    else if (e.key === "End") next = model.get("max");
    if (next === null) return;
    e.preventDefault();
    send(e.shiftKey ? Math.round(next / step) * step : onGrid(next));
  });

  // drag: the pointer position on the grid; with Shift, relative motion at a tenth of the speed
  let drag = null;
  track.addEventListener("pointerdown", (e) => {
    if (track.disabled) return;
    e.preventDefault();
    track.focus();
    track.setPointerCapture(e.pointerId);
    drag = {x: e.clientX, v: model.get("value")};
    if (!e.shiftKey) move(e);
  });
  const move = (e) => {
    if (!drag) return;
    const rect = track.getBoundingClientRect(), lo = model.get("min"), hi = model.get("max");
    const perPx = (hi - lo) / Math.max(rect.width - 16, 1);
    if (e.shiftKey) {
      send(drag.v + 0.1 * perPx * (e.clientX - drag.x));
    } else {
      const f = Math.min(1, Math.max(0, (e.clientX - rect.left - 8) / Math.max(rect.width - 16, 1)));
      send(onGrid(lo + f * (hi - lo)));
      drag = {x: e.clientX, v: model.get("value")};
    }
  };
  track.addEventListener("pointermove", move);
  const end = () => { drag = null; };
  track.addEventListener("pointerup", end);
  track.addEventListener("pointercancel", end);
  track.addEventListener("input", (e) => { e.stopPropagation(); show(); });  // the track never moves by itself

  readout.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {  // take the value (change fires on blur) and go back to the track
      e.preventDefault(); readout.blur(); track.focus();
    } else if (e.key === "Escape") {
      e.preventDefault(); dropped = true; track.focus(); dropped = false;
    }
    e.stopPropagation();  // typing a number is not a notebook shortcut
  });
  let dropped = false;  // Escape: the typing is not taken
  readout.addEventListener("change", () => {
    if (dropped) return;
    const v = parseFloat(readout.value.replace(",", "."));
    if (Number.isFinite(v)) send(v); else show();
  });
  readout.addEventListener("blur", show);

  for (const name of ["value", "min", "max", "step", "description", "disabled", "readout_format", "description_width"]) {
    model.on(`change:${name}`, show);
  }
  show();
  return () => model.off(null, null, null);
}

export default { render };
