"""The SDK's private parts this app relies on, in one place: an SDK upgrade that moves them fails here.

`mcp>=2.3,<3` promises only the SDK's public surface. What we take from behind it:

- `negotiate_auto` (`mcp.client._probe`): the discover-else-initialize policy of the
  SDK's `Client(mode="auto")`, which `ClientSession` does not offer on its own;
- `request_within_origin` and `sse_within_origin` (`mcp.shared._httpx_utils`): the
  SDK's same-origin redirect rule for HTTP requests and event streams, which our
  legacy SSE client follows so that it refuses exactly what the SDK's would.

`tests/core/test_sdk_boundary.py` makes the installed SDK exercise each of them.
"""

from __future__ import annotations

from mcp.client._probe import negotiate_auto
from mcp.shared._httpx_utils import request_within_origin, sse_within_origin

__all__ = ["negotiate_auto", "request_within_origin", "sse_within_origin"]
