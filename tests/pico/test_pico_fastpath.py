"""The emulator's decode table (firmware/emu/fastpath.mjs) against rp2040js's own decoder.

`execute` runs the instructions the firmware executes most itself, chosen by a 65,536-entry table, and hands
the rest to rp2040js's `executeInstruction`, which tests an opcode against its encodings one after another.
A table entry is right only if rp2040js's chain, read from its installed source, decodes that opcode to the
same encoding first. (That each kind's statements are rp2040js's own is held by
test_pico_emulator.py's run against `--plain`, which uses none of this.)
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

EMU = Path(__file__).resolve().parents[2] / "firmware" / "emu"
CORE = EMU.parent / "node_modules" / "rp2040js" / "dist" / "esm" / "cortex-m0-core.js"

# Reads each `// NAME` comment and the `if (...)` under it in executeInstruction, in order, and finds for
# every opcode the first encoding whose test it passes (with the second half-word all 0s and all 1s).
CHECK = """
import fs from 'fs';
import { KINDS, KIND_NAMES } from '%(fastpath)s';
const src = fs.readFileSync('%(core)s', 'utf8').split('\\n');
const start = src.findIndex((l) => l.includes('executeInstruction() {'));
const chain = [];
for (let i = start + 1; i < src.length && !src[i].startsWith('    }'); i++) {
  const m = src[i].match(/^        (?:else )?if \\((.*)\\) \\{$/);
  if (m && src[i - 1].trim().startsWith('// ')) {
    chain.push([src[i - 1].trim().slice(3), new Function('opcode', 'opcode2', 'return ' + m[1])]);
  }
}
const first = (op, op2) => { for (const [name, test] of chain) if (test(op, op2)) return name; return null; };
const wrong = [];
const claimed = {};
for (let op = 0; op < 65536; op++) {
  const name = KIND_NAMES[KINDS[op]];
  if (name === null) continue;
  claimed[name] = (claimed[name] || 0) + 1;
  for (const op2 of [0, 0xffff]) if (first(op, op2) !== name) wrong.push([op, name, first(op, op2)]);
}
console.log(JSON.stringify({ encodings: chain.length, claimed, wrong: wrong.slice(0, 10) }));
"""


def test_every_opcode_the_table_runs_itself_is_decoded_to_the_same_encoding_by_rp2040js():
    if shutil.which("node") is None or not CORE.is_file():
        pytest.skip("rp2040js is not installed: run `npm ci --prefix firmware` (docs/pico.md)")
    script = CHECK % {"fastpath": (EMU / "fastpath.mjs").as_uri(), "core": CORE}
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["encodings"] > 70  # the chain was read: rp2040js 1.4.1 has 83
    assert found["wrong"] == []
    # every kind of the table is in the chain and claims opcodes (a kind whose name is not there would fail
    # above; one that claims none would be dead code)
    assert len(found["claimed"]) == 21 and all(count > 0 for count in found["claimed"].values())
