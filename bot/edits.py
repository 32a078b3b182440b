"""Message edits coalesced per channel, within Discord's rate limit (about 5 edits per 5 s per channel).

``EditQueue.edit(channel, message, send)`` asks for an edit; a burst of requests for one message
becomes one edit with the latest content (the latest state always wins). One worker per channel sends
the pending edits as the rate allows and stops when nothing is pending. Time comes from an injectable
clock and sleep, so tests run without waiting.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable

log = logging.getLogger("escapade.edits")

Send = Callable[[], Awaitable[object]]


class EditQueue:
    """Per-channel coalesced edits. ``rate`` edits at most per ``per`` seconds in each channel."""

    def __init__(
        self,
        *,
        rate: int = 5,
        per: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self.per = per
        self.clock = clock
        self.sleep = sleep
        self._pending: dict[str, dict[int, Send]] = {}
        self._sent: dict[str, deque[float]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self.history: deque[tuple[str, float]] = deque(maxlen=10_000)  # (channel, time) of recent edits

    def edit(self, channel: str, message: int, send: Send) -> None:
        """Ask for an edit of ``message``; replaces an edit of it still waiting (the latest wins)."""
        self._pending.setdefault(channel, {})[message] = send
        worker = self._workers.get(channel)
        if worker is None or worker.done():
            self._workers[channel] = asyncio.create_task(self._run(channel), name=f"edits-{channel}")

    def pending(self, channel: str) -> int:
        """How many messages of a channel wait for an edit."""
        return len(self._pending.get(channel, {}))

    def peak_rate(self, window: float = 5.0) -> float:
        """The most edits sent in one channel within ``window`` seconds, per second."""
        best = 0
        by_channel: dict[str, list[float]] = {}
        for channel, at in self.history:
            by_channel.setdefault(channel, []).append(at)
        for times in by_channel.values():
            start = 0
            for end, at in enumerate(times):
                while at - times[start] >= window:
                    start += 1
                best = max(best, end - start + 1)
        return best / window

    async def drain(self) -> None:
        """Wait until every pending edit is sent (tests, shutdown)."""
        while any(not w.done() for w in self._workers.values()):
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    def cancel(self) -> None:
        """Stop every worker (the bot is closing)."""
        for worker in self._workers.values():
            worker.cancel()

    async def _run(self, channel: str) -> None:
        sent = self._sent.setdefault(channel, deque(maxlen=self.rate))
        while self._pending.get(channel):
            if len(sent) == self.rate:
                wait = sent[0] + self.per - self.clock()
                if wait > 0:
                    await self.sleep(wait)
                    continue  # newer requests may have replaced what was pending
            queue = self._pending[channel]
            message = next(iter(queue))
            send = queue.pop(message)
            now = self.clock()
            sent.append(now)
            self.history.append((channel, now))
            try:
                await send()
            except Exception:
                log.warning("Editing message %s in channel %s failed", message, channel, exc_info=True)
        self._pending.pop(channel, None)
