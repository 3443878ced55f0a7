"""`completion/complete` on a live connection: the server's suggestions for one argument, or why there are none."""

from __future__ import annotations

from collections.abc import Mapping

import anyio
import mcp_types as types

from catalog_inspector.core.calls import COMPLETION_BUDGET, Completion, completion_of
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind
from catalog_inspector.core.session.connection import Connection

__all__ = ["complete", "offers_completions"]


def offers_completions(connection: Connection) -> bool:
    """Whether the server declares `completions`: a conforming client asks nothing of one that does not."""
    return connection.capabilities.get("completions") is not None


async def complete(
    connection: Connection,
    ref: Mapping[str, str],
    argument: str,
    value: str,
    context: Mapping[str, str] | None = None,
    budget: float = COMPLETION_BUDGET,
) -> Completion:
    """The server's suggestions for `argument` given what is typed (`value`) and the other fields (`context`).

    Cancelling the caller sends `notifications/cancelled` (the SDK does): a person who typed on asks anew.
    """
    if not offers_completions(connection):
        return Completion(error=ErrorInfo(ErrorKind.PROTOCOL, "the server declares no completions capability"))
    params: dict[str, object] = {"ref": dict(ref), "argument": {"name": argument, "value": value}}
    if context:
        params["context"] = {"arguments": dict(context)}
    request = types.CompleteRequest(params=types.CompleteRequestParams.model_validate(params))
    try:
        with anyio.fail_after(budget):
            fetched = await connection.request(request, timeout=budget)
    except TimeoutError:
        return Completion(error=ErrorInfo(ErrorKind.TIMEOUT, f"no answer within {budget:g} s"))
    except CatalogError as exc:
        return Completion(error=exc.info)
    return completion_of(fetched.result)
