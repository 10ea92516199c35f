"""Arrays without reference counting, for the hot loops.

Numba counts references to every array view it creates (``bbs[ply]``, a row passed to
a function), and each count is an atomic, locked increment or decrement of the array's
shared header. In the search these took well over half of the CPU time. A view whose
header pointer (``meminfo``) is null is not counted (NRT skips null pointers), so the
entry points rebind their arrays with :func:`unmanaged` before recursing; the caller
keeps the original arrays alive for the duration of the call.
"""

from __future__ import annotations

from typing import Any

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic as _intrinsic

#: Typed as Any: compiled callers never pass the typing context (see variants/bits.py).
intrinsic: Any = _intrinsic


@intrinsic
def unmanaged(typingctx, arr):
    """The same array (same data, shape and strides), without a reference count.

    Only for arrays that outlive every use of the result: the result does not keep
    the memory alive.
    """
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        ary = cgutils.create_struct_proxy(arr)(context, builder, value=args[0])
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()

    return arr(arr), codegen
