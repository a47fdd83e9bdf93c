/**
 * GET /windows-only: the shipped Windows-only warning page, where GET /api/v1/download sends clients
 * that are not Windows when the operator configures no page of their own (`download.nonWindowsUrl`).
 * Plain HTML with no script: what the product is, why it needs Windows, and a "Download anyway" link.
 *
 * @module
 */
import * as v from 'valibot';
import type { AppContext, Operation } from '../context.ts';
import { HTML_TYPE } from '../http/http.ts';
import { DownloadSourceSchema } from '../schemas/requests.ts';
import { escapeHtmlText as escape } from '../formats/html-text.ts';

/** Where the page is served, outside /api: it is a page for people, not an operation. */
export const WINDOWS_ONLY_PATH = '/windows-only';

/** The shipped paragraphs: what the product is, why Windows, what the visitor can do. */
function defaultParagraphs(product: string): string[] {
  return [
    `${product} converts legacy spreadsheets (.123, .wk1, .wk3, .wk4, .wks) to XLSX, PDF, HTML, Markdown, CSV and XLS.`,
    'It is a Windows desktop app: the conversion runs on your own PC, so your files never leave it. Its installer (MSI) runs on Windows only, not on macOS, Linux, ChromeOS, iOS or Android.',
    'You can still download the installer, for example to copy it to a Windows PC.',
  ];
}

/**
 * The address of the page for a download request's `source` label.
 *
 * @param publicBaseUrl The public address of the API.
 * @param source The analytics label, already validated, or undefined.
 */
export function windowsOnlyUrl(publicBaseUrl: string, source: string | undefined): string {
  return `${publicBaseUrl}${WINDOWS_ONLY_PATH}${source === undefined ? '' : `?source=${encodeURIComponent(source)}`}`;
}

/**
 * Serves the page. A `source` label is carried into the "Download anyway" link so that the forced download
 * is counted under it; a label the download endpoint would refuse is left out rather than refused, since
 * a person, not a program, is reading.
 */
export function windowsOnly(context: AppContext): Operation {
  const { offer, download } = context.content;
  const wording = download.windowsOnlyPage ?? {};
  const product = offer.productDisplayName;
  const title = wording.title ?? `${product} runs on Windows`;
  const paragraphs = (wording.paragraphs ?? defaultParagraphs(product)).map((text) => `<p>${escape(text)}</p>`).join('\n');
  const links = (wording.links ?? []).map((link) => `<li><a href="${escape(link.url)}">${escape(link.text)}</a></li>`).join('\n');
  const page = (downloadHref: string) =>
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font:1.0625rem/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;max-width:38rem;margin:2rem auto;padding:0 1rem}
a{color:#0b57d0}a:focus{outline:3px solid #b45309;outline-offset:2px}ul{padding-left:1.25rem}</style></head>
<body>
<main>
<h1>${escape(title)}</h1>
${paragraphs}
<ul>
<li><a id="download-anyway" href="${escape(downloadHref)}">Download anyway</a> (the Windows installer)</li>
${links}
</ul>
</main>
</body>
</html>
`;
  const plain = page('/api/v1/download?force=1');
  return (request) => {
    const source = new URLSearchParams(request.query ?? '').get('source') || undefined;
    const kept = source !== undefined && v.safeParse(DownloadSourceSchema, source).success ? source : undefined;
    return {
      status: 200,
      headers: { 'content-type': HTML_TYPE, 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
      body: kept === undefined ? plain : page(`/api/v1/download?force=1&source=${encodeURIComponent(kept)}`),
    };
  };
}
