// armlab.viz player: a Play/Pause button that steps ``value`` from min to max, one ``step`` every ``interval``
// ms, and a button back to the start. It replaces ipywidgets' Play, whose icon-only buttons have no name.
// Nothing moves until the person presses Play; at max it stops (Play again starts from min).

function render({ model, el }) {
  const row = document.createElement("div");
  row.className = "armlab-player";
  row.setAttribute("role", "group");
  const play = document.createElement("button");
  play.type = "button";
  const start = document.createElement("button");
  start.type = "button";
  start.textContent = "⏮ start";
  row.append(play, start);
  el.appendChild(row);
  let timer = null;

  const show = () => {
    const what = model.get("description");
    row.setAttribute("aria-label", what);
    play.textContent = timer ? "⏸ pause" : "▶ play";
    play.setAttribute("aria-label", `${timer ? "pause" : "play"} ${what}`);
    start.setAttribute("aria-label", `back to the start of ${what}`);
    play.disabled = start.disabled = model.get("disabled");
  };
  const set = (v) => { model.set("value", v); model.save_changes(); };
  const stop = () => { if (timer) { clearInterval(timer); timer = null; } show(); };
  const tick = () => {
    const next = model.get("value") + model.get("step");
    if (next > model.get("max")) { stop(); return; }
    set(next);
  };
  play.addEventListener("click", () => {
    if (timer) { stop(); return; }
    if (model.get("value") + model.get("step") > model.get("max")) set(model.get("min"));
    timer = setInterval(tick, Math.max(10, model.get("interval")));
    show();
  });
  start.addEventListener("click", () => { stop(); set(model.get("min")); });
  for (const name of ["description", "disabled"]) model.on(`change:${name}`, show);
  show();
  return () => { stop(); model.off(null, null, null); };
}

export default { render };
