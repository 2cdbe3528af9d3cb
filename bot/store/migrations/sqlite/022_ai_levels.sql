-- AI levels (README, AI players): the level of the AI playing a seat, "beginner", "standard"
-- or "expert"; NULL for a member's seat. AI seats seated before levels play Standard.
ALTER TABLE table_seats ADD COLUMN ai_level TEXT;
UPDATE table_seats SET ai_level = 'standard' WHERE ai <> 0;
