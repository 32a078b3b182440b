"""An offline Discord for the bot: raw gateway payloads in, captured HTTP calls out. No token, no network.

How it works (DESIGN §8): the bot is set up without logging in (``__aenter__``, its user and application
id set by hand, ``setup_hook()``, a ``GUILD_CREATE``); each interaction is a raw ``INTERACTION_CREATE``
payload fed to ``bot._connection.parsers`` exactly as the gateway would; the bot's REST calls are
captured by replacing ``bot.http.request``, and interaction callbacks and followups by a subclass of
``AsyncWebhookAdapter`` set in discord.py's ``async_context`` context variable. Attachment bytes are read
when captured (discord.py closes the files afterwards).

Usage::

    async with Harness(tmp_path / "db.sqlite") as h:
        r = await h.slash("game new", user=ALICE, ruleset="escape", opponent=BOB)
        r.embeds[0]["title"]; r.ephemeral; r.files  # [(name, bytes)]
        choices = await h.autocomplete("do", "command", user=ALICE, command="mo")
        await h.click("esc:r:1:12:dodge", user=BOB)
        await h.select("esc:opt:1:p2:role", ["thief"], user=BOB)
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot import render
from bot.client import EscapadeBot, create_bot
from engine import load_game

GUILD = 900_000_000_000_000_001
APP = 900_000_000_000_000_002
BOT_USER = 900_000_000_000_000_003
CHANNEL = 900_000_000_000_000_100  # the first text channel; more are made on demand
ALICE = 100_000_000_000_000_001
BOB = 100_000_000_000_000_002
CAROL = 100_000_000_000_000_003  # a spectator
MANAGE_CHANNELS = 1 << 4
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38)
ALL_PERMS = (1 << 41) - 1
TIMESTAMP = "2026-01-01T00:00:00+00:00"
OPTION_TYPES = {str: 3, int: 4, bool: 5, float: 10}


@dataclass
class Reply:
    """One captured HTTP call the bot made, decoded."""

    kind: str  # callback | followup | edit_original | channel | edit_message | thread | other
    method: str
    path: str
    channel_id: int | None = None
    interaction_id: int | None = None
    type: int | None = None  # interaction callback type (4 message, 5 defer, 7 update, 8 choices)
    data: dict[str, Any] = field(default_factory=dict)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    message_id: int | None = None
    at: float = 0.0  # perf_counter when captured

    @property
    def content(self) -> str:
        """The message text."""
        return str(self.data.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        """True for a message only the caller sees."""
        return bool(int(self.data.get("flags") or 0) & 64)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The message's embeds as JSON."""
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        """The message's component rows as JSON."""
        return list(self.data.get("components") or [])

    @property
    def custom_ids(self) -> list[str]:
        """Every button custom_id in the message."""
        return [
            c["custom_id"] for row in self.components for c in row.get("components", []) if "custom_id" in c
        ]

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (type 8 callbacks)."""
        return list(self.data.get("choices") or [])

    @property
    def text(self) -> str:
        """Content and embed text together, for assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", "")]
            parts += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields", [])]
        return "\n".join(p for p in parts if p)


def _decode(payload: dict[str, Any] | None, multipart: list[dict[str, Any]] | None) -> dict[str, Any]:
    if payload is not None:
        return dict(payload)
    for part in multipart or []:
        if part.get("name") == "payload_json":
            return dict(json.loads(part["value"]))
    return {}


def _read_files(files: Any) -> list[tuple[str, bytes]]:
    out = []
    for f in files or []:
        fp = f.fp
        fp.seek(0)
        out.append((f.filename, fp.read()))
        fp.seek(0)
    return out


class Harness:
    """Drive an :class:`EscapadeBot` offline. Use as ``async with Harness(db) as h``."""

    def __init__(
        self,
        database: str | Path,
        *,
        clock: Callable[[], float] | None = None,
        seed: int | None = 7,
        **config: Any,
    ) -> None:
        config.setdefault("notify_interval", 0)
        self.database = database
        self.config = config
        self.bot: EscapadeBot = create_bot(database, clock=clock, **config)
        if seed is not None:  # games get seeds seed, seed+1, ... so tests are repeatable
            self.bot.games.new_seed = itertools.count(seed).__next__
        # Edits are rate-limited per channel: the harness runs that limit on a virtual clock, so a
        # burst is coalesced exactly as live but nothing waits (see ``edit_time``).
        self.edit_time = 0.0
        self.bot.edits.clock = lambda: self.edit_time
        self.bot.edits.sleep = self._edit_sleep
        self.replies: list[Reply] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self._ids = itertools.count(int(time.time() * 1000) << 22)
        self._channels: dict[int, dict[str, Any]] = {}
        self._token_to_interaction: dict[str, int] = {}
        self._interaction_channel: dict[int, int | None] = {}
        # Fault injection: seconds every captured call waits (network latency), and a rule that makes a
        # call fail: given (kind, method, path) it returns an HTTP status to raise, or None to answer.
        self.latency = 0.0
        self.fail: Callable[[str, str, str], int | None] | None = None
        self._interaction_message: dict[int, int] = {}  # component interaction -> its message
        # Discord drops an interaction whose first answer comes later than 3 s after it was made (the
        # callback then fails with 404, code 10062 "Unknown interaction"); the harness does the same.
        self.response_deadline = 3.0
        self._fed_at: dict[int, float] = {}
        # A deferred "thinking" answer (type 5) stays a loading message until the first followup, which
        # edits it whatever its own flags say: interaction -> (that message, the deferral's flags).
        self._loading: dict[int, tuple[int, int]] = {}
        self._original: dict[int, int] = {}  # interaction -> the message its answer made (``@original``)
        self._gone: set[int] = set()  # interactions whose ``@original`` message was deleted

    async def _edit_sleep(self, seconds: float) -> None:
        self.edit_time += seconds

    # -- set-up ------------------------------------------------------------------------------------
    async def __aenter__(self) -> Harness:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Set the bot up without logging in, and fill the guild cache."""
        bot = self.bot
        bot.sync_commands = False
        bot.http.request = self._http_request  # type: ignore[method-assign]
        async_context.set(_CaptureAdapter(self))
        await bot.__aenter__()
        state = bot._connection
        state.user = discord.ClientUser(state=state, data=self.user_data(BOT_USER, bot=True))  # type: ignore[arg-type]
        state.application_id = APP
        await bot.setup_hook()
        self.add_channel(CHANNEL, name="games")
        state.parsers["GUILD_CREATE"](self.guild_payload())
        bot._ready.set()  # type: ignore[union-attr]

    async def close(self) -> None:
        """Close the bot (the store included)."""
        for token in self._token_to_interaction:
            _BY_TOKEN.pop(token, None)
        await self.bot.close()

    def add_channel(self, channel_id: int, *, name: str = "", thread_of: int | None = None) -> int:
        """Register a text channel (or a public thread of ``thread_of``) for payloads."""
        data: dict[str, Any] = {
            "id": str(channel_id),
            "type": 11 if thread_of else 0,
            "name": name or f"ch{channel_id % 10000}",
            "guild_id": str(GUILD),
            "position": len(self._channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": str(thread_of) if thread_of else None,
        }
        if thread_of:
            data["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 10080,
                "archive_timestamp": TIMESTAMP,
                "locked": False,
            }
            data["owner_id"] = str(BOT_USER)
            data.update(message_count=0, member_count=1, total_message_sent=0, rate_limit_per_user=0, flags=0)
        self._channels[channel_id] = data
        return channel_id

    def new_channel(self) -> int:
        """A fresh text channel id (for many games at once)."""
        cid = next(self._ids)
        self.add_channel(cid)
        return cid

    def guild_payload(self) -> dict[str, Any]:
        """A GUILD_CREATE payload with the text channels registered so far."""
        return {
            "id": str(GUILD),
            "name": "Escapade test guild",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(ALICE),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(GUILD),
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "large": False,
            "unavailable": False,
            "member_count": 4,
            "members": [self.member_data(BOT_USER, bot=True)],
            "channels": [c for c in self._channels.values() if c["type"] == 0],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "joined_at": TIMESTAMP,
        }

    @staticmethod
    def user_data(user_id: int, *, bot: bool = False) -> dict[str, Any]:
        """A user object."""
        return {
            "id": str(user_id),
            "username": f"user{user_id % 1000}",
            "global_name": f"User {user_id % 1000}",
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
        }

    def member_data(
        self, user_id: int, *, bot: bool = False, permissions: int | None = None
    ) -> dict[str, Any]:
        """A guild member object (``permissions`` is set as interactions carry it)."""
        data: dict[str, Any] = {
            "user": self.user_data(user_id, bot=bot),
            "roles": [],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    # -- capture -----------------------------------------------------------------------------------
    def _message(
        self, channel_id: int | None, data: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        mid = next(self._ids)
        message = {
            "id": str(mid),
            "channel_id": str(channel_id or CHANNEL),
            "guild_id": str(GUILD),
            "author": self.user_data(BOT_USER, bot=True),
            "content": data.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(next(self._ids)),
                    "filename": name,
                    "size": len(blob),
                    "url": f"https://cdn.example/{name}",
                    "proxy_url": f"https://cdn.example/{name}",
                }
                for name, blob in files
            ],
            "embeds": data.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": int(data.get("flags") or 0),
            "components": data.get("components") or [],
        }
        self.messages[mid] = message
        return message

    def _record(self, reply: Reply) -> None:
        reply.at = time.perf_counter()
        self.replies.append(reply)

    async def _fault(self, kind: str, method: str, path: str) -> None:
        """Wait out the injected latency, then raise the injected failure for this call, if any."""
        if self.latency:
            await asyncio.sleep(self.latency)
        status = self.fail(kind, method, path) if self.fail is not None else None
        if status is not None:
            response = _FakeResponse(status)
            if status >= 500:
                raise discord.DiscordServerError(response, {"message": "injected", "code": 0})  # type: ignore[arg-type]
            raise discord.HTTPException(response, {"message": "injected", "code": 0})  # type: ignore[arg-type]

    async def _http_request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        """Stands in for ``bot.http.request``: records bot-token REST calls and answers them."""
        await self._fault("rest", route.method, route.path)
        data = _decode(kwargs.get("json"), form)
        blobs = _read_files(files)
        path = route.path
        channel_id = int(route.channel_id) if getattr(route, "channel_id", None) else None
        if route.method == "POST" and path == "/channels/{channel_id}/threads":
            thread_id = next(self._ids)
            self.add_channel(thread_id, name=data.get("name", "thread"), thread_of=channel_id)
            self._record(Reply("thread", route.method, route.url, channel_id=thread_id, data=data))
            return dict(self._channels[thread_id])
        if route.method == "POST" and path == "/channels/{channel_id}/messages":
            msg = self._message(channel_id, data, blobs)
            self._record(Reply("channel", "POST", route.url, channel_id, data=data, files=blobs, message_id=int(msg["id"])))  # fmt: skip
            return msg
        if route.method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            mid = (
                int(route.message_id)
                if getattr(route, "message_id", None)
                else int(route.url.rsplit("/", 1)[1])
            )
            msg = self.messages.get(mid) or self._message(channel_id, {}, [])
            msg.update({k: v for k, v in data.items() if k in ("content", "embeds", "components", "flags")})
            self._record(Reply("edit_message", "PATCH", route.url, channel_id, data=data, message_id=mid))
            return msg
        self._record(Reply("other", route.method, route.url, channel_id, data=data, files=blobs))
        return {}

    def _webhook(self, route: Any, payload: Any, multipart: Any, files: Any) -> Any:
        data = _decode(payload, multipart)
        blobs = _read_files(files)
        token = getattr(route, "webhook_token", None)
        if route.path.endswith("/callback"):
            iid = int(route.webhook_id)
            kind_type = int(data.get("type") or 0)
            inner = dict(data.get("data") or {})
            channel_id = self._interaction_channel.get(iid)
            late = time.perf_counter() - self._fed_at.get(iid, time.perf_counter())
            if late > self.response_deadline:
                self._record(Reply("refused", route.method, route.url, channel_id, iid, kind_type, inner))
                raise discord.NotFound(_FakeResponse(404, "Not Found"), {"message": "Unknown interaction", "code": 10062})  # type: ignore[arg-type]  # fmt: skip
            reply = Reply("callback", route.method, route.url, channel_id, iid, kind_type, inner, blobs)
            result: dict[str, Any] = {"interaction": {"id": str(iid), "type": 2}}
            edited = self._interaction_message.get(iid) if kind_type == 7 else None
            if edited is not None and edited in self.messages:  # an update of the clicked message
                msg = self.messages[edited]
                msg.update(
                    {k: v for k, v in inner.items() if k in ("content", "embeds", "components", "flags")}
                )
                reply.message_id = edited
                self._original[iid] = edited
                result["interaction"]["response_message_id"] = msg["id"]
                result["resource"] = {"type": kind_type, "message": msg}
            elif kind_type in (4, 5, 7):
                msg = self._message(channel_id, inner, blobs)
                reply.message_id = int(msg["id"])
                self._original[iid] = int(msg["id"])
                result["interaction"]["response_message_id"] = msg["id"]
                result["interaction"]["response_message_loading"] = kind_type == 5
                result["interaction"]["response_message_ephemeral"] = bool(int(inner.get("flags") or 0) & 64)
                result["resource"] = {"type": kind_type, "message": msg}
                if kind_type == 5:
                    self._loading[iid] = (int(msg["id"]), int(inner.get("flags") or 0))
            self._record(reply)
            return result
        iid = self._token_to_interaction.get(str(token))
        channel_id = self._interaction_channel.get(iid or 0)
        original = route.path.endswith("/messages/@original")
        if original and (iid or 0) in self._gone:  # Discord: 404 Unknown Message
            self._record(Reply("refused", route.method, route.url, channel_id, iid))
            raise discord.NotFound(_FakeResponse(404, "Not Found"), {"message": "Unknown Message", "code": 10008})  # type: ignore[arg-type]  # fmt: skip
        if route.method == "DELETE":
            self._loading.pop(iid or 0, None)
            if original:
                self.messages.pop(self._original.pop(iid or 0, 0), None)
                self._gone.add(iid or 0)
            self._record(Reply("delete_original" if original else "other", route.method, route.url, channel_id, iid))  # fmt: skip
            return None
        kind = (
            "followup" if route.method == "POST" else "edit_original" if route.method == "PATCH" else "other"
        )
        loading = self._loading.pop(iid or 0, None) if route.method == "POST" or original else None
        shown = self._original.get(iid or 0)
        if route.method == "PATCH" and original and loading is None and shown in self.messages:
            msg = self.messages[shown]  # an edit of the answer already shown: the same message changes
            msg.update({k: v for k, v in data.items() if k in ("content", "embeds", "components", "flags")})
            self._record(
                Reply("edit_original", "PATCH", route.url, channel_id, iid, None, data, blobs, shown)
            )
            return msg
        if loading is not None:  # resolves the loading message: its visibility was set by the deferral
            data = {**data, "flags": (int(data.get("flags") or 0) & ~64) | (loading[1] & 64)}
        msg = self._message(channel_id, data, blobs)
        if loading is not None:  # the same message, now showing the answer
            self.messages.pop(int(msg["id"]))
            msg["id"] = str(loading[0])
            self.messages[loading[0]] = msg
        self._record(Reply(kind, route.method, route.url, channel_id, iid, None, data, blobs, int(msg["id"])))
        return msg

    # -- interactions ------------------------------------------------------------------------------
    def _base(self, itype: int, user: int, channel: int | None, permissions: int | None) -> dict[str, Any]:
        iid = next(self._ids)
        channel = channel or CHANNEL
        token = f"tok{iid}"
        self._token_to_interaction[token] = iid
        _BY_TOKEN[token] = self
        self._interaction_channel[iid] = channel
        member_perms = MEMBER_PERMS if permissions is None else permissions
        return {
            "id": str(iid),
            "application_id": str(APP),
            "type": itype,
            "token": token,
            "version": 1,
            "guild_id": str(GUILD),
            "guild": {"id": str(GUILD), "locale": "en-US", "features": []},
            "channel_id": str(channel),
            "channel": {
                **self._channels.get(channel, {"id": str(channel), "type": 0}),
                "permissions": str(member_perms),
            },  # fmt: skip
            "member": self.member_data(user, permissions=member_perms),
            "app_permissions": str(ALL_PERMS),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD)},
            "context": 0,
            "attachment_size_limit": 26_214_400,
        }

    def _command(self, name: str) -> tuple[list[str], app_commands.Command[Any, ..., Any]]:
        parts = name.split()
        found = self.bot.tree.get_command(parts[0])
        for part in parts[1:]:
            assert isinstance(found, app_commands.Group), f"{name}: {part} is not a subcommand"
            found = found.get_command(part)
        assert isinstance(found, app_commands.Command), f"no command /{name}"
        return parts, found

    def _options(
        self, command: app_commands.Command[Any, ..., Any], values: dict[str, Any], focused: str | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        options, resolved = [], {}
        for name, value in values.items():
            if value is None:
                continue
            param = command._params[name]
            ptype = param.type.value
            if ptype == 6:  # user / member
                uid = int(value)
                member = self.member_data(uid)
                resolved.setdefault("users", {})[str(uid)] = member.pop("user")
                resolved.setdefault("members", {})[str(uid)] = {**member, "permissions": str(MEMBER_PERMS)}
                value = str(uid)
            opt: dict[str, Any] = {"name": name, "type": ptype, "value": value}
            if name == focused:
                opt["focused"] = True
            options.append(opt)
        return options, resolved

    def _app_payload(
        self,
        itype: int,
        name: str,
        user: int,
        channel: int | None,
        values: dict[str, Any],
        focused: str | None,
        permissions: int | None,  # fmt: skip
    ) -> dict[str, Any]:
        parts, command = self._command(name)
        options, resolved = self._options(command, values, focused)
        for sub in reversed(parts[1:]):
            options = [{"name": sub, "type": 1, "options": options}]
        payload = self._base(itype, user, channel, permissions)
        payload["data"] = {"id": str(next(self._ids)), "name": parts[0], "type": 1, "options": options}
        if resolved:
            payload["data"]["resolved"] = resolved
        return payload

    async def feed(self, payload: dict[str, Any]) -> list[Reply]:
        """Feed one INTERACTION_CREATE payload and wait until the bot has finished with it."""
        start = len(self.replies)
        before = asyncio.all_tasks()
        self._fed_at[int(payload["id"])] = time.perf_counter()
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        me = asyncio.current_task()
        while True:
            pending = [
                t for t in asyncio.all_tasks() - before if t is not me and not t.done() and not _view_timer(t)
            ]
            if not pending:
                break
            await asyncio.wait(pending, timeout=30)
        iid = int(payload["id"])
        return [r for r in self.replies[start:] if r.interaction_id in (iid, None)]

    async def slash(
        self,
        name: str,
        *,
        user: int,
        channel: int | None = None,
        permissions: int | None = None,
        **options: Any,
    ) -> Reply:
        """Invoke ``/name`` (``"game new"`` for a subcommand) and return the bot's final visible reply."""
        payload = self._app_payload(2, name, user, channel, options, None, permissions)
        return self._final(await self.feed(payload), payload)

    def slash_payload(
        self, name: str, *, user: int, channel: int | None = None, **options: Any
    ) -> dict[str, Any]:
        """The payload of a slash command, to feed later (e.g. twice, or concurrently)."""
        return self._app_payload(2, name, user, channel, options, None, None)

    async def autocomplete(
        self, name: str, focused: str, *, user: int, channel: int | None = None, **options: Any
    ) -> list[dict[str, Any]]:
        """Ask for the choices of option ``focused`` (its typed text in ``options``)."""
        options.setdefault(focused, "")
        payload = self._app_payload(4, name, user, channel, options, focused, None)
        replies = await self.feed(payload)
        for r in replies:
            if r.type == 8:
                return r.choices
        raise AssertionError(f"no autocomplete answer: {replies}")

    def find_message(self, custom_id: str) -> dict[str, Any]:
        """The latest captured message holding a button with ``custom_id``."""
        for message in reversed(list(self.messages.values())):
            for row in message.get("components") or []:
                if any(c.get("custom_id") == custom_id for c in row.get("components", [])):
                    return message
        raise AssertionError(f"no message has a button {custom_id!r}")

    async def click(
        self,
        custom_id: str,
        *,
        user: int,
        channel: int | None = None,
        permissions: int | None = None,
        stale: dict[str, Any] | None = None,
    ) -> Reply:
        """Click a button of a captured message (``stale``: a copy of a message as it was, whose buttons
        have since been taken away, as a client that did not refresh would still show it)."""
        message = stale or self.find_message(custom_id)
        payload = self._base(3, user, channel or int(message["channel_id"]), permissions)
        payload["message"] = message
        self._interaction_message[int(payload["id"])] = int(message["id"])
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        return self._final(await self.feed(payload), payload)

    async def select(
        self,
        custom_id: str,
        values: list[str],
        *,
        user: int,
        channel: int | None = None,
        stale: dict[str, Any] | None = None,
    ) -> Reply:
        """Pick ``values`` in a select menu of a captured message (``stale``: as for :meth:`click`)."""
        message = stale or self.find_message(custom_id)
        payload = self._base(3, user, channel or int(message["channel_id"]), None)
        payload["message"] = message
        self._interaction_message[int(payload["id"])] = int(message["id"])
        payload["data"] = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return self._final(await self.feed(payload), payload)

    def _final(self, replies: list[Reply], payload: dict[str, Any]) -> Reply:
        visible = [r for r in replies if r.type != 5 and r.kind != "edit_message"]
        if not visible:
            raise AssertionError(f"the bot did not answer {payload['data']}: {replies}")
        return visible[-1]

    # -- helpers for tests -------------------------------------------------------------------------
    def narrates(self, before: Any, seat: str, text: str, channel: int | None = None) -> bool:
        """Whether the channel's turn message tells ``seat``'s command ``text``, played on the position
        ``before`` (a Game, left unchanged): its header echoes it, or (the command went on under the header
        of the seat's run) every event it made is told (an event of a series by its item)."""
        shown = self.shown(channel).text
        if f"`{text}`" in shown:
            return True
        events = before.copy().apply(seat, text)
        told = [e.data["series"][1] if e.data.get("series") else e.text for e in events]
        return bool(told) and all(t in shown for t in told)

    def shown(self, channel: int | None = None) -> Reply:
        """The channel's turn message as it reads now (every edit applied); without one (a lobby, a
        finished game), the latest public message."""
        wanted = str(channel or CHANNEL)
        living = self.bot.replier.messages.turns.get(wanted)
        if living is not None and living.message_id in self.messages:
            m = self.messages[living.message_id]
            return Reply("message", "GET", "", int(wanted), data=dict(m), message_id=living.message_id)
        for mid in reversed(list(self.messages)):
            m = self.messages[mid]
            if m["channel_id"] != wanted or int(m.get("flags") or 0) & 64:
                continue
            if m.get("content") or m.get("embeds"):
                return Reply("message", "GET", "", int(wanted), data=dict(m), message_id=mid)
        raise AssertionError("no public message in the channel")

    async def confirm(
        self, asked: Reply, *, user: int, channel: int | None = None, permissions: int | None = None
    ) -> Reply:
        """Click Confirm on a private "are you sure?" message."""
        ok = [c for c in asked.custom_ids if c.startswith("esc:ok:")]
        assert asked.ephemeral and ok, asked.text
        return await self.click(ok[0], user=user, channel=channel, permissions=permissions)

    async def do_confirmed(self, user: int, command: str, **options: Any) -> Reply:
        """``/do command``, confirming it when the bot asks first (calling the escape cannot be taken back)."""
        reply = await self.slash("do", user=user, command=command, **options)
        if any(c.startswith("esc:ok:") for c in reply.custom_ids):
            assert command.startswith("escape") and "cannot be taken back" in reply.content, reply.text
            reply = await self.confirm(reply, user=user, channel=options.get("channel"))
        return reply

    def public_messages(self, channel: int | None = None) -> list[Reply]:
        """Every new public message captured (edits are not new messages; a deferred reply counts once)."""
        wanted = channel or CHANNEL
        return [
            r
            for r in self.replies
            if r.channel_id == wanted
            and not r.ephemeral
            and (r.kind in ("channel", "followup") or (r.kind == "callback" and r.type == 4))
        ]

    async def row(self, channel: int | None = None) -> Any:
        """The stored row of the latest game in a channel, its snapshot completed with the command log
        (``Store.full_snapshot``: what ``Game.to_json`` gives), so a test can replay it."""
        row = await self.bot.store.latest_game(str(channel or CHANNEL))
        if row is not None and row.snapshot is not None:
            row.snapshot = await self.bot.store.full_snapshot(row)
        return row

    def boards(self) -> list[bytes]:
        """Every board image captured so far."""
        return [blob for r in self.replies for name, blob in r.files if name.endswith(".png")]

    async def run_due(self, now: float | None = None) -> list[Reply]:
        """Run the scheduled notifications due by ``now`` and return what was posted."""
        start = len(self.replies)
        await self.bot.run_due_notifications(now)
        return self.replies[start:]


def _view_timer(task: asyncio.Task[Any]) -> bool:
    """True for discord.py's timer of a view (ephemeral views get a 15-minute one): not waited for."""
    return "timeout_task" in getattr(task.get_coro(), "__qualname__", "")


_BY_TOKEN: dict[str, Harness] = {}  # interaction token -> the harness that made it (several may be open)


class _CaptureAdapter(AsyncWebhookAdapter):
    """Records interaction callbacks and followups instead of sending them."""

    def __init__(self, harness: Harness) -> None:
        super().__init__()
        self.harness = harness

    async def request(  # type: ignore[override]
        self,
        route: Any,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Any = None,
        **kwargs: Any,
    ) -> Any:
        harness = _BY_TOKEN.get(str(getattr(route, "webhook_token", "")), self.harness)
        kind = "callback" if route.path.endswith("/callback") else "webhook"
        await harness._fault(kind, route.method, route.path)
        return harness._webhook(route, payload, multipart, files)


@dataclass
class _FakeResponse:
    """What discord.py's HTTPException reads from a response: its status and reason."""

    status: int
    reason: str = "injected failure"


# -- helpers shared by the bot tests -----------------------------------------------------------------
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(blob: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, checking its signature and header chunk."""
    assert blob[:8] == PNG_SIGNATURE, "not a PNG"
    assert blob[12:16] == b"IHDR", "PNG without IHDR first"
    return int.from_bytes(blob[16:20], "big"), int.from_bytes(blob[20:24], "big")


def expected_size(row: Any, version: int | None = None) -> tuple[int, int]:
    """The size the renderer gives this game's board after ``version`` commands (default: now)."""
    renderer = render.get_renderer()
    assert renderer is not None
    game = load_game(row.snapshot)
    if version is not None and version != len(game.log):
        game = game.replay(upto=version)
    return png_size(renderer(game.scene(None)))


def board_version(reply: Reply) -> int:
    """The game version a narration or status message was posted at (from its footer/description)."""
    import re

    for e in reply.embeds:
        for text in (e.get("footer", {}).get("text", ""), e.get("description", "")):
            m = re.search(r"\bv(\d+)\b", text)
            if m:
                return int(m.group(1))
    raise AssertionError(f"no version in {reply.text!r}")


def board_replies(h: Harness) -> list[Reply]:
    """Every captured message with a board image."""
    return [r for r in h.replies if any(n.endswith(".png") for n, _b in r.files)]


async def open_escape(h: Harness, *, channel: int | None = None, scenario: str | None = None) -> Reply:
    """Alice opens an ESCAPE lobby against Bob and starts it; returns the start reply."""
    await h.slash("game new", user=ALICE, channel=channel, ruleset="escape", scenario=scenario, opponent=BOB)
    return await h.slash("game start", user=ALICE, channel=channel)


# Who plays each seat of the two-seat rulesets in whole-game tests.
SEATS = {"resistance": ALICE, "isc": BOB, "player1": ALICE, "player2": BOB}


async def play_turns(
    h: Harness,
    last: Reply,
    *,
    limit: int,
    channel: int | None = None,
    until: Callable[[Any], bool] | None = None,
) -> tuple[Reply, int, int]:
    """Play up to ``limit`` commands chosen by the engine's own policy, as the members would.

    Reactions are answered by clicking the button of the turn message. Stops early when the game ends
    or ``until(game)`` holds. Returns the last reply, the number of commands played and how many were
    button clicks. Each command must be accepted (the game's version moves on).
    """
    played = clicks = 0
    while played < limit:
        row = await h.row(channel)
        if row.status != "playing":
            break
        game = load_game(row.snapshot)
        if until is not None and until(game):
            break
        decision = game.awaiting()[0]
        seat = sorted(decision.seats)[0]
        text = game.bot_command(seat).text
        start = len(h.replies)
        if decision.kind == "reaction":
            custom_id = f"esc:r:{row.id}:{row.version}:{text}"
            last = await h.click(custom_id, user=SEATS[seat])
            clicks += 1
        else:
            last = await h.slash("do", user=SEATS[seat], channel=channel, command=text)
        after = await h.row(channel)
        assert after.version > row.version, last.text
        if after.status == "playing":  # never a ping for the member who just acted
            pinged = [
                u for r in h.replies[start:] for u in (r.data.get("allowed_mentions") or {}).get("users", [])
            ]
            assert str(SEATS[seat]) not in pinged, (text, pinged)
        played += 1
    return last, played, clicks
