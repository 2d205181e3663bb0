/** An IANA name's shape: no offsets such as "+01:00", which PostgreSQL would read with the sign reversed. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** Whether the name is a time zone JavaScript knows by that name (e.g. "Europe/London"), in a form PostgreSQL reads the same way. */
export function isTimeZone(name: string): boolean {
  if (!IANA_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
