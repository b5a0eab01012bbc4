"""The explorer's server side: kernel websockets that send each message at once.

A drag in the explorer (:func:`aoegrid.explore`) is answered by a few small
websocket messages in a row (the kernel's "busy", the widget's new state, its
"idle"). Jupyter's server leaves Nagle's algorithm on for its kernel
websockets, so the second message waits for the browser to acknowledge the
first, and browsers delay that acknowledgement by up to 40 ms: every drag step
gains 40 to 80 ms of waiting (measured on the bundled cave: median 72 to 88 ms
from pointer move to updated count with it, 10 to 12 ms without). Tornado's
documentation gives the remedy, ``set_nodelay(True)`` once the websocket is
open; :class:`NoDelayConnection` does that.

Installing ``aoegrid`` enables it in Jupyter Server (JupyterLab, Notebook 7)
as a server extension (``jupyter server extension list`` shows
``aoegrid.explorer_server``), which changes the kernel connection only when
nobody configured another. Voila, run on its own, takes it as an option::

    voila explorer.ipynb --Voila.kernel_websocket_connection_class=aoegrid.explorer_server.NoDelayConnection
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection


class NoDelayConnection(ZMQChannelsWebsocketConnection):  # type: ignore[misc]
    """Jupyter's kernel websocket connection, with Nagle's algorithm off."""

    def connect(self) -> Any:
        """Open the connection with TCP_NODELAY set on its socket."""
        self.websocket_handler.set_nodelay(True)
        return super().connect()


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "aoegrid.explorer_server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Use :class:`NoDelayConnection` unless the server was configured with another connection class."""
    settings = serverapp.web_app.settings
    if settings.get("kernel_websocket_connection_class") is ZMQChannelsWebsocketConnection:
        settings["kernel_websocket_connection_class"] = NoDelayConnection
        serverapp.log.info("aoegrid: kernel websockets send at once (TCP_NODELAY), for the explorer's drags")
