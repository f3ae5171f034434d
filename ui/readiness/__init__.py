"""The readiness panel: will the teachers get their messages? One line per requirement of
core/setup/readiness.py with its mark and a button that opens its fix; shown at the first start (on
the Settings tab) and at the top of the Publish and Settings tabs, one "Ready to send" line when all
is well."""
