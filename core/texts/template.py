"""A message template: one text, or for English a form per count. Pure data, below the catalog."""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Plural:
    """A template with a form per count (English: one and other; Japanese needs only one text)."""

    count: str  # the parameter that decides the form
    one: str
    other: str

    def pick(self, params: Mapping[str, object]) -> str:
        return self.one if params.get(self.count) == 1 else self.other


Template = str | Plural


def fields(template: Template) -> set[str]:
    """The parameter names a template uses."""
    parts = [template] if isinstance(template, str) else [template.one, template.other]
    found = {name.split(".")[0].split("[")[0] for part in parts
             for _, name, _, _ in string.Formatter().parse(part) if name}
    if isinstance(template, Plural):
        found.add(template.count)
    return found
