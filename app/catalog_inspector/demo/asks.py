"""The "asks" demo server: an SDK `MCPServer` whose tools ask the client for input, on every era.

`python -m catalog_inspector.demo.asks [--http] [--legacy] [--insist-state-bytes N]`

On a 2026-07-28 connection each question travels in an `input_required` result
(`inputRequests` and a `requestState` carrying the answers so far); on older ones the
server sends the request itself while the call runs. The tools:

- `greet`: asks for a name (a form), says hello; a decline or a cancel is said back.
- `signup`: two rounds: a name, then a plan (titled enum, default), a newsletter flag
  (default) and an email address (format).
- `consent`: a URL elicitation (a consent page the inspector must never fetch); `url` chooses another (try a
  `javascript:` or `file:` one, or a look-alike international host, to see the inspector refuse or flag it).
- `summarise`: a sampling request; the reply is the result.
- `roots`: asks for the client's roots and lists them.
- `insist`: never stops asking (each round a new question): the rounds cap ends it.
- `patience`: two rounds of `requestState` only (no question), then a result (2026-07-28).
- `survey`: a form whose schema is outside the spec's subset (a nested object, an array of objects): a strict
  client refuses it; the inspector lints it and still lets you answer it as JSON.
- `authorize`: refuses the call with JSON-RPC -32042 (URL elicitation required, before 2026-07-28), the page
  to visit in the error's data.
- `prompt` `welcome` and resource template `demo://asks/secret/{topic}` ask for a name too.
"""

from __future__ import annotations

import argparse
import base64
import json
import socket
from typing import Any

import anyio
import mcp_types as types
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import UrlElicitationRequiredError
from mcp.shared.message import ServerMessageMetadata
from pydantic import TypeAdapter

server = MCPServer("asks", version="1", instructions="A demo server whose tools ask the client for input.")
_REQUEST: TypeAdapter[Any] = TypeAdapter(types.CreateMessageRequest | types.ListRootsRequest | types.ElicitRequest)
_STATE_PAD = 0  # --insist-state-bytes: the size of insist's requestState (tests of a large state)

NAME_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string", "title": "Your name", "minLength": 1, "maxLength": 80}},
    "required": ["name"],
}
PLAN_SCHEMA = {
    "type": "object",
    "properties": {
        "plan": {
            "type": "string",
            "title": "Plan",
            "oneOf": [
                {"const": "free", "title": "Free"},
                {"const": "team", "title": "Team (5 seats)"},
                {"const": "enterprise", "title": "Enterprise"},
            ],
            "default": "free",
        },
        "newsletter": {"type": "boolean", "title": "Send me the newsletter", "default": True},
        "email": {"type": "string", "title": "Email", "format": "email"},
        "seats": {"type": "integer", "title": "Seats", "minimum": 1, "maximum": 50, "default": 1},
    },
    "required": ["plan", "email"],
}
CONSENT_URL = "https://consent.example.invalid/approve?request=demo-asks"
AUTHORIZE_URL = "https://authorize.example.invalid/connect?request=demo-asks"
SURVEY_SCHEMA = {
    "type": "object",
    "properties": {
        "address": {"type": "object", "title": "Address", "properties": {"city": {"type": "string"}}},
        "pets": {
            "type": "array",
            "title": "Pets",
            "items": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
        "nickname": {"type": "string", "title": "Nickname", "pattern": "^[a-z]+$"},
    },
}


def _elicit(message: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"method": "elicitation/create", "params": {"mode": "form", "message": message, "requestedSchema": schema}}


class Flow:
    """One call's questions: asked in an input_required result (2026-07-28), or sent mid-call (before)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.modern = (ctx.protocol_version or "") >= "2026-07-28"
        self.answers: dict[str, Any] = _decode(ctx.request_state) if self.modern else {}
        for key, response in (ctx.input_responses or {}).items():
            self.answers[key] = response.model_dump(by_alias=True, mode="json", exclude_none=True)
        self.pending: dict[str, Any] = {}

    async def ask(self, key: str, request: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to `request`, or None when it must first be asked (2026-07-28: `question()` says it)."""
        if key in self.answers:
            answer: dict[str, Any] = self.answers[key]
            return answer
        if self.modern:
            self.pending[key] = request
            return None
        session = self.ctx.request_context.session
        result = await session.send_request(
            _REQUEST.validate_python(request),
            _result_type(request["method"]),
            metadata=ServerMessageMetadata(related_request_id=self.ctx.request_context.request_id),
        )
        answer = result.model_dump(by_alias=True, mode="json", exclude_none=True)
        self.answers[key] = answer
        return answer

    def question(self, state_pad: int = 0) -> types.InputRequiredResult:
        state = _encode(self.answers, state_pad)
        requests = {key: _REQUEST.validate_python(request) for key, request in self.pending.items()}
        return types.InputRequiredResult(input_requests=requests or None, request_state=state)


def _result_type(method: str) -> Any:
    return {
        "elicitation/create": types.ElicitResult,
        "sampling/createMessage": types.CreateMessageResult,
        "roots/list": types.ListRootsResult,
    }[method]


def _encode(answers: dict[str, Any], pad: int = 0) -> str:
    text = base64.urlsafe_b64encode(json.dumps(answers).encode()).decode()
    return text + ("." + "p" * pad if pad else "")


def _decode(state: str | None) -> dict[str, Any]:
    if not state:
        return {}
    try:
        decoded = json.loads(base64.urlsafe_b64decode(state.split(".", 1)[0].encode()))
    except (ValueError, json.JSONDecodeError):
        return {}
    return decoded if isinstance(decoded, dict) else {}


def _said(answer: dict[str, Any], what: str) -> str:
    action = answer.get("action")
    if action == "decline":
        return f"You declined to give {what}."
    if action == "cancel":
        return f"You closed the question about {what} without answering."
    return ""


@server.tool()
async def greet(ctx: Context) -> str | types.InputRequiredResult:
    """Ask for your name, then say hello."""
    flow = Flow(ctx)
    answer = await flow.ask("name", _elicit("What is your name?", NAME_SCHEMA))
    if answer is None:
        return flow.question()
    return _said(answer, "your name") or f"Hello, {answer.get('content', {}).get('name', '')}!"


@server.tool()
async def signup(ctx: Context) -> str | types.InputRequiredResult:
    """Two rounds: your name, then a plan, the newsletter and an email address."""
    flow = Flow(ctx)
    name = await flow.ask("name", _elicit("What is your name?", NAME_SCHEMA))
    if name is None:
        return flow.question()
    if name.get("action") != "accept":
        return _said(name, "your name")
    who = name.get("content", {}).get("name", "")
    plan = await flow.ask("plan", _elicit(f"Thanks, {who}. Which plan, and where do we write?", PLAN_SCHEMA))
    if plan is None:
        return flow.question()
    if plan.get("action") != "accept":
        return _said(plan, "a plan")
    chosen = plan.get("content", {})
    return f"Signed up {who} on {chosen.get('plan')} ({chosen.get('seats', 1)} seats), mail to {chosen.get('email')}."


@server.tool()
async def consent(ctx: Context, url: str = CONSENT_URL) -> str | types.InputRequiredResult:
    """Ask you to approve access on a consent page (a URL elicitation); `url` is the page asked for."""
    flow = Flow(ctx)
    request = {
        "method": "elicitation/create",
        "params": {
            "mode": "url",
            "message": "Approve read access to your demo calendar.",
            "url": url,
            "elicitationId": "demo-consent-1",
        },
    }
    answer = await flow.ask("consent", request)
    if answer is None:
        return flow.question()
    if answer.get("action") == "accept":
        if not flow.modern:  # the page "was approved" (there is none): say so, as a server would once it is
            await ctx.request_context.session.send_elicit_complete(
                "demo-consent-1", related_request_id=ctx.request_context.request_id
            )
        return "Consent opened: the server will go on once the page is approved."
    return _said(answer, "consent")


@server.tool()
async def summarise(
    ctx: Context, text: str = "MCP servers can ask their clients for input."
) -> str | types.InputRequiredResult:
    """Ask the client's model (you, in the inspector) to summarise a text."""
    flow = Flow(ctx)
    request = {
        "method": "sampling/createMessage",
        "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": f"Summarise in one line: {text}"}}],
            "systemPrompt": "You are a concise assistant.",
            "maxTokens": 60,
            "modelPreferences": {"hints": [{"name": "any"}], "speedPriority": 0.8},
        },
    }
    answer = await flow.ask("summary", request)
    if answer is None:
        return flow.question()
    content = answer.get("content", {})
    return f"Summary by {answer.get('model')}: {content.get('text', '') if isinstance(content, dict) else ''}"


@server.tool()
async def roots(ctx: Context) -> str | types.InputRequiredResult:
    """List the roots the client gives."""
    flow = Flow(ctx)
    answer = await flow.ask("roots", {"method": "roots/list"})
    if answer is None:
        return flow.question()
    found = [root.get("uri", "") for root in answer.get("roots", [])]
    return "Roots: " + (", ".join(found) if found else "(none)")


@server.tool()
async def insist(ctx: Context) -> str | types.InputRequiredResult:
    """Never satisfied: asks again every round (the client's rounds cap has to end it)."""
    flow = Flow(ctx)
    count = len(flow.answers)
    key = f"again-{count + 1}"
    answer = await flow.ask(key, _elicit(f"Question {count + 1}: are you sure?", {"type": "object", "properties": {}}))
    if answer is None:
        return flow.question(_STATE_PAD)
    while True:  # legacy: ask until the client stops the call
        count += 1
        await flow.ask(
            f"again-{count + 1}", _elicit(f"Question {count + 1}: are you sure?", {"type": "object", "properties": {}})
        )


@server.tool()
async def patience(ctx: Context) -> str | types.InputRequiredResult:
    """Two rounds of requestState only (the client retries without a question), then a result."""
    if (ctx.protocol_version or "") < "2026-07-28":
        return "Done at once (this era has no requestState)."
    seen = _decode(ctx.request_state).get("tries", 0)
    if seen < 2:
        return types.InputRequiredResult(request_state=_encode({"tries": seen + 1}))
    return f"Done after {seen} retries."


@server.tool()
async def survey(ctx: Context) -> str | types.InputRequiredResult:
    """Ask for a form whose schema a strict client refuses (a nested object, an array of objects)."""
    flow = Flow(ctx)
    answer = await flow.ask("survey", _elicit("Tell us about your address and pets.", SURVEY_SCHEMA))
    if answer is None:
        return flow.question()
    return _said(answer, "the survey") or f"Survey: {json.dumps(answer.get('content', {}), sort_keys=True)}"


@server.tool()
async def authorize(ctx: Context) -> str:
    """Refuse the call until a page is visited: JSON-RPC -32042 with the URL (protocol 2025-11-25)."""
    page = types.ElicitRequestURLParams(
        message="Connect your demo account first.", url=AUTHORIZE_URL, elicitation_id="demo-authorize-1"
    )
    raise UrlElicitationRequiredError([page])


@server.prompt()
async def welcome(ctx: Context) -> str | types.InputRequiredResult:
    """A welcome message for the person who gives their name."""
    flow = Flow(ctx)
    answer = await flow.ask("name", _elicit("Whom shall the prompt welcome?", NAME_SCHEMA))
    if answer is None:
        return flow.question()
    return f"Please welcome {answer.get('content', {}).get('name', 'someone')} warmly."


@server.resource("demo://asks/secret/{topic}", mime_type="text/plain")
async def secret(topic: str, ctx: Context) -> str | types.InputRequiredResult:
    """A note for whoever gives their name first."""
    flow = Flow(ctx)
    answer = await flow.ask("name", _elicit("Who is reading the secret?", NAME_SCHEMA))
    if answer is None:
        return flow.question()
    return f"The secret of {topic}, for {answer.get('content', {}).get('name', 'you')}: nothing here is really secret."


async def _http(port: int) -> None:
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)  # before READY: a client that connects at once waits in the backlog, never refused
    http = uvicorn.Server(uvicorn.Config(server.streamable_http_app(), log_level="warning"))
    print(f"READY http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    await http.serve(sockets=[sock])


def main(argv: list[str] | None = None) -> None:
    global _STATE_PAD
    parser = argparse.ArgumentParser(prog="python -m catalog_inspector.demo.asks", description=__doc__)
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP on 127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--insist-state-bytes", type=int, default=0, help="pad insist's requestState to this size")
    args = parser.parse_args(argv)
    _STATE_PAD = args.insist_state_bytes
    if args.http:
        anyio.run(_http, args.port)
    else:
        server.run("stdio")


if __name__ == "__main__":
    main()
