"""The LINE verbs: `line rich-menu set` puts the menu that opens the teachers' page under the chat of
everyone who has added the LINE account; `line rich-menu remove` takes it away again."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cli import words
from cli.verbs import Subcommands, Verb

if TYPE_CHECKING:
    from core.store.db import Database
    from core.store.paths import DataPaths

HELP = "LINE: the rich menu under the chat that opens the teachers' page (rich-menu set, rich-menu remove)"


def add_parsers(sub: Subcommands) -> None:
    line = sub.add_parser("line", help=HELP, description=HELP)
    topics = line.add_subparsers(dest="line_command", metavar="{rich-menu}", required=True)
    menu = topics.add_parser("rich-menu", help="set or remove the rich menu that opens the teachers' page")
    verbs = menu.add_subparsers(dest="rich_menu_command", metavar="{set,remove}", required=True)
    put = verbs.add_parser("set", help="show everyone the menu (my shifts, availability, cover calls, my calendar); "
                                       "it replaces the one Shiftcast set before")
    put.add_argument("--language", choices=("ja", "en"),
                     help="the language of the menu's words (default: this run's language)")
    put.add_argument("--font", metavar="FILE", help="a font file with Japanese glyphs for the menu's picture")
    verbs.add_parser("remove", help="delete the rich menu Shiftcast set")


def cmd_line(db: Database, args: argparse.Namespace, paths: DataPaths) -> int:
    from core.setup import rich_menu

    if args.rich_menu_command == "set":
        done = rich_menu.set_rich_menu(db, language=args.language or words.current(), font_file=args.font)
        print(words.line("cli.rich_menu.set", id=done.rich_menu_id))
        if done.replaced:
            print(words.line("cli.rich_menu.replaced", id=done.replaced))
        return 0
    removed = rich_menu.remove_rich_menu(db)
    print(words.line("cli.rich_menu.removed", id=removed) if removed else words.line("cli.rich_menu.none"))
    return 0


COMMANDS: dict[str, Verb] = {"line": cmd_line}
