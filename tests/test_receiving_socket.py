"""core/receiving/server.py: each connection to the webhook receiver answers without Nagle's delay."""

from __future__ import annotations

import asyncio
import socket

import pytest

from core.receiving.server import listening_socket


def _nodelay_of_an_accepted_connection(sock: socket.socket) -> int:
    async def main() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                accepted = transport.get_extra_info("socket")
                seen.set_result(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        async with server:
            reader, writer = await asyncio.open_connection(*sock.getsockname()[:2])
            value = await asyncio.wait_for(seen, timeout=60)
            writer.close()
            return value

    return asyncio.run(main())


def test_connections_accepted_on_the_receivers_socket_have_nagle_off() -> None:
    assert _nodelay_of_an_accepted_connection(listening_socket("127.0.0.1", 0, socket.AF_INET)) != 0


def test_a_taken_port_is_refused_and_the_socket_closed() -> None:
    taken = listening_socket("127.0.0.1", 0, socket.AF_INET)
    try:
        port = taken.getsockname()[1]
        with pytest.raises(OSError):
            listening_socket("127.0.0.1", port, socket.AF_INET)
    finally:
        taken.close()
