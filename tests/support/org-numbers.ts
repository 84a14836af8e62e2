/**
 * Swedish organisation numbers for test organisations: valid (the Luhn check digit the form
 * checks) and different at every call, because one number makes one organisation
 * (decision 057). Tests sharing a database run in one process (an end-to-end worker, an
 * integration file), so a counter keeps them apart; the process id keeps processes apart.
 */
let counter = 0;

/** The Luhn check digit of the nine digits `body`, as a Swedish organisation number has. */
export function luhnCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** A valid number no other call in this process has given, as NNNNNN-NNNN ("559123-0456"). */
export function uniqueOrgNumber(): string {
  counter += 1;
  const body = `559${String(process.pid % 1000).padStart(3, "0")}${String(counter % 1000).padStart(3, "0")}`;
  return `${body.slice(0, 6)}-${body.slice(6)}${luhnCheckDigit(body)}`;
}
