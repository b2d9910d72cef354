"""A finished run: its stats.json with helpers for the common figures.

Latencies are in microseconds, throughput in IOPS and decimal MB/s, fractions in 0..1,
as stats.json has them (sim/output/README.md).
"""
import json
import math
import os


def lookup(stats, path):
    """stats.json value at a dotted path ('ftl.map_cache.read_hit_ratio'); a list gives its
    mean (per-die and per-channel busy fractions); None when the path is missing."""
    node = stats
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    if isinstance(node, list):
        numbers = [v for v in node if isinstance(v, (int, float)) and not isinstance(v, bool)]
        return sum(numbers) / len(numbers) if numbers else None
    return node


_PERCENTILES = {"p50": "p50", "p90": "p90", "p99": "p99", "p99.9": "p99_9", "p99_9": "p99_9", "p99.99": "p99_99",
                "p99_99": "p99_99", "mean": "mean", "min": "min", "max": "max"}


class Result:
    """stats: the parsed stats.json; config: the effective configuration (config.json) when
    the run folder was kept; out: that folder (None for a temporary one)."""

    def __init__(self, stats, config=None, out=None):
        self.stats = stats
        self.config = config
        self.out = out

    @classmethod
    def load(cls, folder):
        """The result in a run folder written by `ufs-sim run --out`."""
        with open(os.path.join(folder, "stats.json")) as f:
            stats = json.load(f)
        config = None
        if os.path.exists(os.path.join(folder, "config.json")):
            with open(os.path.join(folder, "config.json")) as f:
                config = json.load(f)
        return cls(stats, config, folder)

    def __repr__(self):
        return "Result(%s: %s, %.0f IOPS)" % (self.stats.get("preset"), self.stats.get("workload"), self.iops())

    def get(self, path, default=None):
        """Any stats.json figure by dotted path (see lookup())."""
        value = lookup(self.stats, path)
        return default if value is None else value

    @property
    def ops(self):
        """The ops the run had: 'read', 'write', ..."""
        return list(self.stats.get("ops", {}))

    def iops(self, op=None):
        """Requests per simulated second: all ops, or one."""
        if op is None:
            return float(self.stats.get("iops", 0.0))
        return float(self.get("ops.%s.iops" % op, 0.0))

    def mb_per_s(self, op=None):
        """Decimal MB/s: the sum over ops, or one."""
        if op is not None:
            return float(self.get("ops.%s.mb_per_s" % op, 0.0))
        return sum(float(o.get("mb_per_s", 0.0)) for o in self.stats.get("ops", {}).values())

    def latency(self, op="read", stat="mean"):
        """Latency of an op in us: stat is mean, min, max, p50, p90, p99, p99.9 or p99.99."""
        if stat not in _PERCENTILES:
            raise ValueError("latency: unknown stat '%s' (one of %s)" % (stat, ", ".join(sorted(_PERCENTILES))))
        value = self.get("ops.%s.%s" % (op, _PERCENTILES[stat]))
        return float(value) if value is not None else math.nan

    def percentiles(self, op="read"):
        """{'p50': us, 'p90': ..., 'p99': ..., 'p99.9': ..., 'p99.99': ...} of an op."""
        return {p: self.latency(op, p) for p in ("p50", "p90", "p99", "p99.9", "p99.99")}

    @property
    def waf(self):
        """Write amplification: NAND programs / host writes (ftl.write_amplification)."""
        return float(self.get("ftl.write_amplification", 0.0))

    @property
    def map_hit_ratio(self):
        """Share of reads whose map page was in the L2P SRAM (ftl.map_cache.read_hit_ratio)."""
        return float(self.get("ftl.map_cache.read_hit_ratio", 0.0))

    def busy(self):
        """Busy fractions: mean over dies and channels, the firmware core, each link direction."""
        return {"dies": float(self.get("utilisation.die_busy", 0.0)),
                "channels": float(self.get("utilisation.channel_busy", 0.0)),
                "cpu": float(self.get("utilisation.cpu_busy", 0.0)),
                "link_host_to_device": float(self.get("utilisation.link_host_to_device", 0.0)),
                "link_device_to_host": float(self.get("utilisation.link_device_to_host", 0.0))}

    @property
    def simulated_seconds(self):
        return float(self.stats.get("simulated_seconds", 0.0))

    @property
    def wall_seconds(self):
        return float(self.stats.get("wall_seconds", 0.0))
