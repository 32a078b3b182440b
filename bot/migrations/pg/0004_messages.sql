-- Escapade store on PostgreSQL, version 4 (kept in step with ../0004_messages.sql): living messages.
CREATE TABLE living_messages (
    channel_id  TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('turn', 'lobby')),
    game_id     BIGINT NOT NULL REFERENCES games (id),
    message_id  TEXT NOT NULL,
    lines       TEXT NOT NULL DEFAULT '[]',
    image       BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (channel_id, kind)
);
