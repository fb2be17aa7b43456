/** The check-digit rules the detectors accept a number by: a random digit run rarely passes them. */

/** Luhn (ISO/IEC 7812): every payment card number ends in this check digit. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** IBAN lengths by country (ISO 13616 registry), for the countries Earshot's customers bank in. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  UA: 29,
};

/** ISO 13616 check: the country and check digits moved to the end, letters as 10–35, the number mod 97 is 1. */
export function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban) || IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  let rest = 0;
  for (const ch of iban.slice(4) + iban.slice(0, 4)) {
    const value = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rest = (value > 9 ? rest * 100 + value : rest * 10 + value) % 97;
  }
  return rest === 1;
}

const validDate = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

const weighted = (digits: string, weights: readonly number[]) =>
  weights.reduce((sum, w, i) => sum + w * (digits.charCodeAt(i) - 48), 0);

/**
 * Estonian isikukood: G YYMMDD SSS C. G 1–6 gives sex and century (1–2: 1800s, 3–4: 1900s,
 * 5–6: 2000s), the date must exist, C is the sum with weights 1…9,1 mod 11; 10 means a second pass
 * with weights 3…9,1,2,3, and 10 again means 0.
 */
export function isikukoodValid(digits: string): boolean {
  if (!/^[1-6]\d{10}$/.test(digits)) return false;
  const century = 1800 + Math.floor((Number(digits[0]) - 1) / 2) * 100;
  if (!validDate(century + Number(digits.slice(1, 3)), Number(digits.slice(3, 5)), Number(digits.slice(5, 7))))
    return false;
  let check = weighted(digits, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11;
  if (check === 10) check = (weighted(digits, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11) % 10;
  return check === Number(digits[10]);
}

/**
 * Latvian personas kods of the dated form DDMMYY-CNNNN: the date must exist (C 0: 1800s, 1: 1900s,
 * 2: 2000s) and the last digit is (1101 − Σ dᵢ·wᵢ) mod 11 with weights 1,6,3,7,9,10,5,8,4,2.
 * Codes issued since 2017 (32…) carry no date and no published check digit, so no rule tells them
 * from any other eleven digits: they are not detected.
 */
export function personasKodsValid(digits: string): boolean {
  if (!/^\d{6}[0-2]\d{4}$/.test(digits)) return false;
  const year = 1800 + Number(digits[6]) * 100 + Number(digits.slice(4, 6));
  if (!validDate(year, Number(digits.slice(2, 4)), Number(digits.slice(0, 2)))) return false;
  const check = (1101 - weighted(digits, [1, 6, 3, 7, 9, 10, 5, 8, 4, 2])) % 11;
  return check < 10 && check === Number(digits[10]);
}
