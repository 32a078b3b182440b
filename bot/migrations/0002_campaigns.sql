-- Escapade store, version 2: campaign records carried from game to game.
-- One record per (server, ruleset, scope key): the member id for a "player" campaign (a Skirm squad),
-- "*" for a "server" campaign (a heist crew). guild_id is '' outside a server.
CREATE TABLE campaigns (
    guild_id    TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    scope_key   TEXT NOT NULL,
    record      TEXT NOT NULL,              -- JSON, as the ruleset's campaign_update returned it
    game_id     INTEGER REFERENCES games (id), -- the game that wrote it last
    updated_at  REAL NOT NULL,
    PRIMARY KEY (guild_id, ruleset, scope_key)
);
