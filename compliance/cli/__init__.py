"""The `compliance` command: noun groups with verbs, thin over the service layer.

Exit codes (ExitCode, in exit_codes.py): 0 ran (and nothing at or above
--fail-on); 1 error; 2 usage (a malformed value, or one naming nothing known:
BadValueError, JurisdictionError); 3 findings at or above --fail-on, rejects
past --fail-on reject or --max-reject-rate (and the problems `rules check` and
`rules verify` find); 130 stopped by Ctrl-C.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, MutableMapping
from importlib import import_module

import click

from compliance import __version__
from compliance.cli.exit_codes import ExitCode
from compliance.errors import BadValueError, ComplianceError, JurisdictionError
from compliance.reporting.cells import printable

DEBUG_VAR = "COMPLIANCE_DEBUG"


COMMANDS: dict[str, tuple[str, str]] = {
    "audit": ("audit:audit", "Audit session logs (.jsonl or .jsonl.gz) and store the run."),
    "db": ("db:db", "Create, migrate and seed the threshold database."),
    "demo": (
        "demo:demo",
        "Simulate a few hundred sessions, audit them, and summarise what was found.",
    ),
    "evidence": ("evidence:evidence", "Hand over the evidence behind the findings on SUBJECT."),
    "games": ("games:games", "Evaluate hands and settle rounds of the supported games."),
    "logs": (
        "logs:logs",
        "The stakelog/1 session-log format, and accounts/1, ledger/1, platform-config/1.",
    ),
    "report": (
        "report:report",
        "Report on stored audit results: one run, or every run's sessions in a date range.",
    ),
    "review": ("review:review", "Give findings a review status, and list and show them."),
    "rules": ("rules:rules", "List, check, compare, import and export the threshold data."),
    "simulate": (
        "simulate:simulate",
        "Write simulated stakelog/1 sessions from really shuffled decks.",
    ),
    "trail": (
        "review:trail",
        "The one change trail: rules, waivers and reviews (`rules verify`, `rules history`).",
    ),
    "waive": (
        "review:waive",
        "Waive the findings of a scope, dated from --from to --until (both included).",
    ),
    "waivers": ("review:waivers", "List, show and revoke waivers."),
    "whatif": (
        "whatif:whatif",
        "Re-classify the stored sessions under changed rules and list every tier that changes.",
    ),
}
"""Each command's module (under compliance.cli) and object, and the first paragraph of its
help, which `compliance --help` lists: a command's module is imported only when it is run
(or its own help asked for), so `games settle` starts without SQLAlchemy, Jinja2 or
matplotlib. tests/cli/test_startup.py holds the summaries to the commands' help."""


class LazyCommands(MutableMapping[str, click.Command]):
    """懒加载: the root's commands by name, each module imported on first access."""

    def __init__(self, specs: dict[str, tuple[str, str]]):
        self.specs = specs
        self.loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self.loaded:
            if name not in self.specs:
                raise KeyError(name)
            module, _, attr = self.specs[name][0].partition(":")
            try:
                self.loaded[name] = getattr(import_module(f"compliance.cli.{module}"), attr)
            except KeyboardInterrupt:  # as compliance.__main__ says while compliance.cli loads
                click.echo("interrupted", err=True)
                raise click.exceptions.Exit(ExitCode.INTERRUPTED) from None
        return self.loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self.loaded[name] = command

    def __delitem__(self, name: str) -> None:
        self.specs.pop(name, None)
        del self.loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self.specs), **dict.fromkeys(self.loaded)})

    def __len__(self) -> int:
        return len(self.specs.keys() | self.loaded.keys())

    def summary(self, name: str) -> click.Command:
        """The command if loaded, else a stand-in with its summary as help (for listing)."""
        if name in self.loaded or name not in self.specs:
            return self[name]
        return click.Command(name, help=self.specs[name][1])


class Root(click.Group):
    """Turns our errors into one-line messages; no traceback reaches a user. Its commands'
    modules load when a command is run, not to list them (COMMANDS)."""

    commands: LazyCommands

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        listed = [(name, self.commands.summary(name)) for name in self.list_commands(ctx)]
        commands = [(name, cmd) for name, cmd in listed if not cmd.hidden]
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            rows = [(name, cmd.get_short_help_str(limit)) for name, cmd in commands]
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (BadValueError, JurisdictionError) as exc:
            raise click.UsageError(printable(str(exc))) from None
        except ComplianceError as exc:
            raise click.ClickException(printable(str(exc), keep_newlines=True)) from None
        except BrokenPipeError:
            raise
        except KeyboardInterrupt:  # click would say "Aborted!" and exit 1
            click.echo("interrupted", err=True)
            raise click.exceptions.Exit(ExitCode.INTERRUPTED) from None
        except (OSError, UnicodeError) as exc:
            raise click.ClickException(str(exc)) from None
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as exc:
            if os.environ.get(DEBUG_VAR):
                raise
            raise click.ClickException(
                f"internal error ({type(exc).__name__}: {exc}); please report it "
                f"with the command that gave it ({DEBUG_VAR}=1 shows where)"
            ) from None


@click.group(cls=Root, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="compliance")
def cli() -> None:
    """Stake-threshold compliance checker for Chinese card and mahjong game logs.

    Re-settles every round from the cards and bets, computes the stake figures
    the rules use, and tells per player which gambling line was crossed under
    the rule in force in that province on that day. Not legal advice.
    """


cli.commands = LazyCommands(COMMANDS)


def main() -> None:
    try:
        cli.main(prog_name="compliance")
    except BrokenPipeError:
        # the reader went away (`| head`): say nothing more, as other Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(ExitCode.ERROR)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(ExitCode.INTERRUPTED)
