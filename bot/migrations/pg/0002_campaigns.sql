-- Escapade store on PostgreSQL, version 2 (kept in step with ../0002_campaigns.sql): campaign records.
CREATE TABLE campaigns (
    guild_id    TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    scope_key   TEXT NOT NULL,
    record      TEXT NOT NULL,
    game_id     BIGINT REFERENCES games (id),
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, ruleset, scope_key)
);
