"""The command-line front end over core, beside ui/: argument parsing and the verbs that need no screen
(commands) and the outbox verbs — the headless sender, listing, retry, cancel, the emulator (outbox).
It may import any core package, never ui or Qt; core never imports it.
"""
