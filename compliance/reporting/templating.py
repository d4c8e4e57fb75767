"""模板: the Jinja2 environment of the report's and the evidence pack's pages, made once
when a page is first rendered (so a command's --help does not load Jinja2)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jinja2 import Environment, Template


@cache
def _environment() -> Environment:
    from jinja2 import Environment, PackageLoader

    return Environment(
        loader=PackageLoader("compliance.reporting", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def template(name: str) -> Template:
    """The template `name` of compliance/reporting/templates."""
    return _environment().get_template(name)
