"""The client: `Client` for one-shot layouts and new sessions, `Session` for one session's
changes, `Stream` for its WebSocket. Answers are small dataclasses; problems (RFC 9457)
are raised as `LayoutdError`. Standard library HTTP (gzip both ways past 1 KiB), and
`websockets` for streams."""
from __future__ import annotations

import gzip
import json
import os
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union, overload
from urllib.parse import quote, urlencode

JSONObject = Dict[str, Any]


class LayoutdError(Exception):
    """A problem the server answered with: `status`, `type`, `title`, `detail`, the JSON
    pointer into the request (`pointer`, "" when the whole request is at fault), and
    `retry_after`: the seconds its `Retry-After` asks a client to wait before trying again
    (429 and 503), else None. A 502 (`/problems/outcome-unknown`) has none: read the session
    back before retrying."""

    def __init__(self, status: int, type: str, title: str, detail: str, pointer: str = "",
                 body: Optional[JSONObject] = None, retry_after: Optional[float] = None) -> None:
        super().__init__(f"{status} {title}: {detail}" + (f" (at {pointer})" if pointer else ""))
        self.status, self.type, self.title, self.detail, self.pointer = status, type, title, detail, pointer
        self.body = body or {}
        self.retry_after = retry_after

    @classmethod
    def from_problem(cls, status: int, body: JSONObject, retry_after: Optional[str] = None) -> "LayoutdError":
        seconds: Optional[float] = None
        if retry_after is not None:
            try:
                seconds = max(0.0, float(retry_after))
            except ValueError:   # an HTTP date: layoutd and its proxy send seconds
                seconds = None
        return cls(int(body.get("status", status)), str(body.get("type", "about:blank")), str(body.get("title", "")),
                   str(body.get("detail", "")), str(body.get("pointer", "")), body, seconds)


@dataclass(frozen=True)
class Frame:
    """A view's frame in its parent's coordinates."""
    x: float
    y: float
    width: float
    height: float
    hidden: bool = False

    @classmethod
    def from_json(cls, j: Mapping[str, Any]) -> "Frame":
        return cls(j["x"], j["y"], j["width"], j["height"], bool(j.get("hidden", False)))


@dataclass(frozen=True)
class Diagnostic:
    """`kind` (unsatisfiable, ambiguous, churn, …) and a `message`; the kind's own fields in `fields`
    (`constraint`, `conflicts` and, past the server's limit, `conflictsOmitted`; `view` and `axis`; `constraints` and `views`)."""
    kind: str
    message: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, j: Mapping[str, Any]) -> "Diagnostic":
        return cls(j["kind"], j.get("message", ""), {k: v for k, v in j.items() if k not in ("kind", "message")})


def _frames(j: Mapping[str, Any]) -> Dict[str, Frame]:
    return {view: Frame.from_json(f) for view, f in j.get("frames", {}).items()}


def _diagnostics(j: Mapping[str, Any]) -> List[Diagnostic]:
    return [Diagnostic.from_json(d) for d in j.get("diagnostics", [])]


@dataclass(frozen=True)
class LayoutResult:
    """A one-shot layout: every view's frame and the diagnostics."""
    frames: Dict[str, Frame]
    diagnostics: List[Diagnostic]


@dataclass(frozen=True)
class SizedLayout:
    """The layout at one of many sizes: the size (and device, orientation and safe area when
    it was a device), every view's frame, the diagnostics there."""
    name: str
    width: float
    height: float
    frames: Dict[str, Frame]
    diagnostics: List[Diagnostic]
    scale: Optional[float] = None
    device: Optional[str] = None
    orientation: Optional[str] = None
    safe_area: Optional[Dict[str, float]] = None


def _sized(j: Mapping[str, Any]) -> Dict[str, SizedLayout]:
    return {name: SizedLayout(name, float(a["width"]), float(a["height"]), _frames(a), _diagnostics(a), a.get("scale"),
                              a.get("device"), a.get("orientation"), a.get("safeArea"))
            for name, a in j["sizes"].items()}


@dataclass(frozen=True)
class ChangeResult:
    """A change's answer: the frames that changed, views removed, diagnostics, the new revision."""
    revision: int
    frames: Dict[str, Frame]
    removed: List[str]
    diagnostics: List[Diagnostic]
    added: List[str] = field(default_factory=list)
    coalesced: int = 1
    #: A document sent whole (`put`): how many items each op the server found carried.
    applied: Dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_json(cls, j: Mapping[str, Any]) -> "ChangeResult":
        return cls(j["revision"], _frames(j), list(j.get("removed", [])), _diagnostics(j), list(j.get("added", [])),
                   int(j.get("coalesced", 1)), dict(j.get("applied", {})))


@dataclass(frozen=True)
class FramesAnswer:
    """`GET /frames`: all frames, or those changed since a revision (`full` when all were sent)."""
    revision: int
    frames: Dict[str, Frame]
    removed: List[str]
    full: bool


@dataclass(frozen=True)
class ExplainedConstraint:
    id: str
    description: str
    priority: float
    broken: bool
    #: ``determining``, ``satisfied``, ``unsatisfied`` or ``broken`` (what it does for the view).
    role: str = "determining"


@dataclass(frozen=True)
class IBRoot:
    """One root of an Interface Builder document: a controller's view (`kind` ``scene``), a
    top-level view (``view``) or a cell's content view (``cell``)."""
    name: str
    kind: str
    root: str
    frames: Dict[str, Frame]
    diagnostics: List[Diagnostic]
    notes: List[str]
    document: JSONObject
    #: The problem layoutd answered this root's document with, when it refused it.
    error: Optional[JSONObject] = None


@dataclass(frozen=True)
class IBLayout:
    device: Optional[JSONObject]
    content_sizes: str
    roots: List[IBRoot]


class Client:
    """One layoutd server: `Client("http://127.0.0.1:8080")`; `api_key` for a server run with
    `--auth-file` (sent as `Authorization: Bearer`, on streams too); `ca_file` to trust an
    `https://` server's certificate authority beside the system's."""

    def __init__(self, base_url: str, timeout: float = 30.0, api_key: Optional[str] = None, ca_file: Optional[str] = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.api_key = api_key
        self.ssl_context = ssl.create_default_context(cafile=ca_file) if ca_file else None

    @property
    def auth_headers(self) -> Dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def request(self, method: str, path: str, body: Optional[Any] = None, query: Optional[Mapping[str, Any]] = None,
                expect_json: bool = True, raw: Optional[bytes] = None, content_type: str = "application/json",
                accept: str = "application/json", as_bytes: bool = False) -> Any:
        url = self.base_url + path + ("?" + urlencode(query) if query else "")
        headers = {"Accept-Encoding": "gzip", "Accept": accept, **self.auth_headers}
        data: Optional[bytes] = raw
        if body is not None:
            data = json.dumps(body, separators=(",", ":")).encode()
        if data is not None:
            headers["Content-Type"] = content_type
            if len(data) > 1024:
                data = gzip.compress(data, compresslevel=6)
                headers["Content-Encoding"] = "gzip"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout, context=self.ssl_context) as r:
                raw = r.read()
                if r.headers.get("Content-Encoding") == "gzip":
                    raw = gzip.decompress(raw)
                if as_bytes:
                    return raw
                if not expect_json:
                    return raw.decode()
                return json.loads(raw) if raw else None
        except urllib.error.HTTPError as e:
            raw = e.read()
            if e.headers.get("Content-Encoding") == "gzip":
                raw = gzip.decompress(raw)
            try:
                problem = json.loads(raw)
            except ValueError:
                problem = {"status": e.code, "title": e.reason, "detail": raw.decode(errors="replace")}
            raise LayoutdError.from_problem(e.code, problem, e.headers.get("Retry-After")) from None

    @overload
    def layout(self, document: Mapping[str, Any]) -> LayoutResult: ...

    @overload
    def layout(self, document: Mapping[str, Any], sizes: Sequence[Mapping[str, Any]]) -> Dict[str, SizedLayout]: ...

    def layout(self, document: Mapping[str, Any],
               sizes: Optional[Sequence[Mapping[str, Any]]] = None) -> Union[LayoutResult, Dict[str, SizedLayout]]:
        """`POST /v1/layout`: frames for a whole document; nothing is kept. With `sizes`
        (``{"width": 320, "height": 568}``, ``{"device": "retina6_12", "orientation": "landscape"}``),
        the layout at each, by name, in their order."""
        if sizes is not None:
            return _sized(self.request("POST", "/v1/layout", dict(document, sizes=list(sizes))))
        j = self.request("POST", "/v1/layout", document)
        return LayoutResult(_frames(j), _diagnostics(j))

    def render(self, document: Mapping[str, Any], sizes: Optional[Sequence[Mapping[str, Any]]] = None, format: str = "svg",
               scale: float = 1) -> bytes:
        """`POST /v1/render`: a picture of the document (at each of `sizes`, as one contact
        sheet), as SVG or PNG bytes (`format`, `scale` pixels a point for PNG)."""
        body = dict(document, sizes=list(sizes)) if sizes is not None else document
        png = format == "png"
        return self.request("POST", "/v1/render", body, query={"scale": scale} if png else None,
                            accept="image/png" if png else "image/svg+xml", as_bytes=True)

    def create_session(self, document: Mapping[str, Any]) -> "Session":
        """`POST /v1/sessions`: a session built from the document, with its first frames."""
        j = self.request("POST", "/v1/sessions", document)
        return Session(self, j["session"], j["revision"], _frames(j), _diagnostics(j))

    def fonts(self) -> List[JSONObject]:
        """The font families text can be set in: ``[{family, weights, italic}]``."""
        j = self.request("GET", "/v1/fonts")
        return list(j["fonts"])

    def fitting_size(self, document: Mapping[str, Any], view: str, target_size: Optional[Tuple[float, float]] = None,
                     horizontal_priority: float = 1000, vertical_priority: float = 50) -> Tuple[float, float]:
        """The size `view`'s subtree asks for in `document` (systemLayoutSizeFitting), one shot."""
        j = self.request("POST", "/v1/fitting-size", _fitting(view, target_size, horizontal_priority, vertical_priority, document))
        return (float(j["width"]), float(j["height"]))

    def layout_ib(self, document: Union[str, bytes, "os.PathLike[str]"], device: Optional[str] = None,
                  orientation: Optional[str] = None, root: Optional[str] = None,
                  content_sizes: Optional[str] = None) -> "IBLayout":
        """`POST /v1/ib/layout`: an Interface Builder document (a path, or its bytes) laid out,
        each root's frames by IB ids; `root.document` is what `create_session` keeps."""
        if isinstance(document, bytes):
            data = document
        else:
            with open(document, "rb") as f:
                data = f.read()
        query = {k: v for k, v in [("device", device), ("orientation", orientation), ("root", root),
                                   ("contentSizes", content_sizes)] if v is not None}
        j = self.request("POST", "/v1/ib/layout", raw=data, content_type="application/xml", query=query or None)
        roots = [IBRoot(r["name"], r["kind"], r["root"], _frames(r) if "frames" in r else {}, _diagnostics(r) if "diagnostics" in r else [],
                        list(r["notes"]), r["document"], r.get("error")) for r in j["roots"]]
        return IBLayout(j.get("device"), j["contentSizes"], roots)

    def devices(self) -> List[JSONObject]:
        """The devices IB documents are laid out on, each orientation: ``[{id, name, orientation, width, height, scale, safeArea}]``."""
        return list(self.request("GET", "/v1/devices")["devices"])

    def session(self, session_id: str) -> "Session":
        """An existing session, by id (its revision read from the server)."""
        j = self.request("GET", f"/v1/sessions/{quote(session_id)}")
        return Session(self, session_id, j["revision"], {}, [])


class Session:
    """One session: `id`, `revision` (kept up to date by every answer), and the frames and
    diagnostics of its creation (`first_frames`, `first_diagnostics`)."""

    def __init__(self, client: Client, id: str, revision: int, frames: Dict[str, Frame],
                 diagnostics: List[Diagnostic]) -> None:
        self.client, self.id, self.revision = client, id, revision
        self.first_frames, self.first_diagnostics = frames, diagnostics
        self.path = f"/v1/sessions/{quote(id)}"

    def _answer(self, j: Mapping[str, Any]) -> ChangeResult:
        result = ChangeResult.from_json(j)
        self.revision = result.revision
        return result

    def changes(self, ops: Sequence[Mapping[str, Any]], base_revision: Optional[int] = None) -> ChangeResult:
        """Ops applied in order, all or nothing; with `base_revision`, 409 unless it is current."""
        body: JSONObject = {"ops": list(ops)}
        if base_revision is not None:
            body["baseRevision"] = base_revision
        return self._answer(self.client.request("POST", self.path + "/changes", body))

    def put(self, document: Mapping[str, Any], base_revision: Optional[int] = None) -> ChangeResult:
        """The whole new document (`PUT .../document`): the server applies what differs as one
        change; `applied` says what it found. With `base_revision`, 409 unless it is current."""
        return self._answer(self.client.request("PUT", self.path + "/document", _put_body(document, base_revision)))

    def set_constants(self, constants: Mapping[str, float]) -> ChangeResult:
        """The set-constant fast path: `{"constraintId": constant, ...}`."""
        return self._answer(self.client.request("POST", self.path + "/constants", dict(constants)))

    def frames(self, since: Optional[int] = None) -> FramesAnswer:
        j = self.client.request("GET", self.path + "/frames", query=None if since is None else {"since": since})
        return FramesAnswer(j["revision"], _frames(j), list(j.get("removed", [])), bool(j.get("full", since is None)))

    def document(self) -> JSONObject:
        """The current document (as `GET /v1/sessions/{id}` returns it)."""
        document: JSONObject = self.client.request("GET", self.path)["document"]
        return document

    def fitting_size(self, view: str, target_size: Optional[Tuple[float, float]] = None,
                     horizontal_priority: float = 1000, vertical_priority: float = 50) -> Tuple[float, float]:
        """The size `view`'s subtree asks for (systemLayoutSizeFitting); the session does not change."""
        j = self.client.request("POST", self.path + "/fitting-size", _fitting(view, target_size, horizontal_priority, vertical_priority))
        return (float(j["width"]), float(j["height"]))

    def frames_at(self, sizes: Sequence[Mapping[str, Any]]) -> Dict[str, SizedLayout]:
        """The session laid out at each size, by name (`POST .../frames-at`); it does not change."""
        return _sized(self.client.request("POST", self.path + "/frames-at", {"sizes": list(sizes)}))

    def snapshot(self, format: str = "svg", scale: float = 1) -> bytes:
        """A picture of the session as it is (`snapshot.svg` or `snapshot.png`)."""
        return self.client.request("GET", f"{self.path}/snapshot.{format}", query={"scale": scale} if format == "png" else None,
                                   accept="image/png" if format == "png" else "image/svg+xml", as_bytes=True)

    def explain(self, view: str, axis: str) -> List[ExplainedConstraint]:
        j = self.client.request("GET", self.path + "/explain", query={"view": view, "axis": axis})
        return [ExplainedConstraint(c["id"], c["description"], c["priority"], c["broken"], c.get("role", "determining"))
                for c in j["constraints"]]

    def trace(self) -> str:
        return str(self.client.request("GET", self.path + "/trace", expect_json=False))

    def exercise_ambiguity(self) -> Dict[str, Frame]:
        """Another optimal layout of the ambiguous views; not kept."""
        return _frames(self.client.request("POST", self.path + "/exercise-ambiguity"))

    def delete(self) -> None:
        self.client.request("DELETE", self.path)

    def stream(self) -> "Stream":
        """`with session.stream() as s: s.set_constants({...})`: changes over a WebSocket."""
        return Stream(self)


class Stream:
    """A session's WebSocket: each message a change, each reply its answer, in order."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._opening: Any = None
        self._socket: Any = None

    def __enter__(self) -> "Stream":
        from websockets.sync.client import connect
        url = self.session.client.base_url.replace("http", "ws", 1) + self.session.path + "/stream"
        client = self.session.client
        self._opening = connect(url, open_timeout=client.timeout, additional_headers=client.auth_headers or None,
                                ssl=client.ssl_context if url.startswith("wss:") else None)
        self._socket = self._opening.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        if self._opening is not None:
            self._opening.__exit__(None, None, None)
            self._opening = self._socket = None

    def _send(self, body: Mapping[str, Any]) -> ChangeResult:
        if self._socket is None:
            raise RuntimeError("the stream is not open: use `with session.stream() as s:`")
        self._socket.send(json.dumps(body, separators=(",", ":")))
        j = json.loads(self._socket.recv(timeout=self.session.client.timeout))
        if "revision" not in j and "status" in j:
            raise LayoutdError.from_problem(int(j["status"]), j)
        return self.session._answer(j)

    def set_constants(self, constants: Mapping[str, float]) -> ChangeResult:
        return self._send(dict(constants))

    def changes(self, ops: Sequence[Mapping[str, Any]], base_revision: Optional[int] = None) -> ChangeResult:
        body: JSONObject = {"ops": list(ops)}
        if base_revision is not None:
            body["baseRevision"] = base_revision
        return self._send(body)

    def put(self, document: Mapping[str, Any], base_revision: Optional[int] = None) -> ChangeResult:
        """A whole document, as `Session.put`."""
        body: JSONObject = {"document": dict(document)}
        if base_revision is not None:
            body["baseRevision"] = base_revision
        return self._send(body)


def _put_body(document: Mapping[str, Any], base_revision: Optional[int]) -> JSONObject:
    body: JSONObject = dict(document)
    if base_revision is not None:
        body["baseRevision"] = base_revision
    return body


def _fitting(view: str, target_size: Optional[Tuple[float, float]], horizontal: float, vertical: float,
             document: Optional[Mapping[str, Any]] = None) -> JSONObject:
    body: JSONObject = {"view": view, "horizontalFittingPriority": horizontal, "verticalFittingPriority": vertical}
    if target_size is not None:
        body["targetSize"] = {"width": target_size[0], "height": target_size[1]}
    if document is not None:
        body["document"] = dict(document)
    return body
