"""The foundation every concern stands on: input checks, kinds of label, class codes,
number formatting and array helpers.

Any concern may import its modules by name (``from .._base.checks import ...``); it
imports only the standard library and numpy.
"""
