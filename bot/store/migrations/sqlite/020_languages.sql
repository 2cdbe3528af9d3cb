-- Languages (README, Languages; bot/store/languages.py): a server's chosen language for its
-- tables' public messages, and each member's chosen language with the Discord client locale of
-- their last interaction, which their DMs are written in when they chose none.
ALTER TABLE guild_settings ADD COLUMN language TEXT;
CREATE TABLE member_languages (
    member_id   BIGINT PRIMARY KEY,
    chosen      TEXT,
    last_locale TEXT
);
