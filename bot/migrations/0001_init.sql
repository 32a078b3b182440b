-- Escapade store, version 1: games, the append-only command log, scheduled notifications.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    TEXT,
    channel_id  TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    scenario    TEXT,
    creator_id  TEXT NOT NULL,
    seats       TEXT NOT NULL,              -- JSON {seat: member id | "bot" | null (empty)}
    status      TEXT NOT NULL,              -- lobby | playing | finished | aborted | expired
    version     INTEGER NOT NULL DEFAULT 0, -- number of accepted commands
    snapshot    TEXT,                       -- engine JSON (Game.to_json), null in the lobby
    settings    TEXT NOT NULL DEFAULT '{}', -- JSON: reminders, reminder_hours
    result      TEXT,                       -- JSON {winners, reason} once over
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL
);
-- One running game (lobby or playing) per channel or thread.
CREATE UNIQUE INDEX games_one_live_per_channel ON games (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX games_by_channel ON games (channel_id, id);

CREATE TABLE commands (
    game_id        INTEGER NOT NULL REFERENCES games (id),
    seq            INTEGER NOT NULL,
    seat           TEXT NOT NULL,
    user_id        TEXT,                   -- null for the game's own player or a timeout answer
    text           TEXT NOT NULL,
    events         TEXT NOT NULL,          -- JSON list of {text, kind, dice, board}
    interaction_id TEXT UNIQUE,
    created_at     REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE notifications (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id  INTEGER NOT NULL REFERENCES games (id),
    kind     TEXT NOT NULL,                -- reminder | timeout | expire
    due_at   REAL NOT NULL,
    payload  TEXT NOT NULL DEFAULT '{}',
    sent_at  REAL
);
CREATE INDEX notifications_due ON notifications (due_at) WHERE sent_at IS NULL;
