-- Each member's DM channel with the bot: a restarted bot need not open them all again.
CREATE TABLE dm_channels (
    member_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL
);
