// The Thumb instructions the emulated Pico executes most, decoded by a table instead of rp2040js's chain.
//
// rp2040js's CortexM0Core.executeInstruction tests an opcode against its ~80 encodings one after another
// (32 tests per instruction on average for MicroPython at rest). Twenty-one kinds make up about 83 % of
// what the firmware executes (conditional and plain B, LSLS/LSRS, the word and byte LDRs and STRs, CMP, TST,
// MOV, MOVS, ADDS, SUBS, ORRS): `execute` runs those itself, with the same statements as rp2040js's own
// branch for each, and hands every other instruction (and any instruction with an interrupt pending) to
// executeInstruction.
// `pico.mjs --plain` does not use it: tests/pico/test_pico_emulator.py holds the two runs reply for reply,
// and tests/pico/test_pico_fastpath.py checks with rp2040js's own source that each opcode the table claims
// is one its chain decodes to the same encoding first.

export const KIND_NAMES = [null, 'B (with cond)', 'B', 'LSLS (immediate)', 'LSRS (immediate)',
  'LDR (immediate)', 'LDR (sp + immediate)', 'STR (immediate)', 'CMP immediate', 'CMP (register)', 'MOVS',
  'ADDS (Encoding T2)', 'TST', 'LDRB (immediate)', 'LDRB (register)', 'STR (sp + immediate)', 'LDR (literal)',
  'LDR (register)', 'MOV', 'SUBS (Encoding T2)', 'SUBS (register)', 'ORRS (Encoding T2)'];
const B_COND = 1, B = 2, LSLS = 3, LSRS = 4, LDR_IMM = 5, LDR_SP = 6, STR_IMM = 7, CMP_IMM = 8, CMP_REG = 9,
  MOVS = 10, ADDS_T2 = 11, TST = 12, LDRB_IMM = 13, LDRB_REG = 14, STR_SP = 15, LDR_LIT = 16, LDR_REG = 17,
  MOV = 18, SUBS_T2 = 19, SUBS_REG = 20, ORRS = 21;
const PC = 15, SP = 13;

function kindOf(opcode) {
  if (opcode >> 12 === 0b1101 && ((opcode >> 9) & 0x7) !== 0b111) return B_COND;
  if (opcode >> 11 === 0b11100) return B;
  if (opcode >> 11 === 0b00000) return LSLS;
  if (opcode >> 11 === 0b00001) return LSRS;
  if (opcode >> 11 === 0b01101) return LDR_IMM;
  if (opcode >> 11 === 0b10011) return LDR_SP;
  if (opcode >> 11 === 0b01100) return STR_IMM;
  if (opcode >> 11 === 0b00101) return CMP_IMM;
  if (opcode >> 6 === 0b0100001010) return CMP_REG;
  if (opcode >> 11 === 0b00100) return MOVS;
  if (opcode >> 11 === 0b00110) return ADDS_T2;
  if (opcode >> 6 === 0b0100001000) return TST;
  if (opcode >> 11 === 0b01111) return LDRB_IMM;
  if (opcode >> 9 === 0b0101110) return LDRB_REG;
  if (opcode >> 11 === 0b10010) return STR_SP;
  if (opcode >> 11 === 0b01001) return LDR_LIT;
  if (opcode >> 9 === 0b0101100) return LDR_REG;
  if (opcode >> 8 === 0b01000110) return MOV;
  if (opcode >> 11 === 0b00111) return SUBS_T2;
  if (opcode >> 9 === 0b0001101) return SUBS_REG;
  if (opcode >> 6 === 0b0100001100) return ORRS;
  return 0;
}

export const KINDS = new Uint8Array(65536);
for (let op = 0; op < 65536; op++) KINDS[op] = kindOf(op);

const FLASH_BASE = 0x10000000;
const RAM_BASE = 0x20000000;

// Readies one chip for `execute`: returns a reader of the 16-bit code words of its flash and SRAM (the
// memory rp2040js fetches them from), and gives `mcu.writeUint32` a first test for SRAM. rp2040js looks a
// word's address up among its peripherals first (an object keyed by address), then the boot ROM, the flash,
// and SRAM: no peripheral sits at an SRAM address (checked here), so a store to SRAM ends in the same
// setUint32, minus the look-up. Stack pushes and stores are most of the firmware's writes.
export function speedUp(mcu) {
  const flash16 = new Uint16Array(mcu.flash.buffer, mcu.flash.byteOffset, mcu.flash.length >> 1);
  const sram16 = new Uint16Array(mcu.sram.buffer, mcu.sram.byteOffset, mcu.sram.length >> 1);
  const flashEnd = FLASH_BASE + mcu.flash.length, ramEnd = RAM_BASE + mcu.sram.length;
  let ramIsPlain = true;
  for (let at = RAM_BASE; at < ramEnd + 0x4000; at += 0x4000) if (mcu.findPeripheral(at)) ramIsPlain = false;
  if (ramIsPlain) {
    const sramView = mcu.sramView, writeUint32 = Object.getPrototypeOf(mcu).writeUint32;
    mcu.writeUint32 = function (address, value) {
      address = address >>> 0;
      if (address >= RAM_BASE && address + 3 < ramEnd) sramView.setUint32(address - RAM_BASE, value, true);
      else writeUint32.call(this, address, value);
    };
  }
  return (pc) => {
    if (pc >= FLASH_BASE && pc < flashEnd) return flash16[(pc - FLASH_BASE) >> 1];
    if (pc >= RAM_BASE && pc < ramEnd) return sram16[(pc - RAM_BASE) >> 1];
    return -1;
  };
}

// One instruction, as core.executeInstruction() would run it; returns its cycles.
export function execute(core, code) {
  if (core.interruptsUpdated) return core.executeInstruction();
  const registers = core.registers;
  const opcode = code(registers[15] & ~1);
  const kind = opcode < 0 ? 0 : KINDS[opcode];
  if (kind === 0) return core.executeInstruction();
  registers[15] += 2;
  let deltaCycles = 1;
  switch (kind) {
    case B_COND: {
      let imm8 = (opcode & 0xff) << 1;
      const cond = (opcode >> 8) & 0xf;
      if (imm8 & (1 << 8)) imm8 = (imm8 & 0x1ff) - 0x200;
      if (core.checkCondition(cond)) {
        registers[15] += imm8 + 2;
        deltaCycles++;
      }
      break;
    }
    case B: {
      let imm11 = (opcode & 0x7ff) << 1;
      if (imm11 & (1 << 11)) imm11 = (imm11 & 0x7ff) - 0x800;
      registers[15] += imm11 + 2;
      deltaCycles++;
      break;
    }
    case LSLS: {
      const imm5 = (opcode >> 6) & 0x1f;
      const input = registers[(opcode >> 3) & 0x7];
      const result = input << imm5;
      registers[opcode & 0x7] = result;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      core.C = imm5 ? !!(input & (1 << (32 - imm5))) : core.C;
      break;
    }
    case LSRS: {
      const imm5 = (opcode >> 6) & 0x1f;
      const input = registers[(opcode >> 3) & 0x7];
      const result = imm5 ? input >>> imm5 : 0;
      registers[opcode & 0x7] = result;
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      core.C = !!((input >>> (imm5 ? imm5 - 1 : 31)) & 0x1);
      break;
    }
    case LDR_IMM: {
      const addr = registers[(opcode >> 3) & 0x7] + (((opcode >> 6) & 0x1f) << 2);
      deltaCycles += core.cyclesIO(addr);
      registers[opcode & 0x7] = core.readUint32(addr);
      break;
    }
    case LDR_SP: {
      const addr = registers[13] + ((opcode & 0xff) << 2);
      deltaCycles += core.cyclesIO(addr);
      registers[(opcode >> 8) & 0x7] = core.readUint32(addr);
      break;
    }
    case STR_IMM: {
      const address = registers[(opcode >> 3) & 0x7] + (((opcode >> 6) & 0x1f) << 2);
      deltaCycles += core.cyclesIO(address, true);
      core.writeUint32(address, registers[opcode & 0x7]);
      break;
    }
    case CMP_IMM:
      core.substractUpdateFlags(registers[(opcode >> 8) & 0x7], opcode & 0xff);
      break;
    case CMP_REG:
      core.substractUpdateFlags(registers[opcode & 0x7], registers[(opcode >> 3) & 0x7]);
      break;
    case MOVS: {
      const value = opcode & 0xff;
      registers[(opcode >> 8) & 7] = value;
      core.N = !!(value & 0x80000000);
      core.Z = value === 0;
      break;
    }
    case ADDS_T2: {
      const Rdn = (opcode >> 8) & 0x7;
      registers[Rdn] = core.addUpdateFlags(registers[Rdn], opcode & 0xff);
      break;
    }
    case TST: {
      const result = registers[opcode & 0x7] & registers[(opcode >> 3) & 0x7];
      core.N = !!(result & 0x80000000);
      core.Z = result === 0;
      break;
    }
    case LDRB_IMM: {
      const addr = registers[(opcode >> 3) & 0x7] + ((opcode >> 6) & 0x1f);
      deltaCycles += core.cyclesIO(addr);
      registers[opcode & 0x7] = core.readUint8(addr);
      break;
    }
    case LDRB_REG: {
      const addr = registers[(opcode >> 6) & 0x7] + registers[(opcode >> 3) & 0x7];
      deltaCycles += core.cyclesIO(addr);
      registers[opcode & 0x7] = core.readUint8(addr);
      break;
    }
    case STR_SP: {
      const address = registers[13] + ((opcode & 0xff) << 2);
      deltaCycles += core.cyclesIO(address, true);
      core.writeUint32(address, registers[(opcode >> 8) & 0x7]);
      break;
    }
    case LDR_LIT: {
      const addr = ((registers[15] + 2) & 0xfffffffc) + ((opcode & 0xff) << 2);
      deltaCycles += core.cyclesIO(addr);
      registers[(opcode >> 8) & 7] = core.readUint32(addr);
      break;
    }
    case LDR_REG: {
      const addr = registers[(opcode >> 6) & 0x7] + registers[(opcode >> 3) & 0x7];
      deltaCycles += core.cyclesIO(addr);
      registers[opcode & 0x7] = core.readUint32(addr);
      break;
    }
    case MOV: {
      const Rm = (opcode >> 3) & 0xf;
      const Rd = ((opcode >> 4) & 0x8) | (opcode & 0x7);
      let value = Rm === PC ? registers[15] + 2 : registers[Rm];
      if (Rd === PC) {
        deltaCycles++;
        value &= ~1;
      } else if (Rd === SP) {
        value &= ~3;
      }
      registers[Rd] = value;
      break;
    }
    case SUBS_T2: {
      const Rdn = (opcode >> 8) & 0x7;
      registers[Rdn] = core.substractUpdateFlags(registers[Rdn], opcode & 0xff);
      break;
    }
    case SUBS_REG:
      registers[opcode & 0x7] = core.substractUpdateFlags(registers[(opcode >> 3) & 0x7],
        registers[(opcode >> 6) & 0x7]);
      break;
    case ORRS: {
      const Rdn = opcode & 0x7;
      const result = registers[Rdn] | registers[(opcode >> 3) & 0x7];
      registers[Rdn] = result;
      core.N = !!(result & 0x80000000);
      core.Z = (result & 0xffffffff) === 0;
      break;
    }
  }
  core.cycles += deltaCycles;
  return deltaCycles;
}
