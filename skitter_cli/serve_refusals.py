"""Why ``skitter serve`` cannot start, found before it prints anything: a data folder
another server holds, an address it cannot listen on. Each is one line in the command's
language."""

from __future__ import annotations

import errno
import socket

from scorekeeper.words import ENGLISH, Words
from skitter_cli.folder_lock import FolderInUse


def folder_in_use(exc: FolderInUse, t: Words = ENGLISH) -> str:
    """The refusal of a data folder another server holds."""
    if exc.pid is None:
        return t.gettext("the data folder {folder} is in use by another skitter serve; stop "
                         "that one first, or give this one its own folder with "
                         "--data-dir").format(folder=exc.folder)
    return t.gettext("the data folder {folder} is in use by another skitter serve (process "
                     "{pid}); stop that one first, or give this one its own folder with "
                     "--data-dir").format(folder=exc.folder, pid=exc.pid)


def cannot_listen(host: str, port: int, t: Words = ENGLISH) -> str | None:
    """Why the server could not listen on ``host``:``port`` (None when it can), found by
    binding every address it would bind, as asyncio does, and letting go at once."""
    try:
        problem = _bind_problem(host, port)
    except socket.gaierror as exc:
        return t.gettext("cannot listen on {host}: {problem}; choose another with "
                         "--host").format(host=host, problem=exc.strerror)
    if problem is None:
        return None
    if problem.errno == errno.EADDRINUSE:
        other = next((p for p in range(port + 1, min(port + 50, 65536))
                      if _bind_problem(host, p) is None), None)
        if other is None:
            return t.gettext("port {port} is in use by another program; choose another "
                             "with --port").format(port=port)
        return t.gettext("port {port} is in use by another program; choose another with "
                         "--port, e.g. --port {other}").format(port=port, other=other)
    if problem.errno == errno.EACCES:
        return t.gettext("port {port} needs administrator rights; choose one above 1023 "
                         "with --port").format(port=port)
    return t.gettext("cannot listen on {host} port {port}: {problem}").format(
        host=host, port=port, problem=problem.strerror or problem)


def _bind_problem(host: str, port: int) -> OSError | None:
    """The error binding ``host``:``port`` gives (None when every address binds)."""
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
    held: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            held.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                return exc
        return None
    finally:
        for sock in held:
            sock.close()
