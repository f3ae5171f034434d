"""The command line is its topics: each module adds its own sub-commands and names the function each
runs, and the parser and the table of verbs are nothing but the topics put together (cli/verbs.py).
A new verb is one sub-command and one entry in its topic's module; a new topic, one line in TOPICS."""

from __future__ import annotations

import argparse

from cli import commands, emulator, screens
from cli.verbs import Topic


def _added_by(topic: Topic) -> set[str]:
    sub = argparse.ArgumentParser().add_subparsers()
    topic.add_parsers(sub)
    return set(sub.choices)


def test_each_topic_runs_exactly_the_verbs_it_adds() -> None:
    for topic in commands.TOPICS:
        added = _added_by(topic)
        assert added, topic
        run_here = set(topic.COMMANDS) | set(getattr(topic, "NO_DATABASE", {}))
        # The screen modes are parsed here and run by ui/ (main.py hands them over).
        assert run_here == added - screens.SCREEN_MODES, topic


def test_the_parser_and_the_verbs_are_the_topics_put_together() -> None:
    added = [name for topic in commands.TOPICS for name in _added_by(topic)]
    assert len(added) == len(set(added)), "a sub-command is added by two topics"
    [sub] = [a for a in commands.build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(sub.choices) == set(added)
    assert set(commands.COMMANDS) == set(added) - screens.SCREEN_MODES - set(emulator.NO_DATABASE)
    assert len(added) > 25
