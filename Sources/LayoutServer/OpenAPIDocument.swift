// Generated from openapi.yaml by `make openapi` (scripts/embed-openapi.sh); a test checks they match.
enum OpenAPIDocument {
    static let yaml = #"""
openapi: 3.1.0
info:
  title: layoutd
  version: "1.0.0"
  summary: Auto Layout as a service.
  description: |
    POST a layout (views and constraints) and get frames back. Sessions keep one
    incremental constraint engine each: post changes or constants and get back only
    the frames that changed, with diagnostics. The contract is shared/design/API.md.
    Request bodies may be gzip (Content-Encoding: gzip); responses over 1 KiB are gzip
    when the request accepts it. Errors are application/problem+json (RFC 9457).
  license:
    name: Proprietary
    identifier: LicenseRef-layoutd
servers:
  - url: http://127.0.0.1:8080
paths:
  /v1/layout:
    post:
      operationId: layoutOnce
      summary: One-shot layout; nothing is kept.
      requestBody: {$ref: '#/components/requestBodies/Document'}
      responses:
        '200':
          description: Frames and diagnostics.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/LayoutAnswer'}
        '400': {$ref: '#/components/responses/Malformed'}
        '413': {$ref: '#/components/responses/TooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '422': {$ref: '#/components/responses/Unprocessable'}
        '503': {$ref: '#/components/responses/Unavailable'}
  /v1/sessions:
    post:
      operationId: createSession
      summary: Create a session from a layout document.
      requestBody: {$ref: '#/components/requestBodies/Document'}
      responses:
        '201':
          description: The session, its first revision, all frames and diagnostics.
          headers:
            Location:
              description: /v1/sessions/{id}
              schema: {type: string}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/SessionCreated'}
          links:
            getSession: {operationId: getSession, parameters: {id: '$response.body#/session'}}
            deleteSession: {operationId: deleteSession, parameters: {id: '$response.body#/session'}}
            applyChanges: {operationId: applyChanges, parameters: {id: '$response.body#/session'}}
            setConstants: {operationId: setConstants, parameters: {id: '$response.body#/session'}}
            getFrames: {operationId: getFrames, parameters: {id: '$response.body#/session'}}
            explain: {operationId: explain, parameters: {id: '$response.body#/session'}}
            trace: {operationId: trace, parameters: {id: '$response.body#/session'}}
            exerciseAmbiguity: {operationId: exerciseAmbiguity, parameters: {id: '$response.body#/session'}}
        '400': {$ref: '#/components/responses/Malformed'}
        '413': {$ref: '#/components/responses/TooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '422': {$ref: '#/components/responses/Unprocessable'}
        '429': {$ref: '#/components/responses/TooManySessions'}
        '503': {$ref: '#/components/responses/Unavailable'}
  /v1/sessions/{id}:
    parameters: [{$ref: '#/components/parameters/SessionId'}]
    get:
      operationId: getSession
      summary: The current document, revision and engine statistics.
      responses:
        '200':
          description: The session.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/SessionState'}
        '404': {$ref: '#/components/responses/NotFound'}
        '503': {$ref: '#/components/responses/Unavailable'}
    delete:
      operationId: deleteSession
      summary: Delete a session.
      responses:
        '204': {description: Deleted.}
        '404': {$ref: '#/components/responses/NotFound'}
        '503': {$ref: '#/components/responses/Unavailable'}
  /v1/sessions/{id}/changes:
    parameters: [{$ref: '#/components/parameters/SessionId'}]
    post:
      operationId: applyChanges
      summary: Apply ops in order, all or nothing.
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Changes'}
      responses:
        '200': {$ref: '#/components/responses/ChangeAnswer'}
        '400': {$ref: '#/components/responses/Malformed'}
        '404': {$ref: '#/components/responses/NotFound'}
        '503': {$ref: '#/components/responses/Unavailable'}
        '409': {$ref: '#/components/responses/RevisionMismatch'}
        '413': {$ref: '#/components/responses/TooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '422': {$ref: '#/components/responses/Unprocessable'}
  /v1/sessions/{id}/constants:
    parameters: [{$ref: '#/components/parameters/SessionId'}]
    post:
      operationId: setConstants
      summary: The set-constant fast path.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              description: Constraint ids to new constants (within ±10,000,000).
              additionalProperties: {type: number, minimum: -10000000, maximum: 10000000}
            example: {avatarLeading: 42}
      responses:
        '200': {$ref: '#/components/responses/ChangeAnswer'}
        '400': {$ref: '#/components/responses/Malformed'}
        '404': {$ref: '#/components/responses/NotFound'}
        '503': {$ref: '#/components/responses/Unavailable'}
        '413': {$ref: '#/components/responses/TooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '422': {$ref: '#/components/responses/Unprocessable'}
  /v1/sessions/{id}/frames:
    parameters: [{$ref: '#/components/parameters/SessionId'}]
    get:
      operationId: getFrames
      summary: All frames, or those changed since a revision.
      parameters:
        - name: since
          in: query
          required: false
          schema: {type: integer, minimum: 0}
      responses:
        '200':
          description: Frames.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/FramesAnswer'}
        '400': {$ref: '#/components/responses/Malformed'}
        '404': {$ref: '#/components/responses/NotFound'}
        '503': {$ref: '#/components/responses/Unavailable'}
  /v1/sessions/{id}/explain:
    parameters: [{$ref: '#/components/parameters/SessionId'}]
    get:
      operationId: explain
      summary: The constraints affecting a view on an axis.
      parameters:
        - {name: view, in: query, required: true, schema: {type: string}}
        - {name: axis, in: query, required: false, schema: {$ref: '#/components/schemas/Axis'}}
      responses:
        '200':
          description: The constraints.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Explanation'}
        '400': {$ref: '#/components/responses/Malformed'}
        '404': {$ref: '#/components/responses/NotFound'}
        '503': {$ref: '#/components/responses/Unavailable'}
  /v1/sessions/{id}/trace:
    parameters: [{$ref: '#/components/parameters/SessionId'}]
    get:
      operationId: trace
      summary: The view tree, one view a line, ambiguous views marked AMBIGUOUS LAYOUT.
      responses:
        '200':
          description: The trace.
          content:
            text/plain:
              schema: {type: string}
        '404': {$ref: '#/components/responses/NotFound'}
        '503': {$ref: '#/components/responses/Unavailable'}
  /v1/sessions/{id}/exercise-ambiguity:
    parameters: [{$ref: '#/components/parameters/SessionId'}]
    post:
      operationId: exerciseAmbiguity
      summary: Another optimal layout of the ambiguous views; not kept.
      responses:
        '200':
          description: The frames of the ambiguous views in another valid layout.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/FramesAnswer'}
        '404': {$ref: '#/components/responses/NotFound'}
        '503': {$ref: '#/components/responses/Unavailable'}
  /v1/sessions/{id}/stream:
    parameters: [{$ref: '#/components/parameters/SessionId'}]
    get:
      operationId: stream
      summary: WebSocket (RFC 6455, permessage-deflate offered by the client is accepted).
      description: |
        Each text message is a changes body ({ops: [...]}) or a constants body
        ({"id": number, ...}); each reply is that change's answer, in order. Consecutive
        set-constant messages that queue up are merged (latest value per constraint) and
        answered once with `coalesced`: the number of messages answered. A bad message
        gets a problem object (with status) and the stream stays open; protocol errors
        close it (1002), bad UTF-8 (1007), too-large messages (1009).
      parameters:
        - {name: Upgrade, in: header, required: true, schema: {type: string, const: websocket}}
        - {name: Sec-WebSocket-Key, in: header, required: true, schema: {type: string}}
        - {name: Sec-WebSocket-Version, in: header, required: true, schema: {type: string, const: "13"}}
      responses:
        '101': {description: Switching protocols.}
        '400': {$ref: '#/components/responses/Malformed'}
        '404': {$ref: '#/components/responses/NotFound'}
        '503': {$ref: '#/components/responses/Unavailable'}
  /healthz:
    get:
      operationId: healthz
      summary: Liveness.
      responses:
        '200':
          description: Alive.
          content:
            application/json:
              schema: {type: object, properties: {status: {type: string}}}
  /readyz:
    get:
      operationId: readyz
      summary: Readiness; 503 while starting or draining.
      responses:
        '200':
          description: Ready.
          content:
            application/json:
              schema: {type: object, properties: {status: {type: string}}}
        '503': {$ref: '#/components/responses/Unavailable'}
  /metrics:
    get:
      operationId: metrics
      summary: Prometheus text exposition.
      responses:
        '200':
          description: Metrics.
          content:
            text/plain:
              schema: {type: string}
  /openapi.yaml:
    get:
      operationId: openapi
      summary: This document.
      responses:
        '200':
          description: OpenAPI 3.1.
          content:
            application/yaml:
              schema: {type: string}
components:
  parameters:
    SessionId:
      name: id
      in: path
      required: true
      description: 128 random bits as 32 hex digits.
      schema: {type: string, pattern: '^[0-9a-f]{32}$'}
  requestBodies:
    Document:
      required: true
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Document'}
  responses:
    ChangeAnswer:
      description: The new revision, the frames that changed, removed views, diagnostics.
      content:
        application/json:
          schema: {$ref: '#/components/schemas/ChangeAnswer'}
    Malformed:
      description: Not JSON, not valid gzip, or a bad query.
      content:
        application/problem+json:
          schema: {$ref: '#/components/schemas/Problem'}
    NotFound:
      description: Unknown session or route.
      content:
        application/problem+json:
          schema: {$ref: '#/components/schemas/Problem'}
    RevisionMismatch:
      description: baseRevision is not the current revision; nothing changed.
      content:
        application/problem+json:
          schema: {$ref: '#/components/schemas/Problem'}
    TooLarge:
      description: Body (or its gzip inflation) over the limit, or a per-session view or constraint cap.
      content:
        application/problem+json:
          schema: {$ref: '#/components/schemas/Problem'}
    UnsupportedMediaType:
      description: Not application/json, or an unsupported Content-Encoding.
      content:
        application/problem+json:
          schema: {$ref: '#/components/schemas/Problem'}
    Unprocessable:
      description: Valid JSON that breaks a rule of the contract; the pointer names the place.
      content:
        application/problem+json:
          schema: {$ref: '#/components/schemas/Problem'}
    TooManySessions:
      description: The session cap is reached.
      headers:
        Retry-After: {schema: {type: integer}}
      content:
        application/problem+json:
          schema: {$ref: '#/components/schemas/Problem'}
    Unavailable:
      description: Starting or draining (readyz), the connection or stream cap is reached, the memory budget is spent (new sessions and one-shot layouts), or the session store cannot be written (writes) or read (a session's first request after a restart); with Retry-After.
      content:
        application/problem+json:
          schema: {$ref: '#/components/schemas/Problem'}
  schemas:
    Axis: {type: string, enum: [horizontal, vertical]}
    Priority: {type: number, minimum: 1, maximum: 1000}
    Rect:
      type: object
      required: [x, y, width, height]
      properties:
        x: {type: number, minimum: -10000000, maximum: 10000000}
        y: {type: number, minimum: -10000000, maximum: 10000000}
        width: {type: number, minimum: 0, maximum: 10000000}
        height: {type: number, minimum: 0, maximum: 10000000}
    Insets:
      type: object
      additionalProperties: false
      properties:
        top: {type: number}
        left: {type: number}
        bottom: {type: number}
        right: {type: number}
    AxisPriorities:
      type: object
      additionalProperties: false
      properties:
        horizontal: {$ref: '#/components/schemas/Priority'}
        vertical: {$ref: '#/components/schemas/Priority'}
    View:
      type: object
      required: [id]
      additionalProperties: false
      properties:
        id: {type: string, pattern: '^[A-Za-z0-9_-]{1,128}$'}
        parent: {type: [string, 'null']}
        kind: {type: string, enum: [view, guide], default: view}
        frame: {oneOf: [{$ref: '#/components/schemas/Rect'}, {type: 'null'}]}
        intrinsicSize:
          type: [object, 'null']
          additionalProperties: false
          properties:
            width: {type: [number, 'null'], minimum: 0}
            height: {type: [number, 'null'], minimum: 0}
        hugging: {$ref: '#/components/schemas/AxisPriorities'}
        compressionResistance: {$ref: '#/components/schemas/AxisPriorities'}
        margins: {$ref: '#/components/schemas/Insets'}
        alignmentInsets: {$ref: '#/components/schemas/Insets'}
        baseline:
          type: [object, 'null']
          additionalProperties: false
          properties:
            first: {type: [number, 'null']}
            last: {type: [number, 'null']}
        hidden: {type: boolean, default: false}
    Attribute:
      type: string
      enum: [left, right, top, bottom, leading, trailing, width, height, centerX, centerY, firstBaseline, lastBaseline,
             leftMargin, rightMargin, topMargin, bottomMargin, leadingMargin, trailingMargin, centerXWithinMargins, centerYWithinMargins]
    Constraint:
      description: One of first (explicit), expr (one line) or visual (VFL group).
      oneOf:
        - $ref: '#/components/schemas/ExplicitConstraint'
        - $ref: '#/components/schemas/ExpressionConstraint'
        - $ref: '#/components/schemas/VisualConstraint'
    ExplicitConstraint:
      type: object
      required: [first]
      additionalProperties: false
      properties:
        id: {type: string}
        first: {type: string, description: view.attribute}
        relation: {type: string, enum: ['==', '<=', '>='], default: '=='}
        second: {type: [string, 'null'], description: view.attribute}
        multiplier: {type: number, default: 1, minimum: -1000000, maximum: 1000000}
        constant: {type: number, default: 0, minimum: -10000000, maximum: 10000000, description: 'Coordinates, sizes and constants stay within ±10,000,000 points.'}
        priority: {$ref: '#/components/schemas/Priority'}
        active: {type: boolean, default: true}
    ExpressionConstraint:
      type: object
      required: [expr]
      additionalProperties: false
      properties:
        id: {type: string}
        expr: {type: string, examples: ['title.leading == avatar.trailing + 12 @750']}
        active: {type: boolean, default: true}
    VisualConstraint:
      type: object
      required: [visual]
      additionalProperties: false
      properties:
        id: {type: string}
        visual: {type: string, examples: ['H:|-8-[avatar]-12-[title]-(>=8)-|']}
        options: {type: array, items: {type: string}}
        metrics: {$ref: '#/components/schemas/VisualMetrics'}
        active: {type: boolean, default: true}
    VisualMetrics:
      type: object
      description: Metric names used in the format, with their values.
      additionalProperties: {type: number}
    Options:
      type: object
      additionalProperties: false
      properties:
        layoutDirection: {type: string, enum: [ltr, rtl], default: ltr}
        scale: {type: [number, 'null'], minimum: 0.001, maximum: 16}
    Document:
      type: object
      additionalProperties: false
      properties:
        options: {$ref: '#/components/schemas/Options'}
        views: {type: array, items: {$ref: '#/components/schemas/View'}}
        constraints: {type: array, items: {$ref: '#/components/schemas/Constraint'}}
    Op:
      type: object
      required: [op]
      properties:
        op:
          type: string
          enum: [addViews, removeViews, updateView, addConstraints, removeConstraints, setConstant, setPriority, activate, deactivate, setOptions]
        views: {type: array, items: {$ref: '#/components/schemas/View'}}
        constraints: {type: array, items: {$ref: '#/components/schemas/Constraint'}}
        ids: {type: array, items: {type: string}}
        id: {type: string}
        constant: {type: number}
        priority: {$ref: '#/components/schemas/Priority'}
        options: {$ref: '#/components/schemas/Options'}
    Changes:
      type: object
      required: [ops]
      additionalProperties: false
      properties:
        baseRevision: {type: integer, minimum: 1, maximum: 9007199254740991}
        ops: {type: array, items: {$ref: '#/components/schemas/Op'}}
    FrameMap:
      type: object
      description: View ids to frames in the parent's coordinates.
      additionalProperties:
        allOf:
          - {$ref: '#/components/schemas/Rect'}
          - type: object
            properties:
              hidden: {type: boolean}
    Diagnostic:
      type: object
      required: [kind, message]
      properties:
        kind: {type: string, enum: [unsatisfiable, ambiguous, churn]}
        message: {type: string}
        constraint: {type: string, description: unsatisfiable - the constraint broken to go on}
        conflicts: {type: array, items: {type: string}, description: unsatisfiable - a conflicting set containing it}
        view: {type: string, description: ambiguous}
        axis: {$ref: '#/components/schemas/Axis'}
        constraints: {type: array, items: {type: string}, description: churn}
        views: {type: array, items: {type: string}, description: churn}
    LayoutAnswer:
      type: object
      required: [frames, diagnostics]
      properties:
        frames: {$ref: '#/components/schemas/FrameMap'}
        diagnostics: {type: array, items: {$ref: '#/components/schemas/Diagnostic'}}
    SessionCreated:
      type: object
      required: [session, revision, frames, diagnostics]
      properties:
        session: {type: string}
        revision: {type: integer}
        frames: {$ref: '#/components/schemas/FrameMap'}
        diagnostics: {type: array, items: {$ref: '#/components/schemas/Diagnostic'}}
        added: {type: array, items: {type: string}}
    ChangeAnswer:
      type: object
      required: [revision, frames, removed, diagnostics]
      properties:
        revision: {type: integer}
        frames: {$ref: '#/components/schemas/FrameMap'}
        removed: {type: array, items: {type: string}}
        diagnostics: {type: array, items: {$ref: '#/components/schemas/Diagnostic'}}
        added: {type: array, items: {type: string}, description: ids of the constraints this change added, server-given ones included}
        coalesced: {type: integer, description: stream only - how many messages this reply answers}
    FramesAnswer:
      type: object
      required: [revision, frames]
      properties:
        revision: {type: integer}
        frames: {$ref: '#/components/schemas/FrameMap'}
        removed: {type: array, items: {type: string}}
        full: {type: boolean}
    SessionState:
      type: object
      required: [session, revision, document, stats]
      properties:
        session: {type: string}
        revision: {type: integer}
        document: {$ref: '#/components/schemas/Document'}
        stats:
          type: object
          properties:
            views: {type: integer}
            constraints: {type: integer}
            rows: {type: integer}
            columns: {type: integer}
            pivots: {type: integer}
            broken: {type: integer}
            priorityLevels: {type: integer}
    Explanation:
      type: object
      required: [view, axis, constraints]
      properties:
        view: {type: string}
        axis: {$ref: '#/components/schemas/Axis'}
        constraints:
          type: array
          items:
            type: object
            required: [id, description, priority, broken]
            properties:
              id: {type: string}
              description: {type: string}
              priority: {type: number}
              broken: {type: boolean}
    Problem:
      type: object
      required: [type, title, status]
      properties:
        type: {type: string}
        title: {type: string}
        status: {type: integer}
        detail: {type: string}
        pointer: {type: string, description: RFC 6901 pointer into the request body}

"""#
}
