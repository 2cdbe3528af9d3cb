"""The gateway shards a bot process runs, and so the guilds, and the tables, it acts on.

Discord splits a bot's guilds over `count` shards by the guild id's timestamp bits:
`(guild_id >> 22) % count`. A process runs some of them (SHARD_IDS of SHARD_COUNT) or all of
them (the default). Guild events reach the process whose shard owns the guild; DMs reach
shard 0's; a table is acted on only by the process that owns its guild (README, Several
processes).
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int, count: int) -> int:
    """Discord's rule: the shard that owns a guild."""
    return (guild_id >> 22) % count


@dataclass(frozen=True)
class Shards:
    """`ids` of `count` shards; `ids` None is all of them, however many Discord advises."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @property
    def every(self) -> bool:
        return self.ids is None or (self.count is not None and len(self.ids) == self.count)

    @property
    def runs_shard_zero(self) -> bool:
        """Whether this process runs shard 0: it registers the commands and serves the pages."""
        return self.ids is None or 0 in self.ids

    def owns(self, guild_id: int) -> bool:
        if self.every:
            return True
        assert self.count is not None and self.ids is not None  # settings require both
        return shard_of(guild_id, self.count) in self.ids

    def where(self, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
        """The same test in SQL, with its parameters: every row when all are this process's."""
        if self.every:
            return "1 = 1", ()
        assert self.count is not None and self.ids is not None
        places = ", ".join("?" * len(self.ids))
        return f"(({column} >> 22) % ?) IN ({places})", (self.count, *self.ids)

    def share_of(self, per_second: int) -> int:
        """This process's part of a rate the whole bot shares, as Discord's global limit on REST
        calls is one per bot whatever its processes: in proportion to the shards it runs."""
        if self.every:
            return per_second
        assert self.count is not None and self.ids is not None
        return max(1, per_second * len(self.ids) // self.count)

    def describe(self) -> str:
        """For logs and messages: "shards 0-1 of 4", "every shard"."""
        if self.ids is None or self.every:
            return "every shard"
        return f"shards {spans(self.ids)} of {self.count}"


def spans(ids: tuple[int, ...]) -> str:
    """(0, 1, 2, 5) -> "0-2,5": how SHARD_IDS is written."""
    parts: list[str] = []
    start = previous = ids[0]
    for shard in (*ids[1:], None):
        if shard is not None and shard == previous + 1:
            previous = shard
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if shard is not None:
            start = previous = shard
    return ",".join(parts)


EVERY_SHARD = Shards()
