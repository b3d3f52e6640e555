/**
 * Text with a lone surrogate (legal in a JS string, impossible in UTF-8) is stored as WTF-8: the surrogate's own
 * 3-byte form (ED A0..BF xx). SQLite keeps TEXT bytes as given, so such a value reads back exactly instead of
 * turning into U+FFFD. Well-formed text is plain UTF-8 both ways.
 */
const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ENCODER = new TextEncoder();

export function encodeWtf8(s: string): Uint8Array {
  if (s.isWellFormed()) return ENCODER.encode(s);
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i)!;
    if (c > 0xffff) i++; // a well-formed pair: one astral code point
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}

export function decodeWtf8(bytes: Uint8Array): string {
  try {
    return STRICT.decode(bytes);
  } catch {
    return decodeLoose(bytes);
  }
}

/** UTF-8 that also accepts encoded surrogates; any other invalid byte becomes U+FFFD, as a normal decoder does. */
function decodeLoose(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length;) {
    const x = b[i]!;
    const cont = (k: number) => i + k < b.length && (b[i + k]! & 0xc0) === 0x80;
    if (x < 0x80) {
      out += String.fromCharCode(x);
      i += 1;
      continue;
    }
    if (x >= 0xc2 && x < 0xe0 && cont(1)) {
      out += String.fromCharCode(((x & 31) << 6) | (b[i + 1]! & 63));
      i += 2;
      continue;
    }
    if (x >= 0xe0 && x < 0xf0 && cont(1) && cont(2)) {
      const c = ((x & 15) << 12) | ((b[i + 1]! & 63) << 6) | (b[i + 2]! & 63);
      if (c >= 0x800) {
        out += String.fromCharCode(c);
        i += 3;
        continue;
      }
    }
    if (x >= 0xf0 && x < 0xf5 && cont(1) && cont(2) && cont(3)) {
      const c = ((x & 7) << 18) | ((b[i + 1]! & 63) << 12) | ((b[i + 2]! & 63) << 6) | (b[i + 3]! & 63);
      if (c >= 0x10000 && c <= 0x10ffff) {
        out += String.fromCodePoint(c);
        i += 4;
        continue;
      }
    }
    out += '\ufffd';
    i += 1;
  }
  return out;
}
