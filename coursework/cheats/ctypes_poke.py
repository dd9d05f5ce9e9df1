"""Poke the interpreter's memory with ctypes: make small integers and floats lie."""

import ctypes

TARGETS = {}
for value in (0.0, 1.0):
    try:
        ctypes.c_double.from_address(id(value) + 16).value = 0.5
    except (ValueError, OSError):
        pass
ctypes.pythonapi.PyLong_FromLong.restype = ctypes.py_object
