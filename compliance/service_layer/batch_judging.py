"""按规则集判定: a batch of settled sessions judged per rule plan, not player by player.

The players of a batch are grouped by the plan that judges them (the rules in
force in their jurisdiction on the day, their game class, role and venue:
`Classifier.plan`) and where they were placed; each group's bands are held
against all its players at once (domain/band_kernel.py) and each finding is
written from its band's template (domain/templates.py). Money stays exact:
tallies in points become integer cents at the session's `point_value` (up to
four decimals, rounded half to even as `Decimal.quantize` does), `Decimal` is
made only for the figures stored and shown.

A session the fast path does not handle goes whole to the reference path
(`Auditor.judged`, the per-player classifier): no point value, a tournament or
prize (entry fees), cash found at the scene, a player with priors, a place
the rule book cannot place or outside mainland law, no player bands, a
game-class factor, a plan that does not compile, a wage ratio needed and
missing. `BatchJudge.fast` and `.reference` count the player-sessions of each.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

import msgspec
import numpy as np

from compliance.domain.band_kernel import MAX_FIGURE, Kernel
from compliance.domain.cents import LIMIT, NEG_ZERO, ZERO, Yuan, cents, scale_of, within_bounds
from compliance.domain.encoded import TemplatedFinding
from compliance.domain.ladder import WAGE_METRIC, Plan
from compliance.domain.metrics import PlayerMetrics, SessionMetrics, to_yuan
from compliance.domain.national import kin_grounds, written_note
from compliance.domain.rules import Jurisdiction
from compliance.domain.ruleset import Ruleset
from compliance.domain.templates import Template, template
from compliance.errors import JurisdictionError
from compliance.service_layer.batch_columns import (
    PLAYER_COLUMNS,
    SESSION_COLUMNS,
    Batch,
    Group,
    Route,
)

MAX_IDS = 100_000
MAX_KEPT = 100_000  # routes, places, point values: what a hostile log can make many of
RATIO = Decimal("0.0001")
_encode = msgspec.json.Encoder().encode


def escaped(text: str) -> str:
    """A text as it stands inside a JSON string, escaped as the findings' encoder does."""
    return _encode(text).decode()[1:-1]


class BatchJudge:
    """The fast path of an auditor: its caches live for the process (never pickled)."""

    def __init__(self) -> None:
        self.kernels: dict[int, Kernel] = {}
        self.routes: dict[str, dict[tuple, Route | None]] = {}  # by venue
        self.kept: dict[tuple[int, str], Route] = {}
        self.places: dict[str, tuple[Jurisdiction, str | None] | None] = {}
        self.wages: dict[tuple[int, int], Decimal | None] = {}
        self.scales: dict[Decimal, tuple[int, int]] = {}
        self.ids: dict[str, str] = {}
        self.yuan = Yuan()
        self.fast = 0
        self.reference = 0

    def __reduce__(self):
        return (BatchJudge, ())

    @property
    def share(self) -> float:
        """The share of player-sessions judged by the reference path."""
        total = self.fast + self.reference
        return self.reference / total if total else 0.0

    def judge(self, auditor: Any, batch: list) -> list:
        """Per settled session, (players, figures, findings, where the players' findings
        start, venue) judged here, or None for the reference path."""
        try:
            return self._judge(auditor, batch)
        except Exception:  # noqa: BLE001 - the reference path judges them, errors and all
            return [None] * len(batch)

    def _judge(self, auditor, batch: list) -> list:
        b = Batch()
        out = [self._session(auditor, settled, slot, b) for slot, settled in enumerate(batch)]
        if b.groups:
            self._findings(auditor, b, batch, out)
        fast = len(b.people)
        self.fast += fast
        self.reference += sum(len(settled.item.session.players) for settled in batch) - fast
        return out

    def _session(self, auditor, settled, slot: int, b: Batch) -> Any:
        s, summary = settled.item.session, settled.summary
        pv = s.point_value
        if pv is None or s.tournament or s.prize is not None or s.scene_cash is not None:
            return None
        if auditor.priors and any((s.platform, p.id) in auditor.priors for p in s.players):
            return None
        scale = self.scales.get(pv)
        if scale is None:
            scale = scale_of(pv)
            if len(self.scales) < MAX_KEPT:
                self.scales[pv] = scale
        numerator, places = scale
        whole = numerator * 10 ** (2 - places) if places <= 2 else 0
        if not whole and not within_bounds(summary, scale, settled.fixed):
            return None  # the reference refuses it, saying which figure
        fallback = s.jurisdiction or auditor.default_jurisdiction
        venue = auditor.venue(s)
        day = auditor.as_of or s.started_at.date()
        game_class = auditor.game_classes.get(s.game)
        routes = self.routes.setdefault(venue, {})
        if len(routes) >= MAX_KEPT:
            routes.clear()  # a log that writes a new place a line keeps memory flat
        tallies, yuan = summary.players, self.yuan
        stakes, swings, losses, staked_, capitals = b.player
        people, group_of = b.people, b.group_of
        base = len(people)
        measured: list[PlayerMetrics] = []
        chosen: set[Group] = set()
        placed: list[Group | None] = [
            None,
            None,
        ]  # of players the session places: not banker, banker
        scene = won = 0
        for p in s.players:
            if p.scene_cash is not None:
                return b.undo(base)
            t = tallies[p.id]
            banker = t.banker_rounds > 0
            if p.jurisdiction:
                key = (p.jurisdiction, day, game_class, banker)
                group = self._group(auditor, routes, key, venue, b)
            else:
                group = placed[banker]
                if group is None:
                    key = (fallback, day, game_class, banker)
                    group = placed[banker] = self._group(auditor, routes, key, venue, b)
            if group is None:
                return b.undo(base)
            if whole:
                stake, swing, net = t.max_stake * whole, t.max_round_swing * whole, t.net * whole
                staked, capital = t.staked * whole, (t.staked + t.won) * whole
                loss, net_yuan = abs(net), yuan[net]
                cap = t.max_cap
                if (
                    stake >= LIMIT
                    or swing >= LIMIT
                    or loss >= LIMIT
                    or (cap is not None and abs(cap * whole) >= LIMIT)
                ):
                    return b.undo(base)  # the reference refuses it, saying which figure
            else:
                stake, swing = cents(t.max_stake, scale), cents(t.max_round_swing, scale)
                loss, net = cents(abs(t.net), scale), cents(t.net, scale)
                staked, capital = cents(t.staked, scale), cents(t.staked + t.won, scale)
                net_yuan = NEG_ZERO if net == 0 and t.net < 0 else yuan[net]
            if stake < 0 or swing < 0 or staked < 0 or capital < 0:
                return b.undo(base)  # the kernels hold figures of at least 0
            stakes.append(stake)
            swings.append(swing)
            losses.append(loss)
            staked_.append(staked)
            capitals.append(capital)
            people.append(p)
            group_of.append(group.index)
            chosen.add(group)
            scene += capital
            if net > 0:
                won += net
            measured.append(
                PlayerMetrics(
                    p.id,
                    yuan[stake],
                    yuan[swing],
                    yuan[loss],
                    net_yuan,
                    yuan[staked],
                    yuan[capital],
                    t.rounds,
                    t.banker_rounds,
                    to_yuan(t.max_cap, pv) if t.max_cap is not None else None,
                )
            )
        if whole and (
            scene >= LIMIT
            or won >= LIMIT
            or abs(summary.rake * whole) >= LIMIT
            or abs(settled.fixed * whole) >= LIMIT
        ):
            return b.undo(base)
        headcount = len(s.players)
        per_capita, rest = divmod(scene, headcount)
        if 2 * rest > headcount or (2 * rest == headcount and per_capita & 1):
            per_capita += 1
        metrics = SessionMetrics(
            headcount,
            yuan[scene],
            yuan[per_capita],
            yuan[won] if won else ZERO,
            to_yuan(summary.rake, pv),
            summary.rounds,
        )
        table = auditor.classifier.options.win_loss_scope == "table"
        ratios: dict[int, int] = {}
        for group in chosen:
            kernel = group.route.kernel
            used = kernel.metrics
            if not won and ("table_win_loss" in used or (table and "session_win_loss" in used)):
                return b.undo(base)  # the reference shows a table without winners as 0, not 0.00
            if kernel.needs_wage:
                ratio = self._ratio(auditor, group.route.rules, s, metrics.per_capita_capital)
                if ratio is None:
                    return b.undo(base)
                ratios[group.index] = ratio
        family = s.players[0].kin_group
        kin = 0
        if family is not None and all(p.kin_group == family for p in s.players):
            kin = 1 if summary.rake == 0 else 2
        ids = self.ids
        holes = {
            "S": escaped(s.session_id),
            "P": ids.get(s.platform) or self._id(s.platform),
            "G": ids.get(s.game) or self._id(s.game),
            "D": s.started_at.date().isoformat(),
            "J": day.isoformat(),
        }
        b.sessions.append((per_capita, scene, won, headcount * 100, slot, base, kin, ratios, holes))
        players = auditor.players_of(s, fallback, measured)
        findings: list[Any] = [
            auditor.classifier.integrity(s, fallback, issue) for issue in summary.issues
        ]
        first = len(findings)
        findings.extend([None] * headcount)
        return players, metrics, findings, first, venue

    def _group(self, auditor, routes: dict, key: tuple, venue: str, b: Batch) -> Group | None:
        """The batch's group of the route of `key`, or None for the reference path."""
        route = routes.get(key)
        if route is None:
            if key in routes:
                return None
            route = routes[key] = self._route(auditor, key, venue)
            if route is None:
                return None
        return b.by_route.get(route) or b.group(route)

    def _route(self, auditor, key: tuple, venue: str) -> Route | None:
        """The route of a player written at `name`, or None for the reference path."""
        name, day, game_class, banker = key
        c = auditor.classifier
        place = self._place(c, name) if name else None
        if place is None:
            return None
        rules = c.resolver.ruleset(place[0].code, day)
        bands = rules.bands_for("player")
        if not bands or rules.multiplier(game_class) != 1:
            return None
        plan = c.plan(rules, bands, game_class, banker, venue)
        kernel = self._kernel(plan)
        if not kernel.fast:
            return None
        same = (id(plan), name)  # one route for every day the same rules are in force
        if same not in self.kept:
            self.kept[same] = Route(kernel, rules, place, venue)
        return self.kept[same]

    def _ratio(self, auditor, rules: Ruleset, s, per_capita: Decimal) -> int | None:
        """人均赌资 ÷ 月平均工资 at 0.0001, as the reference works it out, or None."""
        key = (id(rules), s.started_at.date().year)
        if key not in self.wages:
            wage = auditor.classifier.resolver.wage(rules, key[1])
            self.wages[key] = wage.monthly if wage is not None and wage.monthly > 0 else None
        monthly = self.wages[key]
        if monthly is None:
            return None
        try:
            at = int((per_capita / monthly).quantize(RATIO).scaleb(4))
        except InvalidOperation:
            return None
        return at if abs(at) < MAX_FIGURE else None

    def _findings(self, auditor, b: Batch, batch: list, out: list) -> None:
        """Each group's bands held over its players at once, each finding filled into its
        template."""
        n = len(b.people)
        player = [np.array(values, np.int64) for values in b.player]
        *numbers, slots, bases, kins, ratios, holes = zip(*b.sessions, strict=True)
        session = [np.array(values, np.int64) for values in numbers]
        of_session = np.repeat(np.arange(len(bases)), np.diff(np.array([*bases, n])))
        group_of = np.array(b.group_of, np.int64)
        order = np.argsort(group_of, kind="stable")
        ends = np.cumsum(np.bincount(group_of, minlength=len(b.groups))).tolist()
        extras = np.array(kins, np.int64)[of_session] * 2 + np.fromiter(
            (p.public_servant for p in b.people), np.int64, n
        )
        table = auditor.classifier.options.win_loss_scope == "table"
        ids, people, start = self.ids, b.people, 0
        for group, end in zip(b.groups, ends, strict=True):
            rows, start = order[start:end], end
            at = of_session[rows]
            route = group.route
            kernel, made = route.kernel, route.templates
            columns = {}
            for metric in kernel.metrics:
                if metric == WAGE_METRIC:
                    wage = [ratios[i][group.index] for i in at.tolist()]
                    columns[metric] = np.array(wage, np.int64)
                elif metric in SESSION_COLUMNS:
                    columns[metric] = session[SESSION_COLUMNS.index(metric)][at]
                elif table and metric == "session_win_loss":
                    columns[metric] = session[2][at]
                else:
                    columns[metric] = player[PLAYER_COLUMNS.index(metric)][rows]
            band, bits, ahead = kernel.judge(columns, len(rows))
            keys = kernel.keys(band, bits, ahead, extras[rows])
            figures = {metric: values.tolist() for metric, values in columns.items()}
            for r, (row, i, key) in enumerate(zip(rows.tolist(), at.tolist(), keys, strict=True)):
                slot = slots[i]
                t = made.get(key)
                if t is None:
                    t = made[key] = self._template(auditor, route, kernel.key_of(key), batch[slot])
                p = people[row]
                pid = p.id
                value = margin = to_next = ""
                shown = t.value
                if shown is not None:
                    figure = figures[shown.metric][r] // shown.divisor
                    value = shown.texts[figure]
                    if t.margin is not None:
                        margin = t.margin.texts[figure * t.margin.factor - t.margin.bound]
                if t.to_next is not None:
                    ahead_ = t.to_next
                    figure = figures[ahead_.metric][r] // ahead_.divisor
                    to_next = ahead_.texts[ahead_.bound - figure * ahead_.factor]
                players, _, findings, first, _ = out[slot]
                seat = row - bases[i]
                findings[first + seat] = TemplatedFinding(
                    (
                        t.json,
                        t.own,
                        holes[i],
                        ids.get(pid) or self._id(pid),
                        value,
                        margin,
                        to_next,
                    ),
                    t.kind,
                    t.tier,
                    "player:" + pid,
                    t.line,
                    t.jurisdiction,
                )
                players[seat].tier = t.tier

    def _id(self, pid: str) -> str:
        """A player id as it stands in a finding's JSON, kept for the ids seen most."""
        text = escaped(pid)
        if len(self.ids) < MAX_IDS:
            self.ids[pid] = text
        return text

    @staticmethod
    def _template(auditor, route: Route, key: tuple, settled) -> Template:
        band, bits, ahead, extra = key
        kin, public_servant = extra >> 1, bool(extra & 1)
        s = settled.item.session
        grounds = kin_grounds(_KinTable(s.players, settled.summary.rake), s.players[0], route.rules)
        return template(
            auditor.classifier,
            route.rules,
            route.place,
            route.kernel,
            (band, bits, ahead),
            grounds if kin else [],
            route.venue,
            public_servant,
        )

    def _place(self, c, name: str) -> tuple[Jurisdiction, str | None] | None:
        """Where a written name places a player, and the resolved-up note; None where the
        reference must say why it cannot (unknown, outside mainland law)."""
        if name not in self.places:
            if len(self.places) >= MAX_KEPT:
                self.places.clear()
            try:
                where = c.resolver.lookup(name)
            except JurisdictionError:
                self.places[name] = None
                return None
            up = written_note(name, where) if c.resolver.resolved_up(name) else None
            mainland = c.resolver.within_mainland(where)
            self.places[name] = (where, up) if mainland else None
        return self.places[name]

    def _kernel(self, plan: Plan) -> Kernel:
        found = self.kernels.get(id(plan))
        if found is None:
            found = self.kernels[id(plan)] = Kernel(plan)
        return found


class _KinTable:
    """What `kin_grounds` reads of a session: its players' kin groups and its rake."""

    __slots__ = ("players", "rake")

    def __init__(self, players, rake: int):
        self.players, self.rake = players, rake
