/**
 * Java's Double.toString / Float.toString, for display parity with the reference tools' dumps
 * and popups: plain notation for 1e-3 ≤ |x| < 1e7, otherwise `d.dddE±n`; always at least one
 * fractional digit (`5.0E-4`, `2.01`, `1.0E7`).
 */
export function javaDouble(x: number): string {
  // Plain range: JS prints the same shortest digits in plain notation there (it switches to
  // exponents only below 1e-6 or from 1e21); only an integer lacks Java's ".0".
  const abs = x < 0 ? -x : x;
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(x);
    return Number.isInteger(x) ? s + '.0' : s;
  }
  return formatJava(x, shortestDigits(x));
}

/** Float.toString of an f32 value: the shortest decimal that reads back as the same float. */
export function javaFloat(x: number): string {
  const f = Math.fround(x);
  if (!Number.isFinite(f)) return formatJava(f, '');
  for (let p = 1; p <= 9; p++) {
    const s = f.toExponential(p - 1);
    if (Math.fround(Number(s)) === f) return formatJava(f, s);
  }
  return formatJava(f, f.toExponential(8));
}

function shortestDigits(x: number): string {
  return Number.isFinite(x) ? x.toExponential() : '';
}

/** `expo` is a JS exponential string of the value ("1.5e-7"), giving the digits to print. */
function formatJava(x: number, expo: string): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(expo);
  if (!m) return String(x);
  const sign = m[1]!;
  const digits = m[2]! + (m[3] ?? '');
  const exp = Number(m[4]);
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    // Plain notation from the same shortest digits.
    let intPart: string;
    let frac: string;
    if (exp >= 0) {
      intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
      frac = digits.slice(exp + 1);
    } else {
      intPart = '0';
      frac = '0'.repeat(-exp - 1) + digits;
    }
    return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
  }
  const frac = digits.slice(1);
  return `${sign}${digits[0]}.${frac === '' ? '0' : frac}E${exp}`;
}
