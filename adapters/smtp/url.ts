/**
 * What an SMTP_URL must be, apart from the sender (no nodemailer here, so the configuration reads it
 * without loading the SMTP client).
 *
 * @module
 */

/** Whether an SMTP_URL is one this sender takes; the reason when not. */
export function smtpUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be a URL such as smtps://user:password@smtp.example.com:465';
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') return `must start with smtp:// or smtps://, not ${parsed.protocol}//`;
  if (parsed.hostname === '') return 'must name a host';
  return null;
}
