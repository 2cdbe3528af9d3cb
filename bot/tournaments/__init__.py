"""Tournaments' pure logic: seeding, single elimination over tables, swiss rounds and the
prize pool's split. Only the standard library: no Discord, no store, no asyncio; the store,
runtime and Discord layer build on these plans and results."""
