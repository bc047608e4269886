// Ready documents: the first is laid out as the page opens; /?example=NAME opens another.

const card = {
  views: [
    { id: "card", frame: { x: 0, y: 0, width: 375, height: 120 } },
    { id: "avatar", parent: "card" },
    { id: "title", parent: "card", intrinsicSize: { width: 120, height: 20 } },
  ],
  constraints: [
    { id: "avatarLeading", expr: "avatar.leading == card.leading + 8" },
    { id: "avatarWidth", expr: "avatar.width == 40" },
    { id: "avatarSquare", expr: "avatar.height == avatar.width" },
    { id: "avatarTop", expr: "avatar.top == card.top + 8" },
    { id: "row", visual: "H:[avatar]-12-[title]-(>=8)-|", options: ["alignAllCenterY"] },
  ],
};

const vflRow = {
  views: [
    { id: "toolbar", frame: { x: 0, y: 0, width: 360, height: 60 } },
    { id: "back", parent: "toolbar", intrinsicSize: { width: 60, height: 32 } },
    { id: "heading", parent: "toolbar", intrinsicSize: { width: 120, height: 24 },
      hugging: { horizontal: 200, vertical: 250 } },
    { id: "done", parent: "toolbar", intrinsicSize: { width: 60, height: 32 } },
  ],
  constraints: [
    { id: "row", visual: "H:|-[back]-[heading]-[done(==back)]-|", options: ["alignAllCenterY"] },
    { id: "middle", expr: "back.centerY == toolbar.centerY" },
  ],
};

// The classic: Saturn is centred across, but nothing says where it is vertically.
const saturn = {
  views: [
    { id: "space", frame: { x: 0, y: 0, width: 320, height: 320 } },
    { id: "saturn", parent: "space" },
    { id: "ring", parent: "space" },
  ],
  constraints: [
    { id: "saturnWidth", expr: "saturn.width == 120" },
    { id: "saturnSquare", expr: "saturn.height == saturn.width" },
    { id: "saturnCentre", expr: "saturn.centerX == space.centerX" },
    { id: "ringWidth", expr: "ring.width == saturn.width + 80" },
    { id: "ringHeight", expr: "ring.height == 24" },
    { id: "ringCentreX", expr: "ring.centerX == saturn.centerX" },
    { id: "ringCentreY", expr: "ring.centerY == saturn.centerY" },
  ],
};

// A button with a fixed frame asked to be wider: the engine breaks one constraint.
const unsatisfiable = {
  views: [
    { id: "screen", frame: { x: 0, y: 0, width: 320, height: 200 } },
    { id: "button", parent: "screen", frame: { x: 20, y: 20, width: 100, height: 44 } },
    { id: "badge", parent: "screen" },
  ],
  constraints: [
    { id: "buttonWidth", expr: "button.width == 200" },
    { id: "badgeLeading", expr: "badge.leading == button.trailing + 8" },
    { id: "badgeTop", expr: "badge.top == button.top" },
    { id: "badgeSize", expr: "badge.width == 44" },
    { id: "badgeSquare", expr: "badge.height == badge.width" },
  ],
};

// A label measured by the server: drag "trailing" to narrow it and watch it re-wrap.
const label = {
  views: [
    { id: "card", frame: { x: 0, y: 0, width: 360, height: 220 } },
    { id: "avatar", parent: "card" },
    { id: "title", parent: "card",
      text: { string: "Ken Ferry liked your post about the internals of the layout engine",
              font: { family: "DejaVu Sans", size: 17, weight: 700 }, numberOfLines: 0 } },
    { id: "body", parent: "card",
      text: { string: "Each view is four variables. Adding a constraint is algebra, and a change updates exactly what depends on it.",
              font: { family: "DejaVu Sans", size: 14 }, numberOfLines: 0 } },
  ],
  constraints: [
    { expr: "avatar.leading == card.leading + 12" }, { expr: "avatar.top == card.top + 12" },
    { expr: "avatar.width == 40" }, { expr: "avatar.height == 40" },
    { expr: "title.leading == avatar.trailing + 10" }, { id: "trailing", expr: "title.trailing == card.trailing - 12" },
    { expr: "title.top == card.top + 12" },
    { expr: "body.leading == title.leading" }, { expr: "body.trailing == title.trailing" }, { expr: "body.top == title.bottom + 6" },
  ],
};

// A stack view (UIStackView): a toolbar of three buttons spaced equally, the middle one hidable.
const stack = {
  views: [
    { id: "screen", frame: { x: 0, y: 0, width: 360, height: 120 } },
    { id: "toolbar", parent: "screen", kind: "stack",
      stack: { axis: "horizontal", distribution: "equalSpacing", alignment: "center", spacing: 8,
               arrangedSubviews: ["back", "title", "share"] } },
    { id: "back", parent: "toolbar", intrinsicSize: { width: 44, height: 44 } },
    { id: "title", parent: "toolbar", text: { string: "Stack views", font: { family: "DejaVu Sans", size: 17 } } },
    { id: "share", parent: "toolbar", intrinsicSize: { width: 44, height: 32 } },
  ],
  constraints: [
    { expr: "toolbar.leading == screen.leading + 8" }, { id: "edge", expr: "toolbar.trailing == screen.trailing - 8" },
    { expr: "toolbar.top == screen.top + 20" },
  ],
};

// The feed of the benchmarks: each cell below the previous one (one dependent chain).
function feed(cells) {
  const views = [{ id: "root", frame: { x: 0, y: 0, width: 375, height: 12000 } }];
  const constraints = [];
  for (let i = 0; i < cells; i++) {
    const [c, a, t, d, b] = [`cell${i}`, `avatar${i}`, `title${i}`, `date${i}`, `body${i}`];
    const lines = 1 + (i * 7) % 4;
    views.push(
      { id: c, parent: "root" },
      { id: a, parent: c },
      { id: t, parent: c, intrinsicSize: { width: 90 + (i * 13) % 80, height: 20 } },
      { id: d, parent: c, intrinsicSize: { width: 48, height: 16 }, hugging: { horizontal: 750, vertical: 250 } },
      { id: b, parent: c, intrinsicSize: { width: 280, height: 18 * lines } },
    );
    constraints.push(
      { id: `${c}.top`, expr: i === 0 ? `${c}.top == root.top` : `${c}.top == cell${i - 1}.bottom` },
      { expr: `${c}.leading == root.leading` },
      { expr: `${c}.width == root.width` },
      { id: `${c}.row`, visual: `H:|-12-[${a}(40)]-10-[${t}]-(>=8)-[${d}]-12-|`, options: ["alignAllTop"] },
      { expr: `${a}.height == ${a}.width` },
      { expr: `${a}.top == ${c}.top + 12` },
      { expr: `${b}.top == ${t}.bottom + 6` },
      { expr: `${b}.leading == ${t}.leading` },
      { expr: `${b}.trailing == ${c}.trailing - 12` },
      { expr: `${c}.bottom == ${b}.bottom + 12 @750` },
      { expr: `${c}.bottom >= ${a}.bottom + 12` },
      { expr: `${c}.bottom >= ${b}.bottom + 12` },
    );
  }
  return { views, constraints };
}

export const examples = [
  { name: "card", title: "The README's card", document: card },
  { name: "vfl-row", title: "A VFL toolbar row", document: vflRow },
  { name: "saturn", title: "Ambiguous: Saturn", document: saturn },
  { name: "unsatisfiable", title: "Unsatisfiable: a fixed-frame button", document: unsatisfiable },
  { name: "label", title: "Labels measured by the server", document: label },
  { name: "stack", title: "A stack view", document: stack },
  { name: "feed", title: "A 100-cell feed", document: feed(100) },
];
