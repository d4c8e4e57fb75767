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

import click

from compliance import __version__
from compliance.cli.exit_codes import ExitCode
from compliance.errors import BadValueError, ComplianceError, JurisdictionError
from compliance.reporting.cells import printable

DEBUG_VAR = "COMPLIANCE_DEBUG"


class Root(click.Group):
    """Turns our errors into one-line messages; no traceback reaches a user."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (BadValueError, JurisdictionError) as exc:
            raise click.UsageError(printable(str(exc))) from None
        except ComplianceError as exc:
            raise click.ClickException(printable(str(exc), keep_newlines=True)) from None
        except BrokenPipeError:
            raise
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


def _register() -> None:
    from compliance.cli import (
        audit,
        db,
        demo,
        evidence,
        games,
        logs,
        report,
        review,
        rules,
        simulate,
        whatif,
    )

    cli.add_command(audit.audit)
    cli.add_command(db.db)
    cli.add_command(games.games)
    cli.add_command(logs.logs)
    cli.add_command(simulate.simulate)
    cli.add_command(demo.demo)
    cli.add_command(rules.rules)
    cli.add_command(whatif.whatif)
    cli.add_command(report.report)
    cli.add_command(review.waive)
    cli.add_command(review.waivers)
    cli.add_command(review.review)
    cli.add_command(review.trail)
    cli.add_command(evidence.evidence)


_register()


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
