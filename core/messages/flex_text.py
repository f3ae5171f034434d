"""The lines a Flex message shows, in order, as plain text: what a reader sees of it on a phone,
for the demo's inbox and the tests. Pure."""

from __future__ import annotations

from typing import Any


def lines(node: Any) -> list[str]:
    """Every text component's lines (its own text, or its spans joined), depth first as LINE lays them out."""
    if isinstance(node, dict):
        if node.get("type") == "text":
            spans = node.get("contents") or [node]
            return "".join(str(span.get("text", "")) for span in spans if isinstance(span, dict)).split("\n")
        return [line for child in node.values() for line in lines(child)]
    if isinstance(node, list):
        return [line for child in node for line in lines(child)]
    return []
