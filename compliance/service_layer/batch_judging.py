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

from compliance.domain.band_kernel import MAX_FIGURE, Kernel, column
from compliance.domain.cents import cents, scale_of, within_bounds, yuan
from compliance.domain.encoded import TemplatedFinding
from compliance.domain.ladder import WAGE_METRIC, Plan
from compliance.domain.metrics import PLAYER_METRICS, PlayerMetrics, SessionMetrics, to_yuan
from compliance.domain.national import kin_grounds, written_note
from compliance.domain.rules import Jurisdiction
from compliance.domain.ruleset import Ruleset
from compliance.domain.templates import Template, template
from compliance.errors import JurisdictionError

MAX_IDS = 100_000
MAX_KEPT = 100_000  # routes, places, point values: what a hostile log can make many of
RATIO = Decimal("0.0001")
_encode = msgspec.json.Encoder().encode


def escaped(text: str) -> str:
    """A text as it stands inside a JSON string, escaped as the findings' encoder does."""
    return _encode(text).decode()[1:-1]


class Route:
    """方案: what judges a player — one plan, in one place — and its templates, for the run."""

    __slots__ = ("kernel", "rules", "place", "venue", "templates")

    def __init__(self, kernel: Kernel, rules: Ruleset, place, venue: str):
        self.kernel, self.rules, self.place, self.venue = kernel, rules, place, venue
        self.templates: dict[tuple, Template] = {}


class Group:
    """The players of a batch on one route: the columns their bands read, and where each
    sits (the batch's session, the player's seat)."""

    __slots__ = ("route", "columns", "slots", "seats")

    def __init__(self, route: Route):
        self.route = route
        self.columns: dict[str, list[int]] = {m: [] for m in route.kernel.metrics}
        self.slots: list[int] = []
        self.seats: list[int] = []


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
        groups: dict[Route, Group] = {}
        out: list = []
        holes: list[dict[str, str]] = []
        kin: list[int] = []
        for slot, settled in enumerate(batch):
            judged = self._session(auditor, settled, slot, groups)
            out.append(judged)
            if judged is None:
                holes.append({})
                kin.append(0)
                continue
            s = settled.item.session
            holes.append(
                {
                    "S": escaped(s.session_id),
                    "P": escaped(s.platform),
                    "G": escaped(s.game),
                    "D": s.started_at.date().isoformat(),
                    "J": (auditor.as_of or s.started_at.date()).isoformat(),
                }
            )
            group = s.players[0].kin_group
            family = group is not None and all(p.kin_group == group for p in s.players)
            kin.append(0 if not family else 1 if settled.summary.rake == 0 else 2)
        for group in groups.values():
            self._findings(auditor, group, batch, out, holes, kin)
        for slot, judged in enumerate(out):
            n = len(batch[slot].item.session.players)
            if judged is None:
                self.reference += n
            else:
                self.fast += n
        return out

    def _session(self, auditor, settled, slot: int, groups: dict) -> Any:
        s, summary = settled.item.session, settled.summary
        pv = s.point_value
        if pv is None or s.tournament or s.prize is not None or s.scene_cash is not None:
            return None
        if any(p.scene_cash is not None for p in s.players):
            return None
        if auditor.priors and any((s.platform, p.id) in auditor.priors for p in s.players):
            return None
        scale = self.scales.get(pv)
        if scale is None:
            scale = scale_of(pv)
            if len(self.scales) < MAX_KEPT:
                self.scales[pv] = scale
        if not within_bounds(summary, scale, settled.fixed):
            return None  # the reference refuses it, saying which figure
        fallback = s.jurisdiction or auditor.default_jurisdiction
        venue = auditor.venue(s)
        day = auditor.as_of or s.started_at.date()
        game_class = auditor.game_classes.get(s.game)
        routes = self.routes.setdefault(venue, {})
        if len(routes) >= MAX_KEPT:
            routes.clear()  # a log that writes a new place a line keeps memory flat
        chosen: list[Group] = []
        players = summary.players
        for p in s.players:
            key = (p.jurisdiction or fallback, day, game_class, players[p.id].banker_rounds > 0)
            if key not in routes:
                routes[key] = self._route(auditor, *key, venue)
            route = routes[key]
            if route is None:
                return None
            group = groups.get(route)
            if group is None:
                group = groups[route] = Group(route)
            chosen.append(group)
        return self._measure(auditor, settled, scale, chosen, slot, venue, fallback)

    def _route(self, auditor, name, day, game_class, banker: bool, venue: str) -> Route | None:
        """The route of a player written at `name`, or None for the reference path."""
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

    def _measure(self, auditor, settled, scale, chosen: list[Group], slot: int, venue, fallback):
        s, summary = settled.item.session, settled.summary
        numerator, places = scale
        whole = numerator * 10 ** (2 - places) if places <= 2 else 0
        figures: dict[str, list[int]] = {m: [] for m in PLAYER_METRICS}
        stakes, swings, losses = figures["single_stake"], figures["round_win_loss"], []
        staked_, capitals = figures["total_staked"], figures["capital"]
        measured: dict[str, PlayerMetrics] = {}
        scene = won = 0
        any_won = False
        for p in s.players:
            t = summary.players[p.id]
            if whole:
                stake, swing, net = t.max_stake * whole, t.max_round_swing * whole, t.net * whole
                staked, capital = t.staked * whole, (t.staked + t.won) * whole
                loss, net_yuan = abs(net), Decimal(net).scaleb(-2)
            else:
                stake, swing = cents(t.max_stake, scale), cents(t.max_round_swing, scale)
                loss, net = cents(abs(t.net), scale), cents(t.net, scale)
                staked, capital = cents(t.staked, scale), cents(t.staked + t.won, scale)
                net_yuan = yuan(net, t.net)
            if stake < 0 or swing < 0 or staked < 0 or capital < 0:
                return None  # the kernels hold figures of at least 0
            stakes.append(stake)
            swings.append(swing)
            losses.append(loss)
            staked_.append(staked)
            capitals.append(capital)
            scene += capital
            if net > 0:
                won += net
                any_won = True
            measured[p.id] = PlayerMetrics(
                p.id,
                Decimal(stake).scaleb(-2),
                Decimal(swing).scaleb(-2),
                net_yuan if loss == net and t.net >= 0 else Decimal(loss).scaleb(-2),
                net_yuan,
                Decimal(staked).scaleb(-2),
                Decimal(capital).scaleb(-2),
                t.rounds,
                t.banker_rounds,
                to_yuan(t.max_cap, s.point_value) if t.max_cap is not None else None,
            )
        headcount = len(s.players)
        per_capita, rest = divmod(scene, headcount)
        if 2 * rest > headcount or (2 * rest == headcount and per_capita & 1):
            per_capita += 1
        metrics = SessionMetrics(
            headcount=headcount,
            scene_capital=Decimal(scene).scaleb(-2),
            per_capita_capital=Decimal(per_capita).scaleb(-2),
            table_win_loss=Decimal(won).scaleb(-2) if any_won else Decimal(0),
            rake=to_yuan(summary.rake, s.point_value),
            rounds=summary.rounds,
        )
        table = auditor.classifier.options.win_loss_scope == "table"
        figures["session_win_loss"] = [won] * headcount if table else losses
        shared = {
            "per_capita_capital": per_capita,
            "scene_capital": scene,
            "table_win_loss": won,
            "headcount": headcount * 100,
        }
        ratios: dict[Group, int] = {}
        for group in set(chosen):
            kernel = group.route.kernel
            used = kernel.metrics
            if not any_won and ("table_win_loss" in used or (table and "session_win_loss" in used)):
                return None  # the reference shows a table without winners as 0, not 0.00
            if kernel.needs_wage:
                ratio = self._ratio(auditor, group.route.rules, s, metrics.per_capita_capital)
                if ratio is None:
                    return None
                ratios[group] = ratio
        for seat, group in enumerate(chosen):
            for metric, values in group.columns.items():
                if metric in figures:
                    values.append(figures[metric][seat])
                elif metric == WAGE_METRIC:
                    values.append(ratios[group])
                else:
                    values.append(shared[metric])
            group.slots.append(slot)
            group.seats.append(seat)
        players = auditor.players_of(s, fallback, measured)
        findings: list[Any] = [
            auditor.classifier.integrity(s, fallback, issue) for issue in summary.issues
        ]
        first = len(findings)
        findings.extend([None] * headcount)
        return players, metrics, findings, first, venue

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

    def _findings(self, auditor, group: Group, batch, out, holes, kin) -> None:
        route = group.route
        made, columns, ids = route.templates, group.columns, self.ids
        judged = route.kernel.judge({m: column(v) for m, v in columns.items()}, len(group.slots))
        for r, (slot, seat, band, bits, ahead) in enumerate(
            zip(group.slots, group.seats, *(a.tolist() for a in judged), strict=True)
        ):
            p = batch[slot].item.session.players[seat]
            key = (band, bits, ahead, kin[slot], p.public_servant)
            t = made.get(key)
            if t is None:
                t = made[key] = self._template(auditor, route, key, batch[slot])
            pid = p.id
            value = margin = to_next = ""
            if t.value is not None:
                at = columns[t.value.metric][r]
                value = t.value.shown(at)
                if t.margin is not None:
                    margin = t.margin.above(at)
            if t.to_next is not None:
                to_next = t.to_next.below(columns[t.to_next.metric][r])
            players, _, findings, first, _ = out[slot]
            mine = (ids.get(pid) or self._id(pid), value, margin, to_next)
            findings[first + seat] = TemplatedFinding(
                (t.json, t.own, holes[slot], mine),
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
        band, bits, ahead, kin, public_servant = key
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
