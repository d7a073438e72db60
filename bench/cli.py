"""Start-up time of the `unox` command against a bare `python -c pass`, and what `--plain` imports.

    python3 bench/cli.py [--runs 15]

Each case runs as a fresh process: the `unox` console script beside this interpreter (else
`python -m unox`), alternated with `python -c pass` run by run so that both see
the same load; the ratio is the median of the per-pair ratios. Cases: `unox --version` and
`unox table --help`. Then `unox demo --plain --seed 1` runs once with a hook that reports whether textual
or rich was imported. The last line is JSON:
`{"version_ratio": r, "table_help_ratio": r, "plain_imports_textual": false, ...}`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BARE = [sys.executable, "-c", "pass"]
SCRIPT = Path(sys.executable).parent / "unox"  # the console script pip installed: what a person runs
UNOX = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "unox"]
CASES = {
    "version": [*UNOX, "--version"],
    "table_help": [*UNOX, "table", "--help"],
}
PLAIN_PROBE = (
    "import atexit, sys\n"
    "def report():\n"
    "    loaded = sorted(m for m in ('textual', 'rich') if m in sys.modules)\n"
    "    sys.stderr.write('LOADED ' + ','.join(loaded) + '\\n')\n"
    "atexit.register(report)\n"
    "from unox.cli.main import main\n"
    "sys.exit(main(['demo', '--plain', '--seed', '1', '--players', '2', '--target', '50']))\n"
)


# As installed: bytecode cached. PYTHONDONTWRITEBYTECODE (set in some CI shells) would recompile unox's
# modules on every start, a cost no installed copy pays (pip compiles them); the warm-up writes the cache.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV)
    return time.perf_counter() - start


def ratio(case: list[str], runs: int) -> dict[str, float]:
    """Median of per-pair ratios; the order inside a pair alternates so neither side always goes first."""
    ratios, ours, bare = [], [], []
    for index in range(runs):
        if index % 2:
            b, c = timed(BARE), timed(case)
        else:
            c, b = timed(case), timed(BARE)
        ours.append(c)
        bare.append(b)
        ratios.append(c / b)
    return {"ratio": statistics.median(ratios), "ms": statistics.median(ours) * 1000,
            "bare_ms": statistics.median(bare) * 1000}


def plain_imports() -> list[str]:
    done = subprocess.run([sys.executable, "-c", PLAIN_PROBE], capture_output=True, text=True, check=True,
                          env=ENV)
    line = next(line for line in done.stderr.splitlines() if line.startswith("LOADED"))
    return [name for name in line[len("LOADED "):].split(",") if name]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="pairs per case (at least 10)")
    args = parser.parse_args()
    runs = max(10, args.runs)
    os.chdir(ROOT)
    for command in (BARE, *CASES.values()):  # warm the file cache
        timed(command)
    results = {name: ratio(command, runs) for name, command in CASES.items()}
    loaded = plain_imports()
    print(f"python {sys.version.split()[0]}, {runs} alternated pairs per case")
    for name, result in results.items():
        print(f"{name:>11}: {result['ms']:6.1f} ms against python -c pass {result['bare_ms']:5.1f} ms:"
              f" ratio {result['ratio']:.2f}")
    print(f"demo --plain imports: {', '.join(loaded) or 'neither textual nor rich'}")
    print(json.dumps({
        "version_ratio": round(results["version"]["ratio"], 2),
        "table_help_ratio": round(results["table_help"]["ratio"], 2),
        "plain_imports_textual": "textual" in loaded,
        "plain_imports_rich": "rich" in loaded,
        "version_ms": round(results["version"]["ms"], 1),
        "table_help_ms": round(results["table_help"]["ms"], 1),
        "bare_ms": round(results["version"]["bare_ms"], 1),
        "runs": runs,
    }))


if __name__ == "__main__":
    main()
