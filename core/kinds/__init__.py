"""Message kinds: what a kind of delivery declares (its key, label, subject, builders per channel, cancel
reasons, forecast words, whether it tells a teacher a shift) and the registry that planning, sending and
the screens ask instead of tables of their own (registry). The kinds themselves are modules above the
layers they use (core/sending/kinds/), registered with `register_kind`. It may import channels, the
outbox, messages, the roster, the store and the foundation modules.
"""
