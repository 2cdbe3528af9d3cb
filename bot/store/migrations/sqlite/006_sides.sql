-- Partnerships: the side each seat plays on (NULL in games where everyone plays alone).
ALTER TABLE table_seats ADD COLUMN side INTEGER;
