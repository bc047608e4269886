#!/usr/bin/env python3
"""Seeds of the JSON fuzz targets (`document`, `changes`, `put`, `http`) with every numeric
field at its extremes, and labels holding real text; and their dictionaries.

Each numeric field of a document, a change, a whole document sent again and a request (its
body's fields and query numbers) is set in turn to each of: 0, -0, a negative number, 1e308,
-1e308, 5e-324 and 1e300 (an integer field's too), and to one more token past what a field
takes (1e999, 10000000.5, 2^53 + 1, 20 digits...). Labels hold flags, ZWJ sequences,
noncharacters (escaped and raw), combining marks, bidi controls, CR LF, NUL and tags.

The `changes` and `put` seeds apply to the session every input of those targets starts from
(`Checks.base` in Fuzz/Targets.swift); the `http` seeds name the fuzz session
(`HTTPCheck.session`).

Deterministic: running it again writes the same files.
Run: python3 Fuzz/make_json_seeds.py   (it replaces the generated files of those corpora)
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "Corpus")
DICTS = os.path.join(HERE, "Dictionaries")
PREFIX = "gen-"
SESSION = "0123456789abcdef0123456789abcdef"

# Every field at each of these; then one more of the rest, in turn.
CORE = ["0", "-0", "-1", "1e308", "-1e308", "5e-324", "1e300"]
MORE = ["-0.0", "1e999", "-1e999", "10000000", "10000000.5", "-10000001", "9007199254740993", "100000000000000000000",
        "1e-400", "0.5", "1000.0000001", "-5e-324", "1E+308", "18446744073709551616", "123456789012345678901234567890e-10"]


class Raw:
    """A number written as given (json.dumps would write -0 as 0, or refuse 1e999)."""

    def __init__(self, text):
        self.text = text


def dumps(value):
    tokens = []

    def walk(v):
        if isinstance(v, Raw):
            tokens.append(v.text)
            return f"@@{len(tokens) - 1}@@"
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    text = json.dumps(walk(value), ensure_ascii=False, separators=(",", ":"))
    for k, t in enumerate(tokens):
        text = text.replace(f'"@@{k}@@"', t)
    return text


def at(value, path, new):
    """A deep copy of `value` with `path` (keys and indexes) set to `new`."""
    copy = json.loads(json.dumps(value))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copy


def values_for(k):
    """The core values and one more, different for each field."""
    return CORE + [MORE[k % len(MORE)]]


FLAGS = "Hi 🇫🇷 🇯🇵🇺🇦 #🇫"
TEXTS = {
    "flags": FLAGS,
    "zwj": "👨‍👩‍👧‍👦 🏳️‍🌈 👩🏽‍💻 ‍a‍",
    "noncharacters": "a\ufffeb\uffff \ufdd0 \U0010ffff",
    "combining": "\u0301a e\u0301\u0302\u0303 \u0301",
    "bidi": "\u202eevil\u202c \u05e9\u05dc\u05d5\u05dd \u2066x\u2069 \u0645\u0631\u062d\u0628\u0627",
    "crlf-nul": "one\r\ntwo\rthree\u0000four\u2028five\u0085",
    "tags-vs": "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f \u2764\ufe0f \u2764\ufe0e 1\ufe0f\u20e3",
    "thai-cjk-jamo": "ภาษาไทย 日本語の テキスト \u1100\u1161\u11a8 한국어",
    "empty": "",
    "spaces": "  \t \u00a0\u200b\u3000 ",
}
# Texts as JSON escapes (a surrogate pair, U+FFFE written out, a lone surrogate the parser refuses).
ESCAPED = {
    "escaped-pair": '"\\ud83c\\uddeb\\ud83c\\uddf7 \\ufffe \\u0000 \\u200d"',
    "escaped-lone-surrogate": '"a\\ud800b"',
    "escaped-low-surrogate": '"\\udc00"',
}

# The document target: every field it reads, in a small document.
DOCUMENT = {
    "options": {"layoutDirection": "ltr", "scale": 2},
    "views": [
        {"id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 480}, "margins": {"top": 8, "left": 8, "bottom": 8, "right": 8}},
        {"id": "a", "parent": "root", "intrinsicSize": {"width": 40, "height": 20}, "hugging": {"horizontal": 250, "vertical": 251},
         "compressionResistance": {"horizontal": 750, "vertical": 749}, "alignmentInsets": {"top": 0, "left": 1, "bottom": 2, "right": 3},
         "baseline": {"first": 15, "last": 16}},
        {"id": "t", "parent": "root", "text": {"string": FLAGS, "font": {"family": "DejaVu Sans", "size": 17, "weight": 400},
                                               "numberOfLines": 0, "lineHeight": 20, "lineBreak": "word"}},
        {"id": "s", "parent": "root", "kind": "stack", "stack": {"axis": "vertical", "spacing": 4, "arrangedSubviews": ["u"]}},
        {"id": "u", "parent": "s", "intrinsicSize": {"width": 10, "height": 10}},
    ],
    "constraints": [
        {"id": "c1", "first": "a.left", "relation": "==", "second": "root.left", "multiplier": 1, "constant": 20, "priority": 1000},
        {"id": "c2", "expr": "a.top == root.top + 10 @750"},
        {"id": "c3", "visual": "H:|-(m)-[t]-(n)-|", "metrics": {"m": 8, "n": 8}},
        {"expr": "t.top == a.bottom"},
        {"expr": "s.top == t.bottom + 4"},
        {"expr": "s.left == root.left"},
    ],
}
DOCUMENT_FIELDS = [
    ("options", "scale"), ("views", 0, "frame", "x"), ("views", 0, "frame", "width"), ("views", 0, "frame", "height"),
    ("views", 0, "margins", "top"), ("views", 1, "intrinsicSize", "width"), ("views", 1, "hugging", "horizontal"),
    ("views", 1, "compressionResistance", "vertical"), ("views", 1, "alignmentInsets", "left"), ("views", 1, "baseline", "first"),
    ("views", 2, "text", "font", "size"), ("views", 2, "text", "font", "weight"), ("views", 2, "text", "numberOfLines"),
    ("views", 2, "text", "lineHeight"), ("views", 3, "stack", "spacing"), ("constraints", 0, "multiplier"),
    ("constraints", 0, "constant"), ("constraints", 0, "priority"), ("constraints", 2, "metrics", "m"),
]
# Numbers inside constraint text (expr and VFL), where the parsers read them.
EXPR_TEXTS = ["a.top == root.top + {v} @750", "a.width == {v} * root.width", "a.top == root.top + 1 @{v}"]
VFL_TEXTS = ["H:|-({v})-[t]-(n)-|", "H:|-(m)-[t(>={v}@{v})]-(n)-|"]

# The base session of the changes and put targets (Checks.base): views root, a, b, g;
# constraints row, top, bh, bt and four on g.
BASE = {
    "views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 480}},
              {"id": "a", "parent": "root", "intrinsicSize": {"width": 40, "height": 20}}, {"id": "b", "parent": "root"},
              {"id": "g", "parent": "root", "kind": "guide"}],
    "constraints": [{"id": "row", "visual": "H:|-[a]-8-[b(==a)]-|"}, {"id": "top", "expr": "a.top == root.top + 10"},
                    {"id": "bh", "expr": "b.height == a.height * 2 @750"}, {"id": "bt", "first": "b.top", "second": "a.bottom", "constant": 4},
                    {"expr": "g.left == root.left"}, {"expr": "g.top == root.top"}, {"expr": "g.width == 1"}, {"expr": "g.height == 1"}],
}
LABEL = {"id": "t", "parent": "root", "text": {"string": FLAGS, "font": {"family": "DejaVu Sans", "size": 13, "weight": 700},
                                              "numberOfLines": 0, "lineHeight": 16}}
CHANGES = [
    ("setConstant", {"ops": [{"op": "setConstant", "id": "top", "constant": 12}]}, ("ops", 0, "constant")),
    ("setPriority", {"ops": [{"op": "setPriority", "id": "bh", "priority": 250}]}, ("ops", 0, "priority")),
    ("baseRevision", {"baseRevision": 1, "ops": [{"op": "setConstant", "id": "bt", "constant": 6}]}, ("baseRevision",)),
    ("updateView-intrinsic", {"ops": [{"op": "updateView", "id": "a", "intrinsicSize": {"width": 40, "height": 20}}]},
     ("ops", 0, "intrinsicSize", "height")),
    ("updateView-frame", {"ops": [{"op": "updateView", "id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 480}}]},
     ("ops", 0, "frame", "width")),
    ("updateView-margins", {"ops": [{"op": "updateView", "id": "b", "margins": {"left": 3}}]}, ("ops", 0, "margins", "left")),
    ("updateView-hugging", {"ops": [{"op": "updateView", "id": "a", "hugging": {"horizontal": 750}}]}, ("ops", 0, "hugging", "horizontal")),
    ("addViews-size", {"ops": [{"op": "addViews", "views": [LABEL]}, {"op": "addConstraints", "constraints": [{"expr": "t.left == a.left"}, {"expr": "t.top == a.bottom"}, {"expr": "t.width == 50"}]}]},
     ("ops", 0, "views", 0, "text", "font", "size")),
    ("addViews-weight", {"ops": [{"op": "addViews", "views": [LABEL]}]}, ("ops", 0, "views", 0, "text", "font", "weight")),
    ("addViews-lines", {"ops": [{"op": "addViews", "views": [LABEL]}, {"op": "addConstraints", "constraints": [{"expr": "t.width == 30"}]}]},
     ("ops", 0, "views", 0, "text", "numberOfLines")),
    ("addViews-lineHeight", {"ops": [{"op": "addViews", "views": [LABEL]}]}, ("ops", 0, "views", 0, "text", "lineHeight")),
    ("addConstraints-multiplier", {"ops": [{"op": "addConstraints", "constraints": [{"first": "b.width", "second": "a.width", "multiplier": 2, "priority": 500}]}]},
     ("ops", 0, "constraints", 0, "multiplier")),
    ("addConstraints-constant", {"ops": [{"op": "addConstraints", "constraints": [{"first": "b.left", "second": "a.right", "constant": 2}]}]},
     ("ops", 0, "constraints", 0, "constant")),
    ("addConstraints-priority", {"ops": [{"op": "addConstraints", "constraints": [{"first": "b.width", "constant": 2, "priority": 500}]}]},
     ("ops", 0, "constraints", 0, "priority")),
    ("setOptions-scale", {"ops": [{"op": "setOptions", "options": {"scale": 3}}]}, ("ops", 0, "options", "scale")),
]
PUT_FIELDS = [("baseRevision",), ("views", 0, "frame", "width"), ("views", 1, "intrinsicSize", "width"), ("constraints", 3, "constant"),
              ("options", "scale"), ("views", 4, "text", "font", "size"), ("views", 4, "text", "numberOfLines")]
PUT_BASE = at(at(BASE, ("options",), {"scale": 2}), ("baseRevision",), 1)
PUT_BASE["views"].append(LABEL)
PUT_BASE["constraints"] += [{"expr": "t.left == a.left"}, {"expr": "t.top == a.bottom"}, {"expr": "t.width <= 60"}]

ROUTE_DOC = {"views": [{"id": "r", "frame": {"x": 0, "y": 0, "width": 320, "height": 480}},
                       {"id": "l", "parent": "r", "text": {"string": FLAGS, "font": {"family": "DejaVu Sans", "size": 17}, "numberOfLines": 0}}],
             "constraints": [{"expr": "l.left == r.left"}, {"expr": "l.top == r.top"}, {"expr": "l.width == 40"}]}
S = f"/v1/sessions/{SESSION}"
# (name, method, path with {v} for a query number, body builder for a body number or None)
REQUESTS = [
    ("render-scale", "POST", "/v1/render?scale={v}", lambda v: ROUTE_DOC),
    ("snapshot-scale", "GET", S + "/snapshot.png?scale={v}", None),
    ("frames-since", "GET", S + "/frames?since={v}", None),
    ("layout-sizes-width", "POST", "/v1/layout", lambda v: dict(ROUTE_DOC, sizes=[{"width": v, "height": 480}, {"device": "retina6_1", "scale": 3}])),
    ("layout-sizes-scale", "POST", "/v1/layout", lambda v: dict(ROUTE_DOC, sizes=[{"width": 320, "height": 480, "scale": v}])),
    ("render-sizes", "POST", "/v1/render", lambda v: dict(ROUTE_DOC, sizes=[{"width": 100, "height": v}, {"width": 200, "height": 100}])),
    ("frames-at", "POST", S + "/frames-at", lambda v: {"sizes": [{"width": v, "height": 480}]}),
    ("fitting-size", "POST", S + "/fitting-size", lambda v: {"view": "a", "targetSize": {"width": v, "height": 0}, "horizontalFittingPriority": 1000}),
    ("fitting-priority", "POST", S + "/fitting-size", lambda v: {"view": "b", "targetSize": {"width": 0, "height": 0}, "verticalFittingPriority": v}),
    ("fitting-size-once", "POST", "/v1/fitting-size", lambda v: {"document": ROUTE_DOC, "view": "l", "targetSize": {"width": v}}),
    ("compare-tolerance", "POST", "/v1/compare", lambda v: {"expected": {"frames": {"a": {"x": 0, "y": 0, "width": 1, "height": 1}}},
                                                             "actual": {"frames": {"a": {"x": v, "y": 0, "width": 1, "height": 1}}}, "tolerance": v}),
    ("constants", "POST", S + "/constants", lambda v: {"top": v}),
    ("changes-baseRevision", "POST", S + "/changes", lambda v: {"baseRevision": v, "ops": []}),
    ("put-baseRevision", "PUT", S + "/document", lambda v: dict(BASE, baseRevision=v)),
    ("session-label", "POST", "/v1/sessions", lambda v: at(ROUTE_DOC, ("views", 1, "text", "font", "size"), v)),
]
QUERY_VALUES = CORE + ["nan", "inf", "-inf", "0x10", "", "1e999", "abc", "1.5", "00001"]


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, PREFIX + name), "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


def request(method, path, body):
    head = f"{method} {path}\n"
    if body is None:
        return head + "\n"
    return head + "Content-Type: application/json\n\n" + (body if isinstance(body, str) else dumps(body))


def field_name(path):
    return ".".join(str(p) for p in path if not isinstance(p, int))


def main():
    for target in ["document", "changes", "put", "http"]:
        folder = os.path.join(CORPUS, target)
        for f in os.listdir(folder) if os.path.isdir(folder) else []:
            if f.startswith(PREFIX):
                os.remove(os.path.join(folder, f))
    counts = {}

    def seed(target, name, data):
        write(target, name, data)
        counts[target] = counts.get(target, 0) + 1

    # document: each field at each extreme; numbers in constraint text; labels of real text.
    for k, path in enumerate(DOCUMENT_FIELDS):
        for n, v in enumerate(values_for(k)):
            seed("document", f"{field_name(path)}-{n}", dumps(at(DOCUMENT, path, Raw(v))))
    for k, text in enumerate(EXPR_TEXTS):
        for n, v in enumerate(values_for(k)):
            seed("document", f"expr{k}-{n}", dumps(at(DOCUMENT, ("constraints", 1, "expr"), text.format(v=v))))
    for k, text in enumerate(VFL_TEXTS):
        for n, v in enumerate(values_for(k + 3)):
            seed("document", f"visual{k}-{n}", dumps(at(DOCUMENT, ("constraints", 2, "visual"), text.format(v=v))))
    for name, text in TEXTS.items():
        for mode in ["word", "char"]:
            doc = at(at(DOCUMENT, ("views", 2, "text", "string"), text), ("views", 2, "text", "lineBreak"), mode)
            seed("document", f"text-{name}-{mode}", dumps(doc))
    for name, escaped in ESCAPED.items():
        seed("document", f"text-{name}", dumps(at(DOCUMENT, ("views", 2, "text", "string"), "@@S@@")).replace('"@@S@@"', escaped))
    # changes: each op's numbers at each extreme; a label of each text added.
    for k, (name, body, path) in enumerate(CHANGES):
        for n, v in enumerate(values_for(k)):
            seed("changes", f"{name}-{n}", dumps(at(body, path, Raw(v))))
    for name, text in TEXTS.items():
        body = at(CHANGES[7][1], ("ops", 0, "views", 0, "text", "string"), text)
        seed("changes", f"text-{name}", dumps(at(body, ("ops", 0, "views", 0, "text", "lineBreak"), "char" if len(name) % 2 else "word")))
        seed("changes", f"retext-{name}", dumps({"ops": [{"op": "addViews", "views": [LABEL]},
                                                         {"op": "updateView", "id": "t", "text": dict(LABEL["text"], string=text)}]}))
    # put: the base document sent again with a field at each extreme; labels of real text.
    for k, path in enumerate(PUT_FIELDS):
        for n, v in enumerate(values_for(k)):
            seed("put", f"{field_name(path)}-{n}", dumps(at(PUT_BASE, path, Raw(v))))
    for name, text in TEXTS.items():
        seed("put", f"text-{name}", dumps(at(PUT_BASE, ("views", 4, "text", "string"), text)))
    # http: query numbers and body numbers of each route at each extreme; labels over HTTP.
    for k, (name, method, path, body) in enumerate(REQUESTS):
        values = QUERY_VALUES if "{v}" in path else values_for(k)
        for n, v in enumerate(values):
            seed("http", f"{name}-{n}", request(method, path.format(v=v), None if body is None else body(Raw(v or "0"))))
    for name in ["flags", "zwj", "noncharacters", "crlf-nul", "tags-vs"]:
        doc = at(ROUTE_DOC, ("views", 1, "text", "string"), TEXTS[name])
        seed("http", f"text-layout-{name}", request("POST", "/v1/layout", doc))
        seed("http", f"text-render-{name}", request("POST", "/v1/render?scale=2", at(doc, ("views", 1, "text", "lineBreak"), "char")))
        seed("http", f"text-changes-{name}", request("POST", S + "/changes", {"ops": [{"op": "addViews", "views": [
            dict(LABEL, text=dict(LABEL["text"], string=TEXTS[name]))]}]}))
    for path in ["/v1/fonts", "/v1/devices", "/readyz", "/openapi.yaml", "/", "/playground/app.js", S + "/snapshot.svg",
                 S + "/explain?view=a&axis=vertical", S + "/stream-ticket"]:
        seed("http", "get-" + path.strip("/").replace("/", "_").replace("?", "_").replace("&", "_")[-40:] or "get-root",
             request("POST" if path.endswith("ticket") else "GET", path, None))
    ib = ('<?xml version="1.0" encoding="UTF-8"?>\n<document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" '
          'targetRuntime="iOS.CocoaTouch"><device id="retina6_1" orientation="portrait"/><objects><view id="v"><rect key="frame" x="0" y="0" '
          'width="414" height="896"/><subviews><label text="Hi &#x1F1EB;&#x1F1F7; &#x1F468;&#x200D;&#x1F469;" numberOfLines="0" '
          'translatesAutoresizingMaskIntoConstraints="NO" id="l"><rect key="frame" x="20" y="60" width="40" height="40"/>'
          '<fontDescription key="fontDescription" type="system" pointSize="0.0"/></label></subviews><constraints>'
          '<constraint firstItem="l" firstAttribute="width" constant="40" id="w"/></constraints></view></objects></document>\n')
    for query in ["", "?contentSizes=stored", "?device=retina4_7&orientation=landscape", "?root=v&contentSizes=measured", "?device=nosuch"]:
        seed("http", "ib" + query.replace("?", "-").replace("&", "-").replace("=", "_"), "POST /v1/ib/layout" + query + "\nContent-Type: application/xml\n\n" + ib)
    write_dictionaries()
    print(", ".join(f"{t}: {n} seeds" for t, n in counts.items()))


KEYS = ["views", "constraints", "options", "id", "parent", "kind", "frame", "x", "y", "width", "height", "intrinsicSize", "hugging",
        "compressionResistance", "margins", "alignmentInsets", "baseline", "first", "last", "hidden", "text", "string", "font",
        "family", "size", "weight", "italic", "numberOfLines", "lineBreak", "lineHeight", "stack", "axis", "distribution", "alignment",
        "spacing", "arrangedSubviews", "layoutMarginsRelativeArrangement", "baselineRelativeArrangement", "relation", "second",
        "multiplier", "constant", "priority", "active", "expr", "visual", "metrics", "layoutDirection", "scale", "top", "left", "bottom",
        "right", "horizontal", "vertical", "baseRevision", "ops", "op", "ids", "sizes", "name", "device", "orientation"]
WORDS = ["guide", "stack", "view", "standard", "ltr", "rtl", "word", "char", "fill", "fillEqually", "fillProportionally", "equalSpacing",
         "equalCentering", "leading", "trailing", "center", "firstBaseline", "lastBaseline", "DejaVu Sans", "Inter", "==", "<=", ">=",
         "addViews", "removeViews", "updateView", "addConstraints", "removeConstraints", "setConstant", "setPriority", "activate",
         "deactivate", "setOptions", "retina6_1", "landscape", "portrait"]
HTTP_WORDS = ["GET ", "POST ", "PUT ", "DELETE ", "/v1/layout", "/v1/sessions", "/v1/render", "/v1/compare", "/v1/fitting-size", "/v1/fonts",
              "/v1/devices", "/v1/ib/layout", "/changes", "/document", "/constants", "/frames", "/frames-at", "/explain", "/trace",
              "/exercise-ambiguity", "/fitting-size", "/snapshot.svg", "/snapshot.png", "/stream", "/stream-ticket", "/" + SESSION,
              "?scale=", "?since=", "&axis=", "?view=", "?timing=true", "?contentSizes=stored", "Content-Type: application/json\n",
              "Content-Encoding: gzip\n", "Accept: image/png\n", "Accept: image/svg+xml\n", "Content-Type: application/xml\n",
              "targetSize", "horizontalFittingPriority", "verticalFittingPriority", "expected", "actual", "tolerance", "document"]


def write_dictionaries():
    os.makedirs(DICTS, exist_ok=True)
    numbers = CORE + MORE + ["-0", "1e-320", "2", "1000", "999", "1", "0.001", "16", "10000", "9007199254740991"]

    def quoted(s):
        return "".join(ch if 0x20 <= ord(ch) < 0x7F and ch not in '"\\' else f"\\x{ord(ch):02x}" for ch in s)

    texts = ["🇫🇷", "\u200d", "\ufffe", "\\ufffe", "\\ud83c\\uddeb", "\\ud800", "\\u0000", "\u0301", "\u202e", "\r\n"]
    for target in ["document", "changes", "put", "http"]:
        entries = [f'"\\"{k}\\":"' for k in KEYS] + [f'"\\"{w}\\""' for w in WORDS] + [f'"{n}"' for n in numbers]
        entries += [f'"{quoted(t.encode("utf-8").decode("latin-1"))}"' for t in texts]
        if target == "http":
            entries += [f'"{quoted(w)}"' for w in HTTP_WORDS]
        with open(os.path.join(DICTS, f"{target}.dict"), "w", encoding="ascii") as f:
            f.write(f"# The {target} target's dictionary: written by Fuzz/make_json_seeds.py.\n" + "\n".join(dict.fromkeys(entries)) + "\n")


if __name__ == "__main__":
    main()
