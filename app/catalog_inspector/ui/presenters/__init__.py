"""Presenters: what the window shows and does, per server and across servers, tested without widgets.

`app.AppPresenter` is the window's one way to the runtime; `server.ServerPresenter` is one
server's header, banner, walks and log, with its tabs' presenters (`call`, `drift`,
`request`); `status` what the band under the header says (the banner, else the verdict);
`checks.Checks` answers the arguments editor's checks; `words` holds the banner's and the failures' words. Widgets bind to these, render and forward intents.
"""

from catalog_inspector.ui.presenters.app import AppPresenter
from catalog_inspector.ui.presenters.call import CallPresenter
from catalog_inspector.ui.presenters.checks import Checks
from catalog_inspector.ui.presenters.drift import DriftPresenter
from catalog_inspector.ui.presenters.request import RequestPresenter
from catalog_inspector.ui.presenters.server import ServerPresenter
from catalog_inspector.ui.presenters.words import Banner, Walk

__all__ = [
    "AppPresenter",
    "Banner",
    "CallPresenter",
    "Checks",
    "DriftPresenter",
    "RequestPresenter",
    "ServerPresenter",
    "Walk",
]
