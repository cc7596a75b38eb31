"""One serving process of ``gamehost serve --processes N``, started by the
group's supervisor (group_supervisor.py): ``python -m gamehost.cli.group_child
INDEX COUNT SOCKET_DIR``, its settings as JSON on stdin."""

from __future__ import annotations

import sys

import structlog


def main(argv: list[str]) -> int:
    from gamehost.host.ops import event_loops
    from gamehost.host.ops.config import HostConfig
    from gamehost.host.ops.logs import configure
    from gamehost.host.ops.server import serve
    from gamehost.host.ops.serving_group import GroupMember
    from gamehost.host.store import StoreUnusable
    from gamehost.host.ops.web_port import ListenError

    index, count, socket_dir = int(argv[0]), int(argv[1]), argv[2]
    config = HostConfig.model_validate_json(sys.stdin.buffer.read())
    configure(config.log_format, config.log_level)
    structlog.contextvars.bind_contextvars(process=index)  # every line says which process wrote it
    try:
        event_loops.run(serve(config, GroupMember(index, count, socket_dir)), config.event_loop)
    except (ListenError, StoreUnusable) as error:
        print(f"gamehost: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
