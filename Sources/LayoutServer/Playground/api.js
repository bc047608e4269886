// The server's HTTP and WebSocket API, as the page uses it. Every failure is an
// ApiProblem carrying the server's problem+json (status, title, detail, pointer).

export class ApiProblem extends Error {
  constructor(problem) {
    super(problem.detail || problem.title || `HTTP ${problem.status}`);
    this.problem = problem;
  }
}

// The API key the user typed, for a server run with --auth-file: kept in this tab's session
// storage (gone with the tab), sent as a header, never put in a URL.
const KEY = "layoutd.apiKey";
export const apiKey = {
  get: () => sessionStorage.getItem(KEY) || "",
  set: (key) => (key ? sessionStorage.setItem(KEY, key) : sessionStorage.removeItem(KEY)),
};

async function call(method, path, body, contentType = "application/json") {
  const init = { method, headers: {} };
  if (apiKey.get()) init.headers["Authorization"] = `Bearer ${apiKey.get()}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = contentType;
    init.body = typeof body === "string" || body instanceof ArrayBuffer ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiProblem({ status: 0, title: "the server cannot be reached", detail: String(e) });
  }
  const type = res.headers.get("Content-Type") || "";
  if (!res.ok) {
    const problem = type.includes("json") ? await res.json() : { status: res.status, title: await res.text() };
    throw new ApiProblem(problem);
  }
  if (res.status === 204) return null;
  return type.includes("json") ? res.json() : res.text();
}

// A picture of a document (at each of `sizes`): the SVG's text, or the PNG as a Blob.
async function picture(document, sizes, format) {
  const headers = { "Content-Type": "application/json", Accept: format === "png" ? "image/png" : "image/svg+xml" };
  if (apiKey.get()) headers["Authorization"] = `Bearer ${apiKey.get()}`;
  const res = await fetch("/v1/render", { method: "POST", headers, body: JSON.stringify({ ...document, sizes }) });
  if (!res.ok) throw new ApiProblem(await res.json().catch(() => ({ status: res.status, title: res.statusText })));
  return format === "png" ? res.blob() : res.text();
}

const sessionPath = (id) => `/v1/sessions/${encodeURIComponent(id)}`;

export const api = {
  createSession: (text) => call("POST", "/v1/sessions", text),
  session: (id) => call("GET", sessionPath(id)),
  frames: (id) => call("GET", `${sessionPath(id)}/frames`),
  // A whole document (with `baseRevision` beside its fields): the session becomes it by the difference.
  putDocument: (id, body) => call("PUT", `${sessionPath(id)}/document?timing=true`, body),
  deleteSession: (id) => call("DELETE", sessionPath(id)),
  explain: (id, view, axis) => call("GET", `${sessionPath(id)}/explain?view=${encodeURIComponent(view)}&axis=${axis}`),
  trace: (id) => call("GET", `${sessionPath(id)}/trace`),
  exerciseAmbiguity: (id) => call("POST", `${sessionPath(id)}/exercise-ambiguity`),
  devices: () => call("GET", "/v1/devices"),
  render: (document, sizes, format = "svg") => picture(document, sizes, format),
  // An Interface Builder document's bytes, laid out: each root's frames and layoutd document.
  ibLayout: (bytes, query) => call("POST", `/v1/ib/layout?${new URLSearchParams(query)}`, bytes, "application/xml"),
};

// A session's stream with one message in flight: set-constants made while a reply is
// awaited are merged (latest value per constraint) and go when it arrives, so a fast
// pointer never builds a queue the server has to work through.
// A WebSocket cannot carry the key: with one, the stream opens with a single-use ticket asked
// for with it (POST .../stream-ticket).
export class ConstantStream {
  constructor(sessionId, handlers) {
    this.socket = null;
    this.pending = null;
    this.sentAt = null;
    this.opened = this.open(sessionId, handlers);
  }

  async open(sessionId, { onReply, onProblem, onClose }) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let query = "timing=true";
    if (apiKey.get()) {
      const { ticket } = await call("POST", `${sessionPath(sessionId)}/stream-ticket`);
      query += `&ticket=${encodeURIComponent(ticket)}`;
    }
    this.socket = new WebSocket(`${scheme}//${location.host}${sessionPath(sessionId)}/stream?${query}`);
    const opened = new Promise((resolve, reject) => {
      this.socket.addEventListener("open", resolve, { once: true });
      this.socket.addEventListener("error", () => reject(new Error("the stream could not be opened")), { once: true });
    });
    this.socket.addEventListener("open", () => this.flush());
    this.socket.addEventListener("message", (event) => {
      const reply = JSON.parse(event.data);
      const roundTrip = performance.now() - this.sentAt;
      this.sentAt = null;
      if (reply.status && reply.title) onProblem(reply); else onReply(reply, roundTrip);
      this.flush();
      this.showIdle();
    });
    this.socket.addEventListener("close", () => onClose && onClose());
    return opened;
  }

  setConstants(values) {
    this.pending = Object.assign(this.pending || {}, values);
    this.flush();
    this.showIdle();
  }

  get idle() { return this.sentAt === null && this.pending === null; }

  // On the page, beside its revision: whether a set-constant is still in flight, so that a
  // reader (the browser test) can tell a settled revision from one about to change.
  showIdle() { document.body.dataset.streamIdle = String(this.idle); }

  flush() {
    if (this.sentAt !== null || this.pending === null || !this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify(this.pending));
    this.pending = null;
    this.sentAt = performance.now();
  }

  close() { if (this.socket) this.socket.close(); else this.opened.then(() => this.socket.close(), () => {}); }
}
