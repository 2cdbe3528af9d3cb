"""The store (bot/store) on a real SQLite file: migrations, the chip ledger, table snapshots,
durability across a killed process, and the contract with aiosqlite's private API."""
