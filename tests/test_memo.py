"""The bounded memo the walks share: each answer worked out once while kept, never more than its limit."""

from __future__ import annotations

from functools import partial

from engine.memo import Memo


def test_an_answer_is_worked_out_once_and_the_memo_forgets_all_when_full() -> None:
    calls: list[int] = []

    def work(n: int) -> list[int]:
        calls.append(n)
        return [n * n]

    memo: Memo[list[int]] = Memo(3)
    first = memo.get(2, lambda: work(2))
    assert memo.get(2, lambda: work(2)) is first == [4]
    for n in (3, 4):
        memo.get(n, partial(work, n))
    assert calls == [2, 3, 4] and len(memo.answers) == 3
    memo.get(5, lambda: work(5))  # full: everything kept so far goes
    assert len(memo.answers) == 1
    assert memo.get(2, lambda: work(2)) == [4] and calls == [2, 3, 4, 5, 2]
