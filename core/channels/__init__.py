"""Delivery channels behind one small interface: LINE now, e-mail next."""
