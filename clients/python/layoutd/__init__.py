"""A client for layoutd: post a layout (views and constraints), get frames back; keep a
session and change it incrementally, over HTTP or a WebSocket stream."""
from .client import (ChangeResult, Client, Diagnostic, ExplainedConstraint, Frame, FramesAnswer, IBLayout, IBRoot,
                     LayoutResult, LayoutdError, Session, SizedLayout, Stream)

__all__ = ["Client", "Session", "Stream", "Frame", "Diagnostic", "ChangeResult", "FramesAnswer", "LayoutResult",
           "ExplainedConstraint", "LayoutdError", "IBLayout", "IBRoot", "SizedLayout"]
