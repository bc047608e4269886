// The side panels: diagnostics, the constraint list, the selected view, the timeline.

function el(name, attributes = {}, ...children) {
  const e = document.createElement(name);
  for (const [k, v] of Object.entries(attributes)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

// A constraint as the document wrote it.
export function describe(c) {
  if (c.expr) return c.expr;
  if (c.visual) return c.visual + (c.options && c.options.length ? `  [${c.options.join(", ")}]` : "");
  const m = c.multiplier ?? 1, k = c.constant ?? 0;
  const second = c.second ? `${m === 1 ? "" : `${m} * `}${c.second}` : "";
  const constant = second ? (k === 0 ? "" : ` ${k < 0 ? "-" : "+"} ${Math.abs(k)}`) : String(k);
  const priority = c.priority !== undefined && c.priority !== 1000 ? ` @${c.priority}` : "";
  return `${c.first} ${c.relation ?? "=="} ${second}${constant}${priority}`;
}

// The views a constraint id names: its own items, its VFL group's views, or the view of
// an implicit constraint (`V.frame.width`, `V.hugging.h`).
export function viewsOf(id, document) {
  const byId = new Map((document.constraints || []).map((c) => [c.id, c]));
  const names = (c) => {
    if (c.visual) return [...c.visual.matchAll(/\[([^\](=<>]+)/g)].map((m) => m[1].trim());
    const text = c.expr || `${c.first} ${c.second || ""}`;
    return [...text.matchAll(/([A-Za-z0-9_-]+)\.[A-Za-z]+/g)].map((m) => m[1]);
  };
  if (byId.has(id)) return names(byId.get(id));
  const group = byId.get(id.slice(0, id.lastIndexOf(".")));
  if (group) return names(group);
  const implicit = id.match(/^(.+)\.(frame|hugging|compression)\.[a-z]+$/);
  return implicit ? [implicit[1]] : [];
}

export function renderDiagnostics(list, diagnostics, onPick) {
  list.replaceChildren();
  if (diagnostics.length === 0) list.append(el("li", { class: "empty", text: "None: the layout is satisfiable and unambiguous." }));
  for (const d of diagnostics) {
    const item = el("li", { "data-diagnostic-kind": d.kind, class: `diagnostic ${d.kind}` },
      el("strong", { text: d.kind }), " ", d.message);
    if (d.kind === "unsatisfiable") item.dataset.constraint = d.constraint;
    if (d.kind === "ambiguous") { item.dataset.view = d.view; item.dataset.axis = d.axis; }
    item.addEventListener("click", () => onPick(d));
    list.append(item);
  }
}

// Every constraint of the document; ids in a conflict set or broken are highlighted (a VFL
// group when one of its constraints is), and implicit ones the engine named are listed too.
export function renderConstraints(list, document, highlight) {
  list.replaceChildren();
  const listed = new Set();
  const classes = (id, members) => {
    const hit = (set) => set.has(id) || (members && [...set].some((x) => x.startsWith(`${id}.`)));
    return [hit(highlight.conflict) ? "conflict" : "", hit(highlight.broken) ? "broken" : ""].join(" ").trim();
  };
  for (const c of document.constraints || []) {
    listed.add(c.id);
    const item = el("li", { "data-constraint-id": c.id, class: classes(c.id, Boolean(c.visual)) },
      el("code", { class: "id", text: c.id }), " ", el("code", { text: describe(c) }));
    if (c.active === false) item.classList.add("inactive");
    list.append(item);
  }
  for (const id of highlight.conflict) {
    const group = id.slice(0, id.lastIndexOf("."));
    if (listed.has(id) || listed.has(group)) continue;
    list.append(el("li", { "data-constraint-id": id, class: `implicit ${classes(id, false)}` },
      el("code", { class: "id", text: id }), " ", el("em", { text: "implicit" })));
  }
}

// The selected view: its frame, explain on both axes (each constraint can be picked for a
// drag), its line in the trace, and the ambiguity exerciser.
export function renderInspector(box, info, handlers) {
  const { view, frame, explains, trace, ambiguous, drag, canExercise } = info;
  box.replaceChildren();
  box.dataset.view = view;
  box.append(el("p", {}, el("strong", { text: view }), " ",
    el("code", { class: "frame", text: frame ? `x ${frame.x}, y ${frame.y}, ${frame.width} × ${frame.height}` : "" }),
    ambiguous.length ? el("span", { class: "badge ambiguous", text: `ambiguous ${ambiguous.join(", ")}` }) : ""));
  for (const ex of explains) {
    const list = el("ul", { class: "explain", "data-axis": ex.axis });
    for (const c of ex.constraints) {
      const radio = el("input", { type: "radio", name: "drag", value: c.id, "data-drag-constraint": c.id, "data-axis": ex.axis,
        title: "drag the view to change this constraint's constant" });
      radio.checked = drag && drag.id === c.id;
      radio.addEventListener("change", () => handlers.onPickDrag(c, ex.axis));
      list.append(el("li", { class: c.broken ? "broken" : "" },
        el("label", {}, radio, " ", el("code", { text: c.description }),
          c.priority !== 1000 ? el("span", { class: "priority", text: ` @${c.priority}` }) : "",
          el("span", { class: `role ${c.role || (c.broken ? "broken" : "determining")}`, text: c.role || (c.broken ? "broken" : "") }))));
    }
    if (ex.constraints.length === 0) list.append(el("li", { class: "empty", text: "no constraint" }));
    box.append(el("h3", { text: `explain: ${ex.axis}` }), list);
  }
  const exercise = el("button", { type: "button", id: "exercise", text: "Exercise ambiguity" });
  exercise.disabled = !canExercise;
  exercise.addEventListener("click", handlers.onExercise);
  box.append(exercise);
  const pre = el("pre", { class: "trace" });
  for (const line of trace.split("\n")) {
    const name = line.replace(/^[\s|•]+/, "").split(" ")[0];
    pre.append(name === view ? el("mark", { text: line }) : line, "\n");
  }
  box.append(el("h3", { text: "trace" }), pre);
}

// One row a revision: what the engine did (from the server's timing) and what came back.
export class Timeline {
  constructor(table) {
    this.body = table.tBodies[0];
    this.peak = 1;
  }

  reset() { this.body.replaceChildren(); this.peak = 1; }

  add({ revision, timing, views, churn, roundTrip }) {
    const micros = timing ? timing.engineMicroseconds : null;
    if (micros !== null) this.peak = Math.max(this.peak, micros);
    const bar = el("span", { class: "bar" });
    bar.style.width = micros === null ? "0" : `${Math.round(40 * micros / this.peak)}px`;
    const cell = (text) => el("td", { text: text === null || text === undefined ? "–" : String(text) });
    const row = el("tr", { "data-revision": String(revision) },
      cell(revision), el("td", {}, bar, micros === null ? "–" : micros.toFixed(1)),
      cell(timing && timing.pivots), cell(timing && timing.rowsTouched), cell(views), cell(churn),
      cell(roundTrip === null ? null : roundTrip.toFixed(1)));
    this.body.prepend(row);
    while (this.body.rows.length > 200) this.body.deleteRow(-1);
  }
}
