// The playground: a document editor, its frames drawn to scale, diagnostics, explain and
// trace for a selected view, and drags streamed as set-constants over the session's WebSocket.

import { api, ApiProblem, apiKey, ConstantStream } from "./api.js";
import { Canvas } from "./canvas.js";
import { examples } from "./examples.js";
import { locate } from "./pointer.js";
import { renderConstraints, renderDiagnostics, renderInspector, Timeline, viewsOf } from "./panels.js";
import { SizeStrip } from "./sizes.js";

const $ = (id) => document.getElementById(id);
const editor = $("editor");
const timeline = new Timeline($("timeline"));
const canvas = new Canvas($("canvas"), { onPointerDown });
const strip = new SizeStrip({
  picker: $("size-devices"), widths: $("size-widths"), button: $("size-draw"), strip: $("size-strip"),
  svgLink: $("size-svg"), pngLink: $("size-png"), onProblem: (problem) => showProblem(problem),
});

const state = {
  session: null,
  revision: 0,
  document: null,
  frames: new Map(),
  diagnostics: [],
  focus: null,      // an unsatisfiable diagnostic picked in the list: only its set is highlighted
  selected: null,
  drag: null,       // {id, view, axis, sign, value}: the constraint a drag changes
  stream: null,
};

// MARK: problems

function showProblem(problem, sourceText) {
  const box = $("problem");
  box.hidden = false;
  box.replaceChildren();
  const head = document.createElement("strong");
  head.textContent = `${problem.status || ""} ${problem.title || "error"}`.trim();
  box.append(head);
  if (problem.detail) box.append(document.createTextNode(` ${problem.detail}`));
  if (problem.pointer !== undefined) {
    const code = document.createElement("code");
    code.className = "pointer";
    code.textContent = problem.pointer === "" ? "(the whole body)" : problem.pointer;
    box.append(" at ", code);
    box.dataset.pointer = problem.pointer;
    const span = sourceText !== undefined && locate(sourceText, problem.pointer);
    if (span) {
      editor.setSelectionRange(span.start, span.end);
      const line = sourceText.slice(0, span.start).split("\n").length - 1;
      editor.scrollTop = Math.max(0, line * parseFloat(getComputedStyle(editor).lineHeight) - editor.clientHeight / 3);
      editor.classList.add("has-problem");
    }
  } else {
    delete box.dataset.pointer;
  }
  box.dataset.status = String(problem.status || 0);
}

function clearProblem() {
  $("problem").hidden = true;
  editor.classList.remove("has-problem");
}

function status(text) { $("status").textContent = text; }

// MARK: the session

async function layOut() {
  clearProblem();
  const text = editor.value;
  try {
    JSON.parse(text);
  } catch (e) {
    showProblem({ status: 0, title: "the document is not JSON", detail: e.message });
    return;
  }
  closeSession();
  const started = performance.now();
  let created, current;
  try {
    created = await api.createSession(text);
    current = await api.session(created.session);
  } catch (e) {
    if (e instanceof ApiProblem) { showProblem(e.problem, text); return; }
    throw e;
  }
  const elapsed = performance.now() - started;
  state.session = created.session;
  state.document = current.document;
  strip.document = current.document;
  state.frames = new Map(Object.entries(created.frames));
  state.focus = null;
  document.body.dataset.session = created.session;
  canvas.reset(current.document.views, state.frames, canvasWidth());
  timeline.reset();
  timeline.add({ revision: created.revision, timing: null, views: state.frames.size, churn: 0, roundTrip: elapsed });
  setRevision(created.revision);
  setDiagnostics(created.diagnostics);
  status(`${current.stats.views} views, ${current.stats.constraints} constraints: laid out in ${elapsed.toFixed(0)} ms`);
  state.stream = new ConstantStream(created.session, {
    onReply,
    onProblem: (problem) => showProblem(problem),
    onClose: () => { if (state.stream) status("the stream closed: lay out again to reconnect"); },
  });
  const keep = state.selected && state.frames.has(state.selected) ? state.selected : null;
  state.selected = null;
  state.drag = null;
  if (keep) await select(keep); else $("inspector").replaceChildren(Object.assign(document.createElement("p"), { className: "empty", textContent: "Nothing selected." }));
}

// The width the drawing may take: the pane's, less its padding, the svg's border and room
// for a scroll bar, so a tall document never scrolls sideways.
function canvasWidth() {
  const pane = $("canvas-pane");
  const style = getComputedStyle(pane);
  return pane.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2 - 16;
}

function closeSession() {
  if (state.stream) { const s = state.stream; state.stream = null; s.close(); }
  if (state.session) api.deleteSession(state.session).catch(() => {});
  state.session = null;
}

function setRevision(revision) {
  state.revision = revision;
  $("revision").textContent = String(revision);
  document.body.dataset.revision = String(revision);
}

function onReply(reply, roundTrip) {
  for (const [id, frame] of Object.entries(reply.frames)) state.frames.set(id, frame);
  canvas.update(state.frames);
  canvas.clearGhosts();
  setRevision(reply.revision);
  setDiagnostics(reply.diagnostics);
  const churn = reply.diagnostics.filter((d) => d.kind === "churn").length;
  timeline.add({ revision: reply.revision, timing: reply.timing, views: Object.keys(reply.frames).length, churn, roundTrip });
  if (state.selected) showFrame(state.selected);
}

// MARK: diagnostics and highlighting

function setDiagnostics(diagnostics) {
  state.diagnostics = diagnostics;
  if (state.focus && !diagnostics.some((d) => d.kind === "unsatisfiable" && d.constraint === state.focus.constraint)) state.focus = null;
  renderDiagnostics($("diagnostics"), diagnostics, (d) => {
    state.focus = d.kind === "unsatisfiable" && state.focus !== d ? d : null;
    if (d.kind === "ambiguous") select(d.view);
    highlight();
  });
  highlight();
}

function highlight() {
  const unsatisfiable = state.diagnostics.filter((d) => d.kind === "unsatisfiable" && (!state.focus || d.constraint === state.focus.constraint));
  const conflict = new Set(unsatisfiable.flatMap((d) => d.conflicts));
  const broken = new Set(unsatisfiable.map((d) => d.constraint));
  const conflictViews = new Set([...conflict].flatMap((id) => viewsOf(id, state.document)));
  canvas.mark({
    ambiguous: new Set(state.diagnostics.filter((d) => d.kind === "ambiguous").map((d) => d.view)),
    conflict: conflictViews,
    selected: new Set(state.selected ? [state.selected] : []),
    dragging: new Set(state.drag ? [state.drag.view] : []),
  });
  renderConstraints($("constraints"), state.document, { conflict, broken });
  for (const item of $("diagnostics").children) {
    item.classList.toggle("focused", Boolean(state.focus) && item.dataset.constraint === state.focus.constraint);
  }
}

// MARK: selection, explain, trace, ambiguity

async function select(view) {
  state.selected = view;
  highlight();
  const session = state.session;
  let explains, trace;
  try {
    explains = await Promise.all(["horizontal", "vertical"].map((axis) => api.explain(session, view, axis)));
    trace = await api.trace(session);
  } catch (e) {
    if (e instanceof ApiProblem) { showProblem(e.problem); return; }
    throw e;
  }
  if (session !== state.session || view !== state.selected) return;
  const ambiguous = state.diagnostics.filter((d) => d.kind === "ambiguous" && d.view === view).map((d) => d.axis);
  renderInspector($("inspector"), {
    view, frame: state.frames.get(view), explains, trace, ambiguous, drag: state.drag,
    canExercise: state.diagnostics.some((d) => d.kind === "ambiguous"),
  }, { onPickDrag: (c, axis) => pickDrag(view, c, axis), onExercise: exercise });
}

function showFrame(view) {
  const f = state.frames.get(view);
  const code = $("inspector").querySelector("code.frame");
  if (f && code) code.textContent = `x ${f.x}, y ${f.y}, ${f.width} × ${f.height}`;
}

// A drag changes the constant of `first = m × second + c`: the pointer's movement on the
// constraint's axis, signed so the view follows the pointer when it is the first item
// (and again flipped for leading/trailing in rtl, where a larger constant goes left).
function pickDrag(view, c, axis) {
  const description = c.description.trim();
  let sign = description.startsWith(`${view}.`) ? 1 : -1;
  const rtl = state.document.options && state.document.options.layoutDirection === "rtl";
  if (rtl && axis === "horizontal" && /\.(leading|trailing)\b/.test(description)) sign = -sign;
  state.drag = { id: c.id, view, axis, sign, value: constantOf(description) };
  highlight();
}

// The constant at the end of an explain description: `… + 8`, `… - 8` or `… == 40`.
function constantOf(description) {
  const text = description.replace(/\s*@[\d.]+\s*$/, "");
  const tail = text.match(/([+-])\s*(\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*$/i);
  if (tail) return (tail[1] === "-" ? -1 : 1) * Number(tail[2]);
  const only = text.match(/(?:==|<=|>=)\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*$/i);
  return only ? Number(only[1]) : 0;
}

async function exercise() {
  try {
    const other = await api.exerciseAmbiguity(state.session);
    canvas.showGhosts(state.frames, other.frames);
    status(`another valid layout: ${Object.keys(other.frames).join(", ") || "nothing"} moved (drawn dashed, not kept)`);
  } catch (e) {
    if (e instanceof ApiProblem) showProblem(e.problem); else throw e;
  }
}

// MARK: pointer: a click selects, a drag on the view of the picked constraint streams it

function onPointerDown(view, event) {
  event.preventDefault();
  event.stopPropagation();
  const target = event.currentTarget;
  target.setPointerCapture(event.pointerId);
  const origin = { x: event.clientX, y: event.clientY };
  const drag = state.drag && state.drag.view === view && state.stream ? state.drag : null;
  let moved = false;
  let value = drag ? drag.value : 0;
  const move = (e) => {
    const dx = (e.clientX - origin.x) / canvas.scale, dy = (e.clientY - origin.y) / canvas.scale;
    if (!moved && Math.hypot(e.clientX - origin.x, e.clientY - origin.y) < 3) return;
    moved = true;
    if (!drag) return;
    value = Math.round((drag.value + drag.sign * (drag.axis === "horizontal" ? dx : dy)) * 2) / 2;
    state.stream.setConstants({ [drag.id]: value });
  };
  const end = () => {
    target.removeEventListener("pointermove", move);
    target.removeEventListener("pointerup", end);
    target.removeEventListener("pointercancel", end);
    if (drag) drag.value = value;
    if (!moved) select(view);
    else if (drag) settle(view);
  };
  target.addEventListener("pointermove", move);
  target.addEventListener("pointerup", end);
  target.addEventListener("pointercancel", end);
}

// After a drag, once the last reply is in: the document (its constants moved) and explain again.
async function settle(view) {
  if (state.stream && !state.stream.idle) { setTimeout(() => settle(view), 20); return; }
  const session = state.session;
  try {
    const current = await api.session(session);
    if (session !== state.session) return;
    state.document = current.document;
    strip.document = current.document;
    highlight();
  } catch (e) {
    if (e instanceof ApiProblem) { showProblem(e.problem); return; }
    throw e;
  }
  if (state.selected === view) select(view);
}

// MARK: examples and start-up

function loadExample(name) {
  const example = examples.find((e) => e.name === name) || examples[0];
  $("example").value = example.name;
  editor.value = JSON.stringify(example.document, null, 2);
  const url = new URL(location.href);
  if (example === examples[0]) url.searchParams.delete("example"); else url.searchParams.set("example", example.name);
  history.replaceState(null, "", url);
  state.selected = null;
  return layOut();
}

// MARK: Interface Builder documents

// The document dropped in: each of its roots (scenes, top-level views, cells) as the server
// laid it out, one picked into the editor and kept as a session like any document.
const ib = { bytes: null, roots: [] };

async function loadIB() {
  if (!ib.bytes) return;
  clearProblem();
  const [device, orientation] = $("ib-device").value.split(":");
  const query = { contentSizes: "stored" };
  if (device) Object.assign(query, { device, orientation });
  try {
    ib.roots = (await api.ibLayout(ib.bytes, query)).roots;
  } catch (e) {
    if (e instanceof ApiProblem) { showProblem(e.problem); return; }
    throw e;
  }
  const picked = $("ib-scene").value;
  $("ib-scene").replaceChildren(...ib.roots.map((r) => new Option(`${r.kind} ${r.name}`, r.name)));
  $("ib-scene-label").hidden = ib.roots.length === 0;
  if (ib.roots.some((r) => r.name === picked)) $("ib-scene").value = picked;
  return showIBRoot();
}

function showIBRoot() {
  const root = ib.roots.find((r) => r.name === $("ib-scene").value) || ib.roots[0];
  if (!root) return;
  editor.value = JSON.stringify(root.document, null, 2);
  state.selected = null;
  return layOut();
}

$("ib-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  ib.bytes = await file.arrayBuffer();
  await loadIB();
  document.body.dataset.ib = "loaded";
});
$("ib-device").addEventListener("change", loadIB);
$("ib-scene").addEventListener("change", showIBRoot);
api.devices().then(({ devices }) => {
  strip.setDevices(devices);
  $("ib-device").append(new Option("as stored", ""),
    ...devices.map((d) => new Option(`${d.name} (${d.width} × ${d.height})`, `${d.id}:${d.orientation}`)));
}, () => {});

for (const e of examples) $("example").append(new Option(e.title, e.name));
$("example").addEventListener("change", (e) => loadExample(e.target.value));
$("run").addEventListener("click", layOut);
$("api-key").value = apiKey.get();
$("api-key").addEventListener("change", (e) => apiKey.set(e.target.value.trim()));
editor.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); layOut(); } });
window.addEventListener("pagehide", closeSession);

loadExample(new URLSearchParams(location.search).get("example")).then(() => { document.body.dataset.ready = "true"; });
