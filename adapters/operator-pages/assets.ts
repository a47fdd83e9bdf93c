/**
 * The two files the operator pages load from their own listener: one small style sheet and one small
 * script that shows each <time> in the viewer's time zone (the UTC text stays without JavaScript).
 *
 * @module
 */
import type { CoreResponse } from '../../core/http/http.ts';
import { pageHeaders } from './http.ts';

export const STYLE_PATH = '/pages/assets/pages.css';
export const SCRIPT_PATH = '/pages/assets/local-time.js';

const STYLE = `*,*::before,*::after{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f6f6f4}
body{margin:0}
a{color:#0b4f9c}
header{background:#1d2b3a;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
header a{color:#fff}
header .brand{font-weight:700;margin-right:auto}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header form{margin:0}
header .who{margin-right:.5rem}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
:focus-visible{outline:3px solid #d4351c;outline-offset:2px}
label{display:block;font-weight:600;margin:.5rem 0 .2rem}
label.inline{display:inline-flex;gap:.4rem;align-items:center;font-weight:400}
input,select,textarea{font:inherit;color:inherit;background:#fff;border:1px solid #555;border-radius:4px;padding:.35rem .5rem;max-width:100%}
input[type=text],input[type=url],input[type=password],textarea{width:100%}
textarea{min-height:4rem}
button,.button{font:inherit;display:inline-block;padding:.35rem .9rem;border-radius:4px;border:1px solid #0b4f9c;background:#0b4f9c;color:#fff;cursor:pointer;text-decoration:none;margin:.25rem 0}
button.secondary,.button.secondary{background:#fff;color:#0b4f9c}
button.danger,.button.danger{background:#a4161a;border-color:#a4161a}
header button{background:transparent;border-color:#fff}
.flash{padding:.6rem .9rem;border-radius:4px;border-left:6px solid;margin:0 0 1rem;background:#fff}
.flash p{margin:.2rem 0;overflow-wrap:anywhere}
.flash.done{border-color:#1e7b34}
.flash.error{border-color:#a4161a}
.card{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.75rem 1rem;margin:0 0 .75rem}
.card h3{margin:0 0 .25rem;font-size:1.05rem}
.meta{color:#444;font-size:.9rem;margin:0;overflow-wrap:anywhere}
.badge{display:inline-block;padding:0 .45rem;border-radius:3px;background:#e4e4e0;color:#1a1a1a;font-size:.85rem}
.badge.strong{background:#1d2b3a;color:#fff}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.row>*{flex:1 1 10rem}
.row>.fit{flex:0 0 auto}
.row select{width:100%}
.card.hidden{border-style:dashed;background:#fbfbfa}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.actions form{margin:0}
details{margin:.5rem 0}
summary{cursor:pointer;color:#0b4f9c}
fieldset{border:1px solid #ccc;border-radius:6px;padding:.5rem 1rem 1rem;margin:0 0 1rem;background:#fff}
legend{font-weight:700;padding:0 .25rem}
p.description{white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0}
.wrap,code{overflow-wrap:anywhere}
.card>h2:first-child{margin-top:0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
svg.chart{display:block;width:100%;max-width:56rem;height:auto;margin:.5rem 0}
svg.chart .bar{fill:#0b4f9c}
svg.chart .axis{stroke:#1a1a1a;stroke-width:1}
svg.chart .grid{stroke:#ccc;stroke-width:1}
svg.chart .tick{fill:#1a1a1a;font-size:14px}
svg.chart .empty{fill:#444;font-size:18px}
@media (max-width:40rem){svg.chart .tick{font-size:26px}svg.chart .empty{font-size:30px}svg.chart .middle{display:none}}
.card>h2:first-child{margin-top:.25rem}
td.none{text-align:left}
table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:700;padding:.25rem 0}
th,td{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:left}
td{text-align:right}
thead th{border-bottom:2px solid #555}
.split{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:0 2rem;align-items:start}
@media (max-width:40rem){.split{grid-template-columns:minmax(0,1fr)}}
.grid{display:grid;align-content:start;align-items:start;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:0 1.5rem}
.grid table{width:100%}
.numbers th{white-space:nowrap}
.scroll{overflow-x:auto;max-width:100%}
.range ul{list-style:none;margin:0 0 .5rem;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
.range a{display:inline-block;padding:.3rem .8rem;border:1px solid #0b4f9c;border-radius:4px;text-decoration:none}
.range a[aria-current]{background:#0b4f9c;color:#fff}
.totals{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin:.75rem 0}
.totals div{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.4rem 1rem}
.totals dt{font-size:.9rem;color:#444}
.totals dd{margin:0;font-size:1.5rem;font-weight:700}
.note{border-left:4px solid #888;padding-left:.6rem}
table.audit{width:100%}
table.audit td{text-align:left;vertical-align:top}
table.audit td:first-child,table.audit td.action code{white-space:nowrap}
table.audit td.wrap{min-width:10rem}
@media (max-width:40rem){table.audit thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.audit,table.audit tbody,table.audit tr,table.audit td{display:block;width:100%}
table.audit tr{border-bottom:1px solid #ddd;padding:.4rem 0}
table.audit td,table.audit td.wrap{border:0;padding:0;min-width:0}
table.audit td::before{content:attr(data-label) ": ";font-weight:600}}
`;

const SCRIPT = `for (const element of document.querySelectorAll('time[datetime]')) {
  const date = new Date(element.getAttribute('datetime'));
  if (!Number.isNaN(date.getTime())) {
    element.title = element.textContent;
    element.textContent = date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }
}
`;

const asset = (type: string, body: string) => (): CoreResponse => ({ status: 200, headers: pageHeaders({ 'content-type': type }), body });

export const serveStyle = asset('text/css; charset=utf-8', STYLE);
export const serveScript = asset('text/javascript; charset=utf-8', SCRIPT);
