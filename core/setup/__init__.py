"""What the Settings screen and the set-up verbs ask: plain blocking functions that read, check, try out
and save the LINE (line; line_connect, the Connect LINE flow and its crash-safe endpoint restore), e-mail and alert (email, email_checks) and image hosting (hosting) settings,
with answers sorted into what a manager can act on; and the window's operations that send or read the
planning month (availability_asking, cover_answers, month_drafts). Front ends run them on a background thread. It may
import sending and everything below it.
"""
