"""The one place the version of Shiftcast lives."""

__version__ = "0.1.0"
