"""A 2026-07-28 result without `resultType` is complete: the rule the spec gives clients, applied before the SDK.

"For backward compatibility with servers implementing earlier protocol versions, which
do not include `resultType`, clients MUST treat an absent `resultType` as "complete""
(2026-07-28, basic/index). The SDK's per-version result check requires the field
instead, and would refuse such a result as malformed. `CompletingReadStream` sits
between the transport and the session: on a modern session it writes
`"resultType": "complete"` into a response that lacks it and notes its id, so
`Connection.request` can take the field out again and the result is shown exactly as
the server sent it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

import anyio
import mcp_types as types

from catalog_inspector.core.transport.meter import _Wrapped
from catalog_inspector.core.transport.sizes import RequestId

__all__ = ["CompletingReadStream"]

T = TypeVar("T")
MAX_NOTED = 10_000  # ids of completed results not yet taken back (a bound, as for response sizes)


class CompletingReadStream(_Wrapped, Generic[T]):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.modern: Callable[[], bool] = lambda: False
        self.completed: set[RequestId] = set()

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> T:
        item: T = await self._inner.receive()
        message = getattr(item, "message", None)
        if (
            isinstance(message, types.JSONRPCResponse)
            and isinstance(message.result, dict)
            and "resultType" not in message.result
            and self.modern()
        ):
            message.result["resultType"] = "complete"
            if len(self.completed) < MAX_NOTED:
                self.completed.add(message.id)
        return item

    def taken_back(self, request_id: RequestId, result: dict[str, Any]) -> dict[str, Any]:
        """`result` as the server sent it: without the `resultType` written in for request `request_id`."""
        if request_id in self.completed:
            self.completed.discard(request_id)
            result.pop("resultType", None)
        return result

    def __aiter__(self) -> CompletingReadStream[T]:
        return self

    async def __anext__(self) -> T:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError) as exc:
            raise StopAsyncIteration from exc
