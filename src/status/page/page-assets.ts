/**
 * The status page's stylesheet and script, inlined into the page under a per-response CSP nonce:
 * the page needs no network beyond the agent itself (no CDN, no web fonts).
 *
 * The script only swaps server-rendered, server-escaped sections (SSE `render` events), shows
 * the progress of a command created with the Cut keys form (SSE `agent` events, written with
 * `textContent`), and submits that form and the device actions' forms with `fetch` (their Notes
 * shown with `textContent`). Without JavaScript the page still shows everything and the forms
 * still work (a plain POST answered by a redirect).
 */

export const PAGE_CSS = `
:root{--ok:#1b7f3b;--warn:#9a6200;--err:#b3261e;--info:#2456a6;--muted:#666;--bg:#f6f7f9;--card:#fff;--line:#d9dce1;--text:#1d1f23}
@media (prefers-color-scheme:dark){:root{--bg:#16181c;--card:#1f2228;--line:#383c44;--text:#e6e8eb;--muted:#9aa0a8}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text)}
header.top{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;padding:.7rem 1rem;background:var(--card);border-bottom:1px solid var(--line);position:sticky;top:0;z-index:1}
header.top h1{font-size:1.15rem;margin:0 .5rem 0 0}
#summary{display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:center}
main{padding:1rem;display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,26rem),1fr));max-width:90rem;margin:0 auto}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.8rem 1rem;min-width:0}
section.wide{grid-column:1/-1}
h2{font-size:1.05rem;margin:0 0 .6rem}
h3{font-size:1rem;margin:0}
.badge{display:inline-block;white-space:nowrap;padding:.05rem .5rem;border-radius:999px;font-size:.85rem;font-weight:600;color:#fff;background:var(--muted)}
.badge.ok{background:var(--ok)}.badge.warn{background:var(--warn)}.badge.err{background:var(--err)}.badge.info{background:var(--info)}
.muted{color:var(--muted)}
.ok-line{color:var(--ok);font-weight:600;margin:0}
ul.attention{list-style:none;margin:0;padding:0;display:grid;gap:.4rem}
ul.attention li{border-left:4px solid var(--warn);padding:.3rem .6rem;background:color-mix(in srgb,var(--warn) 8%,transparent)}
ul.attention li.error{border-color:var(--err);background:color-mix(in srgb,var(--err) 8%,transparent)}
dl.facts{display:grid;grid-template-columns:fit-content(50%) minmax(0,1fr);gap:.15rem .8rem;margin:.4rem 0 0}
dl.facts dt{color:var(--muted);overflow-wrap:anywhere}dl.facts dd{margin:0;overflow-wrap:anywhere}
#devices{display:grid;gap:.8rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,18rem),1fr))}
article.device{border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem}
article.device.down{border-color:var(--err)}
article.device header{display:flex;justify-content:space-between;gap:.5rem;align-items:center}
article.device h3{min-width:0;overflow-wrap:anywhere}
article.device header .badge{flex-shrink:0}
p.summary{margin:.3rem 0;font-weight:600}
details.technical{margin-top:.4rem;font-size:.9rem}details.technical summary{cursor:pointer;color:var(--muted)}
ul.warnings{margin:.2rem 0;padding-left:1.1rem;color:var(--warn)}
.scroll{overflow-x:auto}
table.commands{border-collapse:collapse;width:100%;font-size:.9rem}
table.commands th,table.commands td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid var(--line)}
table.commands td p{margin:0 0 .2rem}
ol.timeline{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem .6rem}
ul.result{margin:0;padding-left:1rem}
code.id{font-size:.75rem;color:var(--muted);overflow-wrap:anywhere}
.error-text{color:var(--err)}
svg.chart{width:100%;height:auto;max-height:14rem}
svg.chart .bar-ok{fill:var(--ok)}svg.chart .bar-fail{fill:var(--err)}
svg.chart .axis{stroke:var(--line)}svg.chart .label{font-size:11px;fill:var(--muted)}
svg.chart .latency{fill:none;stroke:var(--info);stroke-width:2}svg.chart .latency-dot{fill:var(--info)}
p.legend{font-size:.85rem;color:var(--muted);margin:.3rem 0 0}
.key{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;vertical-align:middle}
.key-ok{background:var(--ok)}.key-fail{background:var(--err)}.key-latency{background:var(--info)}
form.cut{display:grid;gap:.5rem;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));align-items:end}
form.cut label{display:grid;gap:.2rem;font-size:.9rem}
form.cut input,form.cut select,form.cut button{font:inherit;height:2.4rem;padding:0 .4rem;border:1px solid var(--line);border-radius:4px;background:var(--card);color:var(--text)}
form.cut button{background:var(--info);color:#fff;border:0;font-weight:600;cursor:pointer}
form.cut button:disabled{opacity:.6}
#cut-result{margin-top:.5rem;white-space:normal}
article.device-actions{display:grid;gap:.6rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,16rem),1fr));border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;margin-bottom:.6rem}
article.device-actions h3{grid-column:1/-1}
form.device-action{display:grid;gap:.4rem;align-content:start}
form.device-action p{margin:0;font-size:.85rem}
form.device-action label{display:grid;gap:.2rem;font-size:.9rem}
form.device-action label.confirm{display:block}
form.device-action input[type=text],form.device-action input[type=date],form.device-action button{font:inherit;height:2.2rem;padding:0 .4rem;border:1px solid var(--line);border-radius:4px;background:var(--card);color:var(--text)}
form.device-action button{background:var(--info);color:#fff;border:0;font-weight:600;cursor:pointer}
form.device-action button:disabled{opacity:.6}
form.device-action output{white-space:normal}
footer{padding:0 1rem 1rem;text-align:center;font-size:.85rem}
footer a{color:var(--info)}
footer form.logout{display:inline;margin:0}footer form.logout button{font:inherit;background:none;border:0;padding:0;color:var(--info);text-decoration:underline;cursor:pointer}
`;

export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var byId = function (id) { return document.getElementById(id); };
  var live = byId('live');
  var out = byId('cut-result');
  var form = byId('cut-form');
  var watched = null;
  var words = JSON.parse(document.body.getAttribute('data-words') || '{}');
  function say(template, values) {
    return String(template).replace(/\\{(\\w+)\\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }
  function stateWord(state) { return (words.states && words.states[state]) || state; }
  function setLive(ok, text) { live.textContent = text; live.className = 'badge ' + (ok ? 'ok' : 'warn'); }
  function show(text, cls) { out.textContent = text; out.className = 'badge ' + cls; }
  var source = new EventSource('events');
  source.addEventListener('open', function () { setLive(true, words.live); });
  source.addEventListener('error', function () { setLive(false, words.reconnecting); });
  // Folded sections (a device's technical details) stay open across live updates once opened.
  function openKeys(el) {
    var keys = {};
    Array.prototype.forEach.call(el.querySelectorAll('details[data-key]'), function (d) {
      if (d.open) keys[d.getAttribute('data-key')] = true;
    });
    return keys;
  }
  source.addEventListener('render', function (e) {
    var data = JSON.parse(e.data);
    Object.keys(data.sections).forEach(function (id) {
      var el = byId(id);
      if (!el) return;
      var open = openKeys(el);
      el.innerHTML = data.sections[id];
      Array.prototype.forEach.call(el.querySelectorAll('details[data-key]'), function (d) {
        if (open[d.getAttribute('data-key')]) d.open = true;
      });
    });
    document.body.setAttribute('data-renders', String(Number(document.body.getAttribute('data-renders') || '0') + 1));
  });
  source.addEventListener('agent', function (e) {
    var ev = JSON.parse(e.data);
    if (!watched || ev.commandId !== watched) return;
    if (ev.type === 'transition') {
      out.setAttribute('data-state', ev.to);
      show(say(ev.errorCode ? words.stateCode : words.state, { id: watched, state: stateWord(ev.to), code: ev.errorCode }),
        ev.to === 'Error' ? 'err' : ev.to === 'Processed' ? 'ok' : 'info');
    } else if (ev.type === 'progress') {
      show(say(words.cutting, { id: watched, percent: Math.round(ev.fraction * 100) }), 'info');
    }
  });
  // Sends a form with fetch as JSON, its button disabled meanwhile: answered(ok, body, status)
  // with what the agent said, or unreachable() when it could not be asked.
  function post(f, answered, unreachable) {
    var button = f.querySelector('button');
    button.disabled = true;
    fetch(f.getAttribute('action'), {
      method: 'POST', credentials: 'same-origin',
      headers: { Accept: 'application/json' },
      body: new URLSearchParams(new FormData(f)),
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (body) {
        answered(res.ok, body, res.status);
      });
    }).catch(unreachable).then(function () { button.disabled = false; });
  }
  function refusal(body, status) {
    return (body.error && body.error.notes) || say(words.refused, { status: status });
  }
  Array.prototype.forEach.call(document.querySelectorAll('form.device-action'), function (f) {
    f.addEventListener('submit', function (e) {
      e.preventDefault();
      var result = f.querySelector('output');
      result.textContent = words.sending;
      result.className = 'action-result badge info';
      post(f, function (answeredOk, body, status) {
        var ok = answeredOk && typeof body.notes === 'string';
        result.textContent = ok ? body.notes : refusal(body, status);
        result.className = 'action-result badge ' + (ok ? 'ok' : 'err');
        f.setAttribute('data-outcome', ok ? 'ok' : 'error');
      }, function () {
        result.textContent = words.unreachable;
        result.className = 'action-result badge err';
      });
    });
  });
  if (form) form.addEventListener('submit', function (e) {
    e.preventDefault();
    show(words.sending, 'info');
    post(form, function (ok, body, status) {
      if (ok && body.commandId) {
        watched = body.commandId;
        out.setAttribute('data-command-id', watched);
        show(say(words.waiting, { id: watched }), 'info');
      } else {
        show(refusal(body, status), 'err');
      }
    }, function () { show(words.unreachable, 'err'); });
  });
})();
`;
