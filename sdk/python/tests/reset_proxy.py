"""A TCP proxy that breaks connections mid-stream, to test that watches resume.

Every accepted connection is forwarded to the upstream address. On each of the first `resets`
connections, once `reset_after` bytes have gone from upstream to the client, the proxy resets
both sides (SO_LINGER 0, then close), so the client sees the connection break mid-response;
or, with `freeze`, it stops forwarding anything either way and keeps both sockets open, as a
connection that died silently looks to its ends.
"""

from __future__ import annotations

import select
import socket
import struct
import threading


class ResetProxy:
    """A resetting TCP proxy listening on 127.0.0.1; `connections` counts accepted clients."""

    def __init__(
        self, upstream: tuple[str, int], reset_after: int, resets: int, freeze: bool = False
    ) -> None:
        self.upstream = upstream
        self.freeze = freeze
        self._frozen: list[socket.socket] = []
        self.reset_after = reset_after
        self.resets_left = resets
        self.connections = 0
        self.resets_done = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.port}"

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        with self._lock:
            for sock in self._frozen:
                sock.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            with self._lock:
                self.connections += 1
                will_reset = self.resets_left > 0
                self.resets_left -= 1 if will_reset else 0
            limit = self.reset_after if will_reset else None
            threading.Thread(target=self._relay, args=(client, server, limit), daemon=True).start()

    def _relay(self, client: socket.socket, server: socket.socket, limit: int | None) -> None:
        """Forward both ways until either side closes, or reset after `limit` bytes down."""
        downstream = 0
        try:
            while True:
                readable, _, _ = select.select([client, server], [], [])
                for source in readable:
                    data = source.recv(4096)
                    if not data:
                        raise ConnectionAbortedError
                    if source is client:
                        server.sendall(data)
                        continue
                    if limit is not None and downstream + len(data) >= limit:
                        client.sendall(data[: max(limit - downstream, 1)])
                        if self.freeze:
                            self._hold(client, server)
                        else:
                            self._reset(client, server)
                        return
                    client.sendall(data)
                    downstream += len(data)
        except OSError:
            pass
        for sock in (client, server):
            sock.close()

    def _hold(self, *sockets: socket.socket) -> None:
        """Keep the sockets open and unread until the proxy closes."""
        with self._lock:
            self.resets_done += 1
            self._frozen.extend(sockets)

    def _reset(self, *sockets: socket.socket) -> None:
        """Close the sockets with SO_LINGER 0, so that each peer receives a TCP reset."""
        with self._lock:
            self.resets_done += 1
        for sock in sockets:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
