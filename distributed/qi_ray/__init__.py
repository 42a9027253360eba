"""Run qi's self-play and SPRT tests on a Ray cluster.

qi itself does the work: ``qi match --pairs A..B --results FILE`` plays a slice of one match's
game pairs and ``qi selfplay --first-game K --games N`` a slice of one self-play run, each the
same games wherever it runs. This package only fans those slices out as Ray tasks, ships the
qi binaries to the workers, collects the result lines, and asks ``qi match merge`` for the
verdict, so the statistics are computed by exactly the code that ``qi match --sprt`` uses.

Modules: :mod:`qi_ray.binaries` (shipping binaries), :mod:`qi_ray.sprt`,
:mod:`qi_ray.selfplay`, and :mod:`qi_ray.__main__` (the command line).
"""

__all__ = ["binaries", "sprt", "selfplay"]
