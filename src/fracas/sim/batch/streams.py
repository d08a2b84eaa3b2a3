"""The engine's dice streams, reproduced for many fights at once with NumPy arrays.

A fight seeded ``s`` rolls ``SeededRng(s)``: Python's ``random.Random(s)``, a Mersenne
Twister (MT19937) seeded through ``init_by_array`` with the 32-bit words of ``s``, whose
``random()`` joins two 32-bit outputs into a 53-bit fraction; a die of ``sides`` faces is
``floor(random() * sides) + 1`` (:mod:`fracas.core.rng`).  Everything here is that
arithmetic done lane-wise, one lane a fight: :func:`fight_seeds` is
:func:`fracas.core.rng.derive_seed` over a range of fight indices, :class:`D6Streams`
seeds one generator per fight and hands out each fight's d6 faces in order, generating
words only as far as the fights have read.  The test ``tests/sim/test_batch_streams.py``
holds both to the engine's own functions.

The seeding is the dominant cost: ``init_by_array`` is a chain of 1,247 dependent
steps per generator, which is done here as 1,247 array steps across all the fights.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["D6Streams", "fight_seeds"]

U32 = npt.NDArray[np.uint32]
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

_N, _M = 624, 397
_MASK64 = 0xFFFFFFFFFFFFFFFF
_FNV_OFFSET, _FNV_PRIME = 1469598103934665603, 1099511628211
#: Draws made per generation step: a third of one twist (208 words, two a draw).
SEGMENT = 104
_WORDS = 2 * SEGMENT
#: Words made at once: temporaries of this many rows stay in the cache.
_CHUNK = 16


def fight_seeds(seed: int, start: int, stop: int) -> U64:
    """``derive_seed(seed, i)`` for every ``i`` in ``start..stop-1``, as an array.

    The label ``i`` hashes as the bytes of ``str(i)`` (FNV-1a, then an end marker), so the
    fights are grouped by how many digits their index has.
    """
    if start < 0 or stop < start:
        raise ValueError(f"fight indices must be 0 <= start <= stop, got {start}, {stop}")
    out = np.empty(stop - start, dtype=np.uint64)
    prime = np.uint64(_FNV_PRIME)
    h0 = np.uint64(_FNV_OFFSET ^ (seed & _MASK64))
    low = start
    while low < stop:
        digits = len(str(low))
        high = min(stop, 10 ** digits)
        index = np.arange(low, high, dtype=np.uint64)
        h = np.full(high - low, h0, dtype=np.uint64)
        for place in range(digits - 1, -1, -1):
            digit = (index // np.uint64(10 ** place)) % np.uint64(10)
            h ^= digit + np.uint64(48)
            h *= prime
        h ^= np.uint64(0xFF)
        h *= prime
        out[low - start:high - start] = h
        low = high
    return out


def _init_genrand(s: int) -> U32:
    mt = [s]
    for i in range(1, _N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
    return np.array(mt, dtype=np.uint32)


#: What ``init_by_array`` starts from whatever the key: ``init_genrand(19650218)``.
_BASE = _init_genrand(19650218)
_UPPER, _LOWER = np.uint32(0x80000000), np.uint32(0x7FFFFFFF)
_MATRIX = np.uint32(0x9908B0DF)


def _seed(seeds: U64) -> U32:
    """The MT19937 state (624 words by fights) ``random.Random(seed)`` starts from.

    An int seed's key is its 32-bit words, lowest first: one word below 2**32, two above.
    """
    n = len(seeds)
    lo = (seeds & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    hi = (seeds >> np.uint64(32)).astype(np.uint32)
    # The key word j and its index j are added at step j (j cycling over the key).
    add = (lo, np.where(hi != 0, hi + np.uint32(1), lo).astype(np.uint32))
    mt = np.empty((_N, n), dtype=np.uint32)
    mt[0] = _BASE[0]
    tmp = np.empty(n, dtype=np.uint32)
    shift, xor, mul = np.right_shift, np.bitwise_xor, np.multiply
    i, j = 1, 0
    for step in range(_N):  # max(624, key length) steps
        prev, row = mt[i - 1], mt[i]
        shift(prev, 30, out=tmp)
        xor(tmp, prev, out=tmp)
        mul(tmp, np.uint32(1664525), out=tmp)
        # Rows 1..623 still hold init_genrand's words (the same in every lane) on the
        # first pass: they are read from _BASE, not written first.
        xor(tmp, _BASE[i] if step < _N - 1 else row, out=row)
        np.add(row, add[j], out=row)
        i, j = i + 1, j ^ 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    for _ in range(_N - 1):
        prev, row = mt[i - 1], mt[i]
        shift(prev, 30, out=tmp)
        xor(tmp, prev, out=tmp)
        mul(tmp, np.uint32(1566083941), out=tmp)
        xor(row, tmp, out=row)
        np.subtract(row, np.uint32(i), out=row)
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000
    return mt


def _mix(a: U32, b: U32, far: U32) -> U32:
    y: U32 = a & _UPPER
    y |= b & _LOWER
    odd = y & np.uint32(1)
    odd *= _MATRIX
    y >>= np.uint32(1)
    y ^= odd
    y ^= far
    return y


_REGIONS = ((0, 227), (227, 454), (454, 623), (623, 624))


def _twist_rows(old: U32, new: U32, a: int, b: int, lanes: I64 | None) -> None:
    """Rows ``a..b-1`` of the next state (rows below ``a`` already made), in place in ``new``.

    Row ``k`` mixes old rows ``k`` and ``k+1`` with row ``k+397``: old below 227, already
    new from there on (row ``k-227``); the last row wraps to the new row 0.  ``lanes``:
    the fights (columns) to advance, None for all of them.
    """
    def rows(m: U32, lo: int, hi: int) -> U32:
        return m[lo:hi] if lanes is None else m[lo:hi][:, lanes]

    for lo, hi in _REGIONS:
        lo, hi = max(lo, a), min(hi, b)
        if lo >= hi:
            continue
        nxt = rows(old, lo + 1, hi + 1) if hi < _N else \
            np.concatenate([rows(old, lo + 1, _N), rows(new, 0, 1)])
        far = rows(old, lo + _M, hi + _M) if hi <= 227 else rows(new, lo - 227, hi - 227)
        if lanes is None:
            new[lo:hi] = _mix(rows(old, lo, hi), nxt, far)
        else:
            new[lo:hi, lanes] = _mix(rows(old, lo, hi), nxt, far)


def _temper(y: U32) -> U32:
    """The outputs of state words ``y`` (a new array)."""
    y = y ^ (y >> np.uint32(11))
    t = y << np.uint32(7)
    t &= np.uint32(0x9D2C5680)
    y ^= t
    t = y << np.uint32(15)
    t &= np.uint32(0xEFC60000)
    y ^= t
    y ^= y >> np.uint32(18)
    return y


#: ``floor(random() * 6)``: ``random()`` is ``m * 2**-53`` for a 53-bit integer ``m``; the
#: power of two scales exactly, so ``m * (6 * 2**-53)`` rounds to the very same double.
_SIX_ULPS = 6.0 / 9007199254740992.0


def _d6_low(words: U32) -> npt.NDArray[np.intp]:
    """``face - 1`` of d6 from pairs of outputs (rows 2k, 2k+1): ``random()``, the die."""
    high = (words[0::2] >> np.uint32(5)).astype(np.float64)
    high *= 67108864.0
    high += words[1::2] >> np.uint32(6)  # exact: below 2**53
    high *= _SIX_ULPS
    return high.astype(np.intp)  # the product is >= 0: truncation is the floor


def _d6(words: U32) -> npt.NDArray[np.int8]:
    """Faces of d6 from pairs of outputs (rows 2k, 2k+1)."""
    return (_d6_low(words) + 1).astype(np.int8)


#: Counts of one die packed in an int64, 21 bits each (room for two million dice a
#: fight): 3+ in the low bits, then 4+, then 6; indexed by ``face - 1``.
_BITS = 21
_FIELD = (1 << _BITS) - 1
_PACKED = np.array([0, 0, 1, 1 + (1 << _BITS), 1 + (1 << _BITS),
                    1 + (1 << _BITS) + (1 << 2 * _BITS)], dtype=np.int64)


def d6_faces(seeds: U64, count: int) -> npt.NDArray[np.int8]:
    """The first ``count`` (at most 312) d6 faces of each fight's stream, one row a fight."""
    if not 0 <= count <= 3 * SEGMENT:
        raise ValueError(f"at most {3 * SEGMENT} faces, got {count}")
    old = _seed(seeds)
    new = np.empty_like(old)
    _twist_rows(old, new, 0, _N, None)
    return _d6(_temper(new[:2 * count])).T


class D6Streams:
    """One engine dice stream per fight, read as counts of d6 faces in order.

    A fight's next ``k`` dice are asked as how many show 3+, 4+ and 6
    (:meth:`take`): every rule the batch path plays reads no more of a roll than that.
    Each fight's faces are kept as running counts of those three kinds, so a roll of
    any size costs two look-ups per count; words of a fight's generator are made only
    when it reads past what was made.
    """

    def __init__(self, seeds: U64) -> None:
        n = len(seeds)
        self._old = _seed(seeds)
        self._new = np.empty_like(self._old)  # its pages are touched as rows are made
        #: Dice made so far per fight (a multiple of SEGMENT).
        self._made = np.zeros(n, dtype=np.int64)
        #: Running counts of the dice before row j showing 3+, 4+ and 6 (packed as in
        #: ``_PACKED``), one column a fight.
        self._cum = np.zeros((3 * SEGMENT + 1, n), dtype=np.int64)
        #: The next die each fight reads.
        self.pos = np.zeros(n, dtype=np.int64)
        self._all = n

    def _ensure(self, lanes: I64, count: int | I64) -> None:
        while True:
            short = lanes[self.pos[lanes] + count > self._made[lanes]]
            if len(short) == 0:
                return
            self._extend(short)

    def _extend(self, lanes: I64) -> None:
        made = self._made[lanes]
        same = made == made[0]
        if not same.all():  # fights at different depths: one depth at a time
            self._extend(lanes[same])
            self._extend(lanes[~same])
            return
        segment = int(made[0]) // SEGMENT
        part = segment % 3
        a = part * _WORDS
        whole = len(lanes) == self._all
        if part == 0 and segment > 0:  # a twist finished: it becomes the state
            if whole:
                self._old, self._new = self._new, self._old
            else:
                self._old[:, lanes] = self._new[:, lanes]
        top = (segment + 1) * SEGMENT
        cum = self._cum
        if cum.shape[0] < top + 1:
            grown = np.zeros((2 * cum.shape[0] - 1, self._all), dtype=np.int64)
            grown[:cum.shape[0]] = cum
            cum = self._cum = grown
        base = top - SEGMENT
        if whole:
            rows = cum[base:top + 1]
        else:
            rows = np.empty((SEGMENT + 1, len(lanes)), dtype=np.int64)
            rows[0] = cum[base][lanes]
        # A few rows at a time, so every temporary stays in the cache: the twist, the
        # outputs, the dice, then running sums a row at a time (NumPy's cumsum down
        # axis 0 is far slower).
        add, new, pick = np.add, self._new, None if whole else lanes
        for w in range(a, a + _WORDS, _CHUNK):
            _twist_rows(self._old, new, w, w + _CHUNK, pick)
            words = new[w:w + _CHUNK] if whole else new[w:w + _CHUNK][:, lanes]
            packed = _PACKED[_d6_low(_temper(words))]
            j = (w - a) // 2
            for k in range(_CHUNK // 2):
                add(rows[j + k], packed[k], out=rows[j + k + 1])
        if not whole:
            cum[base + 1:top + 1][:, lanes] = rows[1:]
        self._made[lanes] = top

    def take(self, lanes: I64, count: int | I64,
             kinds: tuple[int, ...] = (0, 1, 2)) -> list[I64]:
        """How many of each fight's next ``count`` dice show 3+, 4+ and 6 (``kinds``
        picks among the three, in that order); the fights move past those dice."""
        self._ensure(lanes, count)
        n = self._all
        start = self.pos[lanes]
        end = start + count
        self.pos[lanes] = end
        flat = self._cum.reshape(-1)
        both = flat.take(end * n + lanes)
        both -= flat.take(start * n + lanes)
        return [(both >> (_BITS * k)) & _FIELD for k in kinds]
