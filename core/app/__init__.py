"""The application around the core: start at login on each operating system (autostart) and the demo
classroom with its built-in LINE emulator (demo). It may import any core package, the emulator
included; nothing in core imports it.
"""
