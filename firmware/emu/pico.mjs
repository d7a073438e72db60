// The emulated Raspberry Pi Pico for unoxsim.pico: MicroPython's official RPI_PICO build in rp2040js,
// stepped in lockstep by a Python parent that owns the launcher's physics (simulator/unoxsim).
//
// Usage: node pico.mjs DIR [--image FLASH.bin] [--plain] [--uid HEX16]
//   DIR holds micropython-v1.28.0-RPI_PICO.uf2 and rp2040-bootrom-b1.bin (UNOX_PICO_DIR, docs/pico.md).
//   --image boots from a saved flash image (firmware already on it) instead of the UF2.
//   --plain takes no shortcut: a core asleep in WFE/WFI is stepped one cycle at a time instead of jumping
//       to its next alarm, and every instruction goes through rp2040js's own executeInstruction (not
//       fastpath.mjs's table): the reference tests/pico/test_pico_emulator.py holds both against (the same
//       replies, line for line).
//   --uid the 8 bytes this chip's flash answers to Read Unique ID (0x4B), so machine.unique_id() and the
//       HELLO's board differ per chip (rp2040js's flash answers zeros); without it, zeros as rp2040js gives.
//
// Protocol: one JSON object per line on stdin, one JSON reply per line on stdout; nothing else is printed
// on stdout. The chip runs only inside a `run`, so every emulated microsecond happens between two lines
// the parent wrote, and the same lines give the same run.
//   {"op":"run","us":N,"in":{"16":1,...},"adc":[counts...],"tx":"HEX"}  drive inputs, queue USB bytes to
//       the chip, run N emulated us; reply {"ns":T,"rx":"HEX","out":{"14":[duty,hz],...},"rise":{"14":T},
//       "boots":B,"resets":[[T,reason],...]}. T is emulated ns since the first boot (across resets). duty
//       is 0..1 as the pad sees it (PWM compare over wrap, or the SIO level), hz the PWM frequency.
//       rise: the first low->high edge of each watched pin in this run; awake: the ns of it the core spent
//       executing (the rest it slept in WFE/WFI); queued: bytes the chip's USB has not taken in yet;
//       edges: {"13":[[T,duty,hz],...]}, each change of the buzzer's pad in this run at the ns it happened
//       (a tone's length measured on the chip's clock, whatever the slices).
//   {"op":"reset","reason":0}   power-cycle: a fresh chip from the same flash (reason 1: watchdog timer)
//   {"op":"save","path":P}      write the flash image to P (a chip with the firmware on it, for reuse)
//   {"op":"quit"}
//
// Emulator facts this relies on (measured: ../../docs/pico.md and the shared probe README):
// - flash writes are not emulated: the boot ROM's flash_range_erase / flash_range_program are patched to
//   BKPT #n; BX LR, and the breakpoint does the work on mcu.flash (NOR: erase to 0xFF, program ANDs);
// - the watchdog only calls onWatchdogTrigger: the reset is a fresh chip from a copy of the flash with
//   WATCHDOG.REASON kept, so machine.reset_cause() reads WDT_RESET;
// - rp2040js's USB CDC host answers every armed OUT buffer at once, empty when it has nothing: bytes are
//   fed here only into an armed buffer, and only when there are some (`feed`).
import fs from 'fs';
import path from 'path';
import { Simulator, USBCDC } from 'rp2040js';
import { execute, speedUp } from './fastpath.mjs';

const UF2_NAME = 'micropython-v1.28.0-RPI_PICO.uf2';
const ROM_NAME = 'rp2040-bootrom-b1.bin';
const FLASH_BASE = 0x10000000;
const CYCLE_NS = 1e9 / 125e6;
const FUNC_PWM = 4;
const WATCHED = [13, 14, 15, 25]; // buzzer, motor IN1/IN2, LED (hardware/pins.toml)
const COALESCE_NS = 1e6;
const TIMED = [13]; // the buzzer: each change of its pad is told with its own ns ("edges"), not at the run's end
const BKPT_ERASE = 0x31;
const BKPT_PROGRAM = 0x32;

function die(message) {
  process.stderr.write(`pico.mjs: ${message}\n`);
  process.exit(2);
}

function patchedBootrom(file) {
  // The ROM's function table: a 16-bit pointer at 0x14, then (code, address) pairs of 16-bit words.
  const rom = Buffer.from(fs.readFileSync(file));
  if (rom.length !== 16384) die(`${file}: ${rom.length} bytes, a RP2040 boot ROM has 16384`);
  const table = rom.readUInt16LE(0x14);
  const found = {};
  for (let at = table; at + 4 <= rom.length; at += 4) {
    const code = rom.readUInt16LE(at);
    if (code === 0) break;
    found[String.fromCharCode(code & 0xff, code >> 8)] = rom.readUInt16LE(at + 2) & ~1;
  }
  for (const [name, bkpt] of [['RE', BKPT_ERASE], ['RP', BKPT_PROGRAM]]) {
    const at = found[name];
    if (at === undefined) die(`${file}: no ${name} entry in the ROM function table`);
    rom.writeUInt16LE(0xbe00 | bkpt, at); // BKPT #n
    rom.writeUInt16LE(0x4770, at + 2); // BX LR
  }
  return new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4);
}

function loadUF2(file, flash) {
  const data = fs.readFileSync(file);
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const dv = new DataView(data.buffer, data.byteOffset + off, 512);
    if (dv.getUint32(0, true) !== 0x0a324655 || dv.getUint32(4, true) !== 0x9e5d5157 ||
        dv.getUint32(508, true) !== 0x0ab16f30) die(`${file}: not a UF2 file (bad block at ${off})`);
    if (dv.getUint32(8, true) & 1) continue; // not for main flash
    const addr = dv.getUint32(12, true), size = dv.getUint32(16, true);
    flash.set(data.subarray(off + 32, off + 32 + size), addr - FLASH_BASE);
  }
}

function answerUniqueId(mcu, uid) {
  // The SDK reads the flash's unique id at boot (flash_get_unique_id): chip select forced low through
  // IO_QSPI's SS_CTRL (OUTOVER, bits 8-9: 2 low, 3 high), then 0x4B, four dummy bytes and eight bytes clocked
  // in through the SSI's DR0, one read per write. rp2040js models neither the select nor the answer, so
  // this follows the select and answers the id's bytes; any other command still reads zeros.
  const ssi = mcu.peripherals[0x18000];
  const ioQspi = mcu.peripherals[0x40018];
  const txn = { on: false, bytes: [] };
  const qspiWrite = ioQspi.writeUint32.bind(ioQspi);
  ioQspi.writeUint32 = (offset, value) => {
    if (offset === 0x0c) { // GPIO_QSPI_SS_CTRL: a forced-low select starts a command, any other ends it
      txn.on = ((value >>> 8) & 3) === 2;
      txn.bytes = [];
      return;
    }
    qspiWrite(offset, value);
  };
  const ssiWrite = ssi.writeUint32.bind(ssi);
  ssi.writeUint32 = (offset, value) => {
    if (offset === 0x60 && txn.on) {
      txn.bytes.push(value & 0xff);
      const at = txn.bytes.length - 1 - 5; // 0x4B, 4 dummy bytes, then the id
      ssi.dr0 = txn.bytes[0] === 0x4b && at >= 0 && at < uid.length ? uid[at] : 0;
      return;
    }
    ssiWrite(offset, value);
  };
}

const args = process.argv.slice(2);
const dir = args[0];
if (!dir) die('usage: node pico.mjs DIR [--image FLASH.bin]');
const imageAt = args.indexOf('--image');
const PLAIN = args.includes('--plain'); // no shortcut: the reference they are tested against
const uidAt = args.indexOf('--uid');
const UID = uidAt >= 0 ? Buffer.from(args[uidAt + 1] || '', 'hex') : null;
if (UID && UID.length !== 8) die(`--uid ${args[uidAt + 1]}: give 16 hex digits (the flash's 64-bit id)`);
const romFile = path.join(dir, ROM_NAME);
const uf2File = path.join(dir, UF2_NAME);
for (const f of [romFile, uf2File]) if (!fs.existsSync(f)) die(`${f} is missing (see docs/pico.md)`);
const bootrom = patchedBootrom(romFile);

const consoleWarn = console.warn; // rp2040js's SIO warns on stderr itself about registers it does not model
console.warn = (...words) => { if (!String(words[0]).includes('invalid SIO')) consoleWarn(...words); };
const QUIET = { debug() {}, info() {}, warn() {}, error() {} };
let chip = null; // the running chip: {sim, mcu, clock, cdc}
let baseNs = 0; // emulated ns before the current chip started (resets keep time running)
let boots = 0;
const halt = { reset: null }; // reset: set by the watchdog, acted on between instructions
let resets = [];
let fromChip = [];
let toChip = [];
let rise = {};
let awakeNs = 0; // emulated ns the core spent executing (not asleep in WFE/WFI) in this run
let edges = {}; // pin -> [[ns, duty, hz], ...]: each change of a TIMED pad in this run, when it happened
const lastOut = {}; // pin -> [duty, hz] as last told

function notePad(pin) {
  // A TIMED pad's (duty, hz) changes only when the firmware writes its PWM or its pin: noted then, at the
  // emulated ns of the write, so a tone's length does not depend on where the parent's slices end.
  const [duty, hz] = padOut(pin);
  const last = lastOut[pin];
  if (last && last[0] === duty && last[1] === hz) return;
  lastOut[pin] = [duty, hz];
  const ns = baseNs + chip.clock.nanos, list = edges[pin] || (edges[pin] = []);
  const prev = list[list.length - 1];
  // One tone() is several writes (DIV, TOP, CC) whose in-between values no one hears: a change within
  // COALESCE_NS of the last one told replaces its value, keeping the time of the first write.
  if (prev && ns - prev[0] < COALESCE_NS) { prev[1] = duty; prev[2] = hz; } else list.push([ns, duty, hz]);
}

function boot(flashImage, reason) {
  const sim = new Simulator();
  const mcu = sim.rp2040;
  mcu.loadBootrom(bootrom);
  mcu.logger = QUIET; // rp2040js logs unmodelled registers MicroPython touches (SIO 0x50, 0x58): noise here
  if (flashImage) mcu.flash.set(flashImage);
  else loadUF2(uf2File, mcu.flash);
  mcu.onBreak = (code) => flashOp(mcu, code);
  if (UID) answerUniqueId(mcu, UID);
  const wdt = mcu.peripherals[0x40058];
  wdt.reason = reason;
  wdt.onWatchdogTrigger = () => {
    wdt.alarm.enable = false; wdt.timer.enable = false; // it re-fires at once otherwise
    if (halt.reset === null) halt.reset = wdt.reason;
  };
  const info = { armed: null, wdt_ms: null, first_out: {} };
  const wdtWrite = wdt.writeUint32.bind(wdt);
  wdt.writeUint32 = (offset, value) => {
    wdtWrite(offset, value);
    if (offset === 0 && value & 0x40000000 && info.armed === null) {
      info.armed = baseNs + sim.clock.nanos;
      info.wdt_ms = Math.round(wdt.timer.counter / 2000); // LOAD is 2 x us on the RP2040 (erratum RP2040-E1)
    }
  };
  const cdc = new USBCDC(mcu.usbCtrl);
  cdc.onSerialData = (buf) => { for (const b of buf) fromChip.push(b); };
  // The host sends an OUT packet only when it has bytes for the chip, as a real USB host does: rp2040js's
  // USBCDC answers every OUT buffer the device arms at once, with zero bytes when it has none, and TinyUSB
  // re-arms it each time, so an idle chip took ~36 USB interrupts per emulated ms and never slept in WFE.
  // The armed buffer waits here until `feed` has bytes for it.
  const outArmed = { size: 0 };
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return;
    outArmed.size = size;
    feed();
  };
  const pwm = mcu.pwm;
  const pwmWrite = pwm.writeUint32.bind(pwm);
  pwm.writeUint32 = (offset, value) => {
    pwmWrite(offset, value);
    if (chip && chip.mcu === mcu) for (const pin of TIMED) notePad(pin);
  };
  for (const pin of WATCHED) {
    mcu.gpio[pin].addListener(() => {
      if (TIMED.includes(pin) && chip && chip.mcu === mcu && mcu.gpio[pin].functionSelect !== FUNC_PWM) {
        notePad(pin); // a level set by SIO (a PWM pad's toggles are not changes: its writes are noted)
      }
      if (mcu.gpio[pin].outputEnable && info.first_out[pin] === undefined) info.first_out[pin] = baseNs + sim.clock.nanos;
      const high = mcu.gpio[pin].outputEnable && mcu.gpio[pin].outputValue;
      if (high && rise[pin] === undefined) rise[pin] = baseNs + sim.clock.nanos;
    });
  }
  mcu.core.PC = FLASH_BASE;
  if (chip) baseNs += chip.clock.nanos;
  chip = { sim, mcu, clock: sim.clock, cdc, info, outArmed, code: PLAIN ? null : speedUp(mcu) };
  for (const pin of TIMED) notePad(pin); // a reset's fresh chip: its pads low from this ns
  toChip = []; // bytes in flight to a chip that reset are lost, as on a USB bus reset
  boots += 1;
}

function flashOp(mcu, code) {
  const r = mcu.core.registers;
  if (code === BKPT_ERASE) {
    const off = r[0] >>> 0, count = r[1] >>> 0;
    mcu.flash.fill(0xff, off, off + count);
  } else if (code === BKPT_PROGRAM) {
    const off = r[0] >>> 0, data = r[1] >>> 0, count = r[2] >>> 0;
    for (let i = 0; i < count; i++) mcu.flash[off + i] &= mcu.readUint8(data + i);
  }
}

function setInputs(inputs, adc) {
  const { mcu } = chip;
  // Only on a change: rp2040js latches an edge on every setInputValue call, even to the same level, so a
  // pin set low again each slice would raise a falling-edge IRQ each slice.
  for (const [pin, level] of Object.entries(inputs || {})) {
    const gpio = mcu.gpio[Number(pin)];
    if (gpio.rawInputValue !== !!level) gpio.setInputValue(!!level);
  }
  if (adc) adc.forEach((counts, ch) => { mcu.adc.channelValues[ch] = counts; });
}

function feed() {
  // Hands the queued bytes to the chip's armed OUT buffer, if it has armed one (USB full speed: 64 a packet).
  const { mcu, cdc, outArmed } = chip;
  if (!outArmed.size || !toChip.length) return;
  const n = Math.min(outArmed.size, toChip.length);
  outArmed.size = 0;
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, Uint8Array.from(toChip.slice(0, n)));
  toChip = toChip.slice(n);
}

function run(us) {
  const end = chip.clock.nanos + us * 1000;
  let lastInputs = null;
  while (chip.clock.nanos < end) {
    const { mcu, clock } = chip;
    const chunkEnd = Math.min(end, clock.nanos + 20000);
    awakeNs += step(mcu.core, chip.code, clock, chunkEnd, halt);
    feed();
    if (halt.reset !== null) {
      const reason = halt.reset;
      halt.reset = null;
      lastInputs = snapshotInputs(mcu);
      const left = end - clock.nanos;
      resets.push([baseNs + clock.nanos, reason]);
      boot(mcu.flash.slice(), reason);
      restoreInputs(lastInputs);
      return run(Math.max(0, left / 1000));
    }
  }
}

function step(core, code, clock, until, stop) {
  // The hot loop: one instruction (or one jump over sleep) at a time until `until` ns or a reset. Only
  // locals and arguments here (module-level `let`s cost a context load and a hole check per instruction);
  // returns the ns the core spent executing.
  let awake = 0;
  while (clock.nanosCounter < until && stop.reset === null) {
    if (!core.waiting) {
      const ns = (PLAIN ? core.executeInstruction() : execute(core, code)) * CYCLE_NS;
      awake += ns;
      clock.tick(ns);
    } else if (PLAIN) {
      clock.tick(CYCLE_NS); // --plain: a sleeping core is stepped one cycle at a time, as a running one
    } else {
      // Asleep in WFE/WFI: nothing changes until the next alarm (a timer, a USB transfer, ...) or the end
      // of the chunk (where the parent's inputs and bytes come in), so jump there at once.
      clock.tick(Math.max(CYCLE_NS, Math.min(clock.nanosToNextAlarm, until - clock.nanosCounter)));
    }
  }
  return awake;
}

function snapshotInputs(mcu) {
  return { pins: [16, 17, 18].map((p) => mcu.gpio[p].rawInputValue), adc: [...mcu.adc.channelValues] };
}

function restoreInputs(saved) {
  [16, 17, 18].forEach((p, i) => { if (saved.pins[i]) chip.mcu.gpio[p].setInputValue(true); });
  saved.adc.forEach((v, ch) => { chip.mcu.adc.channelValues[ch] = v; });
}

function padOut(pin) {
  // duty 0..1 and frequency of an output pad: PWM compare / wrap when the PWM drives it, else the level
  const { mcu } = chip;
  const gpio = mcu.gpio[pin];
  if (!gpio.outputEnable) return [0, 0];
  if (gpio.functionSelect !== FUNC_PWM) return [gpio.outputValue ? 1 : 0, 0];
  const ch = mcu.pwm.channels[(pin >> 1) & 7];
  if (!(ch.csr & 1)) return [gpio.outputValue ? 1 : 0, 0];
  const level = pin & 1 ? ch.cc >>> 16 : ch.cc & 0xffff;
  const wrap = (ch.top & 0xffff) + 1;
  const div = ((ch.div >> 4) & 0xff || 256) + (ch.div & 0xf) / 16;
  const phaseCorrect = ch.csr & 2 ? 2 : 1;
  return [Math.min(1, level / wrap), Math.round(125e6 / div / wrap / phaseCorrect)];
}

function answer(msg) {
  switch (msg.op) {
    case 'run': {
      setInputs(msg.in, msg.adc);
      if (msg.tx) for (const b of Buffer.from(msg.tx, 'hex')) toChip.push(b);
      feed();
      rise = {};
      resets = [];
      awakeNs = 0;
      edges = {};
      run(msg.us);
      for (const pin of TIMED) notePad(pin); // a change no hook saw (a function select): at the run's end
      const out = {};
      for (const pin of WATCHED) out[pin] = padOut(pin);
      const rx = Buffer.from(fromChip).toString('hex');
      fromChip = [];
      return { ns: baseNs + chip.clock.nanos, rx, out, rise, boots, resets, queued: toChip.length, boot: chip.info,
        awake: awakeNs, edges };
    }
    case 'reset': {
      const saved = snapshotInputs(chip.mcu);
      resets = [[baseNs + chip.clock.nanos, msg.reason || 0]];
      boot(chip.mcu.flash.slice(), msg.reason || 0);
      restoreInputs(saved);
      return { ns: baseNs, boots };
    }
    case 'save':
      fs.writeFileSync(msg.path, chip.mcu.flash);
      return { saved: msg.path };
    case 'quit':
      process.exit(0);
      break;
    default:
      return { error: `unknown op ${JSON.stringify(msg.op)}` };
  }
  return {};
}

boot(imageAt >= 0 ? fs.readFileSync(args[imageAt + 1]) : null, 0);
process.stdout.write(JSON.stringify({ ready: true, boots }) + '\n');

let pending = '';
process.stdin.on('data', (chunk) => {
  pending += chunk.toString('latin1');
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    let reply;
    try {
      reply = answer(JSON.parse(line));
    } catch (err) {
      reply = { error: String(err && err.stack || err) };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  }
});
process.stdin.on('end', () => process.exit(0));
