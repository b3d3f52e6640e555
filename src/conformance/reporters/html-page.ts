/**
 * The style and the script of the HTML report, inline so the page is one file that opens anywhere. The script only
 * filters (hides rows whose data-area, data-backend or data-status differ from the chosen ones) and, when a link
 * lands on a row a filter hid, clears the filters so the target shows.
 */
export const HTML_STYLE = `body{font:14px system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
td.ok{background:#e6f4e6}td.bad{background:#fbe3e3}td.skip{background:#eee}
code,pre{font-size:12px}pre{background:#f6f6f6;padding:6px;margin:4px 0;overflow:auto;max-height:30em}
mark{background:#ffe08a}.pair{display:flex;gap:1em}.pair>div{flex:1;min-width:0}
.filters{position:sticky;top:0;background:#fff;padding:6px 0;border-bottom:1px solid #ddd}
.detail{border-left:4px solid #d33;padding:2px 10px;margin:1em 0}.detail:target{background:#fff8e0}
tr:target{outline:2px solid #e90}`;

export const HTML_SCRIPT = `(() => {
  const pick = (name) => document.getElementById('filter-' + name);
  const names = ['area', 'backend', 'outcome'];
  const keys = { area: 'area', backend: 'backend', outcome: 'status' };
  function apply() {
    let shown = 0;
    for (const el of document.querySelectorAll('[data-filter]')) {
      let visible = true;
      for (const n of names) {
        const want = pick(n).value;
        const have = el.dataset[keys[n]];
        if (want && have !== undefined && have !== want) visible = false;
      }
      el.hidden = !visible;
      if (visible && el.classList.contains('case-row')) shown += 1;
    }
    document.getElementById('shown').textContent = String(shown);
  }
  function reveal() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (target && target.closest('[hidden]')) {
      for (const n of names) pick(n).value = '';
      apply();
      target.scrollIntoView();
    }
  }
  for (const n of names) pick(n).addEventListener('change', apply);
  window.addEventListener('hashchange', reveal);
  apply();
  reveal();
})();`;
