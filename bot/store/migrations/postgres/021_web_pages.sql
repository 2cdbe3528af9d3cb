-- Web pages (README, Web pages; bot/web): whether a server's pages may be opened, which a
-- server manager sets with /table web. On unless turned off.
ALTER TABLE guild_settings ADD COLUMN web_pages BIGINT NOT NULL DEFAULT 1;
