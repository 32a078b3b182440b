-- Escapade store, version 4: each channel's living messages (its turn message and its lobby message), so
-- that after a restart the bot edits them in place and takes the buttons off the ones it supersedes.
-- kind is 'turn' or 'lobby'; lines is the turn message's narration (a JSON list of strings); image is 1
-- when the message holds the board image.
CREATE TABLE living_messages (
    channel_id  TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('turn', 'lobby')),
    game_id     INTEGER NOT NULL REFERENCES games (id),
    message_id  TEXT NOT NULL,
    lines       TEXT NOT NULL DEFAULT '[]',
    image       INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL NOT NULL,
    PRIMARY KEY (channel_id, kind)
);
