"""What a screen reader hears: every interactive widget's accessible name and description, and announcements.

Most widgets are named here, in one table keyed by object name (`NAMES`), applied by
`describe(root)` to a window, a page or a dialog once it is built: the words live in one
place, and the widget modules keep only their layout. What is made later and from a
server's data (a form's fields, a template's variables, a result's links) is named where
it is made, with `named()`. A button keeps the name its text gives it (its text changes:
Details…/Less, Send/Send anyway) and gets a description only.

Names and descriptions are plain strings: a server's text enters only a description or a
form field's name, made visible and bounded (`core.text.visible`) as everywhere else, never
as rich text. Qt reads the description from the tooltip when there is none, and our
tooltips are rich text (`Qt.convertFromPlainText`): every interactive widget gets its own.

`announce()` says a state change that matters (a walk finished, a call answered, a server
asks for input: see `ui.announcer`) to assistive technology, on the status bar that shows it.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QWidget

from catalog_inspector.core.text import visible

__all__ = ["NAMES", "announce", "describe", "described", "named"]

W = TypeVar("W", bound=QWidget)

DESCRIPTION_LIMIT = 300  # characters of server text in a description

_TIMELINE = (
    "Page timeline",
    "One row per page of the walk: cursor sent, next cursor, items, bytes, latency, outcome and cache hints; "
    "Ctrl+C copies the full value of a cell",
)
_WALK = (
    "Walk shown",
    "Which walk the page timeline shows: the live one, the latest failed attempt or the accepted one",
)
_NAMES_ON_PAGE = ("Names on the page", "The names the selected page of the timeline held; a duplicated one is marked")
_RAW = ("Raw JSON", "The answer's JSON as the server sent it")
_ROUNDS = ("Rounds", "Each question the server asked during the request, and the answer it was given")
_CANCEL_REQUEST = ("", "Stop the request in flight, and any question it waits on")
_ARGUMENTS_JSON = ("Arguments as JSON", "The arguments as JSON; edits here update the form, and both are checked")
_ANSWER_JSON = ("Answer as JSON", "The answer as JSON; edits here update the form, and both are checked")
_PROBLEMS = ("Problems", "Each problem found: its JSON pointer, keyword and message; Enter goes to its field")
_SEND_ANYWAY = ("", "Allow sending although the check found problems, to test the server's own validation")

# object name → (accessible name, description); an empty name keeps the one Qt gives (a button's text).
NAMES: dict[str, tuple[str, str]] = {
    # the window: sidebar, header, banner
    "serverList": (
        "Servers",
        "The configured servers, each with its transport, state and tool count; selecting one walks its catalog",
    ),
    "refreshButton": ("", "Walk the catalog again from the first page (F5)"),
    "cancelButton": ("", "Stop the walk in progress; the shown catalog stays (Esc)"),
    "statusBannerDetails": ("", "Show the whole message, to read or copy"),
    "statusVerdictText": (
        "Verdict",
        "What is known of the catalog shown while nothing is wrong: what changed since the last one, or a walk under way",
    ),
    "statusVerdictDetail": ("Verdict detail", "Whether the catalog matches the approved one, or that a new walk runs"),
    "retryButton": ("", "The banner's action: retry, refresh, reconnect, run the server or show the drift (Ctrl+R)"),
    "signInUrl": ("Sign-in link", "The authorization URL the browser was sent to"),
    "signInOpen": ("", "Open the link in the system browser (https, or http to this machine, only)"),
    "signInCopy": ("", "Copy the link, to open it in a browser on this machine"),
    "signInCancel": ("", "Stop waiting for the browser: the walk ends as a failed sign-in"),
    # Tools
    "toolFilter": ("Filter tools", "Keeps the tools whose name or description holds the text typed (Ctrl+F)"),
    "toolTree": (
        "Tools",
        "The catalog's tools with title, annotations and description, their schemas as trees; "
        "Enter opens the tool in the Call tab",
    ),
    "toolDetail": ("Tool detail", "The selected tool's whole description and the JSON the server sent"),
    "pageTimeline": _TIMELINE,
    "pageTimelineSource": _WALK,
    "pageTimelineNames": _NAMES_ON_PAGE,
    # Call
    "callRunAsTask": ("", "Run the call as a task; a tool whose task support is required always runs as one"),
    "callTimeout": ("Call timeout", "How many seconds the call may take before the inspector gives up on it"),
    "callButton": ("", "Send the arguments to the selected tool (Ctrl+Return)"),
    "cancelCallButton": ("", "Stop the call in flight: the server is told to cancel it"),
    "argumentSets": ("Saved arguments", "The argument sets kept for this tool; choosing one fills in the form"),
    "saveArgumentSet": ("", "Keep the arguments shown under a name, for this tool"),
    "deleteArgumentSet": ("", "Forget the chosen argument set"),
    "sendExcluded": ("", "Send the call although conforming 2026-07-28 clients would not offer this tool"),
    "callArguments": _ARGUMENTS_JSON,
    "validationMessages": _PROBLEMS,
    "sendAnyway": _SEND_ANYWAY,
    "confirmCallButton": ("", "Send this call: the tool is not annotated read-only"),
    "declineCallButton": ("", "Do not send this call"),
    "callResult": ("Result", "The call's result as the server sent it, as text"),
    "callRaw": _RAW,
    "callRounds": _ROUNDS,
    "callLogs": ("Call log", "The log messages the server sent for this call"),
    "callHistory": ("Call history", "The server's calls, newest first: select one to re-run or copy it"),
    "rerunCallButton": ("", "Call the selected call again, with its arguments and the answers it was given"),
    "copyCallJson": ("", "Copy the selected call as JSON"),
    "copyCallCommand": ("", "Copy the selected call as a command line for the call command"),
    # the server's questions (the Call tab's and each request box's)
    "inputRequestJson": _ANSWER_JSON,
    "inputValidationMessages": _PROBLEMS,
    "inputSendAnyway": _SEND_ANYWAY,
    "inputRequestUrl": ("Address to visit", "The whole address the server asks you to open"),
    "inputOpenUrlButton": ("", "Open the address in the system browser (https, or http to this machine, only)"),
    "inputCopyUrlButton": ("", "Copy the address"),
    "samplingRequest": ("Sampling request", "What the server asks a model, as it sent it"),
    "samplingReply": ("Reply", "The reply the server gets as the model's message"),
    "samplingModel": ("Model name", "The model the reply says it came from"),
    "samplingStopReason": ("Stop reason", "Why the reply ended: endTurn, stopSequence or maxTokens"),
    "samplingSendButton": ("", "Send the reply to the server"),
    "samplingRejectButton": ("", "Refuse the sampling request"),
    "inputAcceptButton": ("", "Accept: the server gets the answer in the form"),
    "inputDeclineButton": ("", "Decline: the server is told you would not answer"),
    "inputCancelButton": ("", "Close the question without answering: the server is told it was cancelled"),
    "inputDismissButton": ("", "Put the page to visit away"),
    # Resources, Resource templates, Prompts
    "resourceList": ("Resources", "The catalog's resources: select one to see it whole and read it"),
    "resourceTemplateList": ("Resource templates", "The catalog's resource templates: select one to fill it in"),
    "promptList": ("Prompts", "The catalog's prompts: select one to see its arguments and get it"),
    "resourceDetail": ("Resource detail", "The selected resource's whole URI, every field and the JSON sent"),
    "resourceTemplateDetail": ("Template detail", "The selected resource template's fields and the JSON sent"),
    "promptDetail": ("Prompt detail", "The selected prompt's arguments, every field and the JSON sent"),
    "resourcesTimeline": _TIMELINE,
    "resourcesTimelineSource": _WALK,
    "resourcesTimelineNames": _NAMES_ON_PAGE,
    "resourceTemplatesTimeline": _TIMELINE,
    "resourceTemplatesTimelineSource": _WALK,
    "resourceTemplatesTimelineNames": _NAMES_ON_PAGE,
    "promptsTimeline": _TIMELINE,
    "promptsTimelineSource": _WALK,
    "promptsTimelineNames": _NAMES_ON_PAGE,
    "readResourceButton": ("", "Read the selected resource (resources/read)"),
    "readTemplateButton": ("", "Read the URI the template expands to with the values given"),
    "getPromptButton": ("", "Get the selected prompt with the arguments given (prompts/get)"),
    "subscribeResourceButton": ("", "Ask the server to say when this resource changes (resources/subscribe)"),
    "cancelResourceButton": _CANCEL_REQUEST,
    "cancelTemplateButton": _CANCEL_REQUEST,
    "cancelPromptButton": _CANCEL_REQUEST,
    "resourceResult": ("Contents", "The resource's contents as the server sent them, as text"),
    "templateResult": ("Contents", "The contents of the URI read, as the server sent them, as text"),
    "promptResult": ("Messages", "The prompt's messages as the server sent them, as text"),
    "resourceRounds": _ROUNDS,
    "templateRounds": _ROUNDS,
    "promptRounds": _ROUNDS,
    # Server & log
    "serverInfo": ("Server details", "What was configured and negotiated: protocol, server, capabilities"),
    "serverLog": ("Server log", "The server's stderr and log messages, one line each, newest last"),
    # Drift
    "approveButton": ("", "Pin every item of every list: later catalogs that differ are flagged"),
    "forgetApprovalButton": ("", "Forget the approved catalog of this server"),
    "importApprovalButton": ("", "Make a lockfile (from approve or an export) the approval"),
    "exportApprovalButton": ("", "Write the approval as a lockfile that check --pins reads"),
    "lastRefreshButton": ("", "Show what the last refresh changed"),
    "walkAgainAsButton": ("", "Walk this server once more as another client and compare what it is given"),
    "driftView": ("Drift", "What the catalog adds, removes and changes compared with the previous good one"),
    "driftOld": ("Old value", "The old value of the selected change"),
    "driftNew": ("New value", "The new value of the selected change"),
    "historyList": ("Kept snapshots", "The catalogs kept for this server, newest first: pick one or two"),
    "compareButton": ("", "One snapshot picked: compare it with the catalog shown; two: with each other"),
    "deleteSnapshotButton": ("", "Delete the snapshots picked from the history"),
    "historyKeep": ("Snapshots kept", "How many catalogs each server's history keeps"),
    # Duplicates, Reach & collisions
    "duplicatesView": ("Duplicate names", "Each name the rejected walk saw twice, with the pages it came from"),
    "duplicateFirst": ("First definition", "The duplicated item as it was first sent"),
    "duplicateSecond": ("Second definition", "The duplicated item as it was sent again"),
    "duplicateChanges": ("Differences", "What differs between the two definitions"),
    "firstPageView": ("First page reach", "The tools a host that reads only the first page gets, and those it misses"),
    "excludedView": ("Excluded tools", "The tools conforming 2026-07-28 clients must not call, and why"),
    "collisionsView": ("Name collisions", "Tool names more than one server offers, with the servers"),
    # the server dialog
    "serverName": ("", "The server's name in the sidebar and the configuration; it must be unique"),
    "serverTransport": ("Transport", "How the server is reached: stdio, Streamable HTTP or legacy SSE"),
    "serverCommand": ("", "The program to run (stdio)"),
    "serverArgs": ("", "The program's arguments, one a line (stdio)"),
    "serverCwd": ("", "The folder the program runs in (stdio; empty: the app's)"),
    "serverEnv": ("", "Environment variables set for the program: a name and a value a row"),
    "serverUrl": ("", "The server's address (Streamable HTTP or SSE)"),
    "serverHeaders": ("", "HTTP headers sent with every request: a name and a value a row"),
    "serverRoots": ("", "What roots/list is answered with: a file:// URI and a name a row"),
    "serverProtocolEra": ("Protocol era", "Which handshake is spoken: auto, legacy initialize or 2026-07-28"),
    "serverClientProfile": ("Client profile", "Who the inspector says it is to this server"),
    "serverLogLevel": ("Log level", "The least severe log message asked of the server"),
    "serverRevealValues": ("", "Show environment and header values instead of dots"),
    "serverUseKeyring": ("", "Keep environment and header values in the system keyring, not in the file"),
    "serverDisabled": ("", "List the server without starting it on its own; Refresh starts it"),
    # the import dialog
    "importFiles": ("Other clients' files", "The usual configuration files of other MCP clients, found or not"),
    "importOpenFile": ("", "Read the servers of any configuration file"),
    "importPasted": ("Pasted JSON", "A configuration to read the servers of, pasted as JSON"),
    "importServers": ("Servers found", "The servers of the source chosen: tick those to copy into your file"),
    "importButton": ("", "Copy the ticked servers into the app's own configuration file"),
    # the command palette and the keyboard shortcuts
    "paletteFilter": ("Find an action, a server or a tool", "Type words; Up and Down choose, Enter runs, Esc closes"),
    "paletteList": ("Matches", "The actions, servers and tools whose words hold every word typed"),
    "shortcutsTable": ("Keyboard shortcuts", "Every shortcut of the window's actions, then the keys Qt gives"),
}


def named(widget: W, text: str, description: str = "") -> W:
    """Give `widget` an accessible name (`""` keeps Qt's: a button's text) and description; returns it."""
    if text:
        widget.setAccessibleName(text)
    if description:
        widget.setAccessibleDescription(description)
    return widget


def described(words: str, server_text: str = "") -> str:
    """A description that quotes a server's text: plain, made visible and bounded."""
    return f"{words} {visible(server_text, DESCRIPTION_LIMIT)}".strip() if server_text else words


def describe(root: QWidget) -> None:
    """Name `root` and every widget inside it that `NAMES` knows, unless named already (by `named()`)."""
    for widget in (root, *root.findChildren(QWidget)):
        found = NAMES.get(widget.objectName())
        if found is None:
            continue
        text, description = found
        if text and not widget.accessibleName():
            widget.setAccessibleName(text)
        if description and not widget.accessibleDescription():
            widget.setAccessibleDescription(description)


def announce(widget: QWidget, text: str, urgent: bool = False) -> None:
    """Say `text` to assistive technology, from `widget` (the status bar that shows it): once per event.

    Qt sends nothing while no assistive technology is listening (`QAccessible.isActive()`).
    """
    event = QAccessibleAnnouncementEvent(widget, text)
    if urgent:
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
    QAccessible.updateAccessibility(event)
