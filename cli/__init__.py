"""The command-line front end over core, beside ui/: the parser and the run of a verb (commands), one
module per group of verbs (roster, publish, sending, deliveries, credentials, alerts, planning,
webhook, emulator, screens; cli/verbs.py says what a group gives), its own messages (texts), the
language it speaks (words) and the one line a start without Shiftcast's libraries ends with
(dependencies). It may import any core package, never ui or Qt; core never imports it.
"""

# The CLI's messages join core's catalog before any module of the package says one.
import cli.texts  # noqa: F401
