"""What the input request panel says about a URL a server asks the person to visit (URL elicitation). No widgets.

The URL is the server's: untrusted. It is shown, copied and opened in one form,
the sign-in link's (`ui.signin.link_text`: Qt's fully encoded form, the host in
ASCII so a look-alike is visible), with its host apart; a punycode host is shown
decoded too, beside the raw one. It is opened only in the system browser, only
when that same form says https or http to this machine (`ui.signin.browser_url`),
and never fetched by the app. Anything else (`file:`, `javascript:`, `data:`,
http to another host) is never opened, and the panel says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QUrl

from catalog_inspector.core.text import visible
from catalog_inspector.ui.signin import browser_url, link_text

__all__ = ["UrlFacts", "url_facts"]

HOST_LIMIT = 200


@dataclass(frozen=True)
class UrlFacts:
    """A URL as the panel shows it.

    Attributes:
        shown: the whole URL as shown, copied and opened.
        scheme: its scheme, lower case ("" when it has none).
        host: the host as the browser would reach it (ASCII, punycode for an international name), "" for none.
        decoded: the host as an international name reads, when that differs from `host` (punycode), else "".
        target: what Open hands the system browser, or None: it is never opened.
        refusal: why it is never opened ("" when it may be).
        warning: what the person should know before opening it ("" for nothing).
    """

    shown: str
    scheme: str
    host: str
    decoded: str
    target: QUrl | None
    refusal: str
    warning: str


def url_facts(url: str) -> UrlFacts:
    shown = link_text(url)
    parsed = QUrl(shown, QUrl.ParsingMode.StrictMode)
    scheme = parsed.scheme().lower() if parsed.isValid() else ""
    host = visible(parsed.host(QUrl.ComponentFormattingOption.FullyEncoded), HOST_LIMIT) if parsed.isValid() else ""
    pretty = visible(parsed.host(QUrl.ComponentFormattingOption.PrettyDecoded), HOST_LIMIT) if host else ""
    decoded = pretty if pretty and pretty.lower() != host.lower() else ""
    target = browser_url(url)
    refusal = warning = ""
    if target is None:
        if scheme == "http" and host:
            refusal = f"Not opened: http to {host}, which is not this machine (only https, or http to this machine)."
            warning = "http: the page and what you type in it would travel unencrypted."
        elif not scheme:
            refusal = "Not opened: this is not a URL the app can read."
        else:
            refusal = (
                f"Not opened: its scheme is {visible(scheme, 40)}:, and only https (or http to this machine) is opened "
                "— other schemes can run scripts or programs."
            )
    if decoded:
        warning = (
            f"The host is an international name: it reads {decoded}. Letters from other scripts can imitate a name "
            "you know; the raw host is what the browser reaches."
        ) + (f" {warning}" if warning else "")
    return UrlFacts(shown, scheme, host, decoded, target, refusal, warning)
