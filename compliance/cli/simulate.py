"""`compliance simulate`: write realistic session logs."""

from __future__ import annotations

import os
import sys

import click

from compliance.cli.progress import bar
from compliance.games import game_codes
from compliance.service_layer.simulate import (
    DEFAULT_JURISDICTIONS,
    SimulationSpec,
    check_places,
    write_log,
)
from compliance.service_layer.simulate_guests import GUEST_FILE
from compliance.service_layer.simulate_mirrors import append_signal_sessions
from compliance.service_layer.simulate_platform import write_platform


def game_list(value: tuple[str, ...]) -> tuple[str, ...]:
    codes = tuple(c for v in value for c in v.split(","))
    if "all" in codes:
        return tuple(game_codes())
    unknown = sorted(set(codes) - set(game_codes()))
    if unknown:
        raise click.BadParameter(
            f"unknown game {unknown[0]!r} (known: {', '.join(game_codes())}, all)"
        )
    return codes


@click.command()
@click.option(
    "--game",
    "games",
    multiple=True,
    default=("douniu",),
    show_default=True,
    help="Game code, comma list, or all (repeatable).",
)
@click.option("--sessions", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same bytes.")
@click.option(
    "--anomalies",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Share of rounds tampered with (payouts, bankers, illegal actions).",
)
@click.option(
    "--jurisdictions",
    default=",".join(DEFAULT_JURISDICTIONS),
    show_default=True,
    help="Comma list of jurisdictions rooms and players are spread over.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, allow_dash=True),
    default="simulated.jsonl",
    show_default=True,
    help="'-' writes the log to standard output (and the summary to standard error).",
)
@click.option(
    "--platform-records",
    "records",
    type=click.Path(file_okay=False),
    help="Also write the platform's accounts, ledger and configuration (accounts.jsonl, "
    "ledger.jsonl, config.jsonl) into this folder; --anomalies injects duty breaches too, "
    "and appends the signals' sessions (mirrored gains, with honest look-alikes).",
)
@click.option(
    "--guests",
    is_flag=True,
    help=f"With --platform-records: also guest accounts and their sessions of 2020 "
    f"({GUEST_FILE} in that folder, under the 2019 guest rules); --anomalies breaches them.",
)
def simulate(games, sessions, seed, anomalies, jurisdictions, output, records, guests) -> None:
    """Write simulated stakelog/1 sessions from really shuffled decks.

    \b
    Example:
      compliance simulate --game douniu --sessions 1000 --seed 7 --anomalies 0.01

    \b
    With the platform's records and 2020 guests, then their audit:
      compliance simulate -o s.jsonl --platform-records p --guests --anomalies 0.05
      compliance audit s.jsonl p/guests.jsonl --accounts p/accounts.jsonl \\
        --ledger p/ledger.jsonl --platform-config p/config.jsonl
    """
    places = tuple(j.strip() for j in jurisdictions.split(",") if j.strip())
    if not places:
        raise click.BadParameter("name at least one place", param_hint="--jurisdictions")
    check_places(places)
    spec = SimulationSpec(
        games=game_list(games),
        sessions=sessions,
        seed=seed,
        anomalies=anomalies,
        jurisdictions=places,
        platform_fees=bool(records),
    )
    to_stdout = output == "-"
    with bar("simulate", sessions) as progress:
        log = write_log(spec, sys.stdout.buffer if to_stdout else output, progress.update)
    click.echo(
        f"wrote {sessions} sessions, {log.rounds} rounds, {len(log.anomalies)} anomalies "
        f"to {'standard output' if to_stdout else output}",
        err=to_stdout,
    )
    if guests and not records:
        raise click.UsageError("--guests writes into the --platform-records folder: give it")
    if records:
        if to_stdout:
            raise click.UsageError("--platform-records reads the sessions back: give --output")
        if anomalies > 0:
            signals = append_signal_sessions(output, seed, anomalies)
            click.echo(
                f"appended {signals.sessions} sessions of {len(signals.groups)} mirrored-gains "
                f"groups and their honest look-alikes to {output}"
            )
        made = write_platform(output, records, seed, anomalies, guests)
        guest_note = (
            f", {made.guest_sessions} guest sessions (2020) to {os.path.join(records, GUEST_FILE)}"
            if guests
            else ""
        )
        click.echo(
            f"wrote {made.accounts} accounts, {made.events} ledger events and the configuration "
            f"to {records}{guest_note}, {len(made.injected)} duty breaches injected",
            err=to_stdout,
        )
