"""How early the loop's timers fire, on uvloop and on asyncio's loop: plain
``call_later`` against ``DueTimer`` (core/gamehost/host/due_timers.py).

``python -m bench.timer_earliness [--timers 200]``: each timer is armed for
a random 1 to 20 ms, a random 0 to 2 ms after the one before, and its
callback reads ``time.monotonic()`` against the time it was due. Results in
bench/README.md ("uvloop").
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

import uvloop

from gamehost.host.due_timers import DueTimer


async def earliness(count: int, due_timer: bool) -> list[float]:
    """Seconds early of each timer that fired before its time."""
    loop = asyncio.get_running_loop()
    early: list[float] = []
    fired = [0]
    all_fired = asyncio.Event()

    def fire(due: float) -> None:
        if (ahead := due - time.monotonic()) > 0:
            early.append(ahead)
        fired[0] += 1
        if fired[0] == count:
            all_fired.set()

    for _ in range(count):
        delay = random.uniform(0.001, 0.020)
        due = time.monotonic() + delay
        if due_timer:
            DueTimer(due, lambda due=due: fire(due), time.monotonic)
        else:
            loop.call_later(delay, fire, due)
        await asyncio.sleep(random.uniform(0, 0.002))
    await all_fired.wait()
    return early


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timers", type=int, default=200)
    args = parser.parse_args()
    for name, factory in (("uvloop", uvloop.new_event_loop), ("asyncio", None)):
        for due_timer in (False, True):
            with asyncio.Runner(loop_factory=factory) as runner:
                early = runner.run(earliness(args.timers, due_timer))
            print(f"{name:8} {'DueTimer' if due_timer else 'call_later':10} early {len(early)}/{args.timers}, "
                  f"at most {1000 * max(early, default=0.0):.2f} ms")


if __name__ == "__main__":
    main()
