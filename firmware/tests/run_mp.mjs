// Runs the firmware's unittest tests under the real MicroPython interpreter (WebAssembly port, npm
// package @micropython/micropython-webassembly-pyscript), with Node. Exits non-zero when a test fails,
// a module cannot be imported, or MicroPython raises anything.
//
//   node firmware/tests/run_mp.mjs [--fw DIR] [--tests DIR] [--only test_name ...] [--exec FILE.py]
//
// --fw     the unoxfw package to load (default: firmware/unoxfw), written to /lib/unoxfw/
// --tests  folder with machine.py, rig.py and test_*.py (default: firmware/tests), written to /lib/
// --only   run only these test modules (repeatable)
// --exec   instead of the tests, run this Python file after the same set-up (used by bench/firmware_mem.py).
//          Lines "# ---- step ----" split it into separate runPython calls sharing globals: the WebAssembly
//          port's gc.collect() only frees garbage fully between calls, so measure heap at a step start.
//
// The last line is "mp-unittest: N passed, F failed" (or the --exec script's own output).

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let fwDir = resolve(here, "..", "unoxfw");
let testsDir = here;
let execFile = null;
const only = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--fw") fwDir = resolve(args[++i]);
  else if (a === "--tests") testsDir = resolve(args[++i]);
  else if (a === "--only") only.push(args[++i]);
  else if (a === "--exec") execFile = resolve(args[++i]);
  else {
    console.error(`run_mp: unknown argument ${a}; see the header of run_mp.mjs`);
    process.exit(2);
  }
}

function pyFiles(dir) {
  return readdirSync(dir).filter((f) => f.endsWith(".py")).sort();
}

const mp = await loadMicroPython({
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
mp.FS.mkdir("/lib");
mp.FS.mkdir("/lib/unoxfw");
for (const f of pyFiles(fwDir)) mp.FS.writeFile(`/lib/unoxfw/${f}`, readFileSync(join(fwDir, f)));
// main.py beside the package goes to /main.py, where test_main.py reads it (on a Pico it is /main.py too)
const mainPy = join(dirname(fwDir), "main.py");
try {
  mp.FS.writeFile("/main.py", readFileSync(mainPy));
} catch (err) {
  console.error(`run_mp: no main.py beside ${fwDir}`);
}
const testFiles = pyFiles(testsDir);
for (const f of testFiles) mp.FS.writeFile(`/lib/${f}`, readFileSync(join(testsDir, f)));

let modules = testFiles.filter((f) => f.startsWith("test_")).map((f) => f.slice(0, -3));
if (only.length) modules = modules.filter((m) => only.includes(m));

const driver = `
import unittest
_total = 0
_bad = 0
for _name in ${JSON.stringify(modules)}:
    _r = unittest.main(_name)
    _total += _r.testsRun
    _bad += _r.failuresNum + _r.errorsNum
print("mp-unittest: %d passed, %d failed" % (_total - _bad, _bad))
if _bad or not _total:
    raise SystemExit(1)
`;

try {
  if (execFile) {
    for (const part of readFileSync(execFile, "utf8").split(/^# ---- step ----$/m)) mp.runPython(part);
  }
  else mp.runPython(driver);
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
