import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_MAIL_TEXTS } from '../../core/mail/texts.ts';
import { loadConfig } from '../../server/config.ts';
import { configError, exampleConfigFiles } from '../_config-files.ts';

const { configFile, removeAll } = exampleConfigFiles('mail-config');

test('without SMTP_URL mail is off, with the default sender and texts', () => {
  assert.equal(loadConfig({}, process.cwd()).mail, { smtpUrl: null, from: 'Legacy Sheet Converter <no-reply@localhost>', texts: {}, requestersTold: true });
});

test("SMTP_URL alone turns mail on, sending from no-reply at the SMTP host (or publicBaseUrl's host)", () => {
  const url = 'smtps://mailer:secret@smtp.mail.test:465';
  assert.equal(loadConfig({ SMTP_URL: url }, process.cwd()).mail, {
    smtpUrl: url,
    from: 'Legacy Sheet Converter <no-reply@smtp.mail.test>',
    texts: {},
    requestersTold: true,
  });
  const file = configFile((c) => void (c['publicBaseUrl'] = 'https://www.converter.example'));
  assert.is(loadConfig({ SMTP_URL: url, CONFIG_FILE: file }, process.cwd()).mail.from, 'Legacy Sheet Converter <no-reply@converter.example>');
});

test('the file sets the sender and any text; other texts keep their defaults', () => {
  const keys = { subject: 'Your {product} key', body: 'Here: {keys}' };
  const file = configFile((c) => void (c['mail'] = { from: 'Shop <licenses@example.com>', texts: { keys, howToEnter: 'Paste it.' }, requestersTold: false }));
  const { mail } = loadConfig({ CONFIG_FILE: file }, process.cwd());
  assert.equal(mail, { smtpUrl: null, from: 'Shop <licenses@example.com>', texts: { keys, howToEnter: 'Paste it.' }, requestersTold: false });
  assert.ok(DEFAULT_MAIL_TEXTS.resend.subject.length > 0);
});

test('a bad SMTP_URL or mail section stops the start, naming the setting but never the password', () => {
  assert.is(configError({ SMTP_URL: 'http://user:hunter2@smtp.mail.test' }), 'SMTP_URL must start with smtp:// or smtps://, not http://');
  assert.is(configError({ SMTP_URL: 'not a url hunter2' }), 'SMTP_URL must be a URL such as smtps://user:password@smtp.example.com:465');
  const badFrom = configFile((c) => void (c['mail'] = { from: 'nobody' }));
  assert.match(configError({ CONFIG_FILE: badFrom }), 'field "mail.from" must be an address, or a name and <address>');
  const unknown = configFile((c) => void (c['mail'] = { texts: { welcome: { subject: 'x', body: 'y' } } }));
  assert.match(configError({ CONFIG_FILE: unknown }), 'field "mail.texts.welcome" is not a known setting');
  // The shipped-request mail's text is its own: not one of the texts.
  const shipped = configFile((c) => void (c['mail'] = { texts: { shipped: { subject: 'x', body: 'y' } } }));
  assert.match(configError({ CONFIG_FILE: shipped }), 'field "mail.texts.shipped" is not a known setting');
});

test.after(removeAll);

test.run();
