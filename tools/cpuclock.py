"""Engine budgets in CPU time, for the benchmarks: the machine may be shared, and a budget in
wall-clock time then judges fewer positions when a neighbour is busy.

    from cpuclock import use_cpu_clock
    use_cpu_clock(spades)     # after importing the modules whose clock should change
"""
from __future__ import annotations

import sys
import time
import types

#: Stands in for the ``time`` module of an engine module: its wall clock reads CPU time.
CPU_CLOCK = types.SimpleNamespace(perf_counter=time.process_time, process_time=time.process_time)


def use_cpu_clock(package: types.ModuleType) -> None:
    """Every module of ``package`` already imported that reads the clock through ``time``
    (the review's and the analysis' deadlines, the solver's clock) reads CPU time instead."""
    prefix = package.__name__ + "."
    for name, module in list(sys.modules.items()):
        if name.startswith(prefix) and getattr(module, "time", None) is time:
            module.time = CPU_CLOCK
