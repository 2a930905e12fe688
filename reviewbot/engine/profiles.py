"""Engine profiles: `wavescope` (parity) and `review` (the default), as named options."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["DEFAULT_PROFILE", "PROFILES", "Profile", "ProfileError", "get_profile"]


class ProfileError(ValueError):
    pass


class Profile(NamedTuple):
    """Every difference between the profiles is one of these options (docs/engine.md s. 10)."""

    name: str
    # Cut each kernel to ceil(N/2) lines (WaveScope). Off: the full ceil(5a) support.
    clip_kernel_to_half_file: bool
    # Subtract the kernel's mean over its support, so no scale acts as a smoother.
    zero_mean_kernels: bool
    # Important positions are declarations (units) ranked by wavelet strength, then positive
    # peaks on code lines; valleys, edges and scales wider than the file do not rank.
    structural_positions: bool
    # Labels come from masked code (no strings or comments) and the enclosing declaration.
    structural_labels: bool
    # Context bands are drawn from units (sections) instead of raw peaks.
    structural_context: bool
    # A triple quote inside a string literal opens a Python docstring, as WaveScope's scorer
    # does (it searches the delimiter in unmasked code; CPython's Lib/ast.py has
    # `_MULTI_QUOTES = ('"""', "'''")`). Off: the delimiter is searched in string-masked code.
    docstrings_in_strings: bool
    # Sum wavelet taps in WaveScope's order, for bit-identical coefficients (slower).
    sequential_sums: bool = False
    max_peaks: int = 1000


PROFILES: dict[str, Profile] = {
    "wavescope": Profile(
        "wavescope",
        clip_kernel_to_half_file=True,
        zero_mean_kernels=False,
        structural_positions=False,
        structural_labels=False,
        structural_context=False,
        docstrings_in_strings=True,
        sequential_sums=True,
    ),
    "review": Profile(
        "review",
        clip_kernel_to_half_file=False,
        zero_mean_kernels=True,
        structural_positions=True,
        structural_labels=True,
        structural_context=True,
        docstrings_in_strings=False,
    ),
}
DEFAULT_PROFILE = "review"


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ProfileError(
            f"unknown profile {name!r}; valid profiles: {', '.join(sorted(PROFILES))}"
        ) from None
