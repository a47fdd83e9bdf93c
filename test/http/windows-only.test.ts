/**
 * The shipped Windows-only page over a real socket: where a client that is not Windows lands when the
 * operator has no page of their own, with configurable wording and links, and the operator's own page
 * when `download.nonWindowsUrl` is set.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SiteContent } from '../../core/schemas/content.ts';
import { exampleContent } from '../_setup.ts';
import { startInProcessServer } from '../_in-process.ts';

const LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

function content(download: Partial<SiteContent['download']>): SiteContent {
  const base = exampleContent();
  return { ...base, download: { msiUrl: base.download.msiUrl, ...download } };
}

test('the shipped page says what the product is and why Windows, and downloads anyway with force=1', async () => {
  const server = await startInProcessServer();
  try {
    const redirect = await server.request({ path: '/api/v1/download', headers: { 'user-agent': LINUX } });
    assert.is(redirect.headers['location'], 'http://localhost:8080/windows-only');
    const page = await server.request({ path: '/windows-only', headers: { 'user-agent': LINUX } });
    assert.is(page.status, 200);
    assert.is(page.headers['cache-control'], 'no-store');
    assert.ok(page.headers['ratelimit'], 'rate-limited like every public answer');
    assert.match(page.text, '<html lang="en">');
    assert.match(page.text, '<title>Legacy Sheet Converter runs on Windows</title>');
    assert.match(
      page.text,
      '<p>Legacy Sheet Converter converts legacy spreadsheets (.123, .wk1, .wk3, .wk4, .wks) to XLSX, PDF, HTML, Markdown, CSV and XLS.</p>',
    );
    assert.match(page.text, 'It is a Windows desktop app: the conversion runs on your own PC');
    assert.match(page.text, '<a id="download-anyway" href="/api/v1/download?force=1">Download anyway</a>');
    assert.not.match(page.text, '<script');
  } finally {
    await server.close();
  }
});

test('a source label the download endpoint would refuse is left out of the link, not answered 400', async () => {
  const server = await startInProcessServer();
  try {
    const page = await server.request({ path: '/windows-only?source=%3Cscript%3E' });
    assert.is(page.status, 200);
    assert.match(page.text, 'href="/api/v1/download?force=1">');
    assert.not.match(page.text, 'script%3E');
  } finally {
    await server.close();
  }
});

test('download.windowsOnlyPage sets the title, paragraphs and extra links, escaped', async () => {
  const windowsOnlyPage = {
    title: 'Sorry, Windows only',
    paragraphs: ['Runs on Windows <10> & 11.'],
    links: [{ text: 'Tell me when a Mac version exists', url: 'https://www.example.com/notify?os=mac&x=1' }],
  };
  const server = await startInProcessServer({ content: content({ windowsOnlyPage }) });
  try {
    const page = await server.request({ path: '/windows-only?source=ads' });
    assert.match(page.text, '<h1>Sorry, Windows only</h1>\n<p>Runs on Windows &#60;10&#62; &#38; 11.</p>\n<ul>');
    assert.not.match(page.text, 'converts legacy spreadsheets');
    assert.match(page.text, 'href="/api/v1/download?force=1&#38;source=ads">Download anyway</a>');
    assert.match(page.text, '<li><a href="https://www.example.com/notify?os=mac&#38;x=1">Tell me when a Mac version exists</a></li>');
  } finally {
    await server.close();
  }
});

test('an operator page of their own (download.nonWindowsUrl) is used instead', async () => {
  const server = await startInProcessServer({ content: content({ nonWindowsUrl: 'https://www.example.com/windows-only' }) });
  try {
    const redirect = await server.request({ path: '/api/v1/download?source=ads', headers: { 'user-agent': LINUX } });
    assert.is(redirect.headers['location'], 'https://www.example.com/windows-only');
  } finally {
    await server.close();
  }
});

test.run();
