/**
 * sqlite3 3.40's `%!.20g` (shell.c prints REAL values in -json mode with it), reproduced digit for digit: SQLite's
 * printf computes in `long double`, which on x86-64 is the x87 80-bit format (64-bit significand), so the digits past
 * the 17th come from that arithmetic, not from the double's exact value. `X80` emulates it with BigInt, rounding to
 * nearest-even after every operation as the FPU does.
 */
interface X80 {
  m: bigint;
  e: number;
} // value = m * 2^e, m has exactly 64 bits (or is 0)

const ZERO: X80 = { m: 0n, e: 0 };

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** Rounds an exact m * 2^e to 64 significant bits, ties to even. */
function round(m: bigint, e: number): X80 {
  if (m === 0n) return ZERO;
  const len = bitLength(m);
  if (len <= 64) return { m: m << BigInt(64 - len), e: e - (64 - len) };
  const shift = BigInt(len - 64);
  let q = m >> shift;
  const rem = m & ((1n << shift) - 1n);
  const half = 1n << (shift - 1n);
  if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
  if (bitLength(q) > 64) return { m: q >> 1n, e: e + Number(shift) + 1 };
  return { m: q, e: e + Number(shift) };
}

function fromDouble(x: number): X80 {
  if (x === 0) return ZERO;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  return exp === 0 ? round(frac, -1074) : round(frac | (1n << 52n), exp - 1075);
}

const mul = (a: X80, b: X80): X80 => (a.m === 0n || b.m === 0n ? ZERO : round(a.m * b.m, a.e + b.e));

function div(a: X80, b: X80): X80 {
  if (a.m === 0n) return ZERO;
  const num = a.m << 130n;
  const q = num / b.m;
  const sticky = num % b.m === 0n ? 0n : 1n;
  return round((q << 1n) | sticky, a.e - b.e - 131);
}

function addSub(a: X80, b: X80, sign: 1n | -1n): X80 {
  if (b.m === 0n) return a;
  if (a.m === 0n) return sign === 1n ? b : ZERO; // only non-negative results occur here
  const e = Math.min(a.e, b.e);
  return round((a.m << BigInt(a.e - e)) + sign * (b.m << BigInt(b.e - e)), e);
}

function cmp(a: X80, b: X80): number {
  if (a.m === 0n || b.m === 0n) return a.m === b.m ? 0 : a.m === 0n ? -1 : 1;
  const e = Math.min(a.e, b.e);
  const x = a.m << BigInt(a.e - e);
  const y = b.m << BigInt(b.e - e);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** (int) of a value in [0, 10). */
const toInt = (a: X80): number => (a.m === 0n ? 0 : Number(a.e >= 0 ? a.m << BigInt(a.e) : a.m >> BigInt(-a.e)));

const D = (x: number) => fromDouble(x);
const TEN = D(10);

/** printf.c's et_getdigit: the next digit, then the value minus it, times ten. */
function getDigit(st: { v: X80; nsd: number }): string {
  if (st.nsd <= 0) return '0';
  st.nsd--;
  const digit = toInt(st.v);
  st.v = mul(addSub(st.v, D(digit), -1n), TEN);
  return String(digit);
}

/** `sqlite3_snprintf("%!.20g", r)` for a finite, non-NaN double as SQLite 3.40 on x86-64 prints it. */
export function formatReal20(r: number): string {
  let prefix = '';
  if (r < 0) {
    r = -r;
    prefix = '-';
  }
  let v = D(r);
  let precision = 19; // %g counts the first digit: precision 20 - 1
  const rounder = mul(D(5.0e-10), D(1.0e-10)); // arRound[19 % 10], then one "rounder *= 1.0e-10"
  let exp = 0;
  if (v.m !== 0n) {
    let scale = D(1);
    while (cmp(v, mul(D(1e100), scale)) >= 0 && exp <= 350) {
      scale = mul(scale, D(1e100));
      exp += 100;
    }
    while (cmp(v, mul(D(1e10), scale)) >= 0 && exp <= 350) {
      scale = mul(scale, D(1e10));
      exp += 10;
    }
    while (cmp(v, mul(TEN, scale)) >= 0 && exp <= 350) {
      scale = mul(scale, TEN);
      exp++;
    }
    v = div(v, scale);
    while (cmp(v, D(1e-8)) < 0) {
      v = mul(v, D(1e8));
      exp -= 8;
    }
    while (cmp(v, D(1)) < 0) {
      v = mul(v, TEN);
      exp--;
    }
  }
  v = addSub(v, rounder, 1n);
  if (cmp(v, TEN) >= 0) {
    v = mul(v, D(0.1));
    exp++;
  }
  const useExp = exp < -4 || exp > precision;
  if (!useExp) precision -= exp;
  let e2 = useExp ? 0 : exp;
  const st = { v, nsd: 26 };
  let out = prefix;
  if (e2 < 0) out += '0';
  else for (; e2 >= 0; e2--) out += getDigit(st);
  out += '.';
  for (e2++; e2 < 0; precision--, e2++) out += '0';
  while (precision-- > 0) out += getDigit(st);
  out = out.replace(/0+$/, '');
  if (out.endsWith('.')) out += '0';
  if (useExp) {
    const sign = exp < 0 ? '-' : '+';
    const a = Math.abs(exp);
    out += `e${sign}${a >= 100 ? String(Math.floor(a / 100)) : ''}${String(Math.floor((a % 100) / 10))}${String(a % 10)}`;
  }
  return out;
}
