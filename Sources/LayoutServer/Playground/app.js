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
  laidOut: null,    // the editor's text the session was last made or put from
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

// The editor's text laid out. The first layout makes a session; after it the text is put
// whole into that session (PUT …/document) and the server applies only what differs, so the
// session, its revisions and its stream go on. Another example or scene makes a new session.
// One layout at a time: a second waits for the first.
let queue = Promise.resolve();
const serially = (run) => (queue = queue.catch(() => {}).then(run));

function layOut() {
  return serially(() => {
    const source = readEditor();
    if (!source) return;
    return state.session ? putDocument(source) : createSession(source.text);
  });
}

function layOutNew() {
  return serially(() => {
    const source = readEditor();
    if (source) return createSession(source.text);
  });
}

// The editor's text and its value, or null (the problem shown) when it is not JSON.
function readEditor() {
  clearProblem();
  const text = editor.value;
  try {
    return { text, parsed: JSON.parse(text) };
  } catch (e) {
    showProblem({ status: 0, title: "the document is not JSON", detail: e.message });
    return null;
  }
}

async function createSession(text, note = "") {
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
  state.laidOut = text;
  state.frames = new Map(Object.entries(created.frames));
  state.focus = null;
  document.body.dataset.session = created.session;
  showDocument(current.document);
  timeline.reset();
  timeline.add({ revision: created.revision, timing: null, views: state.frames.size, churn: 0, roundTrip: elapsed });
  setRevision(created.revision);
  setDiagnostics(created.diagnostics);
  status(`${note}${current.stats.views} views, ${current.stats.constraints} constraints: laid out in ${elapsed.toFixed(0)} ms`);
  openStream();
  await keepSelection();
}

// An edit: the whole document, at the revision the page shows, and only what changed comes back.
// `reread` is the note of a second try, after the session was read again.
async function putDocument(source, reread = null) {
  await streamSettled();
  const session = state.session;
  const started = performance.now();
  let answer, current;
  try {
    answer = await api.putDocument(session, withBaseRevision(source, state.revision));
    current = await api.session(session);
  } catch (e) {
    if (e instanceof ApiProblem) return recover(e.problem, source, reread !== null);
    throw e;
  }
  const elapsed = performance.now() - started;
  state.laidOut = source.text;
  mergeFrames(answer);
  showDocument(current.document);
  noteChange(answer, elapsed);
  status(`${reread || ""}revision ${answer.revision}: ${describeApplied(answer.applied)} in ${elapsed.toFixed(0)} ms`);
  if (!state.stream) openStream();
  await keepSelection();
}

// The editor's value with `baseRevision` beside its fields; what is not an object goes as
// typed, for the server to say so.
function withBaseRevision({ text, parsed }, revision) {
  const object = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
  return object ? { ...parsed, baseRevision: revision } : text;
}

// A refused edit. The session gone (404): the text becomes a new one. Changed by someone else
// (409): read again, drawn as it is, and the edit put once more over it. Anything else (422:
// a bad document) is shown at its place, and the last good layout stays.
async function recover(problem, source, retried) {
  if (problem.status === 404) {
    state.session = null;  // nothing left to delete
    return createSession(source.text, "the session was gone (deleted or expired), so this is a new one; ");
  }
  if (problem.status === 409 && !retried && await rereadSession()) {
    return putDocument(source, `the session had changed elsewhere (revision ${state.revision}), so it was read again; `);
  }
  showProblem(problem, source.text);
  status(`not applied: the session is as it was, at revision ${state.revision}`);
}

// The session as the server has it: its document, every frame, its revision.
async function rereadSession() {
  let current, frames;
  try {
    current = await api.session(state.session);
    frames = await api.frames(state.session);
  } catch (e) {
    if (e instanceof ApiProblem) { showProblem(e.problem); return false; }
    throw e;
  }
  state.frames = new Map(Object.entries(frames.frames));
  showDocument(current.document);
  setRevision(frames.revision);
  return true;
}

// What the server found to do, in words: "1 constant set, 2 views added".
const APPLIED = [
  ["addViews", "view added", "views added"], ["removeViews", "view removed", "views removed"],
  ["updateView", "view updated", "views updated"], ["addConstraints", "constraint added", "constraints added"],
  ["removeConstraints", "constraint removed", "constraints removed"], ["setConstant", "constant set", "constants set"],
  ["setPriority", "priority set", "priorities set"], ["activate", "constraint activated", "constraints activated"],
  ["deactivate", "constraint deactivated", "constraints deactivated"], ["setOptions", "options set", "options set"],
];

function describeApplied(applied = {}) {
  const said = APPLIED.filter(([op]) => applied[op] > 0).map(([op, one, many]) => `${applied[op]} ${applied[op] === 1 ? one : many}`);
  return said.length ? said.join(", ") : "nothing changed";
}

// A document drawn anew with the frames the page holds.
function showDocument(doc) {
  state.document = doc;
  strip.document = doc;
  canvas.reset(doc.views, state.frames, canvasWidth());
}

function openStream() {
  const stream = new ConstantStream(state.session, {
    onReply,
    onProblem: (problem) => showProblem(problem),
    onClose: () => {
      if (state.stream !== stream) return;
      state.stream = null;
      status("the stream closed: lay out again to reconnect");
    },
  });
  state.stream = stream;
}

// Until no set-constant is in flight (at most 2 s), so the revision the page knows is the session's.
async function streamSettled() {
  for (let i = 0; i < 100 && state.stream && !state.stream.idle; i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

// The selected view, explained again if it is still there; a picked drag is dropped.
async function keepSelection() {
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
  mergeFrames(reply);
  canvas.update(state.frames);
  noteChange(reply, roundTrip);
  if (state.selected) showFrame(state.selected);
}

// A change's answer (a stream reply, a PUT's): the views it removed and the frames it moved.
function mergeFrames(reply) {
  for (const id of reply.removed || []) state.frames.delete(id);
  for (const [id, frame] of Object.entries(reply.frames)) state.frames.set(id, frame);
}

// ... its revision, diagnostics and timeline row.
function noteChange(reply, roundTrip) {
  canvas.clearGhosts();
  setRevision(reply.revision);
  setDiagnostics(reply.diagnostics);
  const churn = reply.diagnostics.filter((d) => d.kind === "churn").length;
  timeline.add({ revision: reply.revision, timing: reply.timing, views: Object.keys(reply.frames).length, churn, roundTrip });
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
    syncEditor(current.document);
    highlight();
  } catch (e) {
    if (e instanceof ApiProblem) { showProblem(e.problem); return; }
    throw e;
  }
  if (state.selected === view) select(view);
}

// A drag moved a constant: the editor shows the session's document (unless it holds an edit not
// laid out yet), so that the next edit, put whole, keeps the constant where the drag left it.
function syncEditor(current) {
  if (editor.value !== state.laidOut) return;
  editor.value = JSON.stringify(current, null, 2);
  state.laidOut = editor.value;
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
  return layOutNew();
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
  return layOutNew();
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
$("run").addEventListener("click", () => layOut());
$("api-key").value = apiKey.get();
$("api-key").addEventListener("change", (e) => apiKey.set(e.target.value.trim()));
editor.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); layOut(); } });
window.addEventListener("pagehide", closeSession);

loadExample(new URLSearchParams(location.search).get("example")).then(() => { document.body.dataset.ready = "true"; });
