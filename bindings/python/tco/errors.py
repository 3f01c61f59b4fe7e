"""Exceptions: one class per libtco status, raised with the parameter the
library names and the message it wrote (which states the allowed range)."""
import numpy as np

from ._native import ffi, lib


class Error(Exception):
    """A libtco call failed. ``code`` is the tco_status, ``param`` the
    parameter's name when one is to blame (else None)."""

    def __init__(self, message, code=None, param=None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.param = param


class RangeError(Error, ValueError):
    """A value is outside its allowed range (the message gives the range)."""


class NotFiniteError(RangeError):
    """A value is NaN or infinite."""


class InconsistentError(Error, ValueError):
    """Values are valid alone but not together."""


class UnknownParameterError(Error, TypeError):
    """No parameter has that name; the message suggests the closest."""


class ParameterTypeError(Error, TypeError):
    """A value of the wrong kind: text for a number, a number for a text."""


class WrongHandleError(Error, TypeError):
    """The parameter belongs to another handle (a workload's on a topology)."""


class FrozenError(Error):
    """A frozen handle cannot change."""


class NotFrozenError(Error):
    """A computation was given an unfrozen handle."""


class SizeError(Error):
    """A struct's size is smaller than the library's first version."""


_BY_CODE = {
    lib.TCO_E_RANGE: RangeError,
    lib.TCO_E_NOT_FINITE: NotFiniteError,
    lib.TCO_E_INCONSISTENT: InconsistentError,
    lib.TCO_E_UNKNOWN_PARAM: UnknownParameterError,
    lib.TCO_E_WRONG_HANDLE: WrongHandleError,
    lib.TCO_E_TYPE: ParameterTypeError,
    lib.TCO_E_FROZEN: FrozenError,
    lib.TCO_E_NOT_FROZEN: NotFrozenError,
    lib.TCO_E_SIZE: SizeError,
    lib.TCO_E_NOMEM: MemoryError,
}


def new_error():
    err = ffi.new("tco_error *")
    err.size = ffi.sizeof("tco_error")
    return err


def raise_for(code, err, context=None):
    """Raises the exception of a failed call from its tco_error."""
    message = ffi.string(err.message).decode() or ffi.string(lib.tco_status_message(code)).decode()
    if context:
        message = f"{context}: {message}"
    param = ffi.string(err.param_name).decode() or None
    cls = _BY_CODE.get(code, Error)
    if cls is MemoryError:
        raise MemoryError(message)
    raise cls(message, code=code, param=param)


def number(value, name):
    """value as a float, or ParameterTypeError naming name: a boolean or a
    text is no number here, as in C and Go."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ParameterTypeError(f"{name}: expected a number, not {value!r}", param=name)
    return float(value)


def check(code, err, context=None):
    """Returns when code is TCO_OK, raises otherwise."""
    if code != lib.TCO_OK:
        raise_for(code, err, context)
