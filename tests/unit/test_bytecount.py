"""数字节: a byte is counted alike in numpy (long buffers, numpy loaded) and without."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.logs import bytecount


@settings(max_examples=80, deadline=None)
@given(
    st.binary(max_size=40_000), st.integers(0, 4), st.sampled_from([b":", b"\n", b"\x00", b"\xff"])
)
def test_a_byte_is_counted_alike_with_numpy_and_without(data: bytes, repeats: int, byte: bytes):
    import numpy  # noqa: F401  (loaded, as in an audit: long buffers are counted in numpy)

    data = data * (1 + repeats) + byte * repeats
    assert bytecount.occurrences(data, byte) == data.count(byte)
