// The frames drawn to scale: one SVG rect per view, in document units (the viewBox), so a
// rect's x, y, width and height are the view's frame in the root's coordinates; the
// scale (screen pixels per point) is on the svg as data-scale.

const NS = "http://www.w3.org/2000/svg";
const PADDING_PX = 12;
const MAX_SCALE = 2;

function element(name, attributes = {}) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  return e;
}

export class Canvas {
  constructor(svg, { onPointerDown }) {
    this.svg = svg;
    this.onPointerDown = onPointerDown;
    this.rects = new Map();
    this.labels = new Map();
    this.views = [];
    this.scale = 1;
  }

  // Absolute frames: each view's frame plus its ancestors' origins.
  absolute(frames) {
    const out = new Map();
    const parentOf = this.parentOf;
    const place = (id) => {
      if (out.has(id)) return out.get(id);
      const f = frames.get(id);
      if (!f) return null;
      const p = parentOf.get(id);
      const origin = p ? place(p) : null;
      const a = { x: f.x + (origin ? origin.x : 0), y: f.y + (origin ? origin.y : 0), width: f.width, height: f.height };
      out.set(id, a);
      return a;
    };
    for (const v of this.views) place(v.id);
    return out;
  }

  // A new document: rects built in tree order (parents below children), the scale fitted to the width.
  reset(views, frames, availableWidth) {
    this.views = views;
    this.parentOf = new Map(views.filter((v) => v.parent).map((v) => [v.id, v.parent]));
    const depth = new Map();
    const depthOf = (id) => {
      if (!depth.has(id)) depth.set(id, this.parentOf.has(id) ? depthOf(this.parentOf.get(id)) + 1 : 0);
      return depth.get(id);
    };
    const ordered = [...views].sort((a, b) => depthOf(a.id) - depthOf(b.id));
    const abs = this.absolute(frames);
    let minX = 0, minY = 0, maxX = 1, maxY = 1;
    for (const a of abs.values()) {
      minX = Math.min(minX, a.x); minY = Math.min(minY, a.y);
      maxX = Math.max(maxX, a.x + a.width); maxY = Math.max(maxY, a.y + a.height);
    }
    this.scale = Math.min(MAX_SCALE, Math.max(0.05, (availableWidth - 2 * PADDING_PX) / (maxX - minX)));
    const pad = PADDING_PX / this.scale;
    const w = maxX - minX + 2 * pad, h = maxY - minY + 2 * pad;
    this.svg.replaceChildren();
    this.svg.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${w} ${h}`);
    this.svg.setAttribute("width", String(w * this.scale));
    this.svg.setAttribute("height", String(h * this.scale));
    this.svg.dataset.scale = String(this.scale);
    this.rects.clear();
    this.labels.clear();
    this.ghosts = element("g", { class: "ghosts" });
    for (const v of ordered) {
      const rect = element("rect", { "data-view-id": v.id, class: v.kind === "guide" ? "view guide" : "view" });
      const title = element("title");
      title.textContent = v.id;
      rect.append(title);
      rect.addEventListener("pointerdown", (event) => this.onPointerDown(v.id, event));
      const label = element("text", { class: "label", "font-size": String(11 / this.scale) });
      label.textContent = v.id;
      this.svg.append(rect, label);
      this.rects.set(v.id, rect);
      this.labels.set(v.id, label);
    }
    this.svg.append(this.ghosts);
    this.update(frames);
  }

  update(frames) {
    const abs = this.absolute(frames);
    for (const [id, rect] of this.rects) {
      const a = abs.get(id), f = frames.get(id);
      if (!a) continue;
      rect.setAttribute("x", a.x); rect.setAttribute("y", a.y);
      rect.setAttribute("width", Math.max(0, a.width)); rect.setAttribute("height", Math.max(0, a.height));
      rect.classList.toggle("hidden", Boolean(f.hidden));
      const label = this.labels.get(id);
      label.setAttribute("x", a.x + 3 / this.scale);
      label.setAttribute("y", a.y + 12 / this.scale);
      label.style.display = a.width * this.scale > 28 && a.height * this.scale > 14 ? "" : "none";
    }
  }

  // Classes that follow diagnostics and selection: a map from class to the view ids that carry it.
  mark(marks) {
    for (const [id, rect] of this.rects) {
      for (const [cls, ids] of Object.entries(marks)) rect.classList.toggle(cls, ids.has(id));
    }
  }

  // Another valid layout (exercise-ambiguity), drawn over the real one and not kept.
  showGhosts(frames, alternative) {
    this.ghosts.replaceChildren();
    const merged = new Map(frames);
    for (const [id, f] of Object.entries(alternative)) merged.set(id, f);
    const abs = this.absolute(merged);
    for (const id of Object.keys(alternative)) {
      const a = abs.get(id);
      if (a) this.ghosts.append(element("rect", { class: "ghost", "data-ghost-id": id, x: a.x, y: a.y, width: a.width, height: a.height }));
    }
  }

  clearGhosts() { this.ghosts && this.ghosts.replaceChildren(); }
}
