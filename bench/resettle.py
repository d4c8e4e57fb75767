"""重新结算 in SQL: DuckDB re-settling every 斗牛 round of a log, the yardstick of issue 22.

What a data engineer would write instead of running this tool: the JSONL read
by DuckDB, every hand ranked by CASE expressions (docs/games/douniu.md rules
3–10, the presets' multipliers), each round's banker score by GROUP BY, the
players settled against it, the banker's side summed back by GROUP BY, the
claims checked, and the 牛九 succession (rule 3) checked with `lag()`. One
thread, materialised stages, integer keys for sessions and rounds, nothing
in Python per row.

It covers what the benchmark's logs hold: the presets `classic`, `steep`
and `linear` without per-log option overrides, no 五小牛, ties by the
highest card, the bank passed by 牛九; deals are taken as valid (the audit's
deal checks, which reject a session, are not repeated).
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.timing import Timing, best_of

COLUMNS = """{
    session_id: 'VARCHAR',
    variant: 'STRUCT(preset VARCHAR)',
    rounds: 'STRUCT(banker VARCHAR, base BIGINT, grab BIGINT,
             seats STRUCT(player VARCHAR, cards VARCHAR[5], bet BIGINT,
                          claimed BIGINT, rake BIGINT)[])[]'
}"""

MACROS = """
-- 点数 and 花色: A = 1 … K = 13; the highest card is the greatest 4 × rank + suit, 黑桃 3 > 红桃 2 > 梅花 1 > 方片 0
CREATE OR REPLACE TEMP MACRO card_rank(c) AS CASE c[2:]
    WHEN 'A' THEN 1 WHEN 'J' THEN 11 WHEN 'Q' THEN 12 WHEN 'K' THEN 13
    ELSE CAST(c[2:] AS INTEGER) END;
CREATE OR REPLACE TEMP MACRO suit_key(c) AS CASE c[1]
    WHEN 'S' THEN 3 WHEN 'H' THEN 2 WHEN 'C' THEN 1 ELSE 0 END;
-- three of the five values making 10, 20 or 30 (rule 4): ten triples
CREATE OR REPLACE TEMP MACRO has_bull(a, b, c, d, e) AS
    (a + b + c) % 10 = 0 OR (a + b + d) % 10 = 0 OR (a + b + e) % 10 = 0
    OR (a + c + d) % 10 = 0 OR (a + c + e) % 10 = 0 OR (a + d + e) % 10 = 0
    OR (b + c + d) % 10 = 0 OR (b + c + e) % 10 = 0 OR (b + d + e) % 10 = 0
    OR (c + d + e) % 10 = 0;
-- the rank held four times (rule 7), else 0: the four always include card 1 or card 2
CREATE OR REPLACE TEMP MACRO four_of(a, b, c, d, e) AS CASE
    WHEN (a = b)::INT + (a = c)::INT + (a = d)::INT + (a = e)::INT >= 3 THEN a
    WHEN (b = c)::INT + (b = d)::INT + (b = e)::INT >= 3 THEN b
    ELSE 0 END;
-- 翻倍: the multiplier of a level (没牛 0 … 牛牛 10, 四炸 11, 五花牛 12) under preset 0/1/2
CREATE OR REPLACE TEMP MACRO multiplier(preset, level) AS CASE preset
    WHEN 0 THEN CASE WHEN level <= 7 THEN 1 WHEN level <= 9 THEN 2 ELSE level - 7 END
    WHEN 1 THEN CASE WHEN level <= 6 THEN 1 WHEN level <= 8 THEN 2 ELSE level - 6 END
    ELSE CASE WHEN level = 0 THEN 1 WHEN level <= 10 THEN level ELSE 10 END END;
"""


STAGES = """
-- every seat of every round, its hand ranked
CREATE OR REPLACE TEMP TABLE seats AS
WITH sessions AS MATERIALIZED (
    SELECT row_number() OVER () AS sid,
           CASE variant.preset WHEN 'steep' THEN 1 WHEN 'linear' THEN 2 ELSE 0 END AS preset,
           rounds
    FROM {source}
),
rounds AS MATERIALIZED (
    SELECT sid, preset, generate_subscripts(rounds, 1) AS rno, unnest(rounds) AS r
    FROM sessions
),
dealt AS (
    SELECT sid, rno, preset, r.banker AS banker, r.base * r.grab AS unit, unnest(r.seats) AS s
    FROM rounds
),
ranked AS (
    SELECT sid, rno, preset, s.player AS player, s.player = banker AS is_banker,
           unit * coalesce(s.bet, 1) AS stake, s.claimed AS claimed,
           coalesce(s.rake, 0) AS rake,
           card_rank(s.cards[1]) AS r1, card_rank(s.cards[2]) AS r2,
           card_rank(s.cards[3]) AS r3, card_rank(s.cards[4]) AS r4,
           card_rank(s.cards[5]) AS r5,
           greatest(suit_key(s.cards[1]) + 4 * card_rank(s.cards[1]),
                    suit_key(s.cards[2]) + 4 * card_rank(s.cards[2]),
                    suit_key(s.cards[3]) + 4 * card_rank(s.cards[3]),
                    suit_key(s.cards[4]) + 4 * card_rank(s.cards[4]),
                    suit_key(s.cards[5]) + 4 * card_rank(s.cards[5])) AS high
    FROM dealt
),
valued AS (
    SELECT *, least(r1, 10) AS v1, least(r2, 10) AS v2, least(r3, 10) AS v3,
           least(r4, 10) AS v4, least(r5, 10) AS v5, four_of(r1, r2, r3, r4, r5) AS four
    FROM ranked
),
leveled AS (
    SELECT *, CASE
               WHEN least(r1, r2, r3, r4, r5) >= 11 THEN 12         -- 五花牛 (rules 8, 12)
               WHEN four > 0 THEN 11                                 -- 四炸 (rule 7)
               WHEN has_bull(v1, v2, v3, v4, v5)                     -- 牛丁 … 牛九, 牛牛
                   THEN coalesce(nullif((v1 + v2 + v3 + v4 + v5) % 10, 0), 10)
               ELSE 0                                                -- 没牛
           END AS level
    FROM valued
)
SELECT sid, rno, preset, player, is_banker, stake, claimed, rake, level,
       level * 4096 + four * 128 + high AS score        -- rule 6's order, then rules 7–10
FROM leveled;

-- each round's banker, his score, and the best 牛九 (who banks next, rule 3)
CREATE OR REPLACE TEMP TABLE heads AS
SELECT sid, rno,
       any_value(player) FILTER (WHERE is_banker) AS banker,
       max(score) FILTER (WHERE is_banker) AS banker_score,
       max(level) FILTER (WHERE is_banker) AS banker_level,
       max(claimed) FILTER (WHERE is_banker) AS banker_claimed,
       max(rake) FILTER (WHERE is_banker) AS banker_rake,
       arg_max(player, score) FILTER (WHERE level = 9) AS best_nine
FROM seats GROUP BY sid, rno;

-- every player against the banker (rule 4): the winner's multiplier × stake
CREATE OR REPLACE TEMP TABLE played AS
SELECT p.sid, p.rno, p.player, p.stake, p.claimed, p.rake,
       CASE WHEN p.score > h.banker_score THEN multiplier(p.preset, p.level)
            ELSE -multiplier(p.preset, h.banker_level) END * p.stake AS amount
FROM seats p JOIN heads h USING (sid, rno)
WHERE NOT p.is_banker;

-- the banker's side, the claims checked, and the banker the last round made due
CREATE OR REPLACE TEMP TABLE rounds_settled AS
WITH banked AS (
    SELECT sid, rno, -sum(amount) AS banker_total, max(stake) AS banker_stake,
           bool_or(claimed <> amount - rake) AS players_mismatch,
           bool_or(rake > greatest(amount, 0)) AS players_illegal
    FROM played GROUP BY sid, rno
)
SELECT sid, rno, h.banker, b.banker_total, b.banker_stake,
       b.players_mismatch OR h.banker_claimed <> b.banker_total - h.banker_rake AS mismatch,
       b.players_illegal OR h.banker_rake > greatest(b.banker_total, 0) AS illegal,
       h.banker_rake,
       lag(coalesce(h.best_nine, h.banker)) OVER (PARTITION BY sid ORDER BY rno) AS due
FROM heads h JOIN banked b USING (sid, rno);

-- 合计: each player's session, as the audit tallies it (in points)
CREATE OR REPLACE TEMP TABLE player_tallies AS
WITH results AS (
    SELECT sid, player, stake, amount, 0 AS banked FROM played
    UNION ALL
    SELECT sid, banker, banker_stake, banker_total, 1 FROM rounds_settled
)
SELECT sid, player, count(*) AS rounds, sum(banked) AS banker_rounds,
       sum(stake) AS staked, max(stake) AS max_stake, sum(amount) AS net,
       sum(greatest(amount, 0)) AS won, max(abs(amount)) AS max_round_swing
FROM results GROUP BY sid, player;

-- 庄家不对: the due banker was seated and someone else banked
CREATE OR REPLACE TEMP TABLE wrong_bankers AS
SELECT r.sid, r.rno, r.banker, r.due
FROM rounds_settled r SEMI JOIN seats s ON s.sid = r.sid AND s.rno = r.rno AND s.player = r.due
WHERE r.due <> r.banker;
"""

COUNTS = """
SELECT (SELECT count(*) FROM rounds_settled),
       (SELECT count(*) FILTER (WHERE mismatch) FROM rounds_settled),
       (SELECT count(*) FILTER (WHERE illegal) FROM rounds_settled),
       (SELECT count(*) FROM wrong_bankers),
       (SELECT count(*) FROM player_tallies),
       (SELECT sum(banker_rake) FROM rounds_settled) + (SELECT sum(rake) FROM played)
"""


@dataclass(frozen=True)
class Resettled:
    """What the SQL found: rounds, and rounds with each kind of integrity issue."""

    rounds: int
    settlement_mismatch: int
    illegal_action: int
    wrong_banker: int
    player_sessions: int
    rake: int


def connect():
    """One DuckDB connection on one thread, the macros defined."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET threads = 1")
    con.execute("SET enable_progress_bar = false")
    con.execute(MACROS)
    return con


def resettle(con, path: str) -> Resettled:
    """Re-settle every round of the 斗牛 log at `path` in `con`; the counts it found."""
    con.execute(STAGES.format(source=_source(path)))
    row = con.execute(COUNTS).fetchone()
    return Resettled(*(int(x or 0) for x in row))


def _source(path: str) -> str:
    quoted = path.replace("'", "''")
    return f"read_json('{quoted}', format='newline_delimited', columns={COLUMNS})"


def duckdb_resettle(path: str, runs: int = 3) -> tuple[Timing, Resettled] | None:
    """The CPU and wall time of re-settling `path` in DuckDB (a fresh connection each run,
    opening it included), and what it found; None without DuckDB."""
    try:
        import duckdb  # noqa: F401
    except ImportError:
        return None
    found: list[Resettled] = []

    def run():
        con = connect()
        found.append(resettle(con, path))
        con.close()

    return best_of(runs, run), found[-1]
