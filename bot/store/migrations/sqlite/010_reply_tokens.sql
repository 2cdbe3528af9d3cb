-- The token of each member's latest click in their DMs, kept at shutdown while it lives, so
-- that a restarted bot still sends their hands and prompts as followups to it.
CREATE TABLE reply_tokens (
    member_id INTEGER PRIMARY KEY,
    token TEXT NOT NULL,
    expires_at REAL NOT NULL  -- seconds since the epoch
);
