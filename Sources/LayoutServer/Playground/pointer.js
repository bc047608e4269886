// Where an RFC 6901 JSON pointer lands in a JSON text, so a problem can be shown at its
// place in the editor: the value's start and end offsets, or the deepest value found.

const unescape = (token) => token.replace(/~1/g, "/").replace(/~0/g, "~");

export function locate(text, pointer) {
  const path = pointer === "" ? [] : pointer.split("/").slice(1).map(unescape);
  let i = 0;
  const ws = () => { while (i < text.length && " \t\r\n".includes(text[i])) i++; };
  const string = () => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i));
  };
  // Skips one value; returns its span.
  const skip = () => {
    ws();
    const start = i;
    if (text[i] === '"') { string(); return { start, end: i }; }
    if (text[i] === "{" || text[i] === "[") {
      const close = text[i] === "{" ? "}" : "]";
      i++;
      ws();
      while (i < text.length && text[i] !== close) {
        if (close === "}") { ws(); string(); ws(); i++; }
        skip();
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
      return { start, end: i };
    }
    while (i < text.length && !",}] \t\r\n".includes(text[i])) i++;
    return { start, end: i };
  };
  let found = null;
  try {
    for (const token of path) {
      ws();
      const start = i;
      if (text[i] === "{") {
        i++;
        let hit = false;
        for (;;) {
          ws();
          if (text[i] === "}") break;
          const key = string();
          ws(); i++; ws();
          if (key === token) { hit = true; break; }
          skip(); ws();
          if (text[i] === ",") i++;
        }
        if (!hit) return found || { start, end: start + 1 };
      } else if (text[i] === "[") {
        i++;
        const index = Number(token);
        for (let k = 0; k < index; k++) {
          skip(); ws();
          if (text[i] !== ",") return found || { start, end: start + 1 };
          i++;
        }
      } else {
        return found;
      }
      ws();
      const save = i;
      found = skip();
      i = save;
    }
    if (path.length === 0) found = skip();
  } catch {
    return found;
  }
  return found;
}
