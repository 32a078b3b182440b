"""Canonical JSON: one byte-exact text per value, so equal states serialise identically."""

from __future__ import annotations

import json
from typing import Any


def dumps(value: Any) -> str:
    """Serialise ``value`` with sorted keys and no whitespace. Raises TypeError on non-JSON values."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> Any:
    """Parse JSON text. Raises json.JSONDecodeError on malformed text."""
    return json.loads(text)
